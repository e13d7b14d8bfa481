//===- SemScaleCvt.cpp - gfx950 v_cvt_scalef32_* conversions --------------===//
//
// Conversions between f32/f16/bf16 and the OCP 8-, 6- and 4-bit floats with
// a power-of-two scale (AMD CDNA4 ISA, "Small Float Data Format Conversion
// ops with SCALE" and the VOP3 pseudo-code of each v_cvt_scalef32_*):
//  * the scale is 2^(e - 127), e the exponent field of the f32 scale operand
//    (an E8M0 exponent; "float exponent portion is used"). e = 255 (E8M0's
//    NaN) is refused: the documents do not say what it gives;
//  * to a small format: the value divided by the scale (MLIR's
//    arith.scaling_truncf, which LLVM lowers to these instructions for gfx950,
//    is truncf(x / scale)), then rounded once to nearest even; fp8/bf8 as the
//    other gfx950 fp8 conversions (MODE.FP16_OVFL = 0: E4M3 overflow and
//    infinity give NaN, E5M2 infinity), fp6/bf6/fp4 saturate to their
//    largest magnitude (the ISA document) and keep the sign of zero and
//    underflow; a NaN to fp6/bf6/fp4 (formats without NaN) is refused;
//  * from a small format: the exact value times the scale, rounded once to
//    nearest even to f32/f16/bf16 (overflow to infinity);
//  * op_sel: source byte op_sel[1:0] (one 8-bit value, or two 4-bit ones),
//    source word op_sel[0] (two 8-bit values), destination word op_sel[3]
//    or byte op_sel[3:2]; the rest of a partly written vdst is kept.
//    Element i of a packed result is at bits [i*w, (i+1)*w); 2xpk16 forms
//    interleave: element 2p from src0[p], 2p+1 from src1[p].
// No input modifiers on small-format sources (the document) and none on
// 16-bit packed sources here; clamp/omod are refused at decode.
// The stochastic-rounding forms (v_cvt_scalef32_sr_*) are in
// SemScaleCvtSR.cpp.
//
//===----------------------------------------------------------------------===//
#include "emulator/ScaleCvt.h"

#include <cmath>
#include <string>

