//===- LowerMathF64Trig.cpp - f64 sin, cos, atan, atan2, asin, acos, cbrt -===//
//
// LLVM 22 has no AMDGPU lowering of llvm.sin/cos.f64 (llc-22 -mcpu=gfx942:
// "no libcall available"; upstream MLIR calls ROCm's __ocml_sin_f64 etc.,
// not installed here) and upstream MLIR's polynomial approximations of
// atan / atan2 / asin / acos / cbrt are f32 only, so these are aster's own,
// from gfx9's f64 instructions and the correctly rounded f64 division and
// square root (MathF64.h). Coefficients are Taylor series' own (1/n!,
// 1/(2n+1)), computed here in double; the constants are pi/2, pi/4, ... and
// 2/pi split into doubles (each the double nearest the rest).
//   sin, cos  |x| <= 2^50: k = rint(x 2/pi); r = x - k pi/2 as a
//             double-double rh + rl: x - k P1 by one fma (exact: the result
//             is a multiple of 2^-53 below 2^0), k P2 as an exact product
//             pair (fma), k P3, summed by TwoSum (Cody-Waite with three
//             53-bit parts: pi/2 to 159 bits; the error below k 2^-163 <
//             2^-113 absolute, against |r| >= 2^-62 for every double
//             (Muller, Elementary Functions, ch. 11)). |x| > 2^50: Payne-
//             Hanek (payneHanek below: x 2/pi mod 4 from 2/pi's bits at x's
//             exponent, six doubles per 128 exponents, no table lookup: a
//             select chain). |r| <= pi/4 (a little more where x 2/pi
//             rounds at a half): sin r = rh + rh z S(z) + rl (1 - z/2), z =
//             rh^2, S the Taylor series to r^19 (the first omitted term is
//             below 2^-58 r); cos r = w + ((1 - w) - z/2 + z^2 C(z) - zl/2 -
//             rh rl) with w = 1 - z/2, zl the rounding error of z, C to
//             r^20. The quadrant k mod 4 (k - 4 floor(k/4), exact) picks
//             +-sin r / +-cos r. |x| < 2^-27: sin x = x, cos x = 1; +-inf
//             and NaN give NaN. Payne-Hanek runs only when a lane of the
//             wave has |x| > 2^50 (s_cbranch_scc0 around it): ~190
//             instructions per sin or cos, ~600 more in such a wave.
//   atan2     a = |y|, b = |x| (both scaled by 2^-8 above 2^1020); u = a / b
//             (C = 0) where a <= tan(pi/8) b, (a - b) / (a + b) (C = pi/4)
//             where a <= tan(3pi/8) b, else -b / a (C = pi/2): |u| <=
//             tan(pi/8); atan u = u + u z P(z), z = u^2, the series to
//             u^41 (first omitted term below 2^-58 u); for x with its sign
//             bit set C becomes pi - C and the series' sign flips; the
//             result is C_hi + (C_lo +- atan u) with the sign of y. a = 0:
//             u = 0 (atan2(+-0, +-0) = +-0 / +-pi); a = b = inf: u = 0, C =
//             pi/4 (+-pi/4, +-3pi/4); a NaN operand gives NaN.
//   atan x    atan2(x, 1).
//   asin x    atan2(x, sqrt(1 - x^2)), acos x = atan2(sqrt(1 - x^2), x), with
//             1 - x^2 = fma(-x, x, 1) for |x| < 1/2, (1 - x)(1 + x) above
//             (both factors exact by Sterbenz); |x| > 1 gives sqrt(< 0) = NaN.
//   cbrt x    |x| = m 2^e (v_frexp); e = 3q + s, y = m 2^s in [1/2, 4); an
//             f32 first guess 2^(log2(y) / 3) (v_log_f32, v_exp_f32, ~2^-21),
//             two Newton steps g -= (g^3 - y) / (3 g^2), a last correction
//             by the residual y - g^3 computed in two parts (fma), scaled by
//             2^q (v_ldexp_f64), the sign of x; +-0, +-inf, NaN pass through.
// Accuracy against NumPy's float64 (tests/py/test_lower_math_f64_trig.py
// states the measured maxima and the bounds). Needs before: the operands
// lowered. Guarantees after: one wide RV (VGPR pair) per result; nullopt for
// the ops and types it does not take.
//===----------------------------------------------------------------------===//
#include "lower/MathF64.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <optional>

