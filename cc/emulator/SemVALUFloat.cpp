//===- SemVALUFloat.cpp - vector ALU: f32 and f64 arithmetic --------------===//
#include "emulator/Semantics.h"

#include <cmath>

namespace aster::emu {

namespace {


// ---- f32 helpers ----
template <class F> EMU_INLINE void f1(Wave &w, const Inst &in, F f) {
  u32 t0[64];
  const u32 *A = vgetF32(w, in.src(0), t0);
  u32 *D = vdst(w, in.dst());
  u64 e = w.exec();
  forLanes(e, [&](unsigned l) { D[l] = f2u(f(u2f(A[l]))); });
  if (in.omod || (in.flags & IF_CLAMP))
    finishF32(in, D, e);
}
template <class F> EMU_INLINE void f2(Wave &w, const Inst &in, F f) {
  u32 t0[64], t1[64];
  const u32 *A = vgetF32(w, in.src(0), t0), *B = vgetF32(w, in.src(1), t1);
  u32 *D = vdst(w, in.dst());
  u64 e = w.exec();
  forLanes(e, [&](unsigned l) { D[l] = f2u(f(u2f(A[l]), u2f(B[l]))); });
  if (in.omod || (in.flags & IF_CLAMP))
    finishF32(in, D, e);
}
template <class F> EMU_INLINE void f3(Wave &w, const Inst &in, F f) {
  u32 t0[64], t1[64], t2[64];
  const u32 *A = vgetF32(w, in.src(0), t0), *B = vgetF32(w, in.src(1), t1),
            *C = vgetF32(w, in.src(2), t2);
  u32 *D = vdst(w, in.dst());
  u64 e = w.exec();
  forLanes(e, [&](unsigned l) { D[l] = f2u(f(u2f(A[l]), u2f(B[l]), u2f(C[l]))); });
  if (in.omod || (in.flags & IF_CLAMP))
    finishF32(in, D, e);
}

/// IEEE-mode min/max: a NaN operand yields the other one; -0 < +0.
/// Written with selects only so that the lane loops vectorize.
EMU_INLINE float fmin_(float a, float b) {
  float m = a < b ? a : b;
  m = a == b ? u2f(f2u(a) | f2u(b)) : m;
  m = a != a ? b : m;
  return b != b ? a : m;
}
EMU_INLINE float fmax_(float a, float b) {
  float m = a > b ? a : b;
  m = a == b ? u2f(f2u(a) & f2u(b)) : m;
  m = a != a ? b : m;
  return b != b ? a : m;
}
EMU_INLINE double fmin_(double a, double b) {
  double m = a < b ? a : b;
  m = a == b ? u2d(d2u(a) | d2u(b)) : m;
  m = a != a ? b : m;
  return b != b ? a : m;
}
EMU_INLINE double fmax_(double a, double b) {
  double m = a > b ? a : b;
  m = a == b ? u2d(d2u(a) & d2u(b)) : m;
  m = a != a ? b : m;
  return b != b ? a : m;
}
template <class T> EMU_INLINE T fmed3_(T a, T b, T c) {
  if (a != a || b != b || c != c)
    return fmin_(fmin_(a, b), c);
  return fmax_(fmin_(a, b), fmin_(fmax_(a, b), c));
}

// FMA loops, compiled for the host's FMA unit when it has one.
__attribute__((target_clones("fma", "default"))) void fmaLoop(const u32 *A, const u32 *B,
                                                               const u32 *C, u32 *D, u64 e) {
  if (e == ~0ull) {
    for (unsigned l = 0; l < 64; ++l)
      D[l] = f2u(__builtin_fmaf(u2f(A[l]), u2f(B[l]), u2f(C[l])));
    return;
  }
  while (e) {
    unsigned l = unsigned(__builtin_ctzll(e));
    e &= e - 1;
    D[l] = f2u(__builtin_fmaf(u2f(A[l]), u2f(B[l]), u2f(C[l])));
  }
}
__attribute__((target_clones("fma", "default"))) void fmaLoop64(const u64 *A, const u64 *B,
                                                                 const u64 *C, u64 *D, u64 e) {
  while (e) {
    unsigned l = unsigned(__builtin_ctzll(e));
    e &= e - 1;
    D[l] = d2u(__builtin_fma(u2d(A[l]), u2d(B[l]), u2d(C[l])));
  }
}

void v_fma_f32(Wave &w, const Inst &in) {
  u32 t0[64], t1[64], t2[64];
  const u32 *A = vgetF32(w, in.src(0), t0), *B = vgetF32(w, in.src(1), t1),
            *C = vgetF32(w, in.src(2), t2);
  u32 *D = vdst(w, in.dst());
  u64 e = w.exec();
  fmaLoop(A, B, C, D, e);
  if (in.omod || (in.flags & IF_CLAMP))
    finishF32(in, D, e);
}
/// v_fmac_f32: D = fma(S0, S1, D).
void v_fmac_f32(Wave &w, const Inst &in) {
  u32 t0[64], t1[64];
  const u32 *A = vgetF32(w, in.src(0), t0), *B = vgetF32(w, in.src(1), t1);
  u32 *D = vdst(w, in.dst());
  u64 e = w.exec();
  fmaLoop(A, B, D, D, e);
  if (in.omod || (in.flags & IF_CLAMP))
    finishF32(in, D, e);
}

#define F1(N, E) void N(Wave &w, const Inst &in) { f1(w, in, [](float a) -> float { return E; }); }
#define F2(N, E)                                                               \
  void N(Wave &w, const Inst &in) { f2(w, in, [](float a, float b) -> float { return E; }); }
#define F3(N, E)                                                               \
  void N(Wave &w, const Inst &in) {                                            \
    f3(w, in, [](float a, float b, float c) -> float { return E; });           \
  }

F2(v_add_f32, a + b)
F2(v_sub_f32, a - b)
F2(v_subrev_f32, b - a)
F2(v_mul_f32, a * b)
F2(v_mul_legacy_f32, (a == 0.0f || b == 0.0f) ? 0.0f : a * b)
/// IEEE min/max over the lanes: a plain compare-select for all lanes (which
/// vectorizes), then the exact rule only if some lane has a NaN or two zeros.
template <bool Max> void minmaxF32(Wave &w, const Inst &in) {
  u32 t0[64], t1[64];
  const u32 *A = vgetF32(w, in.src(0), t0), *B = vgetF32(w, in.src(1), t1);
  u32 *D = vdst(w, in.dst());
  u64 e = w.exec();
  float a[64], b[64], r[64];
  int special = 0;
  for (unsigned l = 0; l < 64; ++l) {
    a[l] = u2f(A[l]);
    b[l] = u2f(B[l]);
    r[l] = Max ? (a[l] > b[l] ? a[l] : b[l]) : (a[l] < b[l] ? a[l] : b[l]);
    special |= (a[l] != a[l]) | (b[l] != b[l]) | (a[l] == b[l]);
  }
  if (special)
    for (unsigned l = 0; l < 64; ++l)
      r[l] = Max ? fmax_(a[l], b[l]) : fmin_(a[l], b[l]);
  forLanes(e, [&](unsigned l) { D[l] = f2u(r[l]); });
  if (in.omod || (in.flags & IF_CLAMP))
    finishF32(in, D, e);
}
void v_min_f32(Wave &w, const Inst &in) { minmaxF32<false>(w, in); }
void v_max_f32(Wave &w, const Inst &in) { minmaxF32<true>(w, in); }
F3(v_min3_f32, fmin_(fmin_(a, b), c))
F3(v_max3_f32, fmax_(fmax_(a, b), c))
F3(v_med3_f32, fmed3_(a, b, c))
F3(v_minimum3_f32, fminimum_(fminimum_(a, b), c))   // gfx950
F3(v_maximum3_f32, fmaximum_(fmaximum_(a, b), c))   // gfx950

float fract32(float a) {
  if (std::isinf(a)) return std::nanf("");
  if (a != a) return a;
  float f = a - std::floor(a);
  return f < 0x1.fffffep-1f ? f : 0x1.fffffep-1f;
}
float sinRev(float a) {
  double x = double(a);
  x -= std::floor(x);
  return float(std::sin(x * 6.283185307179586476925286766559));
}
float cosRev(float a) {
  double x = double(a);
  x -= std::floor(x);
  return float(std::cos(x * 6.283185307179586476925286766559));
}
float frexpMant(float a) {
  if (!std::isfinite(a)) return std::nanf("");
  int e;
  return std::frexp(a, &e);
}

F1(v_fract_f32, fract32(a))
F1(v_trunc_f32, std::trunc(a))
F1(v_ceil_f32, std::ceil(a))
F1(v_rndne_f32, std::nearbyint(a))
F1(v_floor_f32, std::floor(a))
F1(v_exp_f32, std::exp2(a))
F1(v_log_f32, std::log2(a))
F1(v_rcp_f32, 1.0f / a)
F1(v_rcp_iflag_f32, 1.0f / a)
F1(v_rsq_f32, 1.0f / std::sqrt(a))
F1(v_sqrt_f32, std::sqrt(a))
F1(v_sin_f32, sinRev(a))
F1(v_cos_f32, cosRev(a))
F1(v_exp_legacy_f32, std::exp2(a))
F1(v_log_legacy_f32, a == 0.0f ? -INFINITY : std::log2(a))
F1(v_frexp_mant_f32, frexpMant(a))

void v_frexp_exp_i32_f32(Wave &w, const Inst &in) {
  u32 t0[64];
  const u32 *A = vgetF32(w, in.src(0), t0);
  u32 *D = vdst(w, in.dst());
  forLanes(w.exec(), [&](unsigned l) {
    float a = u2f(A[l]);
    int e = 0;
    if (std::isfinite(a))
      std::frexp(a, &e);
    D[l] = u32(e);
  });
}
void v_ldexp_f32(Wave &w, const Inst &in) {
  u32 t0[64], t1[64];
  const u32 *A = vgetF32(w, in.src(0), t0), *B = vget(w, in.src(1), t1);
  u32 *D = vdst(w, in.dst());
  u64 e = w.exec();
  forLanes(e, [&](unsigned l) { D[l] = f2u(std::ldexp(u2f(A[l]), int32_t(B[l]))); });
  if (in.omod || (in.flags & IF_CLAMP))
    finishF32(in, D, e);
}

// ---- division helpers (f32) ----
int expOf(float f) { return int((f2u(f) >> 23) & 0xff); }
bool isDenorm(float f) { return f != 0 && std::fpclassify(f) == FP_SUBNORMAL; }

void v_div_scale_f32(Wave &w, const Inst &in) {
  u32 t0[64], t1[64], t2[64];
  const u32 *A = vgetF32(w, in.src(0), t0), *B = vgetF32(w, in.src(1), t1),
            *C = vgetF32(w, in.src(2), t2);
  u32 *D = vdst(w, in.dst(0));
  u64 vcc = 0;
  forLanes(w.exec(), [&](unsigned l) {
    float s0 = u2f(A[l]), s1 = u2f(B[l]), s2 = u2f(C[l]), d = s0;
    bool flag = false;
    if (s2 == 0 || s1 == 0) {
      d = std::nanf("");
    } else if (expOf(s2) - expOf(s1) >= 96) {
      flag = true;
      if (s0 == s1) d = std::ldexp(s0, 64);
    } else if (isDenorm(s1)) {
      d = std::ldexp(s0, 64);
    } else if (isDenorm(1.0f / s1) && isDenorm(s2 / s1)) {
      flag = true;
      if (s0 == s1) d = std::ldexp(s0, 64);
    } else if (isDenorm(1.0f / s1)) {
      d = std::ldexp(s0, -64);
    } else if (isDenorm(s2 / s1)) {
      flag = true;
      if (s0 == s2) d = std::ldexp(s0, 64);
    } else if (expOf(s2) <= 23) {
      d = std::ldexp(s0, 64);
    }
    D[l] = f2u(d);
    vcc |= u64(flag) << l;
  });
  sset64(w, in.dst(1), vcc);
}
void v_div_fmas_f32(Wave &w, const Inst &in) {
  u32 t0[64], t1[64], t2[64];
  const u32 *A = vgetF32(w, in.src(0), t0), *B = vgetF32(w, in.src(1), t1),
            *C = vgetF32(w, in.src(2), t2);
  u32 *D = vdst(w, in.dst());
  u64 vcc = w.vcc(), e = w.exec();
  forLanes(e, [&](unsigned l) {
    float r = std::fma(u2f(A[l]), u2f(B[l]), u2f(C[l]));
    if ((vcc >> l) & 1)
      r = std::ldexp(r, expOf(u2f(C[l])) >= 128 ? 64 : -64);
    D[l] = f2u(r);
  });
  if (in.omod || (in.flags & IF_CLAMP))
    finishF32(in, D, e);
}
template <class T> T divFixup(T q, T den, T num, int expDen, int expNum, int maxExp,
                              int underflowDiff) {
  bool neg = std::signbit(den) != std::signbit(num);
  T inf = std::numeric_limits<T>::infinity();
  if (num != num) return std::numeric_limits<T>::quiet_NaN();
  if (den != den) return std::numeric_limits<T>::quiet_NaN();
  if (den == 0 && num == 0) return std::numeric_limits<T>::quiet_NaN();
  if (std::isinf(den) && std::isinf(num)) return std::numeric_limits<T>::quiet_NaN();
  if (den == 0 || std::isinf(num)) return neg ? -inf : inf;
  if (std::isinf(den) || num == 0) return neg ? T(-0.0) : T(0.0);
  if (expNum - expDen < underflowDiff) return neg ? T(-0.0) : T(0.0);
  if (expDen == maxExp) return neg ? -inf : inf;
  if (q != q) return neg ? -inf : inf;
  T a = std::fabs(q);
  return neg ? -a : a;
}
void v_div_fixup_f32(Wave &w, const Inst &in) {
  f3(w, in, [](float q, float den, float num) {
    return divFixup(q, den, num, expOf(den), expOf(num), 255, -150);
  });
}

// ---- f64 ----
template <class F> EMU_INLINE void d1(Wave &w, const Inst &in, F f) {
  u64 a[64];
  vgetF64(w, in.src(0), a);
  u64 e = w.exec();
  forLanes(e, [&](unsigned l) { vset64(w, in.dst(), l, d2u(f(u2d(a[l])))); });
  if (in.omod || (in.flags & IF_CLAMP))
    finishF64(w, in, in.dst(), e);
}
template <class F> EMU_INLINE void d2(Wave &w, const Inst &in, F f) {
  u64 a[64], b[64];
  vgetF64(w, in.src(0), a);
  vgetF64(w, in.src(1), b);
  u64 e = w.exec();
  forLanes(e, [&](unsigned l) { vset64(w, in.dst(), l, d2u(f(u2d(a[l]), u2d(b[l])))); });
  if (in.omod || (in.flags & IF_CLAMP))
    finishF64(w, in, in.dst(), e);
}
template <class F> EMU_INLINE void d3(Wave &w, const Inst &in, F f) {
  u64 a[64], b[64], c[64];
  vgetF64(w, in.src(0), a);
  vgetF64(w, in.src(1), b);
  vgetF64(w, in.src(2), c);
  u64 e = w.exec();
  forLanes(e, [&](unsigned l) {
    vset64(w, in.dst(), l, d2u(f(u2d(a[l]), u2d(b[l]), u2d(c[l]))));
  });
  if (in.omod || (in.flags & IF_CLAMP))
    finishF64(w, in, in.dst(), e);
}
#define D1(N, E) void N(Wave &w, const Inst &in) { d1(w, in, [](double a) -> double { return E; }); }
#define D2(N, E)                                                               \
  void N(Wave &w, const Inst &in) { d2(w, in, [](double a, double b) -> double { return E; }); }

D2(v_add_f64, a + b)
D2(v_mul_f64, a * b)
D2(v_min_f64, fmin_(a, b))
D2(v_max_f64, fmax_(a, b))
double fract64(double a) {
  if (std::isinf(a)) return std::nan("");
  if (a != a) return a;
  double f = a - std::floor(a);
  return f < 0x1.fffffffffffffp-1 ? f : 0x1.fffffffffffffp-1;
}
D1(v_fract_f64, fract64(a))
D1(v_trunc_f64, std::trunc(a))
D1(v_ceil_f64, std::ceil(a))
D1(v_rndne_f64, std::nearbyint(a))
D1(v_floor_f64, std::floor(a))
D1(v_rcp_f64, 1.0 / a)
D1(v_rsq_f64, 1.0 / std::sqrt(a))
D1(v_sqrt_f64, std::sqrt(a))
D1(v_frexp_mant_f64, std::isfinite(a) ? [](double x) { int e; return std::frexp(x, &e); }(a)
                                      : std::nan(""))

void v_fma_f64(Wave &w, const Inst &in) {
  u64 a[64], b[64], c[64], d[64];
  vgetF64(w, in.src(0), a);
  vgetF64(w, in.src(1), b);
  vgetF64(w, in.src(2), c);
  u64 e = w.exec();
  fmaLoop64(a, b, c, d, e);
  forLanes(e, [&](unsigned l) { vset64(w, in.dst(), l, d[l]); });
  if (in.omod || (in.flags & IF_CLAMP))
    finishF64(w, in, in.dst(), e);
}
void v_fmac_f64(Wave &w, const Inst &in) {
  u64 a[64], b[64], c[64], d[64];
  vgetF64(w, in.src(0), a);
  vgetF64(w, in.src(1), b);
  vget64(w, in.dst(), c);
  u64 e = w.exec();
  fmaLoop64(a, b, c, d, e);
  forLanes(e, [&](unsigned l) { vset64(w, in.dst(), l, d[l]); });
  if (in.omod || (in.flags & IF_CLAMP))
    finishF64(w, in, in.dst(), e);
}
void v_ldexp_f64(Wave &w, const Inst &in) {
  u64 a[64];
  u32 t1[64];
  vgetF64(w, in.src(0), a);
  const u32 *B = vget(w, in.src(1), t1);
  forLanes(w.exec(), [&](unsigned l) {
    vset64(w, in.dst(), l, d2u(std::ldexp(u2d(a[l]), int32_t(B[l]))));
  });
}
void v_frexp_exp_i32_f64(Wave &w, const Inst &in) {
  u64 a[64];
  vgetF64(w, in.src(0), a);
  u32 *D = vdst(w, in.dst());
  forLanes(w.exec(), [&](unsigned l) {
    int e = 0;
    double x = u2d(a[l]);
    if (std::isfinite(x))
      std::frexp(x, &e);
    D[l] = u32(e);
  });
}
int expOf64(double d) { return int((d2u(d) >> 52) & 0x7ff); }
bool isDenorm64(double d) { return d != 0 && std::fpclassify(d) == FP_SUBNORMAL; }
void v_div_scale_f64(Wave &w, const Inst &in) {
  u64 a[64], b[64], c[64];
  vgetF64(w, in.src(0), a);
  vgetF64(w, in.src(1), b);
  vgetF64(w, in.src(2), c);
  u64 vcc = 0;
  forLanes(w.exec(), [&](unsigned l) {
    double s0 = u2d(a[l]), s1 = u2d(b[l]), s2 = u2d(c[l]), d = s0;
    bool flag = false;
    if (s2 == 0 || s1 == 0) {
      d = std::nan("");
    } else if (expOf64(s2) - expOf64(s1) >= 768) {
      flag = true;
      if (s0 == s1) d = std::ldexp(s0, 128);
    } else if (isDenorm64(s1)) {
      d = std::ldexp(s0, 128);
    } else if (isDenorm64(1.0 / s1) && isDenorm64(s2 / s1)) {
      flag = true;
      if (s0 == s1) d = std::ldexp(s0, 128);
    } else if (isDenorm64(1.0 / s1)) {
      d = std::ldexp(s0, -128);
    } else if (isDenorm64(s2 / s1)) {
      flag = true;
      if (s0 == s2) d = std::ldexp(s0, 128);
    } else if (expOf64(s2) <= 53) {
      d = std::ldexp(s0, 128);
    }
    vset64(w, in.dst(0), l, d2u(d));
    vcc |= u64(flag) << l;
  });
  sset64(w, in.dst(1), vcc);
}
void v_div_fmas_f64(Wave &w, const Inst &in) {
  u64 vcc = w.vcc();
  u64 a[64], b[64], c[64];
  vgetF64(w, in.src(0), a);
  vgetF64(w, in.src(1), b);
  vgetF64(w, in.src(2), c);
  forLanes(w.exec(), [&](unsigned l) {
    double r = std::fma(u2d(a[l]), u2d(b[l]), u2d(c[l]));
    if ((vcc >> l) & 1)
      r = std::ldexp(r, expOf64(u2d(c[l])) >= 1024 ? 128 : -128);
    vset64(w, in.dst(), l, d2u(r));
  });
}
void v_div_fixup_f64(Wave &w, const Inst &in) {
  d3(w, in, [](double q, double den, double num) {
    return divFixup(q, den, num, expOf64(den), expOf64(num), 2047, -1075);
  });
}
/// v_trig_preop_f64: 53 bits of 2/pi starting at bit (S1 & 31) * 53 (+ an
/// exponent-dependent shift), scaled.
void v_trig_preop_f64(Wave &w, const Inst &in) {
  // 1201 bits of 2/PI as 32-bit words (most significant first).
  static const u32 twoOverPi[] = {
      0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab,
      0xdebbc561, 0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c, 0xfe1deb1c, 0xb129a73e,
      0xe88235f5, 0x2ebb4484, 0xe99c7026, 0xb45f7e41, 0x3991d639, 0x835339f4, 0x9c845f8b,
      0xbdf9283b, 0x1ff897ff, 0xde05980f, 0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7,
      0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b, 0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1,
      0x1f8d5d08, 0x56033046};
  u64 a[64];
  u32 t1[64];
  vgetF64(w, in.src(0), a);
  const u32 *B = vget(w, in.src(1), t1);
  forLanes(w.exec(), [&](unsigned l) {
    double x = u2d(a[l]);
    int shift = int(B[l] & 31) * 53;
    int ex = expOf64(x) - 1023;
    if (ex > 1077)
      shift += ex - 1077;
    u64 bits = 0;
    for (int i = 0; i < 53; ++i) {
      int bit = shift + i;
      unsigned word = unsigned(bit / 32), pos = 31 - unsigned(bit % 32);
      u64 b = word < sizeof(twoOverPi) / 4 ? (twoOverPi[word] >> pos) & 1 : 0;
      bits = (bits << 1) | b;
    }
    double r = std::ldexp(double(bits), -shift - 53);
    vset64(w, in.dst(), l, d2u(r));
  });
}

} // namespace

void registerVALUFloat(SemTable &t) {
  const uint16_t F32 = tys(Ty::F32), F64 = tys(Ty::F64);
  auto v = [&](const char *n, SemFn f, uint16_t ty, uint8_t ndst = 1, uint16_t fl = 0) {
    t.push_back({n, f, ndst, ICls::VALU, fl, ty});
  };
#define R(N) v(#N, N, F32);
  R(v_add_f32) R(v_sub_f32) R(v_subrev_f32) R(v_mul_f32) R(v_mul_legacy_f32) R(v_min_f32)
  R(v_max_f32) R(v_min3_f32) R(v_max3_f32) R(v_med3_f32)
  R(v_minimum3_f32) R(v_maximum3_f32)
  R(v_fma_f32) R(v_fract_f32) R(v_trunc_f32) R(v_ceil_f32) R(v_rndne_f32) R(v_floor_f32)
  R(v_exp_f32) R(v_log_f32) R(v_rcp_f32) R(v_rcp_iflag_f32) R(v_rsq_f32) R(v_sqrt_f32)
  R(v_sin_f32) R(v_cos_f32) R(v_exp_legacy_f32) R(v_log_legacy_f32) R(v_frexp_mant_f32)
  R(v_frexp_exp_i32_f32) R(v_div_fixup_f32)
#undef R
  v("v_fmac_f32", v_fmac_f32, F32, 1, SF_READS_DST);
  // fmamk: D = S0 * K + S1, fmaak: D = S0 * S1 + K; printed in fma order.
  v("v_fmamk_f32", v_fma_f32, F32);
  v("v_fmaak_f32", v_fma_f32, F32);
  v("v_ldexp_f32", v_ldexp_f32, tys(Ty::F32, Ty::B32));
  v("v_div_scale_f32", v_div_scale_f32, F32, 2);
  v("v_div_fmas_f32", v_div_fmas_f32, F32, 1, SF_READS_VCC);
#define R(N) v(#N, N, F64);
  R(v_add_f64) R(v_mul_f64) R(v_min_f64) R(v_max_f64) R(v_fract_f64) R(v_trunc_f64)
  R(v_ceil_f64) R(v_rndne_f64) R(v_floor_f64) R(v_rcp_f64) R(v_rsq_f64) R(v_sqrt_f64)
  R(v_frexp_mant_f64) R(v_fma_f64) R(v_frexp_exp_i32_f64) R(v_div_fixup_f64)
#undef R
  v("v_fmac_f64", v_fmac_f64, F64, 1, SF_READS_DST);
  v("v_ldexp_f64", v_ldexp_f64, tys(Ty::F64, Ty::B32));
  v("v_div_scale_f64", v_div_scale_f64, F64, 2);
  v("v_div_fmas_f64", v_div_fmas_f64, F64, 1, SF_READS_VCC);
  v("v_trig_preop_f64", v_trig_preop_f64, tys(Ty::F64, Ty::B32));
}

} // namespace aster::emu
