//===- LowerMathFormats.cpp - math rounding/sign ops; f16 and f64 math ----===//
//
// The math ops whose lowering depends on the float format, each as LLVM's
// AMDGPU backend selects the matching intrinsic for gfx942 (checked with
// llc-22 -mcpu=gfx942; tests/lit/lower/math-expand.mlir):
//   floor / ceil / trunc / roundeven (f32, f64)  v_floor / v_ceil / v_trunc
//                 / v_rndne _f32 / _f64 (exact)
//   copysign f32  v_bfi_b32 0x7fffffff, |x|, y (the sign bit of y)
//   sqrt f16      v_sqrt_f16;  exp2 / log2 f16: v_exp_f16 / v_log_f16
//   exp f16       v_exp_f32 of f32(x) * log2(e) (0x3fb8aa3b), rounded to f16
//                 (LLVM's llvm.exp.f16; ROCm's ocml expH.cl is the same)
//   log f16       v_log_f16(x) * ln(2) in f16 (0x398c; LLVM's llvm.log.f16)
//   sqrt f64      SITargetLowering::lowerFSQRTF64: inputs below 2^-767 scaled
//                 by 2^256 (result by 2^-128), v_rsq_f64, Goldschmidt
//                 refinement with fma (g = x r, h = r / 2), two Newton steps
//                 on g, +-0 / +inf passed through (v_cmp_class_f64 0x260)
//   rsqrt f16     v_rcp_f16(v_sqrt_f16(x)); rsqrt f64: 1 / sqrt(x), the
//                 correctly rounded division (LowerFDIV64) of sqrt f64
//                 above: what llc-22 selects for `fdiv 1.0, llvm.sqrt(x)`
//                 without fast-math flags (convert-gpu-to-rocdl calls ocml's
//                 __ocml_rsqrt_f16 / _f64 instead, not installed here)
// f64 exp / exp2 / log / log2 have no LLVM lowering on AMDGPU (llc-22: "no
// libcall available for fexp"): aster's own in LowerMathF64.cpp.
// Needs before: the operands lowered. Guarantees after: one RV per result.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <optional>

