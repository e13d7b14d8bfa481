//===- SemBuffer.cpp - MUBUF instructions through a resource descriptor ---===//
//
// Address = V#.base + soffset + inst_offset + (offen ? voffset : 0)
//           + V#.stride * (idxen ? vindex : 0) [+ lane id with add_tid_enable]
// Range check: raw buffers (stride 0) check every dword of the access
// against num_records bytes; structured buffers check index < num_records.
// Out-of-range loads return 0, out-of-range stores and atomics do nothing.
//
//===----------------------------------------------------------------------===//
#include "emulator/MemOps.h"

#include <deque>
#include <string>

namespace aster::emu {

namespace {


struct BufAddr {
  u64 addr[64];
  u32 off[64];   ///< offset checked against num_records (raw buffers)
  u32 index[64];
  u64 base;
  u32 stride, numRecords;
};

/// `vaddrIdx`: source index of vaddr; srsrc and soffset follow it.
bool bufAddrs(Wave &w, const Inst &in, unsigned vaddrIdx, BufAddr &b) {
  const Opnd &va = in.src(vaddrIdx), &rs = in.src(vaddrIdx + 1), &so = in.src(vaddrIdx + 2);
  BufferRsrc r = readRsrc(w, rs);
  b.numRecords = r.numRecords;
  b.base = r.base;
  b.stride = r.stride;
  u32 d3 = r.word3;
  if (r.swizzled) {
    w.fail(in, "swizzled buffer resources (swizzle_enable) are not emulated");
    return false;
  }
  bool addTid = (d3 >> 23) & 1;
  u32 soff = so.kind == OpKind::None ? 0 : sget(w, so);
  bool idxen = in.flags & IF_IDXEN, offen = in.flags & IF_OFFEN;
  u32 t0[64], t1[64];
  const u32 *V0 = va.kind == OpKind::None ? nullptr : vget(w, va, t0, 0);
  const u32 *V1 = (idxen && offen && va.kind != OpKind::None) ? vget(w, va, t1, 1) : nullptr;
  forLanes(w.exec(), [&](unsigned l) {
    u32 idx = idxen && V0 ? V0[l] : 0;
    if (addTid)
      idx += l;
    u32 voff = offen ? (idxen ? (V1 ? V1[l] : 0) : (V0 ? V0[l] : 0)) : 0;
    b.off[l] = voff + u32(in.offset);
    b.index[l] = idx;
    b.addr[l] = b.base + soff + b.off[l] + u64(b.stride) * idx;
  });
  return true;
}

} // namespace

bool bufferLaneAddrs(Wave &w, const Inst &in, uint64_t *addr) {
  if (in.nsrc() < 3)
    return false;
  BufAddr b;
  if (!bufAddrs(w, in, in.nsrc() - 3, b))
    return false;
  std::memcpy(addr, b.addr, sizeof(b.addr));
  return true;
}

namespace {

/// Whether the part [k, k + n) of lane l's access is in range.
EMU_INLINE bool inRange(const BufAddr &b, unsigned l, unsigned k, unsigned n) {
  if (b.stride == 0)
    return u64(b.off[l]) + k + n <= b.numRecords;
  return b.index[l] < b.numRecords;
}

/// Lane l's `bytes` of a buffer load into `buf` in dword (or smaller)
/// pieces; pieces out of range stay 0. False after reporting a fault.
static bool readLane(Wave &w, const Inst &in, const BufAddr &b, unsigned l, unsigned bytes,
                     uint8_t *buf) {
  // The whole access in range and in one region (the common case): one
  // copy; else dword (or smaller) pieces, each checked.
  if (inRange(b, l, 0, bytes))
    if (const uint8_t *p = xlate(w, b.addr[l], bytes, false)) {
      std::memcpy(buf, p, bytes);
      return true;
    }
  unsigned chunk = bytes >= 4 ? 4 : bytes;
  for (unsigned k = 0; k < bytes; k += chunk) {
    if (!inRange(b, l, k, chunk))
      continue;
    const uint8_t *p = xlate(w, b.addr[l] + k, chunk, false);
    if (!p) {
      memFault(w, in, int(l), b.addr[l] + k, chunk, false, "buffer load");
      return false;
    }
    std::memcpy(buf + k, p, chunk);
  }
  return true;
}

/// `lds`: lane l's data (sub-dword data zero- or sign-extended) goes to LDS
/// at m0 + inst_offset + 4 * l instead of a VGPR; 3 or 4 dwords (gfx950) at
/// m0 + inst_offset + 16 * l, dwordx3 writing 3 dwords and skipping the 4th
/// (CDNA4 ISA, "Memory Buffer Load to LDS"); the operands are vaddr, srsrc,
/// soffset. Out-of-range dwords write 0.
template <uint8_t Bytes, bool Sext> void bufLoadLds(Wave &w, const Inst &in) {
  if (Bytes == 8) {
    w.fail(in, "buffer loads of 2 dwords with lds are not emulated");
    return;
  }
  constexpr unsigned Lds = Bytes > 4 ? 16 : 4, Out = Bytes > 4 ? Bytes : 4;
  BufAddr b;
  if (!bufAddrs(w, in, 0, b))
    return;
  u32 m0 = w.s[SR_M0];
  bool ok = true;
  forLanes(w.exec(), [&](unsigned l) {
    if (!ok) return;
    uint8_t buf[16] = {};
    if (!(ok = readLane(w, in, b, l, Bytes, buf)))
      return;
    if (Bytes < 4) {
      u32 v = Bytes == 2 ? (Sext ? u32(i32(int16_t(buf[0] | buf[1] << 8))) : u32(buf[0] | buf[1] << 8))
                         : (Sext ? u32(i32(int8_t(buf[0]))) : u32(buf[0]));
      std::memcpy(buf, &v, 4);
    }
    u64 a = u64(m0) + u32(in.offset) + u64(Lds) * l;
    if (a + Out > w.L->ldsSize) {
      if (w.L->opts.strict) {
        ldsFault(w, in, l, a, Out);
        ok = false;
      }
      return;
    }
    std::memcpy(w.wg->lds.data() + a, buf, Out);
  });
}

template <uint8_t Bytes, bool Sext, uint8_t D16> void bufLoad(Wave &w, const Inst &in) {
  if (in.flags & IF_LDS) {
    bufLoadLds<Bytes, Sext>(w, in);
    return;
  }
  if (in.flags & IF_TFE) {
    w.fail(in, "buffer loads with tfe are not emulated");
    return;
  }
  BufAddr b;
  if (!bufAddrs(w, in, 0, b))
    return;
  // The lanes' host data at once (rows of a matrix lie far apart): the
  // copies below then find it in the host's cache. The region is that of
  // the first lane (a kernel alternates between its arrays: the wave's
  // last region is mostly another one).
  uint64_t e = w.exec();
  if (e && xlate(w, b.addr[__builtin_ctzll(e)], Bytes, false)) {
    const Region *r = w.lastRegion;
    bool all = true;  // every lane's whole access in range and in r
    forLanes(e, [&](unsigned l) {
      if (r->contains(b.addr[l], Bytes))
        __builtin_prefetch(r->data + (b.addr[l] - r->base));
      else
        all = false;
      all &= inRange(b, l, 0, Bytes);
    });
    if (Bytes >= 4 && all) {
      // The common case in one loop: what readLane and loadToRegs do per
      // lane, without pieces or faults (none can happen here).
      uint32_t *d[Bytes >= 4 ? Bytes / 4 : 1];
      for (unsigned i = 0; i < Bytes / 4u; ++i)
        d[i] = vdst(w, in.dst(), i);
      forLanes(e, [&](unsigned l) {
        const uint8_t *p = r->data + (b.addr[l] - r->base);
        for (unsigned i = 0; i < Bytes / 4u; ++i)
          d[i][l] = ld32(p + 4 * i);
      });
      return;
    }
  }
  bool ok = true;
  forLanes(w.exec(), [&](unsigned l) {
    if (!ok) return;
    uint8_t buf[16] = {};
    if (!(ok = readLane(w, in, b, l, Bytes, buf)))
      return;
    loadToRegs(w, in.dst(), l, buf, LoadKind{Bytes, Sext, D16});
  });
}

template <uint8_t Bytes, bool Hi> void bufStore(Wave &w, const Inst &in) {
  BufAddr b;
  if (!bufAddrs(w, in, 1, b))
    return;
  bool ok = true;
  unsigned chunk = Bytes >= 4 ? 4 : Bytes;
  forLanes(w.exec(), [&](unsigned l) {
    if (!ok) return;
    uint8_t buf[16];
    regsToMem(w, in.src(0), l, buf, Bytes, Hi);
    for (unsigned k = 0; k < Bytes; k += chunk) {
      if (!inRange(b, l, k, chunk))
        continue;
      uint8_t *p = xlate(w, b.addr[l] + k, chunk, true);
      if (!p) {
        memFault(w, in, int(l), b.addr[l] + k, chunk, true, "buffer store");
        ok = false;
        return;
      }
      std::memcpy(p, buf + k, chunk);
    }
  });
}

/// buffer_atomic_*: vdata (returned in place with sc0), vaddr, srsrc, soffset.
template <AtomOp Op, uint8_t Bytes> void bufAtomic(Wave &w, const Inst &in) {
  BufAddr b;
  if (!bufAddrs(w, in, 1, b))
    return;
  const Opnd &data = in.src(0);
  unsigned words = Bytes / 4;
  bool ret = in.flags & IF_SC0, ok = true;
  forLanes(w.exec(), [&](unsigned l) {
    if (!ok) return;
    u64 old = 0;
    if (inRange(b, l, 0, Bytes)) {
      if (b.addr[l] % Bytes) {
        w.failLane(in, l, "misaligned buffer atomic");
        ok = false;
        return;
      }
      uint8_t *p = xlate(w, b.addr[l], Bytes, true);
      if (!p) {
        memFault(w, in, int(l), b.addr[l], Bytes, true, "buffer atomic");
        ok = false;
        return;
      }
      u64 d = vdst(w, data, 0)[l], c = 0;
      if (words == 2) d |= u64(vdst(w, data, 1)[l]) << 32;
      if (Op == AtomOp::CmpSwap) {
        c = vdst(w, data, words)[l];
        if (words == 2) c |= u64(vdst(w, data, words + 1)[l]) << 32;
      }
      old = atomicRMW(p, Bytes, Op, d, c, w.L->threaded);
    }
    if (ret) {
      vdst(w, data, 0)[l] = u32(old);
      if (words == 2) vdst(w, data, 1)[l] = u32(old >> 32);
    }
  });
}

void bufNop(Wave &, const Inst &) {}

} // namespace

void registerBuffer(SemTable &t) {
  auto add = [&](std::string n, SemFn f, uint8_t ndst, uint16_t fl) {
    t.push_back({intern(std::move(n)), f, ndst, ICls::VMEM, uint16_t(fl | SF_NO_SDWA),
                 tys(Ty::B32)});
  };
  add("buffer_load_ubyte", bufLoad<1, false, 0>, 1, SF_LOAD | SF_LDS_FORM);
  add("buffer_load_sbyte", bufLoad<1, true, 0>, 1, SF_LOAD | SF_LDS_FORM);
  add("buffer_load_ushort", bufLoad<2, false, 0>, 1, SF_LOAD | SF_LDS_FORM);
  add("buffer_load_sshort", bufLoad<2, true, 0>, 1, SF_LOAD | SF_LDS_FORM);
  add("buffer_load_dword", bufLoad<4, false, 0>, 1, SF_LOAD | SF_LDS_FORM);
  add("buffer_load_dwordx2", bufLoad<8, false, 0>, 1, SF_LOAD);
  add("buffer_load_dwordx3", bufLoad<12, false, 0>, 1, SF_LOAD | SF_LDS_FORM);
  add("buffer_load_dwordx4", bufLoad<16, false, 0>, 1, SF_LOAD | SF_LDS_FORM);
  add("buffer_load_ubyte_d16", bufLoad<1, false, 1>, 1, SF_LOAD);
  add("buffer_load_ubyte_d16_hi", bufLoad<1, false, 2>, 1, SF_LOAD);
  add("buffer_load_sbyte_d16", bufLoad<1, true, 1>, 1, SF_LOAD);
  add("buffer_load_sbyte_d16_hi", bufLoad<1, true, 2>, 1, SF_LOAD);
  add("buffer_load_short_d16", bufLoad<2, false, 1>, 1, SF_LOAD);
  add("buffer_load_short_d16_hi", bufLoad<2, false, 2>, 1, SF_LOAD);
  add("buffer_store_byte", bufStore<1, false>, 0, 0);
  add("buffer_store_byte_d16_hi", bufStore<1, true>, 0, 0);
  add("buffer_store_short", bufStore<2, false>, 0, 0);
  add("buffer_store_short_d16_hi", bufStore<2, true>, 0, 0);
  add("buffer_store_dword", bufStore<4, false>, 0, 0);
  add("buffer_store_dwordx2", bufStore<8, false>, 0, 0);
  add("buffer_store_dwordx3", bufStore<12, false>, 0, 0);
  add("buffer_store_dwordx4", bufStore<16, false>, 0, 0);
// The returning table rows (buffer_atomic_*_rtn) print and run as their
// plain mnemonic with sc0.
#define BA(N, OP, B) add("buffer_atomic_" N, bufAtomic<AtomOp::OP, B>, 0, SF_BUF_ATOMIC);
  BA("swap", Swap, 4) BA("cmpswap", CmpSwap, 4) BA("add", Add, 4) BA("sub", Sub, 4)
  BA("smin", SMin, 4) BA("umin", UMin, 4) BA("smax", SMax, 4) BA("umax", UMax, 4)
  BA("and", And, 4) BA("or", Or, 4) BA("xor", Xor, 4) BA("inc", Inc, 4) BA("dec", Dec, 4)
  BA("swap_x2", Swap, 8) BA("cmpswap_x2", CmpSwap, 8) BA("add_x2", Add, 8)
  BA("sub_x2", Sub, 8) BA("smin_x2", SMin, 8) BA("umin_x2", UMin, 8) BA("smax_x2", SMax, 8)
  BA("umax_x2", UMax, 8) BA("and_x2", And, 8) BA("or_x2", Or, 8) BA("xor_x2", Xor, 8)
  BA("inc_x2", Inc, 8) BA("dec_x2", Dec, 8) BA("add_f32", FAdd, 4) BA("pk_add_bf16", PkAddBF16, 4)
  BA("pk_add_f16", PkAddF16, 4) BA("add_f64", FAdd, 8) BA("min_f64", FMin, 8)
  BA("max_f64", FMax, 8)
#undef BA
  add("buffer_wbl2", bufNop, 0, 0);
  add("buffer_inv", bufNop, 0, 0);
}

} // namespace aster::emu
