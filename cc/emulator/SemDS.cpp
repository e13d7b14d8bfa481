//===- SemDS.cpp - LDS instructions (ds_*) --------------------------------===//
#include "emulator/MemOps.h"

#include <deque>
#include <string>

namespace aster::emu {

namespace {


thread_local uint8_t tZero[64];

/// LDS pointer for lane `l`, or nullptr after failing the wave (strict) /
/// a scratch buffer reading as zero (non-strict).
uint8_t *ldsPtr(Wave &w, const Inst &in, unsigned l, u64 addr, unsigned n) {
  if (addr + n > w.L->ldsSize) {
    if (w.L->opts.strict) {
      ldsFault(w, in, l, addr, n);
      return nullptr;
    }
    std::memset(tZero, 0, sizeof(tZero));
    return tZero;
  }
  return w.wg->lds.data() + addr;
}

bool gdsCheck(Wave &w, const Inst &in) {
  if (in.flags & IF_GDS) {
    w.fail(in, "GDS is not emulated");
    return false;
  }
  return true;
}

/// Fast-path test: EXEC is full and every lane's access [A[l] + off,
/// A[l] + off + n) lies inside the LDS allocation (so no lane can fault).
EMU_INLINE bool allLanesInLds(const Wave &w, const u32 *A, u64 off, unsigned n) {
  if (w.exec() != ~0ull)
    return false;
  u32 mx = 0;
  for (unsigned l = 0; l < 64; ++l)
    mx = A[l] > mx ? A[l] : mx;
  return u64(mx) + off + n <= w.L->ldsSize;
}

/// ds_read*: vdst, addr.
template <uint8_t Bytes, bool Sext, uint8_t D16> void dsRead(Wave &w, const Inst &in) {
  if (!gdsCheck(w, in))
    return;
  u32 t0[64];
  const u32 *A = vget(w, in.src(0), t0);
  u32 addr[64];
  forLanes(w.exec(), [&](unsigned l) { addr[l] = A[l] + u32(in.offset); });
  if constexpr (Bytes >= 4 && !Sext && !D16) {
    if (allLanesInLds(w, A, u32(in.offset), Bytes)) {
      const uint8_t *lds = w.wg->lds.data();
      for (unsigned i = 0; i < Bytes / 4u; ++i) {
        u32 *d = vdst(w, in.dst(), i);
        for (unsigned l = 0; l < 64; ++l)
          d[l] = ld32(lds + addr[l] + 4 * i);
      }
      return;
    }
  }
  bool ok = true;
  forLanes(w.exec(), [&](unsigned l) {
    if (!ok) return;
    const uint8_t *p = ldsPtr(w, in, l, addr[l], Bytes);
    if (!p) { ok = false; return; }
    loadToRegs(w, in.dst(), l, p, LoadKind{Bytes, Sext, D16});
  });
}

/// ds_write*: addr, data.
template <uint8_t Bytes, bool Hi> void dsWrite(Wave &w, const Inst &in) {
  if (!gdsCheck(w, in))
    return;
  u32 t0[64];
  const u32 *A = vget(w, in.src(0), t0);
  if constexpr (Bytes >= 4 && !Hi) {
    const Opnd &data = in.src(1);
    if (data.isVector() && allLanesInLds(w, A, u32(in.offset), Bytes)) {
      // Lane by lane, as the slow path (overlapping lanes: the last wins).
      uint8_t *lds = w.wg->lds.data() + u32(in.offset);
      const u32 *v[Bytes / 4u];
      for (unsigned i = 0; i < Bytes / 4u; ++i)
        v[i] = vdst(w, data, i);
      for (unsigned l = 0; l < 64; ++l)
        for (unsigned i = 0; i < Bytes / 4u; ++i)
          st32(lds + A[l] + 4 * i, v[i][l]);
      return;
    }
  }
  bool ok = true;
  forLanes(w.exec(), [&](unsigned l) {
    if (!ok) return;
    uint8_t *p = ldsPtr(w, in, l, u64(A[l]) + u32(in.offset), Bytes);
    if (!p) { ok = false; return; }
    regsToMem(w, in.src(1), l, p, Bytes, Hi);
  });
}

/// ds_read2*: vdst (2 elements), addr; offsets in units of Bytes * Stride.
template <uint8_t Bytes, unsigned Stride> void dsRead2(Wave &w, const Inst &in) {
  if (!gdsCheck(w, in))
    return;
  u32 t0[64];
  const u32 *A = vget(w, in.src(0), t0);
  u32 base[64];
  forLanes(w.exec(), [&](unsigned l) { base[l] = A[l]; });
  unsigned words = Bytes / 4;
  u64 off[2] = {u64(in.offset0) * Bytes * Stride, u64(in.offset1) * Bytes * Stride};
  if (allLanesInLds(w, base, off[0] > off[1] ? off[0] : off[1], Bytes)) {
    const uint8_t *lds = w.wg->lds.data();
    for (unsigned k = 0; k < 2; ++k)
      for (unsigned i = 0; i < words; ++i) {
        u32 *d = vdst(w, in.dst(), k * words + i);
        for (unsigned l = 0; l < 64; ++l)
          d[l] = ld32(lds + base[l] + off[k] + 4 * i);
      }
    return;
  }
  bool ok = true;
  forLanes(w.exec(), [&](unsigned l) {
    for (unsigned k = 0; k < 2 && ok; ++k) {
      u64 a = u64(base[l]) + u64(k ? in.offset1 : in.offset0) * Bytes * Stride;
      const uint8_t *p = ldsPtr(w, in, l, a, Bytes);
      if (!p) { ok = false; return; }
      for (unsigned i = 0; i < words; ++i)
        vdst(w, in.dst(), k * words + i)[l] = ld32(p + 4 * i);
    }
  });
}

/// ds_write2*: addr, data0, data1.
template <uint8_t Bytes, unsigned Stride> void dsWrite2(Wave &w, const Inst &in) {
  if (!gdsCheck(w, in))
    return;
  u32 t0[64];
  const u32 *A = vget(w, in.src(0), t0);
  unsigned words = Bytes / 4;
  bool ok = true;
  forLanes(w.exec(), [&](unsigned l) {
    for (unsigned k = 0; k < 2 && ok; ++k) {
      u64 a = u64(A[l]) + u64(k ? in.offset1 : in.offset0) * Bytes * Stride;
      uint8_t *p = ldsPtr(w, in, l, a, Bytes);
      if (!p) { ok = false; return; }
      for (unsigned i = 0; i < words; ++i)
        st32(p + 4 * i, vdst(w, in.src(1 + k), i)[l]);
    }
  });
}

/// Atomics: [vdst,] addr, data0 [, data1]. For CmpSwap data0 = compare,
/// data1 = new value (ds_cmpst order); MskOr: (mem & ~data0) | data1.
enum class DsOp : uint8_t { Atom, CmpSt, MskOr, RSub };
template <DsOp K, AtomOp Op, uint8_t Bytes> void dsAtomic(Wave &w, const Inst &in) {
  if (!gdsCheck(w, in))
    return;
  u32 t0[64];
  const u32 *A = vget(w, in.src(0), t0);
  unsigned words = Bytes / 4;
  bool ret = in.ndst == 1, ok = true;
  forLanes(w.exec(), [&](unsigned l) {
    if (!ok) return;
    uint8_t *p = ldsPtr(w, in, l, u64(A[l]) + u32(in.offset), Bytes);
    if (!p) { ok = false; return; }
    auto rd = [&](unsigned s) {
      u64 v = vdst(w, in.src(s), 0)[l];
      if (words == 2) v |= u64(vdst(w, in.src(s), 1)[l]) << 32;
      return v;
    };
    u64 d0 = rd(1), old;
    if (K == DsOp::CmpSt) {
      old = atomicRMW(p, Bytes, AtomOp::CmpSwap, rd(2), d0, false);
    } else if (K == DsOp::MskOr) {
      u64 d1 = rd(2);
      old = ld32(p);
      if (words == 2) std::memcpy(&old, p, 8);
      u64 nv = (old & ~d0) | d1;
      std::memcpy(p, &nv, Bytes);
    } else if (K == DsOp::RSub) {
      old = 0;
      std::memcpy(&old, p, Bytes);
      u64 nv = d0 - old;
      std::memcpy(p, &nv, Bytes);
    } else {
      old = atomicRMW(p, Bytes, Op, d0, 0, false);
    }
    if (ret) {
      vdst(w, in.dst(), 0)[l] = u32(old);
      if (words == 2) vdst(w, in.dst(), 1)[l] = u32(old >> 32);
    }
  });
}

/// ds_wrxchg2(st64)_rtn_b32/b64: vdst(2 elements), addr, data0, data1.
template <uint8_t Bytes, unsigned Stride> void dsWrxchg2(Wave &w, const Inst &in) {
  u32 t0[64];
  const u32 *A = vget(w, in.src(0), t0);
  unsigned words = Bytes / 4;
  bool ok = true;
  forLanes(w.exec(), [&](unsigned l) {
    for (unsigned k = 0; k < 2 && ok; ++k) {
      u64 a = u64(A[l]) + u64(k ? in.offset1 : in.offset0) * Bytes * Stride;
      uint8_t *p = ldsPtr(w, in, l, a, Bytes);
      if (!p) { ok = false; return; }
      for (unsigned i = 0; i < words; ++i) {
        u32 old = ld32(p + 4 * i);
        st32(p + 4 * i, vdst(w, in.src(1 + k), i)[l]);
        vdst(w, in.dst(), k * words + i)[l] = old;
      }
    }
  });
}

void dsBpermute(Wave &w, const Inst &in) {
  u32 t0[64], t1[64], data[64], addr[64];
  const u32 *A = vget(w, in.src(0), t0), *S = vget(w, in.src(1), t1);
  u64 e = w.exec();
  for (unsigned l = 0; l < 64; ++l) {
    data[l] = (e >> l) & 1 ? S[l] : 0;
    addr[l] = A[l];
  }
  u32 *D = vdst(w, in.dst());
  forLanes(e, [&](unsigned l) { D[l] = data[((addr[l] + u32(in.offset)) >> 2) & 63]; });
}
void dsPermute(Wave &w, const Inst &in) {
  u32 t0[64], t1[64], out[64] = {};
  const u32 *A = vget(w, in.src(0), t0), *S = vget(w, in.src(1), t1);
  u64 e = w.exec();
  forLanes(e, [&](unsigned l) { out[((A[l] + u32(in.offset)) >> 2) & 63] = S[l]; });
  u32 *D = vdst(w, in.dst());
  forLanes(e, [&](unsigned l) { D[l] = out[l]; });
}
void dsSwizzle(Wave &w, const Inst &in) {
  u32 t1[64], data[64];
  const u32 *S = vget(w, in.src(0), t1);
  u64 e = w.exec();
  for (unsigned l = 0; l < 64; ++l)
    data[l] = (e >> l) & 1 ? S[l] : 0;
  u32 off = u32(in.offset) & 0xffff;
  u32 *D = vdst(w, in.dst());
  forLanes(e, [&](unsigned l) {
    unsigned src;
    if (off & 0x8000) {
      src = (l & ~3u) | ((off >> (2 * (l & 3))) & 3);
    } else {
      unsigned andm = off & 31, orm = (off >> 5) & 31, xorm = (off >> 10) & 31;
      src = (l & 32) | ((((l & 31) & andm) | orm) ^ xorm);
    }
    D[l] = data[src];
  });
}
/// ds_read_addtid_b32: vdst = LDS[M0 + offset + lane * 4].
void dsReadAddtid(Wave &w, const Inst &in) {
  u32 m0 = w.s[SR_M0];
  bool ok = true;
  forLanes(w.exec(), [&](unsigned l) {
    if (!ok) return;
    const uint8_t *p = ldsPtr(w, in, l, u64(m0) + u32(in.offset) + 4 * l, 4);
    if (!p) { ok = false; return; }
    vdst(w, in.dst())[l] = ld32(p);
  });
}
void dsNop(Wave &, const Inst &) {}

struct AtomEntry { const char *name; SemFn noRet, ret; };
#define DA(N, K, OP, B) {N, dsAtomic<DsOp::K, AtomOp::OP, B>, dsAtomic<DsOp::K, AtomOp::OP, B>}
const AtomEntry kAtomics[] = {
    DA("add_u32", Atom, Add, 4), DA("sub_u32", Atom, Sub, 4), DA("rsub_u32", RSub, Add, 4),
    DA("inc_u32", Atom, Inc, 4), DA("dec_u32", Atom, Dec, 4), DA("min_i32", Atom, SMin, 4),
    DA("max_i32", Atom, SMax, 4), DA("min_u32", Atom, UMin, 4), DA("max_u32", Atom, UMax, 4),
    DA("and_b32", Atom, And, 4), DA("or_b32", Atom, Or, 4), DA("xor_b32", Atom, Xor, 4),
    DA("mskor_b32", MskOr, Or, 4), DA("cmpst_b32", CmpSt, CmpSwap, 4),
    DA("cmpst_f32", CmpSt, CmpSwap, 4), DA("min_f32", Atom, FMin, 4),
    DA("max_f32", Atom, FMax, 4), DA("add_f32", Atom, FAdd, 4),
    DA("pk_add_f16", Atom, PkAddF16, 4), DA("pk_add_bf16", Atom, PkAddBF16, 4),
    DA("add_u64", Atom, Add, 8), DA("sub_u64", Atom, Sub, 8), DA("rsub_u64", RSub, Add, 8),
    DA("inc_u64", Atom, Inc, 8), DA("dec_u64", Atom, Dec, 8), DA("min_i64", Atom, SMin, 8),
    DA("max_i64", Atom, SMax, 8), DA("min_u64", Atom, UMin, 8), DA("max_u64", Atom, UMax, 8),
    DA("and_b64", Atom, And, 8), DA("or_b64", Atom, Or, 8), DA("xor_b64", Atom, Xor, 8),
    DA("mskor_b64", MskOr, Or, 8), DA("cmpst_b64", CmpSt, CmpSwap, 8),
    DA("cmpst_f64", CmpSt, CmpSwap, 8), DA("min_f64", Atom, FMin, 8),
    DA("max_f64", Atom, FMax, 8), DA("add_f64", Atom, FAdd, 8),
};
#undef DA

} // namespace

void registerDS(SemTable &t) {
  auto add = [&](const char *n, SemFn f, uint8_t ndst, uint16_t fl = 0) {
    t.push_back({n, f, ndst, ICls::LDS, uint16_t(fl | SF_NO_SDWA), tys(Ty::B32)});
  };
  add("ds_read_b32", dsRead<4, false, 0>, 1, SF_LOAD);
  add("ds_read_b64", dsRead<8, false, 0>, 1, SF_LOAD);
  add("ds_read_b96", dsRead<12, false, 0>, 1, SF_LOAD);
  add("ds_read_b128", dsRead<16, false, 0>, 1, SF_LOAD);
  add("ds_read_u8", dsRead<1, false, 0>, 1, SF_LOAD);
  add("ds_read_i8", dsRead<1, true, 0>, 1, SF_LOAD);
  add("ds_read_u16", dsRead<2, false, 0>, 1, SF_LOAD);
  add("ds_read_i16", dsRead<2, true, 0>, 1, SF_LOAD);
  add("ds_read_u8_d16", dsRead<1, false, 1>, 1, SF_LOAD);
  add("ds_read_u8_d16_hi", dsRead<1, false, 2>, 1, SF_LOAD);
  add("ds_read_i8_d16", dsRead<1, true, 1>, 1, SF_LOAD);
  add("ds_read_i8_d16_hi", dsRead<1, true, 2>, 1, SF_LOAD);
  add("ds_read_u16_d16", dsRead<2, false, 1>, 1, SF_LOAD);
  add("ds_read_u16_d16_hi", dsRead<2, false, 2>, 1, SF_LOAD);
  add("ds_write_b32", dsWrite<4, false>, 0);
  add("ds_write_b64", dsWrite<8, false>, 0);
  add("ds_write_b96", dsWrite<12, false>, 0);
  add("ds_write_b128", dsWrite<16, false>, 0);
  add("ds_write_b8", dsWrite<1, false>, 0);
  add("ds_write_b16", dsWrite<2, false>, 0);
  add("ds_write_b8_d16_hi", dsWrite<1, true>, 0);
  add("ds_write_b16_d16_hi", dsWrite<2, true>, 0);
  add("ds_read2_b32", dsRead2<4, 1>, 1, SF_LOAD);
  add("ds_read2st64_b32", dsRead2<4, 64>, 1, SF_LOAD);
  add("ds_read2_b64", dsRead2<8, 1>, 1, SF_LOAD);
  add("ds_read2st64_b64", dsRead2<8, 64>, 1, SF_LOAD);
  add("ds_write2_b32", dsWrite2<4, 1>, 0);
  add("ds_write2st64_b32", dsWrite2<4, 64>, 0);
  add("ds_write2_b64", dsWrite2<8, 1>, 0);
  add("ds_write2st64_b64", dsWrite2<8, 64>, 0);
  add("ds_wrxchg2_rtn_b32", dsWrxchg2<4, 1>, 1, SF_LOAD);
  add("ds_wrxchg2st64_rtn_b32", dsWrxchg2<4, 64>, 1, SF_LOAD);
  add("ds_wrxchg2_rtn_b64", dsWrxchg2<8, 1>, 1, SF_LOAD);
  add("ds_wrxchg2st64_rtn_b64", dsWrxchg2<8, 64>, 1, SF_LOAD);
  add("ds_wrxchg_rtn_b32", dsAtomic<DsOp::Atom, AtomOp::Swap, 4>, 1, SF_LOAD);
  add("ds_wrxchg_rtn_b64", dsAtomic<DsOp::Atom, AtomOp::Swap, 8>, 1, SF_LOAD);
  add("ds_bpermute_b32", dsBpermute, 1, SF_LOAD);
  add("ds_permute_b32", dsPermute, 1, SF_LOAD);
  add("ds_swizzle_b32", dsSwizzle, 1, SF_LOAD);
  add("ds_nop", dsNop, 0);
  add("ds_read_addtid_b32", dsReadAddtid, 1, SF_LOAD | SF_READS_M0);
  for (const AtomEntry &a : kAtomics) {
    std::string n = a.name;
    size_t us = n.rfind('_');
    add(intern("ds_" + n), a.noRet, 0);
    add(intern("ds_" + n.substr(0, us) + "_rtn" + n.substr(us)), a.ret, 1, SF_LOAD);
  }
}

} // namespace aster::emu
