//===- SemSMEM.cpp - scalar memory: s_load, s_buffer_load, s_memtime ------===//
#include "emulator/MemAccess.h"
#include "emulator/MemOps.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace aster::emu {

void memFault(Wave &w, const Inst &in, int lane, uint64_t addr, unsigned n, bool write,
              const char *what) {
  std::string s;
  llvm::raw_string_ostream os(s);
  const Region *r = w.L->mem.find(addr, n);
  if (r && write && !r->writable)
    os << what << " of " << n << " bytes at " << llvm::format_hex(addr, 0)
       << " writes the read-only " << r->name;
  else if (r && write)
    os << "out-of-bounds " << what << " of " << n << " bytes at address "
       << llvm::format_hex(addr, 0) << " writes " << (addr + n - (r->base + r->size - r->slack))
       << " bytes past the end of '" << r->name << "' [" << llvm::format_hex(r->base, 0)
       << ", " << llvm::format_hex(r->base + r->size - r->slack, 0)
       << ") into its slack (readable only: launch(slack=))";
  else
    os << "out-of-bounds " << what << " of " << n << " bytes at address "
       << llvm::format_hex(addr, 0) << ": " << w.L->mem.describe(addr, n);
  if (lane >= 0)
    w.failLane(in, unsigned(lane), s);
  else
    w.fail(in, s);
}

void ldsFault(Wave &w, const Inst &in, unsigned lane, uint64_t addr, unsigned n) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "LDS access of " << n << " bytes at offset " << llvm::format_hex(addr, 0)
     << " is outside the workgroup's " << w.L->ldsSize << " bytes of LDS";
  w.failLane(in, lane, s);
}

namespace {

/// SMEM offset operand: an SGPR (unsigned) or a signed 21-bit immediate.
EMU_INLINE int64_t smemOffset(const Wave &w, const Inst &in, unsigned src) {
  if (in.nsrc() <= src)
    return 0;
  const Opnd &o = in.src(src);
  if (o.kind == OpKind::Imm)
    return int64_t(int32_t(uint32_t(o.imm)));
  return int64_t(uint64_t(sget(w, o)));
}

template <unsigned N> void s_load(Wave &w, const Inst &in) {
  uint64_t base = sget64(w, in.src(0));
  uint64_t addr = (base + uint64_t(smemOffset(w, in, 1)) + int64_t(in.offset)) & ~3ull;
  const uint8_t *p = xlate(w, addr, 4 * N, false);
  if (!p) {
    memFault(w, in, -1, addr, 4 * N, false, "scalar load");
    return;
  }
  for (unsigned i = 0; i < N; ++i)
    sset(w, in.dst(), ld32(p + 4 * i), i);
}

template <unsigned N> void s_buffer_load(Wave &w, const Inst &in) {
  BufferRsrc r = readRsrc(w, in.src(0));
  uint64_t base = r.base;
  uint32_t numRecords = r.numRecords;
  uint64_t off = uint64_t(smemOffset(w, in, 1) + int64_t(in.offset)) & ~3ull;
  for (unsigned i = 0; i < N; ++i) {
    uint64_t o = off + 4 * i;
    uint32_t v = 0;
    if (o + 4 <= numRecords) {
      const uint8_t *p = xlate(w, base + o, 4, false);
      if (!p) {
        memFault(w, in, -1, base + o, 4, false, "scalar buffer load");
        return;
      }
      v = ld32(p);
    }
    sset(w, in.dst(), v, i);
  }
}

/// s_store_dword*: sdata, sbase, offset.
template <unsigned N> void s_store(Wave &w, const Inst &in) {
  uint64_t base = sget64(w, in.src(1));
  uint64_t addr = (base + uint64_t(smemOffset(w, in, 2)) + int64_t(in.offset)) & ~3ull;
  uint8_t *p = xlate(w, addr, 4 * N, true);
  if (!p) {
    memFault(w, in, -1, addr, 4 * N, true, "scalar store");
    return;
  }
  for (unsigned i = 0; i < N; ++i)
    st32(p + 4 * i, sget(w, in.src(0), i));
}
template <unsigned N> void s_buffer_store(Wave &w, const Inst &in) {
  BufferRsrc r = readRsrc(w, in.src(1));
  uint64_t base = r.base;
  uint32_t numRecords = r.numRecords;
  uint64_t off = uint64_t(smemOffset(w, in, 2) + int64_t(in.offset)) & ~3ull;
  for (unsigned i = 0; i < N; ++i) {
    uint64_t o = off + 4 * i;
    if (o + 4 > numRecords)
      continue;
    uint8_t *p = xlate(w, base + o, 4, true);
    if (!p) {
      memFault(w, in, -1, base + o, 4, true, "scalar buffer store");
      return;
    }
    st32(p, sget(w, in.src(0), i));
  }
}

/// Without the timing model: a counter that grows with the wave's
/// instructions; with it, the simulated shader clock and a 100 MHz clock
/// derived from it (LaunchCtx::realtimeDivisor).
void s_memtime(Wave &w, const Inst &in) {
  sset64(w, in.dst(), w.timed ? w.now : (w.L->clockBase << 40) + w.icount * 4);
}
void s_memrealtime(Wave &w, const Inst &in) {
  sset64(w, in.dst(), w.timed ? uint64_t(double(w.now) / w.L->realtimeDivisor)
                              : (w.L->clockBase << 36) + w.icount / 4);
}
void s_nop(Wave &, const Inst &) {}

/// s_atomic_* / s_buffer_atomic_*: sdata, sbase, soffset. With glc, sdata
/// also receives the pre-op memory value (cmpswap: sdata holds the new value
/// then the compare value, and its low half receives the old value).
template <bool Buf, AtomOp Op, unsigned Bytes> void s_atomic(Wave &w, const Inst &in) {
  const Opnd &data = in.op[0], &base = in.op[1], &so = in.op[2];
  int64_t off = so.kind == OpKind::Imm ? int64_t(int32_t(uint32_t(so.imm)))
                                       : int64_t(uint64_t(sget(w, so)));
  uint64_t addr;
  if (Buf) {
    BufferRsrc r = readRsrc(w, base);
    uint64_t o = uint64_t(off + int64_t(in.offset)) & ~3ull;
    if (o + Bytes > r.numRecords) {
      w.fail(in, "an out-of-range scalar buffer atomic is not emulated");
      return;
    }
    addr = r.base + o;
  } else {
    addr = (sget64(w, base) + uint64_t(off) + int64_t(in.offset)) & ~3ull;
  }
  uint8_t *p = xlate(w, addr, Bytes, true);
  if (!p) {
    memFault(w, in, -1, addr, Bytes, true, "scalar atomic");
    return;
  }
  unsigned words = Bytes / 4;
  uint64_t d = sget(w, data, 0), c = 0;
  if (words == 2)
    d |= uint64_t(sget(w, data, 1)) << 32;
  if (Op == AtomOp::CmpSwap) {
    c = sget(w, data, words);
    if (words == 2)
      c |= uint64_t(sget(w, data, words + 1)) << 32;
  }
  uint64_t old = atomicRMW(p, Bytes, Op, d, c, w.L->threaded);
  if (in.flags & IF_SC0)
    for (unsigned i = 0; i < words; ++i)
      sset(w, data, uint32_t(old >> (32 * i)), i);
}

} // namespace

