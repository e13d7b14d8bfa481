//===- MathF64.h - f64 emission helpers of the f64 math lowerings ---------===//
//
// What LowerMathF64.cpp, LowerMathF64Trig.cpp share: F64, f64 operations on
// VGPR pairs (fma, mul, add, selects, compares, classes, Horner's rule), and
// the correctly rounded f64 division and square root they build on
// (divF64: LowerArith64.cpp, LLVM's LowerFDIV64; sqrtF64: LowerMathFormats.cpp,
// LLVM's lowerFSQRTF64). Included by those files only.
//===----------------------------------------------------------------------===//
#ifndef ASTER_LOWER_MATHF64_H
#define ASTER_LOWER_MATHF64_H

#include "lower/KernelLowering.h"

#include <cmath>
#include <optional>

namespace aster::lower {

RV divF64(KernelLowering &L, RV x, RV y);
RV sqrtF64(KernelLowering &L, RV x);

/// f64 emission on VGPR pairs.
struct F64 {
  KernelLowering &L;
  Value c(double d) { return L.toV64(KernelLowering::imm64(llvm::bit_cast<uint64_t>(d))); }
  Value fma(Value a, Value b, Value d) { return L.inst("v_fma_f64", L.v2T, {a, b, d}); }
  Value mul(Value a, Value b) { return L.inst("v_mul_f64", L.v2T, {a, b}); }
  Value add(Value a, Value b) { return L.inst("v_add_f64", L.v2T, {a, b}); }
  Value lo(Value a) { return L.toV(KernelLowering::lo(L.fromV64(a))); }
  Value hi(Value a) { return L.toV(KernelLowering::hi(L.fromV64(a))); }
  Value join(Value l, Value h) {
    return L.toV64(L.pair(RV::of(RV::V, l), RV::of(RV::V, h)));
  }
  Value neg(Value a) {
    return join(lo(a), L.inst("v_xor_b32", L.vT, {L.toV(RV::imm(0x80000000u)), hi(a)}));
  }
  Value abs(Value a) {
    return join(lo(a), L.inst("v_and_b32", L.vT, {L.toV(RV::imm(0x7fffffffu)), hi(a)}));
  }
  /// |a| with the sign bit of s.
  Value copySign(Value a, Value s) {
    return join(lo(a), L.inst("v_bfi_b32", L.vT, {L.toV(RV::imm(0x7fffffff)), hi(a), hi(s)}));
  }
  Value sub(Value a, Value b) { return add(a, neg(b)); }
  Value div(Value a, Value b) { return L.toV64(divF64(L, L.fromV64(a), L.fromV64(b))); }
  Value sqrt(Value a) { return L.toV64(sqrtF64(L, L.fromV64(a))); }
  /// m ? t : f, per lane.
  Value sel(Value m, Value t, Value f) {
    return join(L.inst("v_cndmask_b32", L.vT, {lo(f), lo(t), m}),
                L.inst("v_cndmask_b32", L.vT, {hi(f), hi(t), m}));
  }
  Value cmp(StringRef mn, Value a, Value b) { return L.inst(mn, L.s2T, {a, b}); }
  Value cls(Value a, uint32_t mask) {
    return L.inst("v_cmp_class_f64", L.s2T, {a, L.toV(RV::imm(mask))});
  }
  /// sum coeffs[i] x^i by Horner's rule with fma (coeffs[0] the constant).
  Value horner(Value x, ArrayRef<double> coeffs) {
    Value p = c(coeffs.back());
    for (int i = (int)coeffs.size() - 2; i >= 0; --i)
      p = fma(p, x, c(coeffs[i]));
    return p;
  }
};

/// The frame the f64 math lowerings share: for an op of one of `Ops` with an
/// f64 result, `f(D, x, in)` computes the result (a VGPR pair) from the
/// first operand as a pair `x` and all operands `in`; it becomes the op's
/// value. nullopt for other ops and types.
template <typename... Ops, typename Fn>
std::optional<LogicalResult> lowerF64Op(KernelLowering &L, Operation *op, Fn f) {
  if (!op->getResult(0).getType().isF64() || !isa<Ops...>(op))
    return std::nullopt;
  auto in = L.getAll(op->getOperands());
  if (failed(in))
    return failure();
  F64 D{L};
  Value x = L.toV64((*in)[0]);
  L.vals[op->getResult(0)] = L.fromV64(f(D, x, ArrayRef<RV>(*in)));
  return success();
}

/// e^x (f64, within 1 ulp; LowerMathF64.cpp).
Value mathExpF64(F64 &D, Value x);

} // namespace aster::lower

#endif
