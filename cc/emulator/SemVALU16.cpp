//===- SemVALU16.cpp - vector ALU: 16-bit float and integer operations ----===//
//
// gfx9 rules: the result goes to the low half and zeroes the high half,
// except v_mac/v_fmac_f16 which keep it; with VOP3 op_sel[3] the result goes
// to the high half and the low half is kept. op_sel[i] reads the high half
// of source i.
//
//===----------------------------------------------------------------------===//
#include "emulator/Semantics.h"

#include "llvm/ADT/StringRef.h"

#include <cmath>

namespace aster::emu {

namespace {


template <bool Float, bool Preserve, class F> EMU_INLINE void h1(Wave &w, const Inst &in, F f) {
  u32 t0[64];
  const u32 *A = vget16(w, in.src(0), t0, in.opsel & 1, Float);
  u32 *D = vdst(w, in.dst());
  bool hi = in.opsel & 8;
  forLanes(w.exec(), [&](unsigned l) {
    u16 r = f(u16(A[l]));
    if (Float)
      r = finishF16(in, r);
    write16(D[l], r, hi, Preserve);
  });
}
template <bool Float, bool Preserve, class F> EMU_INLINE void h2(Wave &w, const Inst &in, F f) {
  u32 t0[64], t1[64];
  const u32 *A = vget16(w, in.src(0), t0, in.opsel & 1, Float);
  const u32 *B = vget16(w, in.src(1), t1, in.opsel & 2, Float);
  u32 *D = vdst(w, in.dst());
  bool hi = in.opsel & 8;
  forLanes(w.exec(), [&](unsigned l) {
    u16 r = f(u16(A[l]), u16(B[l]), D[l]);
    if (Float)
      r = finishF16(in, r);
    write16(D[l], r, hi, Preserve);
  });
}
template <bool Float, class F> EMU_INLINE void h3(Wave &w, const Inst &in, F f) {
  u32 t0[64], t1[64], t2[64];
  const u32 *A = vget16(w, in.src(0), t0, in.opsel & 1, Float);
  const u32 *B = vget16(w, in.src(1), t1, in.opsel & 2, Float);
  const u32 *C = vget16(w, in.src(2), t2, in.opsel & 4, Float);
  u32 *D = vdst(w, in.dst());
  bool hi = in.opsel & 8;
  forLanes(w.exec(), [&](unsigned l) {
    u16 r = f(u16(A[l]), u16(B[l]), u16(C[l]));
    if (Float)
      r = finishF16(in, r);
    write16(D[l], r, hi, false);
  });
}

EMU_INLINE float h2f(u16 h) { return f16ToF32(h); }
EMU_INLINE u16 f2h(float f) { return f32ToF16(f); }


#define HF1(N, E)                                                              \
  void N(Wave &w, const Inst &in) {                                            \
    h1<true, false>(w, in, [](u16 x) -> u16 { float a = h2f(x); return f2h(E); }); \
  }
#define HF2(N, E)                                                              \
  void N(Wave &w, const Inst &in) {                                            \
    h2<true, false>(w, in, [](u16 x, u16 y, u32) -> u16 {                      \
      float a = h2f(x), b = h2f(y);                                            \
      return f2h(E);                                                           \
    });                                                                        \
  }
#define HF3(N, E)                                                              \
  void N(Wave &w, const Inst &in) {                                            \
    h3<true>(w, in, [](u16 x, u16 y, u16 z) -> u16 {                           \
      float a = h2f(x), b = h2f(y), c = h2f(z);                                \
      return E;                                                                \
    });                                                                        \
  }
#define HI2(N, E)                                                              \
  void N(Wave &w, const Inst &in) {                                            \
    h2<false, false>(w, in, [](u16 a, u16 b, u32) -> u16 { return u16(E); }); \
  }
#define HI3(N, E)                                                              \
  void N(Wave &w, const Inst &in) {                                            \
    h3<false>(w, in, [](u16 a, u16 b, u16 c) -> u16 { return u16(E); });       \
  }

HF2(v_add_f16, a + b)
HF2(v_sub_f16, a - b)
HF2(v_subrev_f16, b - a)
HF2(v_mul_f16, a * b)
HF2(v_max_f16, fmax_(a, b))
HF2(v_min_f16, fmin_(a, b))
HF3(v_fma_f16, f64ToF16(std::fma(double(a), double(b), double(c))))
HF3(v_mad_f16, f2h(a * b + c))
HF3(v_min3_f16, f2h(fmin_(fmin_(a, b), c)))
HF3(v_max3_f16, f2h(fmax_(fmax_(a, b), c)))
HF3(v_med3_f16, f2h((a != a || b != b || c != c) ? fmin_(fmin_(a, b), c)
                                                 : fmax_(fmin_(a, b), fmin_(fmax_(a, b), c))))
HF1(v_rcp_f16, 1.0f / a)
HF1(v_sqrt_f16, std::sqrt(a))
HF1(v_rsq_f16, 1.0f / std::sqrt(a))
HF1(v_log_f16, std::log2(a))
HF1(v_exp_f16, std::exp2(a))
HF1(v_floor_f16, std::floor(a))
HF1(v_ceil_f16, std::ceil(a))
HF1(v_trunc_f16, std::trunc(a))
HF1(v_rndne_f16, std::nearbyint(a))
HF1(v_fract_f16, std::isinf(a) ? std::nanf("") : std::fmin(a - std::floor(a), 0x1.ffcp-1f))
HF1(v_sin_f16, float(std::sin((double(a) - std::floor(double(a))) * 6.283185307179586)))
HF1(v_cos_f16, float(std::cos((double(a) - std::floor(double(a))) * 6.283185307179586)))
HF1(v_frexp_mant_f16, std::isfinite(a) ? [](float v) { int e; return std::frexp(v, &e); }(a)
                                       : std::nanf(""))

void v_frexp_exp_i16_f16(Wave &w, const Inst &in) {
  h1<false, false>(w, in, [](u16 x) -> u16 {
    float a = h2f(x);
    int e = 0;
    if (std::isfinite(a))
      std::frexp(a, &e);
    return u16(e);
  });
}
void v_ldexp_f16(Wave &w, const Inst &in) {
  h2<true, false>(w, in, [](u16 x, u16 y, u32) -> u16 {
    return f2h(std::ldexp(h2f(x), int(i16(y))));
  });
}
/// v_mac_f16: D.lo = S0 * S1 + D.lo; the high half is kept.
void v_mac_f16(Wave &w, const Inst &in) {
  h2<true, true>(w, in, [](u16 x, u16 y, u32 d) -> u16 {
    return f2h(h2f(x) * h2f(y) + h2f(u16(d)));
  });
}
void v_div_fixup_f16(Wave &w, const Inst &in) {
  h3<true>(w, in, [](u16 q, u16 d, u16 n) -> u16 {
    float fq = h2f(q), fd = h2f(d), fn = h2f(n);
    bool neg = ((d ^ n) & 0x8000) != 0;
    if (fn != fn || fd != fd) return 0x7e00;
    if ((fd == 0 && fn == 0) || (std::isinf(fd) && std::isinf(fn))) return 0x7e00;
    if (fd == 0 || std::isinf(fn)) return neg ? 0xfc00 : 0x7c00;
    if (std::isinf(fd) || fn == 0) return neg ? 0x8000 : 0;
    return u16((q & 0x7fff) | (neg ? 0x8000 : 0));
  });
}

// Integer 16-bit.
u16 sat16u(int v) { return u16(v < 0 ? 0 : v > 0xffff ? 0xffff : v); }
u16 sat16s(int v) { return u16(v < -32768 ? -32768 : v > 32767 ? 32767 : v); }
void v_add_u16(Wave &w, const Inst &in) {
  if (in.flags & IF_CLAMP)
    h2<false, false>(w, in, [](u16 a, u16 b, u32) { return sat16u(int(a) + b); });
  else
    h2<false, false>(w, in, [](u16 a, u16 b, u32) { return u16(a + b); });
}
void v_sub_u16(Wave &w, const Inst &in) {
  if (in.flags & IF_CLAMP)
    h2<false, false>(w, in, [](u16 a, u16 b, u32) { return sat16u(int(a) - b); });
  else
    h2<false, false>(w, in, [](u16 a, u16 b, u32) { return u16(a - b); });
}
void v_subrev_u16(Wave &w, const Inst &in) {
  if (in.flags & IF_CLAMP)
    h2<false, false>(w, in, [](u16 a, u16 b, u32) { return sat16u(int(b) - a); });
  else
    h2<false, false>(w, in, [](u16 a, u16 b, u32) { return u16(b - a); });
}
void v_add_i16(Wave &w, const Inst &in) {
  if (in.flags & IF_CLAMP)
    h2<false, false>(w, in, [](u16 a, u16 b, u32) { return sat16s(int(i16(a)) + i16(b)); });
  else
    h2<false, false>(w, in, [](u16 a, u16 b, u32) { return u16(a + b); });
}
void v_sub_i16(Wave &w, const Inst &in) {
  if (in.flags & IF_CLAMP)
    h2<false, false>(w, in, [](u16 a, u16 b, u32) { return sat16s(int(i16(a)) - i16(b)); });
  else
    h2<false, false>(w, in, [](u16 a, u16 b, u32) { return u16(a - b); });
}
HI2(v_mul_lo_u16, a * b)
HI2(v_lshlrev_b16, b << (a & 15))
HI2(v_lshrrev_b16, b >> (a & 15))
HI2(v_ashrrev_i16, i16(b) >> (a & 15))
HI2(v_max_u16, a > b ? a : b)
HI2(v_min_u16, a < b ? a : b)
HI2(v_max_i16, i16(a) > i16(b) ? a : b)
HI2(v_min_i16, i16(a) < i16(b) ? a : b)
HI3(v_mad_u16, a * b + c)
HI3(v_mad_i16, i16(a) * i16(b) + i16(c))
HI3(v_min3_u16, std::min(std::min(a, b), c))
HI3(v_max3_u16, std::max(std::max(a, b), c))
HI3(v_med3_u16, std::max(std::min(a, b), std::min(std::max(a, b), c)))
HI3(v_min3_i16, std::min(std::min(i16(a), i16(b)), i16(c)))
HI3(v_max3_i16, std::max(std::max(i16(a), i16(b)), i16(c)))
HI3(v_med3_i16, std::max(std::min(i16(a), i16(b)), std::min(std::max(i16(a), i16(b)), i16(c))))

/// 16-bit sources, 32-bit result.
template <bool Signed> void mad32_16(Wave &w, const Inst &in) {
  u32 t0[64], t1[64], t2[64];
  const u32 *A = vget16(w, in.src(0), t0, in.opsel & 1, false);
  const u32 *B = vget16(w, in.src(1), t1, in.opsel & 2, false);
  const u32 *C = vget(w, in.src(2), t2);
  u32 *D = vdst(w, in.dst());
  forLanes(w.exec(), [&](unsigned l) {
    D[l] = Signed ? u32(int32_t(i16(A[l])) * int32_t(i16(B[l]))) + C[l]
                  : u32(A[l] & 0xffff) * (B[l] & 0xffff) + C[l];
  });
}
/// v_pack_b32_f16: two f16 halves into one register.
void v_pack_b32_f16(Wave &w, const Inst &in) {
  u32 t0[64], t1[64];
  const u32 *A = vget16(w, in.src(0), t0, in.opsel & 1, true);
  const u32 *B = vget16(w, in.src(1), t1, in.opsel & 2, true);
  u32 *D = vdst(w, in.dst());
  forLanes(w.exec(), [&](unsigned l) { D[l] = (A[l] & 0xffff) | (B[l] << 16); });
}

} // namespace

void registerVALU16(SemTable &t) {
  const uint16_t F16 = tys(Ty::F16), B16 = tys(Ty::B16);
  auto v = [&](const char *n, SemFn f, uint16_t ty, uint16_t fl = 0) {
    t.push_back({n, f, 1, ICls::VALU, fl, ty});
  };
#define F(N) v(#N, N, F16);
  F(v_add_f16) F(v_sub_f16) F(v_subrev_f16) F(v_mul_f16) F(v_max_f16) F(v_min_f16)
  F(v_fma_f16) F(v_mad_f16) F(v_min3_f16) F(v_max3_f16) F(v_med3_f16) F(v_rcp_f16)
  F(v_sqrt_f16) F(v_rsq_f16) F(v_log_f16) F(v_exp_f16) F(v_floor_f16) F(v_ceil_f16)
  F(v_trunc_f16) F(v_rndne_f16) F(v_fract_f16) F(v_sin_f16) F(v_cos_f16)
  F(v_frexp_mant_f16) F(v_frexp_exp_i16_f16) F(v_div_fixup_f16) F(v_pack_b32_f16)
#undef F
  v("v_ldexp_f16", v_ldexp_f16, tys(Ty::F16, Ty::B16));
  v("v_mac_f16", v_mac_f16, F16, SF_READS_DST);
#define I(N) v(#N, N, B16, llvm::StringRef(#N).contains("add") || llvm::StringRef(#N).contains("sub") ? 0 : SF_NO_CLAMP);
  I(v_add_u16) I(v_sub_u16) I(v_subrev_u16) I(v_add_i16) I(v_sub_i16) I(v_mul_lo_u16)
  I(v_lshlrev_b16) I(v_lshrrev_b16) I(v_ashrrev_i16) I(v_max_u16) I(v_min_u16) I(v_max_i16)
  I(v_min_i16) I(v_mad_u16) I(v_mad_i16) I(v_min3_u16) I(v_max3_u16) I(v_med3_u16)
  I(v_min3_i16) I(v_max3_i16) I(v_med3_i16)
#undef I
  v("v_mad_u32_u16", mad32_16<false>, tys(Ty::B16, Ty::B16, Ty::B32), SF_NO_CLAMP);
  v("v_mad_i32_i16", mad32_16<true>, tys(Ty::B16, Ty::B16, Ty::B32), SF_NO_CLAMP);
}

} // namespace aster::emu