void registerSMEM(SemTable &t) {
  auto s = [&](const char *n, SemFn f, uint8_t ndst, uint16_t flags) {
    t.push_back({n, f, ndst, ICls::SMEM, flags, tys(Ty::B32)});
  };
  s("s_load_dword", s_load<1>, 1, SF_LOAD);
  s("s_load_dwordx2", s_load<2>, 1, SF_LOAD);
  s("s_load_dwordx4", s_load<4>, 1, SF_LOAD);
  s("s_load_dwordx8", s_load<8>, 1, SF_LOAD);
  s("s_load_dwordx16", s_load<16>, 1, SF_LOAD);
  s("s_buffer_load_dword", s_buffer_load<1>, 1, SF_LOAD);
  s("s_buffer_load_dwordx2", s_buffer_load<2>, 1, SF_LOAD);
  s("s_buffer_load_dwordx4", s_buffer_load<4>, 1, SF_LOAD);
  s("s_buffer_load_dwordx8", s_buffer_load<8>, 1, SF_LOAD);
  s("s_buffer_load_dwordx16", s_buffer_load<16>, 1, SF_LOAD);
  s("s_store_dword", s_store<1>, 0, 0);
  s("s_store_dwordx2", s_store<2>, 0, 0);
  s("s_store_dwordx4", s_store<4>, 0, 0);
  s("s_buffer_store_dword", s_buffer_store<1>, 0, 0);
  s("s_buffer_store_dwordx2", s_buffer_store<2>, 0, 0);
  s("s_buffer_store_dwordx4", s_buffer_store<4>, 0, 0);
  s("s_memtime", s_memtime, 1, SF_LOAD);
  s("s_memrealtime", s_memrealtime, 1, SF_LOAD);
  for (const char *n : {"s_dcache_inv", "s_dcache_wb", "s_dcache_inv_vol", "s_dcache_wb_vol"})
    s(n, s_nop, 0, 0);
  struct AtomDef {
    const char *name;
    SemFn global, buffer;
  };
#define SA(N, OP, B) {N, s_atomic<false, AtomOp::OP, B>, s_atomic<true, AtomOp::OP, B>}
  const AtomDef atomics[] = {
      SA("swap", Swap, 4),    SA("cmpswap", CmpSwap, 4), SA("add", Add, 4),
      SA("sub", Sub, 4),      SA("smin", SMin, 4),       SA("umin", UMin, 4),
      SA("smax", SMax, 4),    SA("umax", UMax, 4),       SA("and", And, 4),
      SA("or", Or, 4),        SA("xor", Xor, 4),         SA("inc", Inc, 4),
      SA("dec", Dec, 4),      SA("swap_x2", Swap, 8),    SA("cmpswap_x2", CmpSwap, 8),
      SA("add_x2", Add, 8),   SA("sub_x2", Sub, 8),      SA("smin_x2", SMin, 8),
      SA("umin_x2", UMin, 8), SA("smax_x2", SMax, 8),    SA("umax_x2", UMax, 8),
      SA("and_x2", And, 8),   SA("or_x2", Or, 8),        SA("xor_x2", Xor, 8),
      SA("inc_x2", Inc, 8),   SA("dec_x2", Dec, 8)};
#undef SA
  for (const AtomDef &a : atomics) {
    s(intern(std::string("s_atomic_") + a.name), a.global, 1,
      SF_ATOMIC | SF_LOAD | SF_READS_DST);
    s(intern(std::string("s_buffer_atomic_") + a.name), a.buffer, 1,
      SF_ATOMIC | SF_LOAD | SF_READS_DST);
  }
}

} // namespace aster::emu