namespace aster::lower {

RV divF64(KernelLowering &L, RV x, RV y);

namespace {
StringRef roundingInst(Operation *op, bool f64) {
  if (isa<math::FloorOp>(op)) return f64 ? "v_floor_f64" : "v_floor_f32";
  if (isa<math::CeilOp>(op)) return f64 ? "v_ceil_f64" : "v_ceil_f32";
  if (isa<math::TruncOp>(op)) return f64 ? "v_trunc_f64" : "v_trunc_f32";
  if (isa<math::RoundEvenOp>(op)) return f64 ? "v_rndne_f64" : "v_rndne_f32";
  return "";
}

} // namespace

// SITargetLowering::lowerFSQRTF64 (gfx9); also the f64 math's (MathF64.h).
RV sqrtF64(KernelLowering &L, RV x) {
  Value xv = L.toV64(x);
  // x < 2^-767 (0x1000000000000000 as a double)
  Value small = L.inst("v_cmp_lt_f64", L.s2T, {xv, L.toV64(KernelLowering::imm64(0x1000000000000000ull))});
  Value scale = L.inst("v_cndmask_b32", L.vT, {L.cst(0), L.toV(RV::imm(0x100)), small});
  Value xs = L.inst("v_ldexp_f64", L.v2T, {xv, scale});
  Value r = L.inst("v_rsq_f64", L.v2T, xs);
  Value g = L.inst("v_mul_f64", L.v2T, {xs, r});
  Value half = L.toV64(KernelLowering::imm64(0x3fe0000000000000ull)); // 0.5
  Value h = L.inst("v_mul_f64", L.v2T, {r, half});
  RV H = L.fromV64(h);
  auto neg = [&](RV v) {
    return L.toV64(L.pair(KernelLowering::lo(v),
                          RV::of(RV::V, L.inst("v_xor_b32", L.vT,
                                               {L.toV(RV::imm(0x80000000u)),
                                                L.toV(KernelLowering::hi(v))}))));
  };
  Value e = L.inst("v_fma_f64", L.v2T, {neg(H), g, half});
  g = L.inst("v_fma_f64", L.v2T, {g, e, g});
  h = L.inst("v_fma_f64", L.v2T, {h, e, h});
  for (int i = 0; i < 2; ++i) {
    Value d = L.inst("v_fma_f64", L.v2T, {neg(L.fromV64(g)), g, xs});
    g = L.inst("v_fma_f64", L.v2T, {d, h, g});
  }
  Value down = L.inst("v_cndmask_b32", L.vT, {L.cst(0), L.toV(RV::imm(0xffffff80u)), small});
  Value res = L.inst("v_ldexp_f64", L.v2T, {g, down});
  Value special = L.inst("v_cmp_class_f64", L.s2T, {xs, L.toV(RV::imm(0x260))});
  RV R = L.fromV64(res), X = L.fromV64(xs);
  return L.pair(RV::of(RV::V, L.inst("v_cndmask_b32", L.vT,
                                     {L.toV(KernelLowering::lo(R)), L.toV(KernelLowering::lo(X)), special})),
                RV::of(RV::V, L.inst("v_cndmask_b32", L.vT,
                                     {L.toV(KernelLowering::hi(R)), L.toV(KernelLowering::hi(X)), special})));
}

std::optional<LogicalResult> lowerMathFormats(KernelLowering &L, Operation *op) {
  Type t = op->getResult(0).getType();
  if (!t.isF16() && !t.isF32() && !t.isF64())
    return std::nullopt;
  auto operands = L.getAll(op->getOperands());
  if (failed(operands))
    return failure();
  SmallVector<RV> &in = *operands;
  Value res = op->getResult(0);
  auto set = [&](RV r) -> std::optional<LogicalResult> {
    L.vals[res] = r;
    return success();
  };
  StringRef rnd = roundingInst(op, t.isF64());
  if (!rnd.empty() && t.isF32())
    return set(L.valu(rnd, in, true));
  if (!rnd.empty() && t.isF64())
    return set(L.fromV64(L.inst(rnd, L.v2T, L.toV64(in[0]))));
  if (isa<math::CopySignOp>(op) && t.isF32())
    return set(RV::of(RV::V,
                      L.inst("v_bfi_b32", L.vT,
                             {L.toV(RV::imm(0x7fffffff)), L.toV(in[0]), L.toV(in[1])}),
                      true));
  if (t.isF16()) {
    Value x = L.toV(in[0]);
    if (isa<math::SqrtOp>(op))
      return set(RV::of(RV::V, L.inst("v_sqrt_f16", L.vT, x)));
    if (isa<math::RsqrtOp>(op))
      return set(RV::of(RV::V, L.inst("v_rcp_f16", L.vT, L.inst("v_sqrt_f16", L.vT, x))));
    if (isa<math::Exp2Op>(op))
      return set(RV::of(RV::V, L.inst("v_exp_f16", L.vT, x)));
    if (isa<math::Log2Op>(op))
      return set(RV::of(RV::V, L.inst("v_log_f16", L.vT, x)));
    if (isa<math::ExpOp>(op)) {
      Value f = L.inst("v_cvt_f32_f16", L.vT, x);
      f = L.inst("v_mul_f32", L.vT, {L.toV(RV::imm(0x3fb8aa3b, true)), f});
      return set(RV::of(RV::V, L.inst("v_cvt_f16_f32", L.vT, L.inst("v_exp_f32", L.vT, f))));
    }
    if (isa<math::LogOp>(op)) {
      Value y = L.inst("v_log_f16", L.vT, x);
      return set(RV::of(RV::V, L.inst("v_mul_f16", L.vT, {L.toV(RV::imm(0x398c)), y})));
    }
  }
  if (t.isF64() && isa<math::SqrtOp>(op))
    return set(sqrtF64(L, in[0]));
  if (t.isF64() && isa<math::RsqrtOp>(op))
    return set(divF64(L, KernelLowering::imm64(0x3ff0000000000000ull), sqrtF64(L, in[0])));
  return std::nullopt;
}

} // namespace aster::lower
