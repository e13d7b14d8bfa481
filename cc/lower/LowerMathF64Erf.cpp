//===- LowerMathF64Erf.cpp - f64 erf and erfc -------------------------------===//
//
// LLVM 22 has no AMDGPU lowering of erf / erfc of f64 (upstream MLIR calls
// ROCm's __ocml_erf_f64, not installed here; its polynomial approximations
// are f32 only), so these are aster's own from gfx9's f64 instructions:
//   erf x, |x| < 0.84   the Taylor series (2/sqrt(pi)) x sum_n (-1)^n x^2n /
//                       (n! (2n+1)) to n = 18 (the first omitted term is below
//                       2^-60 of the sum), 2/sqrt(pi) as two doubles.
//   erfc x, x >= 1/2    the exponentially convergent sum of Chiarella and
//                       Reichel (Math. Comp. 22 (1968) 137-143; Matta and
//                       Reichel, Math. Comp. 25 (1971)): with h = 7/16,
//                       erfc x = e^-x^2 (x h / pi) (1/x^2 + sum_{n=1..17}
//                       2 e^(-n^2 h^2) / (x^2 + n^2 h^2)) - 2 / (e^(2 pi x / h)
//                       - 1), the last term only for x < pi / h (beyond, it is
//                       below 2^-66 of the result); the truncation of the
//                       sum and the formula's error are below 2^-64 relative
//                       (checked with mpmath at 300 points of [0.3, 27]).
//                       x^2 as z + zl (fma), e^-x^2 = e^-z (1 - zl) (the f64
//                       exp of LowerMathF64.cpp), each 1 / (z + n^2 h^2) a
//                       v_rcp_f64 and two Newton steps, summed smallest
//                       first (largest first loses ~4 ulp); 0 above 27.3
//                       (erfc(27.3) < 2^-1075) and for +inf.
//   erf x, |x| >= 0.84  +-(1 - erfc |x|).
//   erfc x, |x| < 1/2   1 - erf x (>= 0.47: no cancellation); x <= -1/2:
//                       2 - erfc(-x).
//   erf(+-0) = +-0, erf(+-inf) = +-1, erfc(-inf) = 2, NaN gives NaN.
// The coefficients 2 e^(-n^2 h^2) and 1 / (n! (2n+1)) are computed here in
// double (n^2 h^2 is exact: h = 7/16). Accuracy against NumPy / SciPy:
// tests/py/test_lower_math_f64_trig.py states the measured maxima and bounds.
// Needs before: the operands lowered. Guarantees after: one wide RV (VGPR
// pair) per result; nullopt for other ops and types.
//===----------------------------------------------------------------------===//
#include "lower/MathF64.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <optional>

namespace aster::lower {

namespace {
// 2/sqrt(pi) = 1.12837916709551257389615890312...: two doubles.
constexpr double kTwoOverSqrtPiHi = 0x1.20dd750429b6dp+0;
constexpr double kTwoOverSqrtPiLo = 0x1.1ae3a914fed80p-56;
constexpr double kH = 0.4375;
constexpr unsigned kTerms = 17;
constexpr double kHOverPi = 0x1.1d34a60108f72p-3;      // h / pi
constexpr double kTwoPiOverH = 0x1.cb91f3bbba140p+3;   // 2 pi / h
constexpr double kPiOverH = 0x1.cb91f3bbba140p+2;      // pi / h
constexpr double kErfcZero = 27.3;

/// 1 / d: v_rcp_f64 and two Newton steps (within an ulp).
Value recip(F64 &D, Value d) {
  Value r = D.L.inst("v_rcp_f64", D.L.v2T, d);
  for (int i = 0; i < 2; ++i)
    r = D.fma(r, D.fma(D.neg(d), r, D.c(1.0)), r);
  return r;
}

/// erf x by its Taylor series (|x| < 0.84).
Value erfSeries(F64 &D, Value x) {
  SmallVector<double> q; // (-1)^n / (n! (2n+1)), n = 1..18
  double f = 1.0;
  for (unsigned n = 1; n <= 18; ++n) {
    f *= (double)n;
    q.push_back((n % 2 ? -1.0 : 1.0) / (f * (double)(2 * n + 1)));
  }
  Value z = D.mul(x, x);
  Value t = D.mul(D.mul(x, z), D.horner(z, q)); // x (erf / (c x) - 1)
  return D.fma(x, D.c(kTwoOverSqrtPiHi),
               D.fma(t, D.c(kTwoOverSqrtPiHi), D.mul(x, D.c(kTwoOverSqrtPiLo))));
}

/// erfc a for a >= 1/2 (and 0 above 27.3, +inf included).
Value erfcLarge(F64 &D, Value a) {
  Value z = D.mul(a, a);
  Value zl = D.fma(a, a, D.neg(z));
  // the smallest terms first (the forward order loses ~4 ulp in the sum)
  Value s = D.c(0.0);
  for (unsigned n = kTerms; n >= 1; --n) {
    double nh = (double)n * kH;
    s = D.fma(D.c(2.0 * std::exp(-nh * nh)), recip(D, D.add(z, D.c(nh * nh))), s);
  }
  s = D.add(s, recip(D, z));
  Value e = mathExpF64(D, D.neg(z));
  e = D.fma(D.neg(zl), e, e);
  Value v = D.mul(e, D.mul(D.mul(a, D.c(kHOverPi)), s));
  Value big = mathExpF64(D, D.mul(a, D.c(kTwoPiOverH)));
  Value corr = D.div(D.c(-2.0), D.add(big, D.c(-1.0)));
  v = D.sel(D.cmp("v_cmp_lt_f64", a, D.c(kPiOverH)), D.add(v, corr), v);
  return D.sel(D.cmp("v_cmp_lt_f64", D.c(kErfcZero), a), D.c(0.0), v);
}

Value erfF64(F64 &D, Value x) {
  Value ax = D.abs(x);
  Value big = D.copySign(D.sub(D.c(1.0), erfcLarge(D, ax)), x);
  return D.sel(D.cmp("v_cmp_gt_f64", D.c(0.84), ax), erfSeries(D, x), big);
}

Value erfcF64(F64 &D, Value x) {
  Value ax = D.abs(x);
  Value large = erfcLarge(D, ax);
  Value r = D.sel(D.cmp("v_cmp_gt_f64", D.c(0.0), x), D.sub(D.c(2.0), large), large);
  return D.sel(D.cmp("v_cmp_gt_f64", D.c(0.5), ax), D.sub(D.c(1.0), erfSeries(D, x)), r);
}
} // namespace

std::optional<LogicalResult> lowerMathF64Erf(KernelLowering &L, Operation *op) {
  return lowerF64Op<math::ErfOp, math::ErfcOp>(L, op, [&](F64 &D, Value x, ArrayRef<RV>) {
    return isa<math::ErfOp>(op) ? erfF64(D, x) : erfcF64(D, x);
  });
}

} // namespace aster::lower
