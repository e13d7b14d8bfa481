//===- SemVALUInt.cpp - vector ALU: 32/64-bit integer and bit operations --===//
#include "emulator/Semantics.h"

#include "llvm/ADT/StringRef.h"

namespace aster::emu {

namespace {


template <class F> EMU_INLINE void v1(Wave &w, const Inst &in, F f) {
  u32 t0[64];
  const u32 *A = vget(w, in.src(0), t0);
  u32 *D = vdst(w, in.dst());
  forLanes(w.exec(), [&](unsigned l) { D[l] = f(A[l]); });
}
template <class F> EMU_INLINE void v2(Wave &w, const Inst &in, F f) {
  u32 t0[64], t1[64];
  const u32 *A = vget(w, in.src(0), t0), *B = vget(w, in.src(1), t1);
  u32 *D = vdst(w, in.dst());
  forLanes(w.exec(), [&](unsigned l) { D[l] = f(A[l], B[l]); });
}
template <class F> EMU_INLINE void v3(Wave &w, const Inst &in, F f) {
  u32 t0[64], t1[64], t2[64];
  const u32 *A = vget(w, in.src(0), t0), *B = vget(w, in.src(1), t1),
            *C = vget(w, in.src(2), t2);
  u32 *D = vdst(w, in.dst());
  forLanes(w.exec(), [&](unsigned l) { D[l] = f(A[l], B[l], C[l]); });
}

#define V1(N, E) void N(Wave &w, const Inst &in) { v1(w, in, [](u32 a) -> u32 { return E; }); }
#define V2(N, E) void N(Wave &w, const Inst &in) { v2(w, in, [](u32 a, u32 b) -> u32 { return E; }); }
#define V3(N, E)                                                               \
  void N(Wave &w, const Inst &in) { v3(w, in, [](u32 a, u32 b, u32 c) -> u32 { return E; }); }

EMU_INLINE i32 sext24(u32 a) { return i32(a << 8) >> 8; }
EMU_INLINE u32 satU(u64 v) { return v > 0xffffffffull ? 0xffffffffu : u32(v); }
EMU_INLINE u32 satI(i64 v) {
  return v > 0x7fffffffll ? 0x7fffffffu : v < -0x80000000ll ? 0x80000000u : u32(v);
}

V1(v_mov_b32, a)
V1(v_not_b32, ~a)
V1(v_bfrev_b32, brev32(a))
V1(v_ffbh_u32, a ? u32(__builtin_clz(a)) : ~0u)
V1(v_ffbl_b32, a ? u32(__builtin_ctz(a)) : ~0u)
V1(v_ffbh_i32, (a == 0 || a == ~0u) ? ~0u : u32(__builtin_clz(i32(a) < 0 ? ~a : a)))

V2(v_and_b32, a & b)
V2(v_or_b32, a | b)
V2(v_xor_b32, a ^ b)
V2(v_xnor_b32, ~(a ^ b))
/// Shifts by a lane-uniform amount (the common case) run as one vector shift.
template <int Kind> void shift32(Wave &w, const Inst &in) {
  if (in.src(0).kind != OpKind::V && in.src(0).kind != OpKind::A) {
    unsigned sh = sget(w, in.src(0)) & 31;
    u32 t1[64];
    const u32 *B = vget(w, in.src(1), t1);
    u32 *D = vdst(w, in.dst());
    if (Kind == 0) forLanes(w.exec(), [&](unsigned l) { D[l] = B[l] << sh; });
    else if (Kind == 1) forLanes(w.exec(), [&](unsigned l) { D[l] = B[l] >> sh; });
    else forLanes(w.exec(), [&](unsigned l) { D[l] = u32(i32(B[l]) >> sh); });
    return;
  }
  if (Kind == 0) v2(w, in, [](u32 a, u32 b) { return b << (a & 31); });
  else if (Kind == 1) v2(w, in, [](u32 a, u32 b) { return b >> (a & 31); });
  else v2(w, in, [](u32 a, u32 b) { return u32(i32(b) >> (a & 31)); });
}
void v_lshlrev_b32(Wave &w, const Inst &in) { shift32<0>(w, in); }
void v_lshrrev_b32(Wave &w, const Inst &in) { shift32<1>(w, in); }
void v_ashrrev_i32(Wave &w, const Inst &in) { shift32<2>(w, in); }
V2(v_min_i32, i32(a) < i32(b) ? a : b)
V2(v_max_i32, i32(a) > i32(b) ? a : b)
V2(v_min_u32, a < b ? a : b)
V2(v_max_u32, a > b ? a : b)
V2(v_mul_i32_i24, u32(sext24(a) * sext24(b)))
V2(v_mul_hi_i32_i24, u32(u64(i64(sext24(a)) * sext24(b)) >> 32))
V2(v_mul_u32_u24, (a & 0xffffff) * (b & 0xffffff))
V2(v_mul_hi_u32_u24, u32((u64(a & 0xffffff) * (b & 0xffffff)) >> 32))
V2(v_mul_lo_u32, a * b)
V2(v_mul_hi_u32, u32((u64(a) * b) >> 32))
V2(v_mul_hi_i32, u32(u64(i64(i32(a)) * i32(b)) >> 32))
V2(v_bcnt_u32_b32, u32(__builtin_popcount(a)) + b)
V2(v_bfm_b32, ((a & 31) ? ((1u << (a & 31)) - 1) : 0) << (b & 31))

V3(v_bfe_u32, (c & 31) ? (a >> (b & 31)) & ((1u << (c & 31)) - 1) : 0)
V3(v_bfe_i32, (c & 31) ? u32(i32((a >> (b & 31)) << (32 - (c & 31))) >> (32 - (c & 31))) : 0)
V3(v_bfi_b32, (a & b) | (~a & c))
V3(v_alignbit_b32, u32(((u64(a) << 32) | b) >> (c & 31)))
V3(v_alignbyte_b32, u32(((u64(a) << 32) | b) >> (8 * (c & 3))))
V3(v_lshl_add_u32, (a << (b & 31)) + c)
V3(v_add_lshl_u32, (a + b) << (c & 31))
V3(v_add3_u32, a + b + c)
V3(v_lshl_or_b32, (a << (b & 31)) | c)
V3(v_and_or_b32, (a & b) | c)
V3(v_or3_b32, a | b | c)
V3(v_xad_u32, (a ^ b) + c)
V3(v_mad_u32_u24, (a & 0xffffff) * (b & 0xffffff) + c)
V3(v_mad_i32_i24, u32(sext24(a) * sext24(b)) + c)
V3(v_min3_i32, u32(std::min(std::min(i32(a), i32(b)), i32(c))))
V3(v_max3_i32, u32(std::max(std::max(i32(a), i32(b)), i32(c))))
V3(v_min3_u32, std::min(std::min(a, b), c))
V3(v_max3_u32, std::max(std::max(a, b), c))
V3(v_med3_i32, u32(std::max(std::min(i32(a), i32(b)), std::min(std::max(i32(a), i32(b)), i32(c)))))
V3(v_med3_u32, std::max(std::min(a, b), std::min(std::max(a, b), c)))

u32 perm(u32 a, u32 b, u32 c) {
  u64 src = (u64(a) << 32) | b;
  u32 r = 0;
  for (unsigned i = 0; i < 4; ++i) {
    u32 s = (c >> (8 * i)) & 0xff, byte;
    if (s < 8) byte = u32(src >> (8 * s)) & 0xff;
    else if (s == 8) byte = (b >> 15) & 1 ? 0xff : 0;
    else if (s == 9) byte = (b >> 31) & 1 ? 0xff : 0;
    else if (s == 10) byte = (a >> 15) & 1 ? 0xff : 0;
    else if (s == 11) byte = (a >> 31) & 1 ? 0xff : 0;
    else if (s == 12) byte = 0;
    else byte = 0xff;
    r |= byte << (8 * i);
  }
  return r;
}
/// v_perm_b32. With a lane-uniform selector (a constant or an SGPR: the
/// common case) whose bytes all pick a byte of {a, b}, 0 or 0xff, every
/// lane does the same shifts (a loop the host vectorizes); else byte by
/// byte (perm).
void v_perm_b32(Wave &w, const Inst &in) {
  const Opnd &sel = in.src(2);
  if (sel.kind != OpKind::V && sel.kind != OpKind::A) {
    u32 t2[64];
    u32 c = vget(w, sel, t2)[0];
    unsigned sh[4];
    u32 keep = 0, ones = 0;
    bool uniform = true;
    for (unsigned i = 0; i < 4; ++i) {
      u32 s = (c >> (8 * i)) & 0xff;
      sh[i] = s < 8 ? 8 * s : 0;
      if (s < 8)
        keep |= 0xffu << (8 * i);
      else if (s > 12)
        ones |= 0xffu << (8 * i);
      else if (s != 12)
        uniform = false;  // 8..11: a sign bit of a or b, per lane
    }
    if (uniform) {
      v3(w, in, [&](u32 a, u32 b, u32) -> u32 {
        u64 src = (u64(a) << 32) | b;
        u32 r = u32(src >> sh[0]) & 0xff;
        r |= (u32(src >> sh[1]) & 0xff) << 8;
        r |= (u32(src >> sh[2]) & 0xff) << 16;
        r |= (u32(src >> sh[3]) & 0xff) << 24;
        return (r & keep) | ones;
      });
      return;
    }
  }
  v3(w, in, [](u32 a, u32 b, u32 c) -> u32 { return perm(a, b, c); });
}

u32 sad8(u32 a, u32 b) {
  u32 s = 0;
  for (unsigned i = 0; i < 4; ++i) {
    int x = int((a >> (8 * i)) & 0xff), y = int((b >> (8 * i)) & 0xff);
    s += u32(x > y ? x - y : y - x);
  }
  return s;
}
V3(v_sad_u8, sad8(a, b) + c)
V3(v_sad_hi_u8, (sad8(a, b) << 16) + c)
V3(v_sad_u16, u32(std::abs(int(a & 0xffff) - int(b & 0xffff)) +
                  std::abs(int(a >> 16) - int(b >> 16))) + c)
V3(v_sad_u32, (a > b ? a - b : b - a) + c)
u32 msad8(u32 a, u32 b) {
  u32 s = 0;
  for (unsigned i = 0; i < 4; ++i) {
    int x = int((a >> (8 * i)) & 0xff), y = int((b >> (8 * i)) & 0xff);
    if (y)
      s += u32(x > y ? x - y : y - x);
  }
  return s;
}
V3(v_msad_u8, msad8(a, b) + c)
u32 lerp8(u32 a, u32 b, u32 c) {
  u32 r = 0;
  for (unsigned i = 0; i < 4; ++i) {
    u32 x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff, z = (c >> (8 * i)) & 1;
    r |= (((x + y + z) >> 1) & 0xff) << (8 * i);
  }
  return r;
}
V3(v_lerp_u8, lerp8(a, b, c))

// Additions that honor clamp (saturation).
void v_add_u32(Wave &w, const Inst &in) {
  if (in.flags & IF_CLAMP) v2(w, in, [](u32 a, u32 b) { return satU(u64(a) + b); });
  else v2(w, in, [](u32 a, u32 b) { return a + b; });
}
void v_sub_u32(Wave &w, const Inst &in) {
  if (in.flags & IF_CLAMP) v2(w, in, [](u32 a, u32 b) { return a < b ? 0u : a - b; });
  else v2(w, in, [](u32 a, u32 b) { return a - b; });
}
void v_subrev_u32(Wave &w, const Inst &in) {
  if (in.flags & IF_CLAMP) v2(w, in, [](u32 a, u32 b) { return b < a ? 0u : b - a; });
  else v2(w, in, [](u32 a, u32 b) { return b - a; });
}
void v_add_i32(Wave &w, const Inst &in) {
  if (in.flags & IF_CLAMP) v2(w, in, [](u32 a, u32 b) { return satI(i64(i32(a)) + i32(b)); });
  else v2(w, in, [](u32 a, u32 b) { return a + b; });
}
void v_sub_i32(Wave &w, const Inst &in) {
  if (in.flags & IF_CLAMP) v2(w, in, [](u32 a, u32 b) { return satI(i64(i32(a)) - i32(b)); });
  else v2(w, in, [](u32 a, u32 b) { return a - b; });
}

// Carry-out forms: vdst, sdst, src0, src1 [, carry-in mask].
template <int Kind, bool CarryIn> void carryOp(Wave &w, const Inst &in) {
  u32 t0[64], t1[64];
  const u32 *A = vget(w, in.src(0), t0), *B = vget(w, in.src(1), t1);
  u64 cin = CarryIn ? sget64(w, in.src(2)) : 0;
  u32 *D = vdst(w, in.dst(0));
  u64 mask = 0;
  bool clamp = in.flags & IF_CLAMP;
  forLanes(w.exec(), [&](unsigned l) {
    u64 c = (cin >> l) & 1;
    u64 a = A[l], b = B[l], r;
    bool co;
    if (Kind == 0) { r = a + b + c; co = r >> 32; }
    else if (Kind == 1) { r = a - b - c; co = b + c > a; }
    else { r = b - a - c; co = a + c > b; }
    D[l] = clamp ? (co ? (Kind == 0 ? 0xffffffffu : 0u) : u32(r)) : u32(r);
    mask |= u64(co) << l;
  });
  sset64(w, in.dst(1), mask);
}

void v_cndmask_b32(Wave &w, const Inst &in) {
  u32 t0[64], t1[64];
  const u32 *A = vgetF32(w, in.src(0), t0), *B = vgetF32(w, in.src(1), t1);
  u64 m = sget64(w, in.src(2));
  u32 *D = vdst(w, in.dst());
  forLanes(w.exec(), [&](unsigned l) { D[l] = ((m >> l) & 1) ? B[l] : A[l]; });
}

void v_mbcnt_lo_u32_b32(Wave &w, const Inst &in) {
  u32 t0[64], t1[64];
  const u32 *A = vget(w, in.src(0), t0), *B = vget(w, in.src(1), t1);
  u32 *D = vdst(w, in.dst());
  forLanes(w.exec(), [&](unsigned l) {
    u32 below = l >= 32 ? ~0u : ((1u << l) - 1);
    D[l] = u32(__builtin_popcount(A[l] & below)) + B[l];
  });
}
void v_mbcnt_hi_u32_b32(Wave &w, const Inst &in) {
  u32 t0[64], t1[64];
  const u32 *A = vget(w, in.src(0), t0), *B = vget(w, in.src(1), t1);
  u32 *D = vdst(w, in.dst());
  forLanes(w.exec(), [&](unsigned l) {
    u32 below = l < 32 ? 0u : (l == 64 ? ~0u : u32(((1ull << l) - 1) >> 32));
    D[l] = u32(__builtin_popcount(A[l] & below)) + B[l];
  });
}

void v_readlane_b32(Wave &w, const Inst &in) {
  u32 t0[64];
  const u32 *A = vget(w, in.src(0), t0);
  sset(w, in.dst(), A[sget(w, in.src(1)) & 63]);
}
void v_readfirstlane_b32(Wave &w, const Inst &in) {
  u32 t0[64];
  const u32 *A = vget(w, in.src(0), t0);
  u64 e = w.exec();
  sset(w, in.dst(), A[e ? __builtin_ctzll(e) : 0]);
}
void v_writelane_b32(Wave &w, const Inst &in) {
  vdst(w, in.dst())[sget(w, in.src(1)) & 63] = sget(w, in.src(0));
}

void v_mov_b64(Wave &w, const Inst &in) {
  u64 t[64];
  vget64(w, in.src(0), t);
  forLanes(w.exec(), [&](unsigned l) { vset64(w, in.dst(), l, t[l]); });
}
void v_swap_b32(Wave &w, const Inst &in) {
  u32 *A = vdst(w, in.op[0]), *B = vdst(w, in.op[1]);
  forLanes(w.exec(), [&](unsigned l) { std::swap(A[l], B[l]); });
}

// 64-bit shifts and address math.
template <int Kind> void shift64(Wave &w, const Inst &in) {
  u32 t0[64];
  u64 b[64];
  const u32 *A = vget(w, in.src(0), t0);
  vget64(w, in.src(1), b);
  forLanes(w.exec(), [&](unsigned l) {
    unsigned s = A[l] & 63;
    u64 r = Kind == 0 ? b[l] << s : Kind == 1 ? b[l] >> s : u64(i64(b[l]) >> s);
    vset64(w, in.dst(), l, r);
  });
}
void v_lshl_add_u64(Wave &w, const Inst &in) {
  u64 a[64], c[64];
  u32 t1[64];
  vget64(w, in.src(0), a);
  const u32 *B = vget(w, in.src(1), t1);
  vget64(w, in.src(2), c);
  forLanes(w.exec(), [&](unsigned l) { vset64(w, in.dst(), l, (a[l] << (B[l] & 63)) + c[l]); });
}
template <bool Signed> void madMix64(Wave &w, const Inst &in) {
  // vdst(64), sdst(carry), src0(32), src1(32), src2(64)
  u32 t0[64], t1[64];
  u64 c[64];
  const u32 *A = vget(w, in.src(0), t0), *B = vget(w, in.src(1), t1);
  vget64(w, in.src(2), c);
  u64 mask = 0;
  forLanes(w.exec(), [&](unsigned l) {
    unsigned __int128 p;
    bool carry;
    if (Signed) {
      __int128 s = __int128(i64(i32(A[l])) * i64(i32(B[l]))) + __int128(i64(c[l]));
      p = (unsigned __int128)s;
      carry = s > __int128(INT64_MAX) || s < __int128(INT64_MIN);
    } else {
      p = (unsigned __int128)(u64(A[l]) * B[l]) + c[l];
      carry = (p >> 64) != 0;
    }
    vset64(w, in.dst(0), l, u64(p));
    mask |= u64(carry) << l;
  });
  sset64(w, in.dst(1), mask);
}

void v_accvgpr_read_b32(Wave &w, const Inst &in) { v1(w, in, [](u32 a) { return a; }); }
void v_accvgpr_write_b32(Wave &w, const Inst &in) { v1(w, in, [](u32 a) { return a; }); }

} // namespace

void registerVALUInt(SemTable &t) {
  const uint16_t B32 = tys(Ty::B32);
  // Only the additions (and carry forms) implement clamp (saturation).
  auto v = [&](const char *n, SemFn f, uint8_t ndst = 1, uint16_t ty = tys(Ty::B32),
               uint16_t flags = 0) {
    llvm::StringRef name(n);
    bool clampOk = name.starts_with("v_add") || name.starts_with("v_sub") ||
                   name == "v_cndmask_b32";
    t.push_back({n, f, ndst, ICls::VALU, uint16_t(flags | (clampOk ? 0 : SF_NO_CLAMP)), ty});
  };
#define R(N) v(#N, N);
  R(v_mov_b32) R(v_not_b32) R(v_bfrev_b32) R(v_ffbh_u32) R(v_ffbl_b32) R(v_ffbh_i32)
  R(v_and_b32) R(v_or_b32) R(v_xor_b32) R(v_xnor_b32) R(v_lshlrev_b32) R(v_lshrrev_b32)
  R(v_ashrrev_i32) R(v_min_i32) R(v_max_i32) R(v_min_u32) R(v_max_u32) R(v_mul_i32_i24)
  R(v_mul_hi_i32_i24) R(v_mul_u32_u24) R(v_mul_hi_u32_u24) R(v_mul_lo_u32) R(v_mul_hi_u32)
  R(v_mul_hi_i32) R(v_bcnt_u32_b32) R(v_bfm_b32) R(v_bfe_u32) R(v_bfe_i32) R(v_bfi_b32)
  R(v_alignbit_b32) R(v_alignbyte_b32) R(v_lshl_add_u32) R(v_add_lshl_u32) R(v_add3_u32)
  R(v_lshl_or_b32) R(v_and_or_b32) R(v_or3_b32) R(v_xad_u32) R(v_mad_u32_u24)
  R(v_mad_i32_i24) R(v_min3_i32) R(v_max3_i32) R(v_min3_u32) R(v_max3_u32) R(v_med3_i32)
  R(v_med3_u32) R(v_perm_b32) R(v_sad_u8) R(v_sad_hi_u8) R(v_sad_u16) R(v_sad_u32)
  R(v_msad_u8) R(v_lerp_u8) R(v_add_u32) R(v_sub_u32) R(v_subrev_u32) R(v_add_i32)
  R(v_sub_i32) R(v_mbcnt_lo_u32_b32) R(v_mbcnt_hi_u32_b32) R(v_readlane_b32)
  R(v_readfirstlane_b32) R(v_writelane_b32)
#undef R
  v("v_cndmask_b32", v_cndmask_b32, 1, tys(Ty::F32));
  v("v_add_co_u32", carryOp<0, false>, 2, B32);
  v("v_sub_co_u32", carryOp<1, false>, 2, B32);
  v("v_subrev_co_u32", carryOp<2, false>, 2, B32);
  v("v_addc_co_u32", carryOp<0, true>, 2, B32);
  v("v_subb_co_u32", carryOp<1, true>, 2, B32);
  v("v_subbrev_co_u32", carryOp<2, true>, 2, B32);
  v("v_mov_b64", v_mov_b64, 1, tys(Ty::B64));
  v("v_swap_b32", v_swap_b32, 2, B32, SF_READS_DST);
  v("v_lshlrev_b64", shift64<0>, 1, tys(Ty::B32, Ty::B64));
  v("v_lshrrev_b64", shift64<1>, 1, tys(Ty::B32, Ty::B64));
  v("v_ashrrev_i64", shift64<2>, 1, tys(Ty::B32, Ty::I64));
  v("v_lshl_add_u64", v_lshl_add_u64, 1, tys(Ty::B64, Ty::B32, Ty::B64));
  v("v_mad_u64_u32", madMix64<false>, 2, tys(Ty::B32, Ty::B32, Ty::B64));
  v("v_mad_i64_i32", madMix64<true>, 2, tys(Ty::B32, Ty::B32, Ty::I64));
  v("v_accvgpr_read_b32", v_accvgpr_read_b32);
  v("v_accvgpr_write_b32", v_accvgpr_write_b32);
  v("v_accvgpr_mov_b32", v_accvgpr_read_b32);
}

} // namespace aster::emu