namespace aster::lower {

namespace {
// pi/2 = 1.57079632679489661923132169163975144...: three doubles.
constexpr double kPio2_1 = 0x1.921fb54442d18p+0;
constexpr double kPio2_2 = 0x1.1a62633145c07p-54;
constexpr double kPio2_3 = -0x1.f1976b7ed8fbcp-110;
constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
// pi/4, pi/2, 3pi/4, pi: the double nearest and the double nearest the rest.
constexpr double kPio4[2] = {0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55};
constexpr double kPio2[2] = {0x1.921fb54442d18p+0, 0x1.1a62633145c07p-54};
constexpr double k3Pio4[2] = {0x1.2d97c7f3321d2p+1, 0x1.a79394c9e8a0ap-54};
constexpr double kPi[2] = {0x1.921fb54442d18p+1, 0x1.1a62633145c07p-53};
constexpr double kTanPio8 = 0x1.a827999fcef32p-2;  // tan(pi/8) = sqrt(2) - 1
constexpr double kTan3Pio8 = 0x1.3504f333f9de6p+1; // tan(3pi/8) = sqrt(2) + 1
constexpr double kSinCosMax = 0x1p50;

/// The coefficients (-1)^n / (first + 2n)!, n = 0 .. count - 1.
SmallVector<double> factorialSeries(unsigned first, unsigned count) {
  SmallVector<double> cs;
  double f = 1.0;
  for (unsigned i = 2; i <= first; ++i)
    f *= (double)i;
  for (unsigned n = 0; n < count; ++n) {
    cs.push_back((n % 2 ? -1.0 : 1.0) / f);
    f *= (double)(first + 2 * n + 1) * (double)(first + 2 * n + 2);
  }
  return cs;
}

/// x 2/pi as k + y: k integral (an f64), y = (yh + yl) in [-1/2, 1/2] (a
/// little more where x 2/pi rounds at a half), both exact to the reduction's
/// error; n = k mod 4.
struct Reduced {
  Value yh, yl, n;
};

/// Cody-Waite (|x| <= 2^50): r = x - k pi/2 directly (see the header); y
/// is r itself here (rh, rl), the polynomial's argument.
Reduced codyWaite(F64 &D, Value x, Value &k) {
  k = D.L.inst("v_rndne_f64", D.L.v2T, D.mul(x, D.c(kTwoOverPi)));
  Value nk = D.neg(k);
  Value t = D.fma(nk, D.c(kPio2_1), x);                 // exact
  Value ph = D.mul(k, D.c(kPio2_2));
  Value pl = D.fma(k, D.c(kPio2_2), D.neg(ph));         // k P2 = ph + pl exactly
  Value s = D.sub(t, ph);                               // TwoSum(t, -ph)
  Value bb = D.sub(s, t);
  Value e = D.add(D.sub(t, D.sub(s, bb)), D.sub(D.neg(ph), bb));
  Value lo = D.fma(nk, D.c(kPio2_3), D.sub(e, pl));
  Value rh = D.add(s, lo);
  Value rl = D.sub(lo, D.sub(rh, s));                   // Fast2Sum: |s| >= |lo|
  return {rh, rl, Value()};
}

// Payne-Hanek for |x| > 2^50: x = M 2^E (M an integer below 2^53), and
// (x 2/pi) mod 4 = (N F_b) mod 4 with N = M 2^(E - base_b) an integer below
// 2^181 and F_b = (2^base_b 2/pi) mod 4, base_b = -2 + 128 b (b = 0..7 covers
// every finite x); F_b as six doubles (~318 bits: N times the rest is below
// 2^-130), each computed with mpmath at 1600 bits (the nearest double of the
// rest, in turn). Each M F_b,i is an exact product pair (fma), scaled by
// 2^(E - base_b) (exact), taken mod 4 into [-2, 2] (v - 4 rint(v / 4), exact;
// floor's [0, 4) would round 4 - 2^-100 to 4) and summed
// by TwoSum; k = rint(sum), y = sum - k with the accumulated error terms
// (about 2^-100 absolute: far below half an ulp of sin / cos unless |r| is
// below 2^-45).
constexpr double kTwoOverPiMod4[8][6] = {
    {0x1.45f306dc9c883p-3, -0x1.6b01ec5417056p-57, -0x1.6447e493ad4cep-111, 0x1.e21c820ff28b2p-165, -0x1.508510ea79237p-220, 0x1.b8e909374b802p-276},
    {0x1.b6c52b3278872p-3, 0x1.07f9458eaf7afp-60, -0x1.d4f246dc8e2dfp-117, 0x1.374b801924bbbp-172, -0x1.f62e6de301e21p-226, -0x1.38d3b5963045ep-280},
    {0x1.b7246e3a424ddp-2, 0x1.700324977504fp-57, -0x1.cdbc603c429c7p-111, 0x1.894d39f74411bp-165, -0x1.5a28976f62cc7p-223, -0x1.fb29741037d8dp-279},
    {0x1.9fc3bd6396253p+1, 0x1.39f74411afa97p-53, 0x1.768909d338e05p-107, -0x1.4ba081bec66e3p-162, 0x1.8e60d4ce7d272p-216, 0x1.17e2ef7e4a0ecp-272},
    {0x1.3a671c09ad17ep+0, -0x1.bec66e29c67cbp-58, 0x1.9cfa4e422fc5ep-113, -0x1.036be27003b40p-169, -0x1.0fd33f8086877p-229, -0x1.d297d64b824b2p-284},
    {0x1.272117e2ef7e5p+0, -0x1.7c4e007680022p-54, 0x1.6603fbcbc462dp-112, 0x1.a0a6d1f6d367fp-166, -0x1.86c1a7b24585dp-221, 0x1.fb34f2ff516bbp-277},
    {0x1.fde5e2316b415p+1, -0x1.2e092c98130d8p-54, -0x1.a7b24585ce04dp-109, 0x1.3cbfd45aea4f7p-163, 0x1.63f5f2f8bd9e8p-217, 0x1.ce7de294a4baap-272},
    {0x1.d3d18fd9a7980p+0, -0x1.5d28ad8453814p-54, -0x1.a0e84c2f8c608p-110, -0x1.d6b5b45650128p-164, -0x1.3b81ca8bdea7fp-220, -0x1.9f72070928a82p-275},
};

Reduced payneHanek(F64 &D, Value x, Value &k) {
  KernelLowering &L = D.L;
  Value ax = D.abs(x);
  Value e = L.inst("v_frexp_exp_i32_f64", L.vT, ax);            // ax in [2^(e-1), 2^e)
  Value m = L.inst("v_ldexp_f64", L.v2T, {ax, L.inst("v_sub_u32", L.vT, {L.toV(RV::imm(53)), e})});
  Value e2 = L.inst("v_subrev_u32", L.vT, {L.toV(RV::imm(51)), e}); // E + 2 = e - 51 >= 0
  Value b = L.inst("v_lshrrev_b32", L.vT, {L.cst(7), e2});
  Value shift = L.inst("v_and_b32", L.vT, {L.toV(RV::imm(127)), e2});
  SmallVector<Value> atLeast; // b >= j, j = 1..7
  for (uint32_t j = 1; j < 8; ++j)
    atLeast.push_back(L.inst("v_cmp_le_u32", L.s2T, {L.cst(j), b}));
  Value s = D.c(0.0), t = D.c(0.0);
  auto mod4 = [&](Value v) { // v - 4 rint(v / 4) in [-2, 2]: exact (a small v stays)
    return D.fma(L.inst("v_rndne_f64", L.v2T, D.mul(v, D.c(0.25))), D.c(-4.0), v);
  };
  auto accumulate = [&](Value v) { // (s, t) += v mod 4, TwoSum
    v = mod4(L.inst("v_ldexp_f64", L.v2T, {v, shift}));
    Value n = D.add(s, v);
    Value bb = D.sub(n, s);
    Value err = D.add(D.sub(s, D.sub(n, bb)), D.sub(v, bb));
    s = n;
    t = D.add(t, err);
  };
  for (unsigned i = 0; i < 6; ++i) {
    Value f = D.c(kTwoOverPiMod4[0][i]);
    for (unsigned j = 1; j < 8; ++j)
      f = D.sel(atLeast[j - 1], D.c(kTwoOverPiMod4[j][i]), f);
    Value ph = D.mul(m, f);
    accumulate(ph);
    accumulate(D.fma(m, f, D.neg(ph)));
  }
  s = mod4(s);
  k = L.inst("v_rndne_f64", L.v2T, s);
  Value s1 = D.sub(s, k);                                  // exact
  Value yh = D.add(s1, t);
  Value yl = D.sub(t, D.sub(yh, s1));
  // r = y pi/2 as rh + rl
  Value rh = D.mul(yh, D.c(kPio2_1));
  Value rl = D.fma(yh, D.c(kPio2_1), D.neg(rh));
  rl = D.fma(yh, D.c(kPio2_2), rl);
  rl = D.fma(yl, D.c(kPio2_1), rl);
  Value h = D.add(rh, rl);
  rl = D.sub(rl, D.sub(h, rh));
  // the sign of x: sin(-x) = -sin x, cos(-x) = cos x as r and k negated
  Value neg = D.cmp("v_cmp_gt_f64", D.c(0.0), x);
  return {D.sel(neg, D.neg(h), h), D.sel(neg, D.neg(rl), rl), neg};
}

/// sin or cos of x (f64).
Value sinCosF64(F64 &D, Value x, bool isCos) {
  KernelLowering &L = D.L;
  Value kSmall, kBig;
  Reduced a = codyWaite(D, x, kSmall);
  // Payne-Hanek only where a lane needs it: SCC = (exec & big) != 0 skips
  // it (EXEC unchanged, so the join's values are written in every lane);
  // inside, EXEC = the big lanes, restored before the selects.
  Value big = D.cmp("v_cmp_lt_f64", D.c(kSinCosMax), D.abs(x));
  Value saved = L.inst("s_mov_b64", L.s2T, L.execReg());
  Value any = L.inst("s_and_b64", L.s2T, {saved, big});
  L.inst("s_cmp_lg_u64", {}, {any, L.cst(0)});
  Block *phB = L.newBlock(), *join = L.newBlock({L.v2T, L.v2T, L.v2T});
  L.branch("s_cbranch_scc0", join, {a.yh, a.yl, kSmall}, phB, {});
  L.start(phB);
  L.inst("s_mov_b64", L.execT, any);
  Reduced p = payneHanek(D, x, kBig);
  Value kP = D.sel(p.n, D.neg(kBig), kBig);
  L.inst("s_mov_b64", L.execT, saved);
  Value rhJ = D.sel(big, p.yh, a.yh), rlJ = D.sel(big, p.yl, a.yl), kJ = D.sel(big, kP, kSmall);
  cf::BranchOp::create(L.b, L.loc, join, ValueRange{rhJ, rlJ, kJ});
  L.start(join);
  Value rh = join->getArgument(0), rl = join->getArgument(1), k = join->getArgument(2);
  Value z = D.mul(rh, rh);
  Value zl = D.fma(rh, rh, D.neg(z));
  // sin r = rh + (rh z S(z) + rl (1 - z/2))
  SmallVector<double> sc = factorialSeries(3, 9);      // -1/3! + z/5! - ...
  for (double &v : sc)
    v = -v;
  Value sPoly = D.horner(z, sc);
  Value sTail = D.fma(D.mul(rh, z), sPoly, D.fma(D.mul(z, D.c(-0.5)), rl, rl));
  Value sinR = D.add(rh, sTail);
  // cos r = w + ((1 - w) - h + z^2 C(z) - zl/2 - rh rl), h = z/2, w = 1 - h
  Value h = D.mul(z, D.c(0.5));
  Value w = D.sub(D.c(1.0), h);
  Value werr = D.sub(D.sub(D.c(1.0), w), h);
  Value cPoly = D.horner(z, factorialSeries(4, 9));     // 1/4! - z/6! + ...
  Value cTail = D.fma(D.mul(z, z), cPoly, D.fma(zl, D.c(-0.5), D.fma(D.neg(rh), rl, werr)));
  Value cosR = D.add(w, cTail);
  // quadrant n = k mod 4 (exact in f64)
  Value q = D.fma(L.inst("v_floor_f64", L.v2T, D.mul(k, D.c(0.25))), D.c(-4.0), k);
  Value n = L.inst("v_cvt_i32_f64", L.vT, q);
  if (isCos)
    n = L.inst("v_add_u32", L.vT, {L.cst(1), n});
  Value odd = L.inst("v_cmp_ne_u32", L.s2T, {L.cst(0), L.inst("v_and_b32", L.vT, {L.cst(1), n})});
  // sin x = [s, c, -s, -c][n], cos x = [c, -s, -c, s][n] = sin x's row at
  // n + 1: odd picks cos r, bit 1 flips the sign.
  Value r = D.sel(odd, cosR, sinR);
  Value sign = L.inst("v_lshlrev_b32", L.vT, {L.cst(30), L.inst("v_and_b32", L.vT, {L.cst(2), n})});
  r = D.join(D.lo(r), L.inst("v_xor_b32", L.vT, {sign, D.hi(r)}));
  Value ax = D.abs(x);
  r = D.sel(D.cmp("v_cmp_gt_f64", D.c(0x1p-27), ax), isCos ? D.c(1.0) : x, r);
  return D.sel(D.cls(x, 0x207), D.c(NAN), r);            // NaN, +-inf
}

/// atan2(y, x) (f64; see the header).
Value atan2F64(F64 &D, Value y, Value x) {
  KernelLowering &L = D.L;
  Value a = D.abs(y), b = D.abs(x);
  Value big = D.cmp("v_cmp_lt_f64", D.c(0x1p1020), a);
  big = L.inst("s_or_b64", L.s2T, {big, D.cmp("v_cmp_lt_f64", D.c(0x1p1020), b)});
  a = D.sel(big, D.mul(a, D.c(0x1p-8)), a);
  b = D.sel(big, D.mul(b, D.c(0x1p-8)), b);
  Value c1 = D.cmp("v_cmp_le_f64", a, D.mul(b, D.c(kTanPio8)));
  Value c2 = D.cmp("v_cmp_le_f64", a, D.mul(b, D.c(kTan3Pio8)));
  Value num = D.sel(c1, a, D.sel(c2, D.sub(a, b), D.neg(b)));
  Value den = D.sel(c1, b, D.sel(c2, D.add(a, b), a));
  Value u = D.div(num, den);
  Value bothInf = L.inst("s_and_b64", L.s2T, {D.cls(a, 0x200), D.cls(b, 0x200)});
  Value zeroU = L.inst("s_or_b64", L.s2T, {bothInf, D.cmp("v_cmp_eq_f64", a, D.c(0.0))});
  u = D.sel(zeroU, D.c(0.0), u);
  c1 = L.inst("s_andn2_b64", L.s2T, {c1, bothInf});
  c2 = L.inst("s_or_b64", L.s2T, {c2, bothInf});
  // atan u = u + u z P(z), P(z) = -1/3 + z/5 - ... (to u^41)
  SmallVector<double> p;
  for (unsigned n = 1; n <= 20; ++n)
    p.push_back((n % 2 ? -1.0 : 1.0) / (double)(2 * n + 1));
  Value z = D.mul(u, u);
  Value at = D.fma(D.mul(u, z), D.horner(z, p), u);
  // C (x >= +0) or pi - C (x with its sign bit set), high and low parts.
  Value negX = L.inst("v_cmp_gt_i32", L.s2T, {L.cst(0), D.hi(x)});
  auto pick = [&](int part) {
    Value pos = D.sel(c1, D.c(0.0), D.sel(c2, D.c(kPio4[part]), D.c(kPio2[part])));
    Value neg = D.sel(c1, D.c(kPi[part]), D.sel(c2, D.c(k3Pio4[part]), D.c(kPio2[part])));
    return D.sel(negX, neg, pos);
  };
  at = D.sel(negX, D.neg(at), at);
  Value r = D.add(pick(0), D.add(pick(1), at));
  r = D.copySign(r, y);
  return D.sel(L.inst("v_cmp_u_f64", L.s2T, {x, y}), D.c(NAN), r);
}

/// sqrt(1 - x^2) (see the header).
Value cosOfAsin(F64 &D, Value x) {
  Value small = D.cmp("v_cmp_gt_f64", D.c(0.5), D.abs(x));
  Value q = D.sel(small, D.fma(D.neg(x), x, D.c(1.0)),
                  D.mul(D.sub(D.c(1.0), x), D.add(D.c(1.0), x)));
  return D.sqrt(q);
}

/// cbrt(x) (f64; see the header).
Value cbrtF64(F64 &D, Value x) {
  KernelLowering &L = D.L;
  Value ax = D.abs(x);
  Value m = L.inst("v_frexp_mant_f64", L.v2T, ax);
  Value e = L.inst("v_frexp_exp_i32_f64", L.vT, ax);
  // q3 = floor((e + 1077) / 3) = floor(e / 3) + 359 (e + 1077 in [0, 2103):
  // n * 43691 >> 17 is floor(n / 3) there); s = e - 3 floor(e / 3).
  Value n = L.inst("v_add_u32", L.vT, {L.toV(RV::imm(1077)), e});
  Value q3 = L.inst("v_lshrrev_b32", L.vT,
                    {L.cst(17), L.inst("v_mul_u32_u24", L.vT, {L.toV(RV::imm(43691)), n})});
  Value q = L.inst("v_subrev_u32", L.vT, {L.toV(RV::imm(359)), q3});
  Value s = L.inst("v_sub_u32", L.vT, {n, L.inst("v_mul_u32_u24", L.vT, {L.cst(3), q3})});
  Value y = L.inst("v_ldexp_f64", L.v2T, {m, s});
  // f32 first guess: 2^(log2(y) / 3)
  Value yf = L.inst("v_cvt_f32_f64", L.vT, y);
  Value lg = L.inst("v_log_f32", L.vT, yf);
  Value g0 = L.inst("v_exp_f32", L.vT,
                    L.inst("v_mul_f32", L.vT, {L.toV(RV::imm(0x3eaaaaab, true)), lg}));
  Value g = L.inst("v_cvt_f64_f32", L.v2T, g0);
  for (int i = 0; i < 2; ++i) {
    Value g2 = D.mul(g, g);
    Value d = D.fma(g2, g, D.neg(y));
    Value inv = L.inst("v_rcp_f64", L.v2T, D.mul(g2, D.c(3.0)));
    g = D.fma(D.neg(d), inv, g);
  }
  // residual y - g^3 in two parts, then g + res / (3 g^2)
  Value g2h = D.mul(g, g);
  Value g2l = D.fma(g, g, D.neg(g2h));
  Value g3h = D.mul(g2h, g);
  Value g3l = D.fma(g2l, g, D.fma(g2h, g, D.neg(g3h)));
  Value res = D.sub(D.sub(y, g3h), g3l);
  Value inv = L.inst("v_rcp_f64", L.v2T, D.mul(g2h, D.c(3.0)));
  g = D.fma(res, inv, g);
  Value r = D.copySign(L.inst("v_ldexp_f64", L.v2T, {g, q}), x);
  return D.sel(D.cls(x, 0x267), x, r); // +-0, +-inf, NaN
}
} // namespace

std::optional<LogicalResult> lowerMathF64Erf(KernelLowering &L, Operation *op);

std::optional<LogicalResult> lowerMathF64Trig(KernelLowering &L, Operation *op) {
  if (std::optional<LogicalResult> r = lowerMathF64Erf(L, op))
    return *r;
  return lowerF64Op<math::SinOp, math::CosOp, math::AtanOp, math::Atan2Op, math::AsinOp,
                    math::AcosOp, math::CbrtOp>(L, op, [&](F64 &D, Value x, ArrayRef<RV> in) {
    if (isa<math::SinOp, math::CosOp>(op))
      return sinCosF64(D, x, isa<math::CosOp>(op));
    if (isa<math::AtanOp>(op))
      return atan2F64(D, x, D.c(1.0));
    if (isa<math::Atan2Op>(op))
      return atan2F64(D, x, L.toV64(in[1]));
    if (isa<math::AsinOp>(op))
      return atan2F64(D, x, cosOfAsin(D, x));
    if (isa<math::AcosOp>(op))
      return atan2F64(D, cosOfAsin(D, x), x);
    return cbrtF64(D, x);
  });
}

} // namespace aster::lower
