//===- SemVMEM.cpp - global, flat and scratch memory instructions ---------===//
#include "emulator/MemOps.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <deque>
#include <string>

namespace aster::emu {

namespace {

enum Fam { GLOBAL, FLAT, SCRATCH };
enum Space : uint8_t { SP_GLOBAL, SP_LDS, SP_PRIVATE };

/// Per-lane addresses of a global/flat/scratch instruction.
template <Fam F> void laneAddrs(Wave &w, const Inst &in, uint64_t *addr, uint8_t *space) {
  const Opnd &va = in.src(0);
  const Opnd &sa = in.src(in.nsrc() - 1);
  uint64_t exec = w.exec();
  if (F == SCRATCH) {
    uint32_t s = sa.kind == OpKind::None ? 0 : sget(w, sa);
    uint32_t t0[64];
    const uint32_t *v = va.kind == OpKind::None ? nullptr : vget(w, va, t0);
    forLanes(exec, [&](unsigned l) {
      addr[l] = uint32_t((v ? v[l] : 0) + s + uint32_t(in.offset));
      space[l] = SP_PRIVATE;
    });
    return;
  }
  if (F == GLOBAL && w.formedFor == &in) {  // (the same values: see Wave::formedFor)
    const uint64_t *f = w.formedAddr;
    forLanes(exec, [&](unsigned l) {
      addr[l] = f[l];
      space[l] = SP_GLOBAL;
    });
    return;
  }
  if (F == GLOBAL && sa.kind != OpKind::None) {
    uint64_t base = sget64(w, sa);
    uint32_t t0[64];
    const uint32_t *v = vget(w, va, t0);
    forLanes(exec, [&](unsigned l) {
      addr[l] = base + v[l] + int64_t(in.offset);
      space[l] = SP_GLOBAL;
    });
    return;
  }
  uint32_t t0[64], t1[64];
  const uint32_t *lo = vget(w, va, t0, 0), *hi = vget(w, va, t1, 1);
  forLanes(exec, [&](unsigned l) {
    uint64_t a = (uint64_t(lo[l]) | uint64_t(hi[l]) << 32) + int64_t(in.offset);
    uint8_t sp = SP_GLOBAL;
    if (F == FLAT) {
      if (a - kSharedAperture < kApertureSize) {
        sp = SP_LDS;
        a -= kSharedAperture;
      } else if (a - kPrivateAperture < kApertureSize) {
        sp = SP_PRIVATE;
        a -= kPrivateAperture;
      }
    }
    addr[l] = a;
    space[l] = sp;
  });
}

} // namespace

void vmemLaneAddrs(Wave &w, const Inst &in, char family, uint64_t *addr) {
  uint8_t space[64];
  if (family == 'f')
    laneAddrs<FLAT>(w, in, addr, space);
  else if (family == 's')
    laneAddrs<SCRATCH>(w, in, addr, space);
  else
    laneAddrs<GLOBAL>(w, in, addr, space);
}

namespace {

thread_local uint8_t tDummy[64];

/// Host pointer for lane `l`'s access, or nullptr after failing the wave.
uint8_t *laneMem(Wave &w, const Inst &in, unsigned l, uint8_t sp, uint64_t a, unsigned n,
                 bool write, const char *what) {
  if (sp == SP_GLOBAL) {
    uint8_t *p = xlate(w, a, n, write);
    if (!p)
      memFault(w, in, int(l), a, n, write, what);
    return p;
  }
  if (sp == SP_LDS) {
    if (a + n > w.L->ldsSize) {
      if (w.L->opts.strict) {
        ldsFault(w, in, l, a, n);
        return nullptr;
      }
      std::memset(tDummy, 0, sizeof(tDummy));
      return tDummy;
    }
    return w.wg->lds.data() + a;
  }
  uint32_t per = w.L->scratchPerLane;
  if (a + n > per) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << "out-of-bounds private (scratch) " << (write ? "store" : "load") << " of " << n
       << " bytes at offset " << llvm::format_hex(a, 0) << "; the kernel's private segment is "
       << per << " bytes per work-item";
    w.failLane(in, l, s);
    return nullptr;
  }
  return w.scratch.data() + size_t(l) * per + a;
}

/// The region holding every active lane's whole access when all lanes
/// access global memory in one region (writable where they write), else
/// nullptr: then laneMem, lane by lane, finds what to report.
const Region *oneGlobalRegion(Wave &w, const uint64_t *addr, const uint8_t *space, unsigned n,
                              bool write) {
  uint64_t e = w.exec();
  if (!e || !xlate(w, addr[__builtin_ctzll(e)], n, write))
    return nullptr;
  const Region *r = w.lastRegion;
  bool all = true;
  forLanes(e, [&](unsigned l) {
    all &= space[l] == SP_GLOBAL && r->contains(addr[l], n) && (!write || r->canWrite(addr[l], n));
  });
  return all ? r : nullptr;
}

template <Fam F, uint8_t Bytes, bool Sext, uint8_t D16> void vmLoad(Wave &w, const Inst &in) {
  if (in.flags & IF_TFE) {
    w.fail(in, "the tfe modifier is not emulated");
    return;
  }
  uint64_t addr[64];
  uint8_t space[64];
  laneAddrs<F>(w, in, addr, space);
  if (Bytes >= 4)
    if (const Region *r = oneGlobalRegion(w, addr, space, Bytes, false)) {
      // The common case in one loop (what laneMem and loadToRegs do per lane).
      uint32_t *d[Bytes >= 4 ? Bytes / 4 : 1];
      for (unsigned i = 0; i < Bytes / 4u; ++i)
        d[i] = vdst(w, in.dst(), i);
      forLanes(w.exec(), [&](unsigned l) {
        const uint8_t *p = r->data + (addr[l] - r->base);
        for (unsigned i = 0; i < Bytes / 4u; ++i)
          d[i][l] = ld32(p + 4 * i);
      });
      return;
    }
  bool ok = true;
  forLanes(w.exec(), [&](unsigned l) {
    if (!ok)
      return;
    const uint8_t *p = laneMem(w, in, l, space[l], addr[l], Bytes, false, "load");
    if (!p) {
      ok = false;
      return;
    }
    loadToRegs(w, in.dst(), l, p, LoadKind{Bytes, Sext, D16});
  });
}

template <Fam F, uint8_t Bytes, bool Hi> void vmStore(Wave &w, const Inst &in) {
  uint64_t addr[64];
  uint8_t space[64];
  laneAddrs<F>(w, in, addr, space);
  const Opnd &data = in.src(1);
  if (Bytes >= 4 && data.isVector())
    if (const Region *r = oneGlobalRegion(w, addr, space, Bytes, true)) {
      // The common case in one loop (what laneMem and regsToMem do per lane).
      const uint32_t *d[Bytes >= 4 ? Bytes / 4 : 1];
      for (unsigned i = 0; i < Bytes / 4u; ++i)
        d[i] = vdst(w, data, i);
      forLanes(w.exec(), [&](unsigned l) {
        uint8_t *p = r->data + (addr[l] - r->base);
        for (unsigned i = 0; i < Bytes / 4u; ++i)
          st32(p + 4 * i, d[i][l]);
      });
      return;
    }
  bool ok = true;
  forLanes(w.exec(), [&](unsigned l) {
    if (!ok)
      return;
    uint8_t *p = laneMem(w, in, l, space[l], addr[l], Bytes, true, "store");
    if (!p) {
      ok = false;
      return;
    }
    regsToMem(w, data, l, p, Bytes, Hi);
  });
}

template <Fam F, AtomOp Op, uint8_t Bytes> void vmAtomic(Wave &w, const Inst &in) {
  uint64_t addr[64];
  uint8_t space[64];
  laneAddrs<F>(w, in, addr, space);
  const Opnd &data = in.src(1);
  unsigned words = Bytes / 4;
  bool ret = in.ndst == 1, ok = true;
  bool threaded = w.L->threaded;
  forLanes(w.exec(), [&](unsigned l) {
    if (!ok)
      return;
    if (addr[l] % Bytes) {
      w.failLane(in, l, "misaligned atomic at address 0x" + llvm::utohexstr(addr[l]));
      ok = false;
      return;
    }
    uint8_t *p = laneMem(w, in, l, space[l], addr[l], Bytes, true, "atomic");
    if (!p) {
      ok = false;
      return;
    }
    uint64_t d = vdst(w, data, 0)[l], c = 0;
    if (words == 2)
      d |= uint64_t(vdst(w, data, 1)[l]) << 32;
    if (Op == AtomOp::CmpSwap) {
      c = vdst(w, data, words)[l];
      if (words == 2)
        c |= uint64_t(vdst(w, data, words + 1)[l]) << 32;
    }
    uint64_t old = atomicRMW(p, Bytes, Op, d, c, threaded && space[l] == SP_GLOBAL);
    if (ret) {
      vdst(w, in.dst(), 0)[l] = uint32_t(old);
      if (words == 2)
        vdst(w, in.dst(), 1)[l] = uint32_t(old >> 32);
    }
  });
}

/// global_load_lds_*: global memory to LDS, one dword per lane at
/// M0 + inst_offset + lane * 4 (sub-dword data zero- or sign-extended);
/// gfx950's dwordx3/x4: 12/16 bytes per lane at M0 + inst_offset + lane * 16
/// (CDNA4 ISA: "Flat Memory Instructions", Addressing, for 4 dwords; "Memory
/// Buffer Load to LDS" for 3: the 16-byte stride, the 4th dword skipped).
template <uint8_t Bytes, bool Sext> void globalLoadLds(Wave &w, const Inst &in) {
  constexpr unsigned Lds = Bytes > 4 ? 16 : 4;  // lane stride in LDS
  uint64_t addr[64];
  uint8_t space[64];
  laneAddrs<GLOBAL>(w, in, addr, space);
  uint32_t m0 = w.s[SR_M0];
  bool ok = true;
  forLanes(w.exec(), [&](unsigned l) {
    if (!ok)
      return;
    const uint8_t *src = laneMem(w, in, l, SP_GLOBAL, addr[l], Bytes, false, "load");
    uint8_t *dst = src ? laneMem(w, in, l, SP_LDS, uint64_t(m0) + uint32_t(in.offset) + l * Lds,
                                 Bytes < 4 ? 4 : Bytes, true, "LDS store")
                       : nullptr;
    if (!dst) {
      ok = false;
      return;
    }
    if (Bytes > 4) {
      std::memcpy(dst, src, Bytes);
      return;
    }
    uint32_t v;
    if (Bytes == 4)
      v = ld32(src);
    else if (Bytes == 2)
      v = Sext ? uint32_t(int32_t(int16_t(src[0] | src[1] << 8))) : uint32_t(src[0] | src[1] << 8);
    else
      v = Sext ? uint32_t(int32_t(int8_t(src[0]))) : src[0];
    st32(dst, v);
  });
}

struct LoadDef { const char *suffix; SemFn g, f, s; };
struct StoreDef { const char *suffix; SemFn g, f, s; };
struct AtomDef { const char *suffix; SemFn g, f; };

#define LD(SUF, B, SX, D16)                                                     \
  {SUF, vmLoad<GLOBAL, B, SX, D16>, vmLoad<FLAT, B, SX, D16>, vmLoad<SCRATCH, B, SX, D16>}
const LoadDef kLoads[] = {
    LD("ubyte", 1, false, 0),        LD("sbyte", 1, true, 0),
    LD("ushort", 2, false, 0),       LD("sshort", 2, true, 0),
    LD("dword", 4, false, 0),        LD("dwordx2", 8, false, 0),
    LD("dwordx3", 12, false, 0),     LD("dwordx4", 16, false, 0),
    LD("ubyte_d16", 1, false, 1),    LD("ubyte_d16_hi", 1, false, 2),
    LD("sbyte_d16", 1, true, 1),     LD("sbyte_d16_hi", 1, true, 2),
    LD("short_d16", 2, false, 1),    LD("short_d16_hi", 2, false, 2),
};
#undef LD
#define ST(SUF, B, HI) {SUF, vmStore<GLOBAL, B, HI>, vmStore<FLAT, B, HI>, vmStore<SCRATCH, B, HI>}
const StoreDef kStores[] = {
    ST("byte", 1, false),  ST("byte_d16_hi", 1, true), ST("short", 2, false),
    ST("short_d16_hi", 2, true), ST("dword", 4, false), ST("dwordx2", 8, false),
    ST("dwordx3", 12, false), ST("dwordx4", 16, false),
};
#undef ST
#define AT(SUF, OP, B) {SUF, vmAtomic<GLOBAL, AtomOp::OP, B>, vmAtomic<FLAT, AtomOp::OP, B>}
const AtomDef kAtomics[] = {
    AT("swap", Swap, 4), AT("cmpswap", CmpSwap, 4), AT("add", Add, 4), AT("sub", Sub, 4),
    AT("smin", SMin, 4), AT("umin", UMin, 4), AT("smax", SMax, 4), AT("umax", UMax, 4),
    AT("and", And, 4), AT("or", Or, 4), AT("xor", Xor, 4), AT("inc", Inc, 4),
    AT("dec", Dec, 4), AT("swap_x2", Swap, 8), AT("cmpswap_x2", CmpSwap, 8),
    AT("add_x2", Add, 8), AT("sub_x2", Sub, 8), AT("smin_x2", SMin, 8),
    AT("umin_x2", UMin, 8), AT("smax_x2", SMax, 8), AT("umax_x2", UMax, 8),
    AT("and_x2", And, 8), AT("or_x2", Or, 8), AT("xor_x2", Xor, 8), AT("inc_x2", Inc, 8),
    AT("dec_x2", Dec, 8), AT("add_f32", FAdd, 4), AT("pk_add_f16", PkAddF16, 4),
    AT("pk_add_bf16", PkAddBF16, 4), AT("add_f64", FAdd, 8), AT("min_f64", FMin, 8),
    AT("max_f64", FMax, 8),
};
#undef AT

} // namespace

