//===- SemVALUConvert.cpp - vector conversions (v_cvt_*) ------------------===//
#include "emulator/Semantics.h"

#include <cmath>

namespace aster::emu {

namespace {


/// Float -> integer with truncation, saturation and NaN -> 0.
template <class F> i32 toI32(F f) {
  if (f != f) return 0;
  if (f >= F(2147483647.0)) return 0x7fffffff;
  if (f <= F(-2147483648.0)) return i32(0x80000000u);
  return i32(f);
}
template <class F> u32 toU32(F f) {
  if (!(f > F(0))) return 0;
  if (f >= F(4294967295.0)) return 0xffffffffu;
  return u32(f);
}
int16_t toI16(float f) {
  if (f != f) return 0;
  if (f >= 32767.0f) return 32767;
  if (f <= -32768.0f) return -32768;
  return int16_t(f);
}
uint16_t toU16(float f) {
  if (!(f > 0.0f)) return 0;
  if (f >= 65535.0f) return 65535;
  return uint16_t(f);
}
int16_t snorm16(float f) {
  if (f != f) return 0;
  f = f < -1.0f ? -1.0f : f > 1.0f ? 1.0f : f;
  return int16_t(std::nearbyint(f * 32767.0f));
}
uint16_t unorm16(float f) {
  if (f != f) return 0;
  f = f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
  return uint16_t(std::nearbyint(f * 65535.0f));
}

/// One source (32-bit, or f32 with modifiers), one 32-bit result.
template <bool FloatSrc, bool FloatDst, class F> EMU_INLINE void c1(Wave &w, const Inst &in, F f) {
  u32 t0[64];
  const u32 *A = FloatSrc ? vgetF32(w, in.src(0), t0) : vget(w, in.src(0), t0);
  u32 *D = vdst(w, in.dst());
  u64 e = w.exec();
  forLanes(e, [&](unsigned l) { D[l] = f(A[l]); });
  if (FloatDst && (in.omod || (in.flags & IF_CLAMP)))
    finishF32(in, D, e);
}
/// f64 source, 32-bit result.
template <class F> EMU_INLINE void c1d(Wave &w, const Inst &in, F f) {
  u64 a[64];
  vgetF64(w, in.src(0), a);
  u32 *D = vdst(w, in.dst());
  forLanes(w.exec(), [&](unsigned l) { D[l] = f(u2d(a[l])); });
}
/// 32-bit source, f64 result.
template <bool FloatSrc, class F> EMU_INLINE void c1to64(Wave &w, const Inst &in, F f) {
  u32 t0[64];
  const u32 *A = FloatSrc ? vgetF32(w, in.src(0), t0) : vget(w, in.src(0), t0);
  u64 e = w.exec();
  forLanes(e, [&](unsigned l) { vset64(w, in.dst(), l, d2u(f(A[l]))); });
  if (in.omod || (in.flags & IF_CLAMP))
    finishF64(w, in, in.dst(), e);
}
/// f16 source (low half, or high with op_sel), 32-bit result.
template <bool FloatDst, class F> EMU_INLINE void c1h(Wave &w, const Inst &in, F f) {
  u32 t0[64];
  const u32 *A = vget16(w, in.src(0), t0, in.opsel & 1, true);
  u32 *D = vdst(w, in.dst());
  u64 e = w.exec();
  forLanes(e, [&](unsigned l) { D[l] = f(f16ToF32(uint16_t(A[l]))); });
  if (FloatDst && (in.omod || (in.flags & IF_CLAMP)))
    finishF32(in, D, e);
}
/// 16-bit result into the low half, high half zeroed.
template <bool FloatSrc, class F> EMU_INLINE void c1to16(Wave &w, const Inst &in, F f) {
  u32 t0[64];
  const u32 *A = FloatSrc ? vgetF32(w, in.src(0), t0) : vget(w, in.src(0), t0);
  u32 *D = vdst(w, in.dst());
  bool hi = in.opsel & 8;
  forLanes(w.exec(), [&](unsigned l) { write16(D[l], finishF16(in, f(A[l])), hi, false); });
}

void v_cvt_i32_f32(Wave &w, const Inst &in) { c1<true, false>(w, in, [](u32 a) { return u32(toI32(u2f(a))); }); }
void v_cvt_u32_f32(Wave &w, const Inst &in) { c1<true, false>(w, in, [](u32 a) { return toU32(u2f(a)); }); }
void v_cvt_f32_i32(Wave &w, const Inst &in) { c1<false, true>(w, in, [](u32 a) { return f2u(float(i32(a))); }); }
void v_cvt_f32_u32(Wave &w, const Inst &in) { c1<false, true>(w, in, [](u32 a) { return f2u(float(a)); }); }
void v_cvt_rpi_i32_f32(Wave &w, const Inst &in) {
  c1<true, false>(w, in, [](u32 a) { return u32(toI32(std::floor(double(u2f(a)) + 0.5))); });
}
void v_cvt_flr_i32_f32(Wave &w, const Inst &in) {
  c1<true, false>(w, in, [](u32 a) { return u32(toI32(std::floor(u2f(a)))); });
}
void v_cvt_off_f32_i4(Wave &w, const Inst &in) {
  c1<false, true>(w, in, [](u32 a) { return f2u(float(i32(a << 28) >> 28) / 16.0f); });
}
template <unsigned B> void v_cvt_f32_ubyte(Wave &w, const Inst &in) {
  c1<false, true>(w, in, [](u32 a) { return f2u(float((a >> (8 * B)) & 0xff)); });
}
void v_cvt_f32_f16(Wave &w, const Inst &in) { c1h<true>(w, in, [](float f) { return f2u(f); }); }
void v_cvt_u16_f16(Wave &w, const Inst &in) {
  c1h<false>(w, in, [](float f) { return u32(toU16(f)); });
}
void v_cvt_i16_f16(Wave &w, const Inst &in) {
  c1h<false>(w, in, [](float f) { return u32(uint16_t(toI16(f))); });
}
void v_cvt_norm_i16_f16(Wave &w, const Inst &in) {
  c1h<false>(w, in, [](float f) { return u32(uint16_t(snorm16(f))); });
}
void v_cvt_norm_u16_f16(Wave &w, const Inst &in) {
  c1h<false>(w, in, [](float f) { return u32(unorm16(f)); });
}
void v_cvt_f16_f32(Wave &w, const Inst &in) {
  c1to16<true>(w, in, [](u32 a) { return f32ToF16(u2f(a)); });
}
void v_cvt_f16_u16(Wave &w, const Inst &in) {
  c1to16<false>(w, in, [](u32 a) { return f32ToF16(float(a & 0xffff)); });
}
void v_cvt_f16_i16(Wave &w, const Inst &in) {
  c1to16<false>(w, in, [](u32 a) { return f32ToF16(float(int16_t(a))); });
}
void v_cvt_i32_f64(Wave &w, const Inst &in) { c1d(w, in, [](double d) { return u32(toI32(d)); }); }
void v_cvt_u32_f64(Wave &w, const Inst &in) { c1d(w, in, [](double d) { return toU32(d); }); }
void v_cvt_f32_f64(Wave &w, const Inst &in) {
  u64 a[64];
  vgetF64(w, in.src(0), a);
  u32 *D = vdst(w, in.dst());
  u64 e = w.exec();
  forLanes(e, [&](unsigned l) { D[l] = f2u(float(u2d(a[l]))); });
  if (in.omod || (in.flags & IF_CLAMP))
    finishF32(in, D, e);
}
void v_cvt_f64_i32(Wave &w, const Inst &in) { c1to64<false>(w, in, [](u32 a) { return double(i32(a)); }); }
void v_cvt_f64_u32(Wave &w, const Inst &in) { c1to64<false>(w, in, [](u32 a) { return double(a); }); }
void v_cvt_f64_f32(Wave &w, const Inst &in) { c1to64<true>(w, in, [](u32 a) { return double(u2f(a)); }); }

/// Two sources packed into one register (low, high).
template <bool FloatSrc, class F> EMU_INLINE void pk2(Wave &w, const Inst &in, F f) {
  u32 t0[64], t1[64];
  const u32 *A = FloatSrc ? vgetF32(w, in.src(0), t0) : vget(w, in.src(0), t0);
  const u32 *B = FloatSrc ? vgetF32(w, in.src(1), t1) : vget(w, in.src(1), t1);
  u32 *D = vdst(w, in.dst());
  forLanes(w.exec(), [&](unsigned l) { D[l] = u32(f(A[l])) | u32(f(B[l])) << 16; });
}
void v_cvt_pkrtz_f16_f32(Wave &w, const Inst &in) {
  pk2<true>(w, in, [](u32 a) { return f32ToF16RTZ(u2f(a)); });
}
void v_cvt_pknorm_i16_f32(Wave &w, const Inst &in) {
  pk2<true>(w, in, [](u32 a) { return uint16_t(snorm16(u2f(a))); });
}
void v_cvt_pknorm_u16_f32(Wave &w, const Inst &in) {
  pk2<true>(w, in, [](u32 a) { return unorm16(u2f(a)); });
}
void v_cvt_pk_u16_u32(Wave &w, const Inst &in) {
  pk2<false>(w, in, [](u32 a) { return uint16_t(a > 0xffff ? 0xffff : a); });
}
void v_cvt_pk_i16_i32(Wave &w, const Inst &in) {
  pk2<false>(w, in, [](u32 a) {
    i32 v = i32(a);
    return uint16_t(int16_t(v > 32767 ? 32767 : v < -32768 ? -32768 : v));
  });
}
void cvtPkNorm16(Wave &w, const Inst &in, bool sgn) {
  u32 t0[64], t1[64];
  const u32 *A = vget16(w, in.src(0), t0, in.opsel & 1, true);
  const u32 *B = vget16(w, in.src(1), t1, in.opsel & 2, true);
  u32 *D = vdst(w, in.dst());
  forLanes(w.exec(), [&](unsigned l) {
    float a = f16ToF32(uint16_t(A[l])), b = f16ToF32(uint16_t(B[l]));
    u32 lo = sgn ? uint16_t(snorm16(a)) : unorm16(a), hi = sgn ? uint16_t(snorm16(b)) : unorm16(b);
    D[l] = lo | hi << 16;
  });
}
void v_cvt_pknorm_i16_f16(Wave &w, const Inst &in) { cvtPkNorm16(w, in, true); }
void v_cvt_pknorm_u16_f16(Wave &w, const Inst &in) { cvtPkNorm16(w, in, false); }
void v_sat_pk_u8_i16(Wave &w, const Inst &in) {
  c1<false, false>(w, in, [](u32 a) {
    auto s = [](int16_t v) { return u32(v < 0 ? 0 : v > 255 ? 255 : v); };
    return s(int16_t(a)) | s(int16_t(a >> 16)) << 8;
  });
}
void v_cvt_pk_u8_f32(Wave &w, const Inst &in) {
  u32 t0[64], t1[64], t2[64];
  const u32 *A = vgetF32(w, in.src(0), t0), *B = vget(w, in.src(1), t1),
            *C = vget(w, in.src(2), t2);
  u32 *D = vdst(w, in.dst());
  forLanes(w.exec(), [&](unsigned l) {
    float f = std::nearbyint(u2f(A[l]));
    u32 v = !(f > 0.0f) ? 0 : f >= 255.0f ? 255 : u32(f);
    unsigned sh = 8 * (B[l] & 3);
    D[l] = (C[l] & ~(0xffu << sh)) | (v << sh);
  });
}

// ---- fp8 / bf8 (gfx942 FNUZ formats; gfx950's OCP ones, registered below) ----
template <Fp8Kind K> void cvtF32Fp8(Wave &w, const Inst &in) {
  c1<false, true>(w, in, [](u32 a) { return f2u(fp8ToF32(uint8_t(a), K)); });
}
template <Fp8Kind K> void cvtPkF32Fp8(Wave &w, const Inst &in) {
  u32 t0[64];
  const u32 *A = vget(w, in.src(0), t0);
  unsigned sh = (in.opsel & 1) ? 16 : 0;
  forLanes(w.exec(), [&](unsigned l) {
    u32 v = A[l] >> sh;
    vdst(w, in.dst(), 0)[l] = f2u(fp8ToF32(uint8_t(v), K));
    vdst(w, in.dst(), 1)[l] = f2u(fp8ToF32(uint8_t(v >> 8), K));
  });
}
template <Fp8Kind K> void cvtPkFp8F32(Wave &w, const Inst &in) {
  u32 t0[64], t1[64];
  const u32 *A = vgetF32(w, in.src(0), t0), *B = vgetF32(w, in.src(1), t1);
  u32 *D = vdst(w, in.dst());
  bool sat = in.flags & IF_CLAMP;
  bool hi = in.opsel & 8;
  forLanes(w.exec(), [&](unsigned l) {
    u32 v = u32(f32ToFp8(u2f(A[l]), K, sat)) | u32(f32ToFp8(u2f(B[l]), K, sat)) << 8;
    D[l] = hi ? (D[l] & 0xffffu) | v << 16 : (D[l] & 0xffff0000u) | v;
  });
}
template <Fp8Kind K> void cvtSrFp8F32(Wave &w, const Inst &in) {
  u32 t0[64], t1[64];
  const u32 *A = vgetF32(w, in.src(0), t0), *B = vget(w, in.src(1), t1);
  u32 *D = vdst(w, in.dst());
  bool sat = in.flags & IF_CLAMP;
  unsigned sh = 8 * ((in.opsel >> 2) & 3);
  forLanes(w.exec(), [&](unsigned l) {
    u32 v = f32ToFp8SR(u2f(A[l]), B[l], K, sat);
    D[l] = (D[l] & ~(0xffu << sh)) | (v << sh);
  });
}

} // namespace

void registerVALUConvert(SemTable &t) {
  const uint16_t F32 = tys(Ty::F32), B32 = tys(Ty::B32), F64 = tys(Ty::F64), F16 = tys(Ty::F16);
  auto v = [&](const char *n, SemFn f, uint16_t ty, uint16_t fl = 0) {
    t.push_back({n, f, 1, ICls::VALU, fl, ty});
  };
  v("v_cvt_i32_f32", v_cvt_i32_f32, F32);
  v("v_cvt_u32_f32", v_cvt_u32_f32, F32);
  v("v_cvt_f32_i32", v_cvt_f32_i32, B32);
  v("v_cvt_f32_u32", v_cvt_f32_u32, B32);
  v("v_cvt_rpi_i32_f32", v_cvt_rpi_i32_f32, F32);
  v("v_cvt_flr_i32_f32", v_cvt_flr_i32_f32, F32);
  v("v_cvt_off_f32_i4", v_cvt_off_f32_i4, B32);
  v("v_cvt_f32_ubyte0", v_cvt_f32_ubyte<0>, B32);
  v("v_cvt_f32_ubyte1", v_cvt_f32_ubyte<1>, B32);
  v("v_cvt_f32_ubyte2", v_cvt_f32_ubyte<2>, B32);
  v("v_cvt_f32_ubyte3", v_cvt_f32_ubyte<3>, B32);
  v("v_cvt_f32_f16", v_cvt_f32_f16, F16);
  v("v_cvt_u16_f16", v_cvt_u16_f16, F16);
  v("v_cvt_i16_f16", v_cvt_i16_f16, F16);
  v("v_cvt_norm_i16_f16", v_cvt_norm_i16_f16, F16);
  v("v_cvt_norm_u16_f16", v_cvt_norm_u16_f16, F16);
  v("v_cvt_f16_f32", v_cvt_f16_f32, F32);
  v("v_cvt_f16_u16", v_cvt_f16_u16, tys(Ty::B16));
  v("v_cvt_f16_i16", v_cvt_f16_i16, tys(Ty::B16));
  v("v_cvt_i32_f64", v_cvt_i32_f64, F64);
  v("v_cvt_u32_f64", v_cvt_u32_f64, F64);
  v("v_cvt_f32_f64", v_cvt_f32_f64, F64);
  v("v_cvt_f64_i32", v_cvt_f64_i32, B32);
  v("v_cvt_f64_u32", v_cvt_f64_u32, B32);
  v("v_cvt_f64_f32", v_cvt_f64_f32, F32);
  v("v_cvt_pkrtz_f16_f32", v_cvt_pkrtz_f16_f32, F32);
  v("v_cvt_pknorm_i16_f32", v_cvt_pknorm_i16_f32, F32);
  v("v_cvt_pknorm_u16_f32", v_cvt_pknorm_u16_f32, F32);
  v("v_cvt_pk_u16_u32", v_cvt_pk_u16_u32, B32);
  v("v_cvt_pk_i16_i32", v_cvt_pk_i16_i32, B32);
  v("v_cvt_pknorm_i16_f16", v_cvt_pknorm_i16_f16, F16);
  v("v_cvt_pknorm_u16_f16", v_cvt_pknorm_u16_f16, F16);
  v("v_sat_pk_u8_i16", v_sat_pk_u8_i16, B32);
  v("v_cvt_pk_u8_f32", v_cvt_pk_u8_f32, tys(Ty::F32, Ty::B32, Ty::B32));
  v("v_cvt_f32_fp8", cvtF32Fp8<Fp8Kind::E4M3FNUZ>, B32);
  v("v_cvt_f32_bf8", cvtF32Fp8<Fp8Kind::E5M2FNUZ>, B32);
  v("v_cvt_pk_f32_fp8", cvtPkF32Fp8<Fp8Kind::E4M3FNUZ>, B32);
  v("v_cvt_pk_f32_bf8", cvtPkF32Fp8<Fp8Kind::E5M2FNUZ>, B32);
  v("v_cvt_pk_fp8_f32", cvtPkFp8F32<Fp8Kind::E4M3FNUZ>, F32);
  v("v_cvt_pk_bf8_f32", cvtPkFp8F32<Fp8Kind::E5M2FNUZ>, F32);
  v("v_cvt_sr_fp8_f32", cvtSrFp8F32<Fp8Kind::E4M3FNUZ>, tys(Ty::F32, Ty::B32));
  v("v_cvt_sr_bf8_f32", cvtSrFp8F32<Fp8Kind::E5M2FNUZ>, tys(Ty::F32, Ty::B32));
}

/// The same fp8/bf8 conversions in gfx950 code: the OCP formats (E4M3FN for
/// fp8, E5M2 for bf8), looked up before the gfx942 table for gfx950.
void registerGfx950Ocp(SemTable &t) {
  const uint16_t F32 = tys(Ty::F32), B32 = tys(Ty::B32);
  auto v = [&](const char *n, SemFn f, uint16_t ty) {
    t.push_back({n, f, 1, ICls::VALU, 0, ty});
  };
  v("v_cvt_f32_fp8", cvtF32Fp8<Fp8Kind::E4M3FN>, B32);
  v("v_cvt_f32_bf8", cvtF32Fp8<Fp8Kind::E5M2>, B32);
  v("v_cvt_pk_f32_fp8", cvtPkF32Fp8<Fp8Kind::E4M3FN>, B32);
  v("v_cvt_pk_f32_bf8", cvtPkF32Fp8<Fp8Kind::E5M2>, B32);
  v("v_cvt_pk_fp8_f32", cvtPkFp8F32<Fp8Kind::E4M3FN>, F32);
  v("v_cvt_pk_bf8_f32", cvtPkFp8F32<Fp8Kind::E5M2>, F32);
  v("v_cvt_sr_fp8_f32", cvtSrFp8F32<Fp8Kind::E4M3FN>, tys(Ty::F32, Ty::B32));
  v("v_cvt_sr_bf8_f32", cvtSrFp8F32<Fp8Kind::E5M2>, tys(Ty::F32, Ty::B32));
}

} // namespace aster::emu
