//===- SemVOP3P.cpp - packed math, dot products, mixed precision ----------===//
//
// Packed 16-bit operations: for source i the low lane reads the half that
// op_sel[i] selects and the high lane the half that op_sel_hi[i] selects;
// neg_lo/neg_hi negate float halves. Packed f32 operations do the same with
// the two registers of a 64-bit source.
//
//===----------------------------------------------------------------------===//
#include "emulator/Semantics.h"

#include <cmath>

namespace aster::emu {

namespace {


/// The two 16-bit halves (lo result lane, hi result lane) source i feeds.
EMU_INLINE void halves(const Inst &in, unsigned i, u32 v, bool isFloat, u16 &lo, u16 &hi) {
  lo = u16((in.opsel >> i) & 1 ? v >> 16 : v);
  hi = u16((in.opselHi >> i) & 1 ? v >> 16 : v);
  if (isFloat) {
    if ((in.negLo >> i) & 1) lo ^= 0x8000;
    if ((in.negHi >> i) & 1) hi ^= 0x8000;
  }
}

template <bool Float, unsigned N, class F> EMU_INLINE void pk16(Wave &w, const Inst &in, F f) {
  u32 t[3][64];
  const u32 *S[3];
  for (unsigned i = 0; i < N; ++i)
    S[i] = vget(w, in.src(i), t[i]);
  u32 *D = vdst(w, in.dst());
  bool clamp = in.flags & IF_CLAMP;
  forLanes(w.exec(), [&](unsigned l) {
    u16 lo[3] = {}, hi[3] = {};
    for (unsigned i = 0; i < N; ++i)
      halves(in, i, S[i][l], Float, lo[i], hi[i]);
    D[l] = u32(f(lo, clamp)) | u32(f(hi, clamp)) << 16;
  });
}

EMU_INLINE float h(u16 x) { return f16ToF32(x); }
EMU_INLINE u16 hf(float f, bool clamp) {
  if (clamp)
    f = !(f >= 0.0f) ? 0.0f : (f > 1.0f ? 1.0f : f);
  return f32ToF16(f);
}
EMU_INLINE u16 su(int v, bool c) { return c ? u16(v < 0 ? 0 : v > 0xffff ? 0xffff : v) : u16(v); }
EMU_INLINE u16 ss(int v, bool c) {
  return c ? u16(i16(v < -32768 ? -32768 : v > 32767 ? 32767 : v)) : u16(v);
}

#define PK(N, FL, NS, E)                                                       \
  void N(Wave &w, const Inst &in) {                                            \
    pk16<FL, NS>(w, in, [](const u16 *s, bool c) -> u16 { (void)c; return E; }); \
  }
PK(v_pk_add_f16, true, 2, hf(h(s[0]) + h(s[1]), c))
PK(v_pk_mul_f16, true, 2, hf(h(s[0]) * h(s[1]), c))
PK(v_pk_min_f16, true, 2, hf(fmin_(h(s[0]), h(s[1])), c))
PK(v_pk_max_f16, true, 2, hf(fmax_(h(s[0]), h(s[1])), c))
PK(v_pk_minimum3_f16, true, 3, hf(fminimum_(fminimum_(h(s[0]), h(s[1])), h(s[2])), c))  // gfx950
PK(v_pk_maximum3_f16, true, 3, hf(fmaximum_(fmaximum_(h(s[0]), h(s[1])), h(s[2])), c))  // gfx950
PK(v_pk_fma_f16, true, 3,
   c ? hf(h(f64ToF16(std::fma(double(h(s[0])), double(h(s[1])), double(h(s[2]))))), true)
     : f64ToF16(std::fma(double(h(s[0])), double(h(s[1])), double(h(s[2])))))
PK(v_pk_add_u16, false, 2, su(int(s[0]) + s[1], c))
PK(v_pk_sub_u16, false, 2, su(int(s[0]) - s[1], c))
PK(v_pk_add_i16, false, 2, ss(int(i16(s[0])) + i16(s[1]), c))
PK(v_pk_sub_i16, false, 2, ss(int(i16(s[0])) - i16(s[1]), c))
PK(v_pk_mul_lo_u16, false, 2, u16(s[0] * s[1]))
PK(v_pk_mad_u16, false, 3, su(int(u32(s[0]) * s[1] + s[2]), c))
PK(v_pk_mad_i16, false, 3, ss(int(i16(s[0])) * i16(s[1]) + i16(s[2]), c))
PK(v_pk_lshlrev_b16, false, 2, u16(s[1] << (s[0] & 15)))
PK(v_pk_lshrrev_b16, false, 2, u16(s[1] >> (s[0] & 15)))
PK(v_pk_ashrrev_i16, false, 2, u16(i16(s[1]) >> (s[0] & 15)))
PK(v_pk_max_u16, false, 2, s[0] > s[1] ? s[0] : s[1])
PK(v_pk_min_u16, false, 2, s[0] < s[1] ? s[0] : s[1])
PK(v_pk_max_i16, false, 2, i16(s[0]) > i16(s[1]) ? s[0] : s[1])
PK(v_pk_min_i16, false, 2, i16(s[0]) < i16(s[1]) ? s[0] : s[1])
#undef PK

/// v_pk_fmac_f16 (VOP2): both halves D = fma(S0, S1, D).
void v_pk_fmac_f16(Wave &w, const Inst &in) {
  u32 t0[64], t1[64];
  const u32 *A = vget(w, in.src(0), t0), *B = vget(w, in.src(1), t1);
  u32 *D = vdst(w, in.dst());
  forLanes(w.exec(), [&](unsigned l) {
    u32 r = 0;
    for (unsigned hh = 0; hh < 2; ++hh) {
      unsigned sh = 16 * hh;
      double p = double(h(u16(A[l] >> sh))) * h(u16(B[l] >> sh));
      r |= u32(f64ToF16(p + h(u16(D[l] >> sh)))) << sh;
    }
    D[l] = r;
  });
}

// Packed f32: each source is a register pair.
template <unsigned N, class F> EMU_INLINE void pk32(Wave &w, const Inst &in, F f) {
  u32 t[3][2][64];
  const u32 *S[3][2];
  for (unsigned i = 0; i < N; ++i)
    for (unsigned k = 0; k < 2; ++k)
      S[i][k] = vget(w, in.src(i), t[i][k], k);
  bool clamp = in.flags & IF_CLAMP;
  forLanes(w.exec(), [&](unsigned l) {
    float lo[3], hi[3];
    for (unsigned i = 0; i < N; ++i) {
      u32 a = S[i][(in.opsel >> i) & 1][l], b = S[i][(in.opselHi >> i) & 1][l];
      if ((in.negLo >> i) & 1) a ^= 0x80000000u;
      if ((in.negHi >> i) & 1) b ^= 0x80000000u;
      lo[i] = u2f(a);
      hi[i] = u2f(b);
    }
    float r0 = f(lo), r1 = f(hi);
    if (clamp) {
      r0 = !(r0 >= 0.0f) ? 0.0f : (r0 > 1.0f ? 1.0f : r0);
      r1 = !(r1 >= 0.0f) ? 0.0f : (r1 > 1.0f ? 1.0f : r1);
    }
    vdst(w, in.dst(), 0)[l] = f2u(r0);
    vdst(w, in.dst(), 1)[l] = f2u(r1);
  });
}
void v_pk_fma_f32(Wave &w, const Inst &in) {
  pk32<3>(w, in, [](const float *s) { return std::fma(s[0], s[1], s[2]); });
}
void v_pk_mul_f32(Wave &w, const Inst &in) {
  pk32<2>(w, in, [](const float *s) { return s[0] * s[1]; });
}
void v_pk_add_f32(Wave &w, const Inst &in) {
  pk32<2>(w, in, [](const float *s) { return s[0] + s[1]; });
}
void v_pk_mov_b32(Wave &w, const Inst &in) {
  // D.lo = src0[op_sel[0]], D.hi = src1[op_sel[1]]
  u32 t[2][2][64];
  const u32 *S[2][2];
  for (unsigned i = 0; i < 2; ++i)
    for (unsigned k = 0; k < 2; ++k)
      S[i][k] = vget(w, in.src(i), t[i][k], k);
  forLanes(w.exec(), [&](unsigned l) {
    u32 lo = S[0][in.opsel & 1][l], hi = S[1][(in.opsel >> 1) & 1][l];
    vdst(w, in.dst(), 0)[l] = lo;
    vdst(w, in.dst(), 1)[l] = hi;
  });
}

// Dot products. VOP3P forms: D = dot(S0, S1) + S2; VOP2 "c" forms: D += dot.
template <int Kind> EMU_INLINE u32 dot(u32 a, u32 b, u32 c, bool clamp) {
  switch (Kind) {
  case 0: {  // f32 += f16 x2
    double s = double(h(u16(a))) * h(u16(b)) + double(h(u16(a >> 16))) * h(u16(b >> 16));
    float r = float(s + double(u2f(c)));
    if (clamp) r = !(r >= 0.0f) ? 0.0f : (r > 1.0f ? 1.0f : r);
    return f2u(r);
  }
  case 1: {  // i32 += i16 x2
    int64_t s = int64_t(i16(a)) * i16(b) + int64_t(i16(a >> 16)) * i16(b >> 16) + int32_t(c);
    if (clamp) s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
    return u32(s);
  }
  case 2: {  // u32 += u16 x2
    u64 s = u64(u16(a)) * u16(b) + u64(a >> 16) * (b >> 16) + c;
    if (clamp && s > 0xffffffffull) s = 0xffffffffull;
    return u32(s);
  }
  case 3: case 4: {  // i32/u32 += 8-bit x4
    int64_t s = Kind == 3 ? int64_t(int32_t(c)) : int64_t(c);
    for (unsigned k = 0; k < 4; ++k) {
      u32 x = (a >> (8 * k)) & 0xff, y = (b >> (8 * k)) & 0xff;
      s += Kind == 3 ? int64_t(int8_t(x)) * int8_t(y) : int64_t(x) * y;
    }
    if (clamp)
      s = Kind == 3 ? (s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s)
                    : (s > 0xffffffffll ? 0xffffffffll : s);
    return u32(s);
  }
  case 5: case 6: {  // i32/u32 += 4-bit x8
    int64_t s = Kind == 5 ? int64_t(int32_t(c)) : int64_t(c);
    for (unsigned k = 0; k < 8; ++k) {
      u32 x = (a >> (4 * k)) & 0xf, y = (b >> (4 * k)) & 0xf;
      s += Kind == 5 ? int64_t(int32_t(x << 28) >> 28) * (int32_t(y << 28) >> 28)
                     : int64_t(x) * y;
    }
    if (clamp)
      s = Kind == 5 ? (s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s)
                    : (s > 0xffffffffll ? 0xffffffffll : s);
    return u32(s);
  }
  default: {  // f32 += bf16 x2
    float s = bf16ToF32(u16(a)) * bf16ToF32(u16(b)) + bf16ToF32(u16(a >> 16)) * bf16ToF32(u16(b >> 16));
    return f2u(s + u2f(c));
  }
  }
}
/// Applies op_sel/neg modifiers of packed-16 sources for the f16 dot.
EMU_INLINE u32 pkSrc(const Inst &in, unsigned i, u32 v, bool isFloat) {
  u16 lo, hi;
  halves(in, i, v, isFloat, lo, hi);
  return u32(lo) | u32(hi) << 16;
}
template <int Kind> void dot3(Wave &w, const Inst &in) {
  u32 t0[64], t1[64], t2[64];
  const u32 *A = vget(w, in.src(0), t0), *B = vget(w, in.src(1), t1), *C = vget(w, in.src(2), t2);
  u32 *D = vdst(w, in.dst());
  bool fl = Kind == 0 || Kind == 7, clamp = in.flags & IF_CLAMP;
  forLanes(w.exec(), [&](unsigned l) {
    D[l] = dot<Kind>(pkSrc(in, 0, A[l], fl), pkSrc(in, 1, B[l], fl), C[l], clamp);
  });
}
template <int Kind> void dot2c(Wave &w, const Inst &in) {
  u32 t0[64], t1[64];
  const u32 *A = vget(w, in.src(0), t0), *B = vget(w, in.src(1), t1);
  u32 *D = vdst(w, in.dst());
  bool clamp = in.flags & IF_CLAMP;
  forLanes(w.exec(), [&](unsigned l) { D[l] = dot<Kind>(A[l], B[l], D[l], clamp); });
}

// Mixed precision: source i is f16 (half op_sel[i]) when op_sel_hi[i], else f32.
EMU_INLINE float mixSrc(const Inst &in, unsigned i, u32 v, uint8_t mods) {
  float f = (in.opselHi >> i) & 1 ? h(u16((in.opsel >> i) & 1 ? v >> 16 : v)) : u2f(v);
  if (mods & MOD_ABS) f = std::fabs(f);
  if (mods & MOD_NEG) f = -f;
  return f;
}
/// v_fma_mix_f32 / v_fma_mixlo_f16 / v_fma_mixhi_f16: fma(a, b, c) rounded
/// to f32 (clamped to [0, 1] with clamp), and for the 16-bit forms that f32
/// converted to f16, a second rounding, into the low or high half (the other
/// half kept). LLVM's AMDGPU backend relies on exactly these two roundings:
/// llvm-project PR #219723 ("V_MAD/FMA_MIX{LO,HI} compute the multiply or
/// multiply-add in f32, round that to f32, and then convert the f32 result
/// to the 16-bit destination. That is the same pair of roundings the IR
/// performs") and PR #224913 (fpround of fadd/fsub folded into mixlo/mixhi,
/// "it stays f32_to_f16(fma(x, 1.0, y))"); clang-22 selects them for
/// `(_Float16)((float)a * b)` and `(_Float16)fmaf(a, b, c)`
/// (tests/py/test_emu_fma_mix.py).
template <int Out> void fmaMix(Wave &w, const Inst &in) {
  u32 t0[64], t1[64], t2[64];
  const u32 *A = vget(w, in.src(0), t0), *B = vget(w, in.src(1), t1), *C = vget(w, in.src(2), t2);
  u32 *D = vdst(w, in.dst());
  bool clamp = in.flags & IF_CLAMP;
  forLanes(w.exec(), [&](unsigned l) {
    float r = std::fma(mixSrc(in, 0, A[l], in.src(0).mods), mixSrc(in, 1, B[l], in.src(1).mods),
                       mixSrc(in, 2, C[l], in.src(2).mods));
    if (clamp) r = !(r >= 0.0f) ? 0.0f : (r > 1.0f ? 1.0f : r);
    if (Out == 0) D[l] = f2u(r);
    else if (Out == 1) D[l] = (D[l] & 0xffff0000u) | f32ToF16(r);
    else D[l] = (D[l] & 0xffffu) | u32(f32ToF16(r)) << 16;
  });
}

} // namespace

void registerVOP3P(SemTable &t) {
  auto v = [&](const char *n, SemFn f, uint16_t ty, uint16_t fl) {
    t.push_back({n, f, 1, ICls::VALU, uint16_t(fl | SF_NO_SDWA), ty});
  };
  const uint16_t PKF = tys(Ty::PK16F), PKI = tys(Ty::PK16I), PKF32 = tys(Ty::PKF32);
#define F(N) v(#N, N, PKF, SF_PACKED);
#define I(N) v(#N, N, PKI, SF_PACKED);
  F(v_pk_add_f16) F(v_pk_mul_f16) F(v_pk_min_f16) F(v_pk_max_f16) F(v_pk_fma_f16)
  F(v_pk_minimum3_f16) F(v_pk_maximum3_f16)
  I(v_pk_add_u16) I(v_pk_sub_u16) I(v_pk_add_i16) I(v_pk_sub_i16) I(v_pk_mul_lo_u16)
  I(v_pk_mad_u16) I(v_pk_mad_i16) I(v_pk_lshlrev_b16) I(v_pk_lshrrev_b16)
  I(v_pk_ashrrev_i16) I(v_pk_max_u16) I(v_pk_min_u16) I(v_pk_max_i16) I(v_pk_min_i16)
#undef F
#undef I
  v("v_pk_fma_f32", v_pk_fma_f32, PKF32, SF_PACKED);
  v("v_pk_mul_f32", v_pk_mul_f32, PKF32, SF_PACKED);
  v("v_pk_add_f32", v_pk_add_f32, PKF32, SF_PACKED);
  v("v_pk_mov_b32", v_pk_mov_b32, PKF32, SF_PACKED);
  v("v_dot2_f32_f16", dot3<0>, tys(Ty::PK16F, Ty::PK16F, Ty::F32), SF_PACKED);
  v("v_dot2_i32_i16", dot3<1>, tys(Ty::PK16I, Ty::PK16I, Ty::B32), SF_PACKED);
  v("v_dot2_u32_u16", dot3<2>, tys(Ty::PK16I, Ty::PK16I, Ty::B32), SF_PACKED);
  v("v_dot4_i32_i8", dot3<3>, tys(Ty::B32), SF_PACKED);
  v("v_dot4_u32_u8", dot3<4>, tys(Ty::B32), SF_PACKED);
  v("v_dot8_i32_i4", dot3<5>, tys(Ty::B32), SF_PACKED);
  v("v_dot8_u32_u4", dot3<6>, tys(Ty::B32), SF_PACKED);
  v("v_dot2_f32_bf16", dot3<7>, tys(Ty::B32), SF_PACKED);
  auto c = [&](const char *n, SemFn f, uint16_t ty) {
    t.push_back({n, f, 1, ICls::VALU, SF_READS_DST, ty});
  };
  c("v_dot2c_f32_f16", dot2c<0>, tys(Ty::PK16F));
  c("v_pk_fmac_f16", v_pk_fmac_f16, tys(Ty::PK16F));
  c("v_dot2c_i32_i16", dot2c<1>, tys(Ty::PK16I));
  c("v_dot4c_i32_i8", dot2c<3>, tys(Ty::B32));
  c("v_dot8c_i32_i4", dot2c<5>, tys(Ty::B32));
  c("v_dot2c_f32_bf16", dot2c<7>, tys(Ty::B32));
  v("v_fma_mix_f32", fmaMix<0>, tys(Ty::F32), SF_MIX);
  v("v_fma_mixlo_f16", fmaMix<1>, tys(Ty::F32), SF_MIX);
  v("v_fma_mixhi_f16", fmaMix<2>, tys(Ty::F32), SF_MIX);
}

} // namespace aster::emu
