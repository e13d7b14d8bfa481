//===- LowerFloatMinMax.cpp - arith.minimumf / maximumf of f16, bf16, f64 -===//
//
// IEEE-754 minimum / maximum (a NaN operand gives NaN; -0 < +0). gfx942 has
// no v_minimum / v_maximum; LLVM's AMDGPU backend expands llvm.minimum /
// llvm.maximum (checked with llc-22 -mcpu=gfx942):
//   f16: v_min_f16 / v_max_f16, v_cmp_o_f16, v_cndmask_b32 with 0x7e00
//   f64: v_min_f64 / v_max_f64, v_cmp_u_f64, v_cndmask_b32 of each dword
//        with 0x7ff80000 / 0
//   bf16: promoted to f32 (a shift by 16), the f32 expansion (v_min_f32,
//        v_cmp_o_f32, 0x7fc00000), rounded back to bf16 (the NaN stays
//        0x7fc0)
// Here: minnumf / maxnumf of the type (v_min_f16, v_min_f64, bf16 in f32),
// cmpf ord, select with the type's canonical quiet NaN, each through the
// type's own scalar lowering (scalarOp), so the instructions are LLVM's
// and the op works wherever a scalar op is lowered (vectors element by
// element, the combining step of gpu.subgroup_reduce / all_reduce).
// f32 stays with LowerArith.cpp (the same expansion).
// Needs before: operands lowered. Guarantees after: one RV for the result.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

namespace aster::lower {

namespace {

LogicalResult lowerMinMaxF(KernelLowering &L, Operation *op) {
  Type t = op->getResultTypes().front();
  if (isa<VectorType>(t))
    return lowerElementwise(L, op);
  if (!(t.isF16() || t.isBF16() || t.isF64()))
    return L.lowerArith(op);
  auto in = L.getAll(op->getOperands());
  if (failed(in))
    return failure();
  bool mn = isa<arith::MinimumFOp>(op);
  Location at = op->getLoc();
  SmallVector<Type> two = {t, t};
  auto num = scalarOp(L, at, mn ? "arith.minnumf" : "arith.maxnumf", *in, two, t, {});
  if (failed(num))
    return failure();
  Type i1 = IntegerType::get(L.ctx, 1);
  NamedAttribute ord(StringAttr::get(L.ctx, "predicate"),
                     arith::CmpFPredicateAttr::get(L.ctx, arith::CmpFPredicate::ORD));
  auto o = scalarOp(L, at, "arith.cmpf", *in, two, i1, {ord});
  if (failed(o))
    return failure();
  RV nan = t.isF64() ? KernelLowering::imm64(0x7ff8000000000000ull)
                     : RV::imm(t.isF16() ? 0x7e00u : 0x7fc0u);
  SmallVector<Type> sel = {i1, t, t};
  auto r = scalarOp(L, at, "arith.select", {*o, *num, nan}, sel, t, {});
  if (failed(r))
    return failure();
  L.vals[op->getResult(0)] = *r;
  return success();
}

} // namespace

void populateFloatMinMaxLowering(LoweringTable &table) {
  table.addOps<arith::MinimumFOp, arith::MaximumFOp>(lowerMinMaxF);
}

} // namespace aster::lower