namespace aster::emu {

namespace scalecvt {

double wideToF64(unsigned w, u32 v) {
  return w == W_F32 ? double(u2f(v)) : w == W_F16 ? double(f16ToF32(u16(v)))
                                                  : double(bf16ToF32(u16(v)));
}
u32 f64ToWide(unsigned w, double d) {
  return w == W_F32 ? f2u(float(d)) : w == W_F16 ? f64ToF16(d) : f64ToBF16(d);
}

bool toSmall(unsigned fmt, double x, int k, unsigned &out) {
  double d = std::ldexp(x, -k);  // exact: |k| <= 127, x from at most 24 bits
  if (fmt < 2) {
    // At most 24 significant bits: float(d) is exact, or below f32's normal
    // range where every fp8 result is a zero, or an overflow in both.
    out = f32ToFp8(float(d), fmt == 0 ? Fp8Kind::E4M3FN : Fp8Kind::E5M2, false);
    return true;
  }
  if (std::isnan(d))
    return false;
  out = fmt == 2 ? f64ToSmallFloat(d, 2, 3) : fmt == 3 ? f64ToSmallFloat(d, 3, 2)
                                                       : f64ToSmallFloat(d, 2, 1);
  return true;
}

bool scaleExponents(Wave &w, const Inst &in, const Opnd &o, int *k) {
  u32 t[64];
  const u32 *S = vget(w, o, t);
  bool nan = false;
  forLanes(w.exec(), [&](unsigned l) {
    unsigned e = (S[l] >> 23) & 0xff;
    nan |= e == 255;
    k[l] = int(e) - 127;
  });
  if (nan)
    w.fail(in, "a scale with exponent 255 (E8M0 NaN) is not emulated");
  return !nan;
}

bool noSourceMods(Wave &w, const Inst &in, unsigned n) {
  for (unsigned i = 0; i < n; ++i)
    if (in.src(i).mods & (MOD_NEG | MOD_ABS)) {
      w.fail(in, "neg/abs on this source are not emulated");
      return false;
    }
  return true;
}

u32 bitsAt(Wave &w, const Opnd &o, unsigned l, unsigned bit, unsigned n) {
  unsigned word = bit / 32, sh = bit % 32;
  u64 v = vdst(w, o, word)[l];
  if (sh + n > 32)
    v |= u64(vdst(w, o, word + 1)[l]) << 32;
  return u32(v >> sh) & u32((u64(1) << n) - 1);
}
void setBits(u32 *words, unsigned bit, unsigned n, u32 v) {
  unsigned word = bit / 32, sh = bit % 32;
  u64 cur = u64(words[word]) | (sh + n > 32 ? u64(words[word + 1]) << 32 : 0);
  u64 mask = ((u64(1) << n) - 1) << sh;
  cur = (cur & ~mask) | (u64(v) << sh & mask);
  words[word] = u32(cur);
  if (sh + n > 32)
    words[word + 1] = u32(cur >> 32);
}

} // namespace scalecvt

using namespace scalecvt;

namespace {

// ---- small format -> wide ---------------------------------------------------

/// One or two small values from a byte / word of src0 -> f32 (one or two
/// registers), or f16/bf16 (packed; a single one into half op_sel[3]).
template <unsigned Fmt, unsigned To, unsigned N> void upSmall(Wave &w, const Inst &in) {
  int k[64];
  if (!noSourceMods(w, in, 1) || !scaleExponents(w, in, in.src(1), k))
    return;
  u32 t0[64];
  const u32 *A = vget(w, in.src(0), t0);
  constexpr unsigned eb = Fmt < 2 ? 8 : 4;
  // Two 8-bit values: the word op_sel[0]; otherwise the byte op_sel[1:0].
  unsigned sh = (N == 2 && eb == 8) ? 16 * (in.opsel & 1) : 8 * (in.opsel & 3);
  const Opnd &D = in.dst();
  forLanes(w.exec(), [&](unsigned l) {
    u32 src = A[l] >> sh;
    u32 r[N];
    for (unsigned i = 0; i < N; ++i) {
      unsigned v = (src >> (eb * i)) & ((1u << eb) - 1);
      r[i] = f64ToWide(To, std::ldexp(ocpToF64(Fmt, v), k[l]));
    }
    if (To == W_F32) {
      for (unsigned i = 0; i < N; ++i)
        vdst(w, D, i)[l] = r[i];
    } else if (N == 2) {
      vdst(w, D)[l] = r[0] | r[1] << 16;
    } else {
      u32 &d = vdst(w, D)[l];
      d = (in.opsel & 8) ? (d & 0xffffu) | r[0] << 16 : (d & 0xffff0000u) | r[0];
    }
  });
}

/// 32 fp6/bf6 values packed in six registers -> 32 f32 (or 16 registers of
/// f16/bf16 pairs).
template <unsigned Fmt, unsigned To> void up32(Wave &w, const Inst &in) {
  int k[64];
  if (!noSourceMods(w, in, 1) || !scaleExponents(w, in, in.src(1), k))
    return;
  const Opnd &A = in.src(0), &D = in.dst();
  constexpr unsigned wb = wideBits(To);
  forLanes(w.exec(), [&](unsigned l) {
    u32 out[32] = {};
    for (unsigned i = 0; i < 32; ++i) {
      double x = ocpToF64(Fmt, bitsAt(w, A, l, 6 * i, 6));
      setBits(out, wb * i, wb, f64ToWide(To, std::ldexp(x, k[l])));
    }
    for (unsigned r = 0; r < wb; ++r)
      vdst(w, D, r)[l] = out[r];
  });
}

// ---- wide -> small format ---------------------------------------------------

/// Two values (f32: src0 and src1; f16/bf16: the halves of src0) -> two
/// small values into the word op_sel[3] (8-bit) or byte op_sel[3:2] (fp4).
template <unsigned From, unsigned Fmt> void downPk2(Wave &w, const Inst &in) {
  constexpr unsigned nData = From == W_F32 ? 2 : 1;
  int k[64];
  if ((From != W_F32 && !noSourceMods(w, in, 1)) || !scaleExponents(w, in, in.src(nData), k))
    return;
  u32 t0[64], t1[64];
  const u32 *A = From == W_F32 ? vgetF32(w, in.src(0), t0) : vget(w, in.src(0), t0);
  const u32 *B = From == W_F32 ? vgetF32(w, in.src(1), t1) : A;
  constexpr unsigned eb = Fmt < 2 ? 8 : 4;
  unsigned sh = eb == 8 ? 16 * ((in.opsel >> 3) & 1) : 8 * ((in.opsel >> 2) & 3);
  u32 *D = vdst(w, in.dst());
  bool nan = false;
  forLanes(w.exec(), [&](unsigned l) {
    double x0 = From == W_F32 ? u2f(A[l]) : wideToF64(From, A[l] & 0xffffu);
    double x1 = From == W_F32 ? u2f(B[l]) : wideToF64(From, A[l] >> 16);
    unsigned c0 = 0, c1 = 0;
    nan |= !toSmall(Fmt, x0, k[l], c0) || !toSmall(Fmt, x1, k[l], c1);
    u32 mask = ((1u << (2 * eb)) - 1) << sh;
    D[l] = (D[l] & ~mask) | ((c0 | c1 << eb) << sh);
  });
  if (nan)
    w.fail(in, "converting NaN to fp6/bf6/fp4 (no NaN encoding) is not emulated");
}

/// 32 values -> 32 fp6/bf6 in six registers: f16/bf16 from the 16
/// registers of src0; f32 (2xpk16) from src0[p] and src1[p] interleaved.
template <unsigned From, unsigned Fmt> void down32(Wave &w, const Inst &in) {
  constexpr bool two = From == W_F32;
  int k[64];
  if (!noSourceMods(w, in, two ? 2 : 1) || !scaleExponents(w, in, in.src(two ? 2 : 1), k))
    return;
  const Opnd &A = in.src(0), &D = in.dst();
  bool nan = false;
  forLanes(w.exec(), [&](unsigned l) {
    u32 out[6] = {};
    for (unsigned i = 0; i < 32; ++i) {
      u32 v = two ? vdst(w, in.src(i & 1), i / 2)[l] : bitsAt(w, A, l, 16 * i, 16);
      unsigned c = 0;
      nan |= !toSmall(Fmt, wideToF64(From, v), k[l], c);
      setBits(out, 6 * i, 6, c);
    }
    for (unsigned r = 0; r < 6; ++r)
      vdst(w, D, r)[l] = out[r];
  });
  if (nan)
    w.fail(in, "converting NaN to fp6/bf6/fp4 (no NaN encoding) is not emulated");
}

} // namespace

void registerScaleCvt(SemTable &t) {
  auto v = [&](const char *n, SemFn f, uint16_t ty, bool readsDst) {
    addConversion(t, n, f, ty, readsDst);
  };
  const uint16_t up = tys(Ty::B32, Ty::F32), pk = tys(Ty::B32, Ty::F32),
                 f32 = tys(Ty::F32, Ty::F32, Ty::F32);
  enum : unsigned { FP8, BF8, FP6, BF6, FP4 };
  v("v_cvt_scalef32_f32_fp8", upSmall<FP8, W_F32, 1>, up, false);
  v("v_cvt_scalef32_f32_bf8", upSmall<BF8, W_F32, 1>, up, false);
  v("v_cvt_scalef32_f16_fp8", upSmall<FP8, W_F16, 1>, up, true);
  v("v_cvt_scalef32_f16_bf8", upSmall<BF8, W_F16, 1>, up, true);
  v("v_cvt_scalef32_pk_f32_fp8", upSmall<FP8, W_F32, 2>, up, false);
  v("v_cvt_scalef32_pk_f32_bf8", upSmall<BF8, W_F32, 2>, up, false);
  v("v_cvt_scalef32_pk_f16_fp8", upSmall<FP8, W_F16, 2>, up, false);
  v("v_cvt_scalef32_pk_f16_bf8", upSmall<BF8, W_F16, 2>, up, false);
  v("v_cvt_scalef32_pk_bf16_fp8", upSmall<FP8, W_BF16, 2>, up, false);
  v("v_cvt_scalef32_pk_bf16_bf8", upSmall<BF8, W_BF16, 2>, up, false);
  v("v_cvt_scalef32_pk_f32_fp4", upSmall<FP4, W_F32, 2>, up, false);
  v("v_cvt_scalef32_pk_f16_fp4", upSmall<FP4, W_F16, 2>, up, false);
  v("v_cvt_scalef32_pk_bf16_fp4", upSmall<FP4, W_BF16, 2>, up, false);
  v("v_cvt_scalef32_pk32_f32_fp6", up32<FP6, W_F32>, up, false);
  v("v_cvt_scalef32_pk32_f32_bf6", up32<BF6, W_F32>, up, false);
  v("v_cvt_scalef32_pk32_f16_fp6", up32<FP6, W_F16>, up, false);
  v("v_cvt_scalef32_pk32_f16_bf6", up32<BF6, W_F16>, up, false);
  v("v_cvt_scalef32_pk32_bf16_fp6", up32<FP6, W_BF16>, up, false);
  v("v_cvt_scalef32_pk32_bf16_bf6", up32<BF6, W_BF16>, up, false);
  v("v_cvt_scalef32_pk_fp8_f32", downPk2<W_F32, FP8>, f32, true);
  v("v_cvt_scalef32_pk_bf8_f32", downPk2<W_F32, BF8>, f32, true);
  v("v_cvt_scalef32_pk_fp4_f32", downPk2<W_F32, FP4>, f32, true);
  v("v_cvt_scalef32_pk_fp8_f16", downPk2<W_F16, FP8>, pk, true);
  v("v_cvt_scalef32_pk_bf8_f16", downPk2<W_F16, BF8>, pk, true);
  v("v_cvt_scalef32_pk_fp8_bf16", downPk2<W_BF16, FP8>, pk, true);
  v("v_cvt_scalef32_pk_bf8_bf16", downPk2<W_BF16, BF8>, pk, true);
  v("v_cvt_scalef32_pk_fp4_f16", downPk2<W_F16, FP4>, pk, true);
  v("v_cvt_scalef32_pk_fp4_bf16", downPk2<W_BF16, FP4>, pk, true);
  v("v_cvt_scalef32_2xpk16_fp6_f32", down32<W_F32, FP6>, f32, false);
  v("v_cvt_scalef32_2xpk16_bf6_f32", down32<W_F32, BF6>, f32, false);
  v("v_cvt_scalef32_pk32_fp6_f16", down32<W_F16, FP6>, pk, false);
  v("v_cvt_scalef32_pk32_bf6_f16", down32<W_F16, BF6>, pk, false);
  v("v_cvt_scalef32_pk32_fp6_bf16", down32<W_BF16, FP6>, pk, false);
  v("v_cvt_scalef32_pk32_bf6_bf16", down32<W_BF16, BF6>, pk, false);
}

} // namespace aster::emu
