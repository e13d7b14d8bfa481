//===- LowerMathF64.cpp - f64 exp, exp2, log, log2 from the ISA's f64 ops -===//
//
// LLVM 22 has no AMDGPU lowering of llvm.exp/exp2/log/log2.f64 (llc-22
// -mcpu=gfx942: "no libcall available for fexp"; upstream MLIR calls ROCm's
// __ocml_exp_f64 etc., not installed here) and upstream MLIR's polynomial
// approximations are f32 only, so these are aster's own, built from gfx9's
// f64 instructions (v_fma_f64, v_ldexp_f64, v_frexp_mant/exp_f64,
// v_rndne_f64, v_cvt_i32_f64, v_cmp_class_f64) and the correctly rounded
// f64 division (divF64, LowerArith64.cpp):
//   exp(x)   k = rint(x log2 e); r = x - k ln2 by two fmas (Cody-Waite: ln2
//            as the double LN2_HI plus the double LN2_LO of the remainder);
//            e^r by its Taylor series to degree 13 (|r| <= ln2 / 2: the
//            first omitted term is below 2^-57), Horner with fma; scaled by
//            2^k (v_ldexp_f64: one rounding for denormal results); +inf
//            above 710, +0 below -746 (beyond them ldexp's own overflow /
//            underflow gives the same; the bounds keep r's reduction in range).
//   exp2(x)  k = rint(x), f = x - k (exact), 2^f = e^(f ln2) by the series
//            in f with coefficients (ln2)^n / n! (degree 13); 2^k; +inf
//            above 1024, +0 below -1076.
//   log(x)   x = m 2^e with m in [sqrt(1/2), sqrt(2)) (v_frexp_*, m doubled
//            and e less one below sqrt(1/2)); f = m - 1 (exact); s = f / (2
//            + f) with its rounding error s_lo (the denominator as an exact
//            sum d + d_lo, the residual fma(-s, d, f) - s d_lo over d);
//            ln(m) = 2 atanh(s) = 2s + 2 (s_lo + s z Q(z)), z = s^2 <= 0.0295,
//            Q(z) = sum z^j / (2j + 3), j <= 10; ln x = e LN2_HI + (2s +
//            (e LN2_LO + 2 (s_lo + s z Q))) with the last sum in one fma.
//   log2(x)  e + ln(m) log2(e): the product in two parts (fma error term,
//            LOG2E_LO), e added by Fast2Sum.
//   log10(x) e log10(2) + ln(m) log10(e), each product in two parts, the
//            two added by TwoSum.
//   Special inputs (v_cmp_class_f64): log / log2 of +-0 are -inf, of a
//   negative number NaN, of +inf +inf, of NaN the NaN; exp / exp2 of NaN
//   NaN (the series of a NaN).
// Accuracy against NumPy in float64 over a wide sweep (denormals, the
// overflow and underflow thresholds): tests/py/test_lower_math_f64.py
// states the measured maxima and the ulp bounds. The coefficients are the
// Taylor / atanh series' own (1/n!, (ln 2)^n / n!, 1/(2j + 3)), computed
// here in double: no table from another library.
// Needs before: the operands lowered. Guarantees after: one wide RV (VGPR
// pair) per result; nullopt for the ops and types it does not take.
//===----------------------------------------------------------------------===//
#include "lower/MathF64.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>
#include <optional>

