//===- LowerMathClass.cpp - math.isnan / isinf / isfinite / isnormal, clampf //
//
// Classification: v_cmp_class_f16 / f32 / f64 with the class mask (AMD CDNA3
// ISA, VOPC V_CMP_CLASS: bit 0 signalling NaN, 1 quiet NaN, 2 -inf,
// 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf):
//   isnan 0x003, isinf 0x204, isfinite 0x1f8, isnormal 0x108
// as LLVM selects llvm.is.fpclass on gfx942 (convert-gpu-to-rocdl makes
// isnan / isfinite llvm.is.fpclass with masks 3 / 504 and leaves isinf /
// isnormal unlowered: no LLVM oracle for those two). bf16 is widened to
// f32 first (a shift by 16: the same class; LLVM compares the bits as
// integers for bf16, the same answer).
// clampf(x, lo, hi): f32 / f16 v_med3_f32 / v_med3_f16 (x, lo, hi), what
// convert-gpu-to-rocdl makes of it (rocdl.fmed3); bf16 the f32 one between
// an extf and a truncf; f64 (no v_med3_f64, no LLVM build: convert-gpu-to-
// rocdl leaves it) maximumf(minimumf(x, hi), lo), upstream's MathToLLVM
// lowering after llvm-project PR 188776 (MLIR 22's op description says
// maxf(minf(value, min), max), which is not a clamp and which no lowering
// follows; for lo <= hi and no NaN all three agree).
// Needs before: operands lowered. Guarantees after: one RV for the result
// (a lane mask for the predicates).
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/Math/IR/Math.h"

namespace aster::lower {

namespace {

uint32_t classMask(Operation *op) {
  if (isa<math::IsNaNOp>(op)) return 0x003;
  if (isa<math::IsInfOp>(op)) return 0x204;
  if (isa<math::IsFiniteOp>(op)) return 0x1f8;
  return 0x108; // isnormal
}

LogicalResult lowerClass(KernelLowering &L, Operation *op) {
  Type t = op->getOperand(0).getType();
  auto x = L.get(op->getOperand(0));
  if (failed(x))
    return failure();
  RV mask = RV::imm(classMask(op));
  Value m;
  if (t.isF64()) {
    m = L.inst("v_cmp_class_f64", L.s2T, {L.toV64(*x), L.toV(mask)});
  } else if (t.isF16()) {
    m = L.inst("v_cmp_class_f16", L.s2T, L.vOps({*x, mask}));
  } else if (t.isBF16()) {
    Value w = L.inst("v_lshlrev_b32", L.vT, {L.cst(16), L.toV(*x)});
    m = L.inst("v_cmp_class_f32", L.s2T, L.vOps({RV::of(RV::V, w, true), mask}));
  } else if (t.isF32()) {
    m = L.inst("v_cmp_class_f32", L.s2T, L.vOps({*x, mask}));
  } else {
    return L.unsupported(op, "classification is lowered for f16, bf16, f32 and f64");
  }
  L.vals[op->getResult(0)] = RV::of(RV::Mask, m);
  return success();
}

LogicalResult lowerClampF(KernelLowering &L, Operation *op) {
  Type t = op->getResult(0).getType();
  auto in = L.getAll(op->getOperands());
  if (failed(in))
    return failure();
  Location at = op->getLoc();
  RV r;
  if (t.isF32() || t.isF16()) {
    r = L.valu(t.isF32() ? "v_med3_f32" : "v_med3_f16", *in, t.isF32());
  } else if (t.isBF16()) {
    Type f32 = Float32Type::get(L.ctx);
    SmallVector<RV> w;
    for (RV v : *in) {
      auto e = scalarOp(L, at, "arith.extf", {v}, {t}, f32, {});
      if (failed(e))
        return failure();
      w.push_back(*e);
    }
    auto tr = scalarOp(L, at, "arith.truncf", {L.valu("v_med3_f32", w, true)}, {f32}, t, {});
    if (failed(tr))
      return failure();
    r = *tr;
  } else if (t.isF64()) {
    SmallVector<Type> two = {t, t};
    auto m = scalarOp(L, at, "arith.minimumf", {(*in)[0], (*in)[2]}, two, t, {});
    if (failed(m))
      return failure();
    auto M = scalarOp(L, at, "arith.maximumf", {*m, (*in)[1]}, two, t, {});
    if (failed(M))
      return failure();
    r = *M;
  } else {
    return L.unsupported(op, "clampf is lowered for f16, bf16, f32 and f64");
  }
  L.vals[op->getResult(0)] = r;
  return success();
}

} // namespace

void populateMathClassLowering(LoweringTable &table) {
  table.addOps<math::IsNaNOp, math::IsInfOp, math::IsFiniteOp, math::IsNormalOp>(lowerClass);
  table.add(math::ClampFOp::getOperationName(), lowerClampF);
}

} // namespace aster::lower
