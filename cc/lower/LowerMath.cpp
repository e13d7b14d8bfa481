//===- LowerMath.cpp - math ops to VALU instructions ----------------------===//
//
// math.fma/exp2/log2/rsqrt to their one VALU instruction (f32), math.absf
// by clearing the sign bit, math.sqrt correctly rounded (sqrtF32, as LLVM's
// AMDGPU backend expands llvm.sqrt.f32).
// Needs before: the operands lowered. Guarantees after: one RV (a VGPR) per
// result; any other math op is an error naming it.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/TypeSwitch.h"

namespace aster::lower {

/// Correctly rounded f32 square root, as LLVM's AMDGPU backend expands
/// llvm.sqrt.f32 without afn (SITargetLowering::lowerFSQRTF32, gfx9): inputs
/// below 2^-96 are scaled by 2^32 (result by 2^-16); v_sqrt_f32's result s
/// (1 ulp) is corrected by the signs of fma(-(s -+ 1 ulp), s, x); +-0 and
/// +inf pass through (v_cmp_class_f32 mask 0x260).
RV KernelLowering::sqrtF32(RV x) {
  Value xv = toV(x);
  RV X = RV::of(RV::V, xv, true);
  Value small = inst("v_cmp_gt_f32", s2T, vOps({RV::imm(0x0f800000, true), X}));
  Value up = valu("v_mul_f32", {RV::imm(0x4f800000, true), X}, true).reg;
  Value xs = inst("v_cndmask_b32", vT, {xv, up, small});
  Value sq = inst("v_sqrt_f32", vT, xs);
  Value sm = inst("v_add_u32", vT, {cst(-1), sq});
  Value sp = inst("v_add_u32", vT, {cst(1), sq});
  Value nsm = inst("v_xor_b32", vT, {toV(RV::imm(0x80000000)), sm});
  Value nsp = inst("v_xor_b32", vT, {toV(RV::imm(0x80000000)), sp});
  Value rm = inst("v_fma_f32", vT, {nsm, sq, xs});
  Value rp = inst("v_fma_f32", vT, {nsp, sq, xs});
  Value le = inst("v_cmp_ge_f32", s2T, {cst(0, true), rm});
  sq = inst("v_cndmask_b32", vT, {sq, sm, le});
  Value gt = inst("v_cmp_lt_f32", s2T, {cst(0, true), rp});
  sq = inst("v_cndmask_b32", vT, {sq, sp, gt});
  Value down = valu("v_mul_f32", {RV::imm(0x37800000, true), RV::of(RV::V, sq, true)}, true).reg;
  sq = inst("v_cndmask_b32", vT, {sq, down, small});
  Value special = inst("v_cmp_class_f32", s2T, {xs, toV(RV::imm(0x260))});
  return RV::of(RV::V, inst("v_cndmask_b32", vT, {sq, xs, special}), true);
}

LogicalResult KernelLowering::lowerMath(Operation *op) {
  if (!isa<math::FmaOp, math::SqrtOp, math::RsqrtOp, math::Exp2Op, math::Log2Op,
           math::AbsFOp>(op))
    return unsupported(op);
  if (!isF32(op->getResult(0).getType()))
    return unsupported(op, "only f32 is lowered");
  SmallVector<RV> in;
  for (Value v : op->getOperands()) {
    auto r = get(v);
    if (failed(r))
      return failure();
    in.push_back(*r);
  }
  if (isa<math::SqrtOp>(op)) {
    vals[op->getResult(0)] = sqrtF32(in[0]);
    return success();
  }
  if (isa<math::AbsFOp>(op)) {
    // |x|: clear the sign bit (v_and_b32 with 0x7fffffff).
    vals[op->getResult(0)] = valu("v_and_b32", {RV::imm(0x7fffffff), in[0]}, true);
    return success();
  }
  StringRef mn = TypeSwitch<Operation *, StringRef>(op)
                     .Case([](math::FmaOp) { return "v_fma_f32"; })
                     .Case([](math::RsqrtOp) { return "v_rsq_f32"; })
                     .Case([](math::Exp2Op) { return "v_exp_f32"; })
                     .Case([](math::Log2Op) { return "v_log_f32"; })
                     .Default([](Operation *) { return ""; });
  vals[op->getResult(0)] = valu(mn, in, true);
  return success();
}

void populateMathLowering(LoweringTable &table) {
  table.add("math", [](KernelLowering &k, Operation *op) { return k.lowerMath(op); });
}

} // namespace aster::lower