namespace aster::lower {

namespace {
// ln 2 split for Cody-Waite: LN2_HI the double nearest ln 2, LN2_LO the
// double nearest ln 2 - LN2_HI (ln 2 = 0.693147180559945309417232121458...).
constexpr double kLn2Hi = 0x1.62e42fefa39efp-1;
constexpr double kLn2Lo = 0x1.abc9e3b39803fp-56;
// log2(e) = 1.442695040888963407359924681001...: the nearest double and the
// double nearest the rest.
constexpr double kLog2eHi = 0x1.71547652b82fep+0;
constexpr double kLog2eLo = 0x1.777d0ffda0d24p-56;
constexpr double kSqrtHalf = 0.70710678118654752440; // m below: doubled

constexpr unsigned kDegree = 13;

SmallVector<double> expCoeffs(double scale) { // scale^n / n!
  SmallVector<double> cs;
  double term = 1.0;
  for (unsigned n = 0; n <= kDegree; ++n) {
    cs.push_back(term);
    term = term * scale / (double)(n + 1);
  }
  return cs;
}

/// 2^k p (k an integral f64) with the range cases: +inf where x > over,
/// +0 where x < under.
Value scaleAndClamp(F64 &D, Value x, Value k, Value p, double over, double under) {
  KernelLowering &L = D.L;
  Value r = L.inst("v_ldexp_f64", L.v2T, {p, L.inst("v_cvt_i32_f64", L.vT, k)});
  r = D.sel(D.cmp("v_cmp_gt_f64", x, D.c(over)), D.c(INFINITY), r);
  return D.sel(D.cmp("v_cmp_lt_f64", x, D.c(under)), D.c(0.0), r);
}

Value expF64(F64 &D, Value x) {
  Value k = D.L.inst("v_rndne_f64", D.L.v2T, D.mul(x, D.c(kLog2eHi)));
  Value nk = D.neg(k);
  Value r = D.fma(nk, D.c(kLn2Hi), x);
  r = D.fma(nk, D.c(kLn2Lo), r);
  return scaleAndClamp(D, x, k, D.horner(r, expCoeffs(1.0)), 710.0, -746.0);
}

Value exp2F64(F64 &D, Value x) {
  Value k = D.L.inst("v_rndne_f64", D.L.v2T, x);
  Value f = D.sub(x, k);
  return scaleAndClamp(D, x, k, D.horner(f, expCoeffs(kLn2Hi)), 1024.0, -1076.0);
}

/// ln(m) of x = m 2^e as hi + lo, and e (an f64).
struct LogParts {
  Value hi, lo, e;
};

LogParts logParts(F64 &D, Value x) {
  KernelLowering &L = D.L;
  Value m = L.inst("v_frexp_mant_f64", L.v2T, x);
  Value e = L.inst("v_frexp_exp_i32_f64", L.vT, x);
  Value small = D.cmp("v_cmp_gt_f64", D.c(kSqrtHalf), m);
  Value one = L.inst("v_cndmask_b32", L.vT, {L.cst(0), L.cst(1), small});
  m = L.inst("v_ldexp_f64", L.v2T, {m, one});
  e = L.inst("v_sub_u32", L.vT, {e, one});
  Value ef = L.inst("v_cvt_f64_i32", L.v2T, e);
  Value f = D.add(m, D.c(-1.0));
  Value d = D.add(f, D.c(2.0));
  Value dlo = D.add(D.sub(D.c(2.0), d), f); // Fast2Sum's error: 2 >= |f|
  Value s = L.toV64(divF64(L, L.fromV64(f), L.fromV64(d)));
  // s_lo = (f - s (d + dlo)) / d
  Value res = D.fma(D.neg(s), d, f);
  res = D.fma(D.neg(s), dlo, res);
  Value slo = D.mul(res, L.inst("v_rcp_f64", L.v2T, d));
  Value z = D.mul(s, s);
  SmallVector<double> q;
  for (unsigned j = 0; j <= 10; ++j)
    q.push_back(1.0 / (double)(2 * j + 3));
  Value t = D.mul(D.mul(s, z), D.horner(z, q));
  Value hi = D.add(s, s);
  Value lo = D.add(D.add(slo, t), D.add(slo, t));
  return {hi, lo, ef};
}

/// The special inputs of log / log2: +-0 -> -inf, negative -> NaN, +inf
/// and NaN -> themselves.
Value logSpecials(F64 &D, Value x, Value r) {
  r = D.sel(D.cls(x, 0x01c), D.c(NAN), r);           // -inf, -normal, -denormal
  r = D.sel(D.cls(x, 0x060), D.c(-INFINITY), r);     // -0, +0
  return D.sel(D.cls(x, 0x203), x, r);               // NaN, +inf
}

Value logF64(F64 &D, Value x) {
  LogParts p = logParts(D, x);
  Value rest = D.add(p.hi, D.fma(p.e, D.c(kLn2Lo), p.lo));
  return logSpecials(D, x, D.fma(p.e, D.c(kLn2Hi), rest));
}

Value log2F64(F64 &D, Value x) {
  LogParts p = logParts(D, x);
  Value ph = D.mul(p.hi, D.c(kLog2eHi));
  Value pl = D.fma(p.hi, D.c(kLog2eHi), D.neg(ph)); // the product's rounding error
  pl = D.fma(p.hi, D.c(kLog2eLo), pl);
  pl = D.fma(p.lo, D.c(kLog2eHi), pl);
  Value t = D.add(p.e, ph);
  Value err = D.add(D.sub(p.e, t), ph); // Fast2Sum: |e| >= |ph| or e = 0
  return logSpecials(D, x, D.add(t, D.add(err, pl)));
}

// log10(x) = e log10(2) + ln(m) log10(e): both products in two parts (an
// fma's error term and the constants' low parts), summed by TwoSum (either
// may be the larger), the low parts added last.
constexpr double kLog10eHi = 0x1.bcb7b1526e50ep-2; // log10(e) = 0.434294481903251827651...
constexpr double kLog10eLo = 0x1.95355baaafad3p-57;
constexpr double kLog10Of2Hi = 0x1.34413509f79ffp-2; // log10(2) = 0.301029995663981195213...
constexpr double kLog10Of2Lo = -0x1.9dc1da994fd21p-59;

Value log10F64(F64 &D, Value x) {
  LogParts p = logParts(D, x);
  Value ph = D.mul(p.hi, D.c(kLog10eHi));
  Value pl = D.fma(p.hi, D.c(kLog10eHi), D.neg(ph));
  pl = D.fma(p.hi, D.c(kLog10eLo), pl);
  pl = D.fma(p.lo, D.c(kLog10eHi), pl);
  Value eh = D.mul(p.e, D.c(kLog10Of2Hi));
  Value el = D.fma(p.e, D.c(kLog10Of2Hi), D.neg(eh));
  el = D.fma(p.e, D.c(kLog10Of2Lo), el);
  Value t = D.add(eh, ph);
  Value bb = D.sub(t, eh);
  Value err = D.add(D.sub(eh, D.sub(t, bb)), D.sub(ph, bb)); // TwoSum
  return logSpecials(D, x, D.add(t, D.add(err, D.add(pl, el))));
}

// e^x - 1: the reduction of expF64 (k, r); expm1(r) = r P(r) with P's
// coefficients 1/(n+1)! (degree 13), then 2^k expm1(r) + (2^k - 1) in one
// fma (2^k - 1 exact for -53 <= k <= 53; beyond, the rounded 2^k - 1 is
// within an ulp of the result's). Above 40 (e^x past 2^57: the - 1 is below
// half an ulp) e^x itself, 2^k (1 + expm1(r)) (v_ldexp_f64 past the
// largest finite 2^k); below -40, -1; +inf above 710.
Value expm1F64(F64 &D, Value x) {
  KernelLowering &L = D.L;
  Value k = L.inst("v_rndne_f64", L.v2T, D.mul(x, D.c(kLog2eHi)));
  Value nk = D.neg(k);
  Value r = D.fma(nk, D.c(kLn2Hi), x);
  r = D.fma(nk, D.c(kLn2Lo), r);
  SmallVector<double> cs = expCoeffs(1.0);
  Value em = D.mul(r, D.horner(r, ArrayRef<double>(cs).drop_front()));
  Value ki = L.inst("v_cvt_i32_f64", L.vT, k);
  Value twoK = L.inst("v_ldexp_f64", L.v2T, {D.c(1.0), ki});
  Value small = D.fma(twoK, em, D.add(twoK, D.c(-1.0)));
  Value big = L.inst("v_ldexp_f64", L.v2T, {D.add(em, D.c(1.0)), ki});
  Value res = D.sel(D.cmp("v_cmp_gt_f64", x, D.c(40.0)), big, small);
  res = D.sel(D.cmp("v_cmp_gt_f64", x, D.c(710.0)), D.c(INFINITY), res);
  return D.sel(D.cmp("v_cmp_lt_f64", x, D.c(-40.0)), D.c(-1.0), res);
}

// tanh(x) = e / (e + 2) with e = expm1(2 |x|) (correctly rounded division),
// 1 for |x| > 22 (tanh(22) rounds to 1), the sign of x (v_bfi_b32).
Value tanhF64(F64 &D, Value x) {
  KernelLowering &L = D.L;
  Value ax = D.join(D.lo(x), L.inst("v_and_b32", L.vT, {L.toV(RV::imm(0x7fffffff)), D.hi(x)}));
  Value e = expm1F64(D, D.add(ax, ax));
  Value t = L.toV64(divF64(L, L.fromV64(e), L.fromV64(D.add(e, D.c(2.0)))));
  t = D.sel(D.cmp("v_cmp_gt_f64", ax, D.c(22.0)), D.c(1.0), t);
  return D.join(D.lo(t), L.inst("v_bfi_b32", L.vT, {L.toV(RV::imm(0x7fffffff)), D.hi(t), D.hi(x)}));
}

// log(1 + x) = log(u) + (x - (u - 1)) / u with u = 1 + x rounded (the
// correction restores what the rounding of u lost, to first order; u - 1
// is exact); u's special cases (0: x = -1, negative, +inf, NaN) take
// log(u) alone.
Value log1pF64(F64 &D, Value x) {
  KernelLowering &L = D.L;
  Value u = D.add(x, D.c(1.0));
  Value lu = logF64(D, u);
  Value c = D.mul(D.sub(x, D.add(u, D.c(-1.0))), L.inst("v_rcp_f64", L.v2T, u));
  return D.sel(D.cls(u, 0x27f), lu, D.add(lu, c)); // all but +normal, +denormal
}
} // namespace

Value mathExpF64(F64 &D, Value x) { return expF64(D, x); }

std::optional<LogicalResult> lowerMathF64(KernelLowering &L, Operation *op) {
  return lowerF64Op<math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op, math::ExpM1Op,
                    math::TanhOp, math::Log1pOp, math::Log10Op>(
      L, op, [&](F64 &D, Value x, ArrayRef<RV>) {
        return isa<math::ExpOp>(op)     ? expF64(D, x)
               : isa<math::Exp2Op>(op)  ? exp2F64(D, x)
               : isa<math::LogOp>(op)   ? logF64(D, x)
               : isa<math::Log2Op>(op)  ? log2F64(D, x)
               : isa<math::ExpM1Op>(op) ? expm1F64(D, x)
               : isa<math::TanhOp>(op)  ? tanhF64(D, x)
               : isa<math::Log10Op>(op) ? log10F64(D, x)
                                        : log1pF64(D, x);
      });
}

} // namespace aster::lower
