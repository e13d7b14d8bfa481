//===- SemScaleCvtSR.cpp - gfx950 stochastic-rounding conversions ---------===//
//
// v_cvt_sr_{f16,bf16}_f32 and the v_cvt_scalef32_sr_* conversions of gfx950.
// Sources (facts only; the code is aster's):
//  * the CDNA4 ISA document: src1 is the random word; a packed form converts
//    its further elements with v_prng_b32 of the previous word (element i
//    with prng^i(src1)); the result byte is op_sel[3:2] (fp8/bf8/fp4), the
//    half op_sel[3] (f16/bf16), other destination bits are preserved;
//  * the rounding: the random word's top bits are added just below the bits
//    the format keeps and the sum is truncated, as for v_cvt_sr_fp8_f32
//    (Float.h f32ToFp8SR). AMD's rocjitsu emulator (data_types.h
//    f32_to_binary_float_sr, f32_to_fp6_e2m3_sr / _bf6_e3m2_sr /
//    _fp4_e2m1_sr; its scaled SR paths were checked against hardware by the
//    fpsan conformance suite) and HIP's OCP software fallback
//    (from_float_sr) implement this rule;
//  * the scaled forms convert x / 2^k as a float (k the scale exponent, see
//    SemScaleCvt.cpp), a 16-bit source widened to f32 first (rocjitsu);
//  * fp6/bf6/fp4: magnitudes beyond the largest value and infinities
//    saturate, below half the smallest subnormal give a signed zero, and in
//    the subnormal range the random bits are aligned to the dropped bits
//    (rocjitsu's small-format SR functions);
//  * f16/bf16: infinities and overflow give infinity (rocjitsu).
// Not emulated (the sources do not agree or say): NaN into f16/bf16 (the
// payload) or fp6/bf6/fp4 (no NaN encoding), an f32 denormal into bf16
// (rocjitsu gives it a normal exponent), op_sel on a source and neg/abs
// except on a single f32 source.
//
//===----------------------------------------------------------------------===//
#include "emulator/ScaleCvt.h"

#include <cmath>