void registerVMEM(SemTable &t) {
  auto add = [&](std::string n, SemFn f, uint8_t ndst, uint16_t flags) {
    t.push_back({intern(std::move(n)), f, ndst, ICls::VMEM, flags, tys(Ty::B32)});
  };
  for (const LoadDef &d : kLoads) {
    add(std::string("global_load_") + d.suffix, d.g, 1, SF_LOAD);
    add(std::string("flat_load_") + d.suffix, d.f, 1, SF_LOAD);
    add(std::string("scratch_load_") + d.suffix, d.s, 1, SF_LOAD);
  }
  for (const StoreDef &d : kStores) {
    add(std::string("global_store_") + d.suffix, d.g, 0, 0);
    add(std::string("flat_store_") + d.suffix, d.f, 0, 0);
    add(std::string("scratch_store_") + d.suffix, d.s, 0, 0);
  }
  for (const AtomDef &d : kAtomics) {
    add(std::string("global_atomic_") + d.suffix, d.g, 1, SF_ATOMIC | SF_LOAD);
    add(std::string("flat_atomic_") + d.suffix, d.f, 1, SF_ATOMIC | SF_LOAD);
  }
  add("global_load_lds_ubyte", globalLoadLds<1, false>, 0, SF_READS_M0 | SF_WRITES_LDS);
  add("global_load_lds_sbyte", globalLoadLds<1, true>, 0, SF_READS_M0 | SF_WRITES_LDS);
  add("global_load_lds_ushort", globalLoadLds<2, false>, 0, SF_READS_M0 | SF_WRITES_LDS);
  add("global_load_lds_sshort", globalLoadLds<2, true>, 0, SF_READS_M0 | SF_WRITES_LDS);
  add("global_load_lds_dword", globalLoadLds<4, false>, 0, SF_READS_M0 | SF_WRITES_LDS);
  add("global_load_lds_dwordx3", globalLoadLds<12, false>, 0, SF_READS_M0 | SF_WRITES_LDS);
  add("global_load_lds_dwordx4", globalLoadLds<16, false>, 0, SF_READS_M0 | SF_WRITES_LDS);
}

} // namespace aster::emu