namespace aster::emu {

namespace {

using namespace scalecvt;

/// One step of v_prng_b32 (the CDNA4 ISA's LFSR).
u32 prngStep(u32 x) { return (x << 1) ^ ((x >> 31) ? 197u : 0u); }

/// Finite or infinite f32 -> fp6/bf6/fp4 (eb exponent, mb mantissa bits),
/// stochastic rounding with random word `rnd`.
unsigned f32ToSmallSR(u32 u, u32 rnd, unsigned eb, unsigned mb) {
  unsigned signBit = 1u << (eb + mb);
  unsigned sign = (u >> 31) ? signBit : 0, maxCode = signBit - 1;
  int bias = (1 << (eb - 1)) - 1, emax = (1 << eb) - 1;
  double a = std::fabs(double(u2f(u)));
  if (a > std::ldexp(2.0 - std::ldexp(1.0, -int(mb)), emax - bias))
    return sign | maxCode;
  if (a < std::ldexp(1.0, -bias - int(mb)))  // half the smallest subnormal
    return sign;
  int e = int((u >> 23) & 0xff) - 127 + bias;  // the biased target exponent
  u32 frac = u & 0x7fffffu;
  if (e <= 0) {
    // Subnormal: all bits of the significand below the kept ones meet the
    // random word's top `shift` bits.
    u64 full = frac | 0x800000u;
    unsigned shift = (23 - mb) + unsigned(1 - e);
    if (shift > 24)
      return sign;
    u64 q = full >> shift, rest = full & ((u64(1) << shift) - 1);
    if (rest + (rnd >> (32 - shift)) >= (u64(1) << shift))
      ++q;  // 1 << mb is the smallest normal
    return sign | unsigned(q);
  }
  unsigned drop = 23 - mb;
  u64 rest = frac & ((1u << drop) - 1);
  unsigned m = frac >> drop;
  if (rest + (rnd >> (9 + mb)) >= (u64(1) << drop) && (++m >> mb)) {
    m = 0;
    if (++e > emax)
      return sign | maxCode;
  }
  return sign | unsigned(e) << mb | m;
}

/// f32 -> f16 or bf16 with stochastic rounding; false where not emulated.
bool f32ToHalfSR(u32 u, u32 rnd, bool bf, u16 &out) {
  u32 a = u & 0x7fffffffu;
  u16 sign = u16((u >> 16) & 0x8000u), inf = bf ? 0x7f80 : 0x7c00;
  if (a > 0x7f800000u || (bf && a && (a >> 23) == 0))
    return false;
  if (a == 0x7f800000u || a == 0) {
    out = a ? u16(sign | inf) : sign;
    return true;
  }
  int mb = bf ? 7 : 10, bias = bf ? 127 : 15, minExp = 1 - bias;
  int e = (a >> 23) ? int(a >> 23) - 127 : -126;
  u32 m = a & 0x7fffffu;
  bool sub = e < minExp;
  if (e > bias) {
    out = sign | inf;
    return true;
  }
  if (sub) {
    unsigned diff = unsigned(minExp - e);
    m = diff >= 32 ? 0 : (m | ((a >> 23) ? 0x800000u : 0)) >> diff;
  }
  m += rnd >> (9 + mb);
  int be = sub ? 0 : e + bias;
  if (m >= 0x800000u) {  // the carry: one more exponent (or the smallest normal)
    ++be;
    m -= sub ? 0 : 0x800000u;
  }
  if (be >= 2 * bias + 1) {
    out = sign | inf;
    return true;
  }
  out = u16(sign | be << mb | ((m >> (23 - mb)) & ((1u << mb) - 1)));
  return true;
}

/// A float of a wide source word (f32 bits, or the low half as f16/bf16)
/// divided by 2^k, as a float.
u32 scaledF32(unsigned from, u32 v, int k) {
  return f2u(float(std::ldexp(wideToF64(from, from == W_F32 ? v : (v & 0xffffu)), -k)));
}

/// Small format code of f32 bits `x` (fmt: 0 fp8, 1 bf8, 2 fp6, 3 bf6,
/// 4 fp4); false for a NaN into fp6/bf6/fp4.
bool toSmallSR(unsigned fmt, u32 x, u32 rnd, unsigned &out) {
  if (fmt < 2) {
    out = f32ToFp8SR(u2f(x), rnd, fmt == 0 ? Fp8Kind::E4M3FN : Fp8Kind::E5M2, false);
    return true;
  }
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return false;
  out = fmt == 2 ? f32ToSmallSR(x, rnd, 2, 3) : fmt == 3 ? f32ToSmallSR(x, rnd, 3, 2)
                                                         : f32ToSmallSR(x, rnd, 2, 1);
  return true;
}

/// The checks every form makes: no op_sel on the sources (op_sel[3:2]
/// select the destination), no neg/abs but on a single f32 source 0, none
/// on the random word.
bool sourcesOk(Wave &w, const Inst &in, bool f32Source0) {
  if (in.opsel & 3) {
    w.fail(in, "op_sel on a source is not emulated");
    return false;
  }
  if ((!f32Source0 && (in.src(0).mods & (MOD_NEG | MOD_ABS))) ||
      (in.src(1).mods & (MOD_NEG | MOD_ABS))) {
    w.fail(in, "neg/abs on this source are not emulated");
    return false;
  }
  return true;
}

/// v_cvt_sr_{f16,bf16}_f32: src0 rounded with random src1 into half op_sel[3].
template <bool BF> void cvtSrHalf(Wave &w, const Inst &in) {
  if (!sourcesOk(w, in, true))
    return;
  u32 t0[64], t1[64];
  const u32 *A = vgetF32(w, in.src(0), t0), *R = vget(w, in.src(1), t1);
  u32 *D = vdst(w, in.dst());
  bool hi = in.opsel & 8, refused = false;
  forLanes(w.exec(), [&](unsigned l) {
    u16 h = 0;
    if (!f32ToHalfSR(A[l], R[l], BF, h)) {
      refused = true;
      return;
    }
    D[l] = hi ? (D[l] & 0xffffu) | u32(h) << 16 : (D[l] & 0xffff0000u) | h;
  });
  if (refused)
    w.fail(in, BF ? "a NaN or f32 denormal source is not emulated (stochastic rounding "
                    "to bf16)"
                  : "a NaN source is not emulated (stochastic rounding to f16)");
}

/// v_cvt_scalef32_sr_{fp8,bf8}_{f32,f16,bf16}: one value into the byte
/// op_sel[3:2].
template <unsigned From, unsigned Fmt> void srOne(Wave &w, const Inst &in) {
  int k[64];
  if (!sourcesOk(w, in, From == W_F32) || !scaleExponents(w, in, in.src(2), k))
    return;
  u32 t0[64], t1[64];
  const u32 *A = From == W_F32 ? vgetF32(w, in.src(0), t0) : vget(w, in.src(0), t0);
  const u32 *R = vget(w, in.src(1), t1);
  unsigned sh = 8 * ((in.opsel >> 2) & 3);
  u32 *D = vdst(w, in.dst());
  forLanes(w.exec(), [&](unsigned l) {
    unsigned c = 0;
    toSmallSR(Fmt, scaledF32(From, A[l], k[l]), R[l], c);
    D[l] = (D[l] & ~(0xffu << sh)) | c << sh;
  });
}

/// v_cvt_scalef32_sr_pk_fp4_{f32,f16,bf16}: two values (a register pair, or
/// the halves of src0) into the byte op_sel[3:2], the second rounded with
/// prng(src1).
template <unsigned From> void srPkFp4(Wave &w, const Inst &in) {
  int k[64];
  if (!sourcesOk(w, in, false) || !scaleExponents(w, in, in.src(2), k))
    return;
  u32 t1[64];
  const u32 *R = vget(w, in.src(1), t1);
  unsigned sh = 8 * ((in.opsel >> 2) & 3);
  u32 *D = vdst(w, in.dst());
  u32 t0[64];
  const u32 *A = From == W_F32 ? nullptr : vget(w, in.src(0), t0);
  bool nan = false;
  forLanes(w.exec(), [&](unsigned l) {
    u32 x0 = From == W_F32 ? bitsAt(w, in.src(0), l, 0, 32) : A[l] & 0xffffu;
    u32 x1 = From == W_F32 ? bitsAt(w, in.src(0), l, 32, 32) : A[l] >> 16;
    unsigned c0 = 0, c1 = 0;
    nan |= !toSmallSR(4, scaledF32(From, x0, k[l]), R[l], c0) ||
           !toSmallSR(4, scaledF32(From, x1, k[l]), prngStep(R[l]), c1);
    D[l] = (D[l] & ~(0xffu << sh)) | (c0 | c1 << 4) << sh;
  });
  if (nan)
    w.fail(in, "converting NaN to fp4 (no NaN encoding) is not emulated");
}

/// v_cvt_scalef32_sr_pk32_{fp6,bf6}_{f32,f16,bf16}: 32 values of the src0
/// tuple into six registers, element i rounded with prng^i(src1).
template <unsigned From, unsigned Fmt> void srPk32(Wave &w, const Inst &in) {
  int k[64];
  if (!sourcesOk(w, in, false) || !scaleExponents(w, in, in.src(2), k))
    return;
  u32 t1[64];
  const u32 *R = vget(w, in.src(1), t1);
  constexpr unsigned wb = wideBits(From);
  bool nan = false;
  forLanes(w.exec(), [&](unsigned l) {
    u32 out[6] = {}, rnd = R[l];
    for (unsigned i = 0; i < 32; ++i, rnd = prngStep(rnd)) {
      unsigned c = 0;
      nan |= !toSmallSR(Fmt, scaledF32(From, bitsAt(w, in.src(0), l, wb * i, wb), k[l]), rnd,
                        c);
      setBits(out, 6 * i, 6, c);
    }
    for (unsigned r = 0; r < 6; ++r)
      vdst(w, in.dst(), r)[l] = out[r];
  });
  if (nan)
    w.fail(in, "converting NaN to fp6/bf6 (no NaN encoding) is not emulated");
}

} // namespace

void registerScaleCvtSR(SemTable &t) {
  auto v = [&](const char *n, SemFn f, uint16_t ty, bool readsDst) {
    addConversion(t, n, f, ty, readsDst);
  };
  enum : unsigned { FP8, BF8, FP6, BF6, FP4 };
  const uint16_t f32 = tys(Ty::F32, Ty::B32, Ty::F32), f16 = tys(Ty::F16, Ty::B32, Ty::F32),
                 bf16 = tys(Ty::BF16, Ty::B32, Ty::F32), b32 = tys(Ty::B32, Ty::B32, Ty::F32);
  v("v_cvt_sr_f16_f32", cvtSrHalf<false>, tys(Ty::F32, Ty::B32), true);
  v("v_cvt_sr_bf16_f32", cvtSrHalf<true>, tys(Ty::F32, Ty::B32), true);
  v("v_cvt_scalef32_sr_fp8_f32", srOne<W_F32, FP8>, f32, true);
  v("v_cvt_scalef32_sr_bf8_f32", srOne<W_F32, BF8>, f32, true);
  v("v_cvt_scalef32_sr_fp8_f16", srOne<W_F16, FP8>, f16, true);
  v("v_cvt_scalef32_sr_bf8_f16", srOne<W_F16, BF8>, f16, true);
  v("v_cvt_scalef32_sr_fp8_bf16", srOne<W_BF16, FP8>, bf16, true);
  v("v_cvt_scalef32_sr_bf8_bf16", srOne<W_BF16, BF8>, bf16, true);
  v("v_cvt_scalef32_sr_pk_fp4_f32", srPkFp4<W_F32>, b32, true);
  v("v_cvt_scalef32_sr_pk_fp4_f16", srPkFp4<W_F16>, b32, true);
  v("v_cvt_scalef32_sr_pk_fp4_bf16", srPkFp4<W_BF16>, b32, true);
  v("v_cvt_scalef32_sr_pk32_fp6_f32", srPk32<W_F32, FP6>, b32, false);
  v("v_cvt_scalef32_sr_pk32_bf6_f32", srPk32<W_F32, BF6>, b32, false);
  v("v_cvt_scalef32_sr_pk32_fp6_f16", srPk32<W_F16, FP6>, b32, false);
  v("v_cvt_scalef32_sr_pk32_bf6_f16", srPk32<W_F16, BF6>, b32, false);
  v("v_cvt_scalef32_sr_pk32_fp6_bf16", srPk32<W_BF16, FP6>, b32, false);
  v("v_cvt_scalef32_sr_pk32_bf6_bf16", srPk32<W_BF16, BF6>, b32, false);
}

} // namespace aster::emu
