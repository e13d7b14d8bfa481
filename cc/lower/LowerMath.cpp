//===- LowerMath.cpp - math ops to VALU instructions ----------------------===//
//
// math.fma to v_fma_f32, math.absf by clearing the sign bit, math.sqrt
// correctly rounded (sqrtF32), math.exp and math.log as LLVM's AMDGPU
// backend expands llvm.exp.f32 / llvm.log.f32 (expF32, logF32: the same
// instructions, so the same bits). math.exp2 / log2 / rsqrt of f32: upstream's
// convert-gpu-to-rocdl calls ROCm's ocml (__ocml_exp2_f32, __ocml_log2_f32,
// __ocml_rsqrt_f32, with or without fastmath flags on the op), whose f32
// bodies (ROCm-Device-Libs ocml/src/exp2F.cl, logF_base.h, rsqrtF.cl, the
// not-DAZ branch: f32 denormals are on by default) are:
//   exp2   llvm.exp2.f32, which LLVM expands with denormal scaling
//          (AMDGPUTargetLowering::lowerFEXP2; llc-22 -mcpu=gfx942, with or
//          without afn): x < -126 gets + 64 before v_exp_f32 and the result
//          * 2^-64 (v_ldexp_f32 by -64), so denormal results are not flushed
//   log2   a subnormal x * 2^32, then llvm.log2.f32 (lowerFLOG2: the same
//          scaling again, x < 2^-126 -> v_ldexp_f32 by 32), v_log_f32, less
//          32; the two scalings give the bits of LLVM's one
//   rsqrt  x < 2^-126 scaled by 2^24 (v_mul_f32 0x4b800000), v_rsq_f32
//          (llvm.amdgcn.rsq: bare), the result * 2^12 (0x45800000); an
//          older rsqrtF.cl scales below 2^-100 by 2^100 and 2^50: the same
//          bits where v_rsq_f32 scales exactly by powers of 4
// (exp2F32 / log2F32 / rsqrtF32 below; aster.lowering.llvm gives LLVM's
// build the same bodies for the ocml calls.)
// Needs before: the operands lowered. Guarantees after: one RV (a VGPR) per
// result; any other math op is an error naming it.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/Math/IR/Math.h"

namespace aster::lower {

/// Rounding and sign ops, and sqrt / exp / log of f16 and f64
/// (LowerMathFormats.cpp); nullopt for the ops it does not take.
std::optional<LogicalResult> lowerMathFormats(KernelLowering &L, Operation *op);
/// exp / exp2 / log / log2 of f64 (LowerMathF64.cpp); nullopt for others.
std::optional<LogicalResult> lowerMathF64(KernelLowering &L, Operation *op);
/// bf16 math, log10 of f16 / f32 (LowerMathBf16.cpp); nullopt for others.
std::optional<LogicalResult> lowerMathBf16(KernelLowering &L, Operation *op);
/// sin / cos / atan / atan2 / asin / acos / cbrt / erf / erfc of f64
/// (LowerMathF64Trig.cpp, LowerMathF64Erf.cpp); nullopt for others.
std::optional<LogicalResult> lowerMathF64Trig(KernelLowering &L, Operation *op);

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

namespace {
// f32 constants of LLVM's AMDGPU exp/log expansions (SITargetLowering /
// AMDGPUTargetLowering::lowerFEXP, lowerFLOG (f32, no afn)).
constexpr uint32_t kLog2eHi = 0x3fb8aa3b;   // log2(e) rounded to f32
constexpr uint32_t kLog2eLo = 0x32a5705f;   // log2(e) - kLog2eHi
constexpr uint32_t kExpUnderflow = 0xc2ce8ed0; // below: exp(x) is 0 (-0x1.9d1da0p+6)
constexpr uint32_t kExpOverflow = 0x42b17218;  // above: exp(x) is +inf (0x1.62e430p+6)
constexpr uint32_t kLn2Hi = 0x3f317217;     // ln(2) rounded to f32
constexpr uint32_t kLn2Lo = 0x3377d1cf;     // ln(2) - kLn2Hi
constexpr uint32_t kMinNormal = 0x00800000; // smallest normal f32
constexpr uint32_t k32Ln2 = 0x41b17218;     // 32 * ln(2)
constexpr uint32_t kInf = 0x7f800000;
constexpr uint32_t kSign = 0x80000000;
} // namespace

// e^x as LLVM's AMDGPU backend expands llvm.exp.f32 without afn: x * log2(e)
// in extended precision (ph + pl, the error of the product by fma), split
// ph = e + d with e = rndne(ph), v_exp_f32(d + pl) scaled by 2^e
// (v_ldexp_f32), 0 below the underflow bound and +inf above the overflow
// one. -ph is a v_xor_b32 of its sign (LLVM's neg modifier; same bits).
RV KernelLowering::expF32(RV x) {
  Value xv = toV(x);
  Value ph = inst("v_mul_f32", vT, {toV(RV::imm(kLog2eHi, true)), xv});
  Value nph = inst("v_xor_b32", vT, {toV(RV::imm(kSign)), ph});
  Value pl = inst("v_fma_f32", vT, {xv, toV(RV::imm(kLog2eHi, true)), nph});
  pl = inst("v_fma_f32", vT, {xv, toV(RV::imm(kLog2eLo, true)), pl});
  Value e = inst("v_rndne_f32", vT, ph);
  Value d = inst("v_sub_f32", vT, {ph, e});
  d = inst("v_add_f32", vT, {d, pl});
  Value r = inst("v_exp_f32", vT, d);
  r = inst("v_ldexp_f32", vT, {r, inst("v_cvt_i32_f32", vT, e)});
  Value notUnder = inst("v_cmp_ngt_f32", s2T, {toV(RV::imm(kExpUnderflow, true)), xv});
  r = inst("v_cndmask_b32", vT, {cst(0), r, notUnder});
  Value notOver = inst("v_cmp_nlt_f32", s2T, {toV(RV::imm(kExpOverflow, true)), xv});
  return RV::of(RV::V, inst("v_cndmask_b32", vT, {toV(RV::imm(kInf)), r, notOver}), true);
}

namespace {
/// v_log_f32 of x with a denormal x scaled by 2^32 first (v_ldexp_f32), as
/// LLVM's llvm.log / log2 / log10.f32 expansions start; `small` the lanes
/// scaled (x < 2^-126).
std::pair<Value, Value> scaledLog2(KernelLowering &L, RV x) {
  Value xv = L.toV(x);
  Value small = L.inst("v_cmp_gt_f32", L.s2T, {L.toV(RV::imm(kMinNormal, true)), xv});
  Value sh = L.inst("v_cndmask_b32", L.vT, {L.cst(0), L.toV(RV::imm(32)), small});
  return {L.inst("v_log_f32", L.vT, L.inst("v_ldexp_f32", L.vT, {xv, sh})), small};
}
} // namespace

// log2(x) as LLVM expands llvm.log2.f32 (lowerFLOG2, gfx9, with or without
// afn): the scaled v_log_f32, less 32 (v_cndmask of 32.0) where scaled.
RV log2F32(KernelLowering &L, RV x) {
  auto [y, small] = scaledLog2(L, x);
  Value off = L.inst("v_cndmask_b32", L.vT, {L.cst(0), L.toV(RV::imm(0x42000000, true)), small});
  return RV::of(RV::V, L.inst("v_sub_f32", L.vT, {y, off}), true);
}

// 2^x as LLVM expands llvm.exp2.f32 (lowerFEXP2, gfx9, with or without afn):
// x < -126 (0xc2fc0000) gets + 64.0 before v_exp_f32, the result
// v_ldexp_f32 by -64 there.
RV exp2F32(KernelLowering &L, RV x) {
  Value xv = L.toV(x);
  Value small = L.inst("v_cmp_gt_f32", L.s2T, {L.toV(RV::imm(0xc2fc0000, true)), xv});
  Value add = L.inst("v_cndmask_b32", L.vT, {L.cst(0), L.toV(RV::imm(0x42800000, true)), small});
  Value e = L.inst("v_exp_f32", L.vT, L.inst("v_add_f32", L.vT, {xv, add}));
  Value sc = L.inst("v_cndmask_b32", L.vT, {L.cst(0), L.toV(RV::imm((uint32_t)-64)), small});
  return RV::of(RV::V, L.inst("v_ldexp_f32", L.vT, {e, sc}), true);
}

// 1/sqrt(x) as ocml's rsqrtF.cl (not DAZ; the header): x < 2^-126 times
// 2^24, v_rsq_f32, times 2^12 there (llc-22: v_mul_f32 + v_cndmask_b32 each).
RV rsqrtF32(KernelLowering &L, RV x) {
  Value xv = L.toV(x);
  RV X = RV::of(RV::V, xv, true);
  Value up = L.valu("v_mul_f32", {RV::imm(0x4b800000, true), X}, true).reg;
  Value small = L.inst("v_cmp_gt_f32", L.s2T, {L.toV(RV::imm(kMinNormal, true)), xv});
  Value r = L.inst("v_rsq_f32", L.vT, L.inst("v_cndmask_b32", L.vT, {xv, up, small}));
  Value rs = L.valu("v_mul_f32", {RV::imm(0x45800000, true), RV::of(RV::V, r, true)}, true).reg;
  return RV::of(RV::V, L.inst("v_cndmask_b32", L.vT, {r, rs, small}), true);
}

// ln(x) as LLVM's AMDGPU backend expands llvm.log.f32 without afn: a
// denormal input is scaled by 2^32 first (scaledLog2), y = v_log_f32, then
// y * ln(2) in extended precision (r + fma error terms with ln(2)'s high and
// low parts) where y is finite (y itself for +-inf and NaN), less 32 * ln(2)
// for a scaled input. llvm.log10.f32 is the same with log10(2) for ln(2)
// (logBaseF32's constants: the base's factor split in two f32s and 32 times
// it; llc-22 -mcpu=gfx942).
RV logBaseF32(KernelLowering &L, RV x, uint32_t cHi, uint32_t cLo, uint32_t c32) {
  auto [y, small] = scaledLog2(L, x);
  Value r = L.inst("v_mul_f32", L.vT, {L.toV(RV::imm(cHi, true)), y});
  Value nr = L.inst("v_xor_b32", L.vT, {L.toV(RV::imm(kSign)), r});
  Value t = L.inst("v_fma_f32", L.vT, {y, L.toV(RV::imm(cHi, true)), nr});
  t = L.inst("v_fma_f32", L.vT, {y, L.toV(RV::imm(cLo, true)), t});
  r = L.inst("v_add_f32", L.vT, {r, t});
  Value ay = L.inst("v_and_b32", L.vT, {L.toV(RV::imm(~kSign)), y});
  Value finite = L.inst("v_cmp_lt_f32", L.s2T, {ay, L.toV(RV::imm(kInf, true))});
  r = L.inst("v_cndmask_b32", L.vT, {y, r, finite});
  Value off = L.inst("v_cndmask_b32", L.vT, {L.cst(0), L.toV(RV::imm(c32, true)), small});
  return RV::of(RV::V, L.inst("v_sub_f32", L.vT, {r, off}), true);
}

RV KernelLowering::logF32(RV x) { return logBaseF32(*this, x, kLn2Hi, kLn2Lo, k32Ln2); }

LogicalResult KernelLowering::lowerMath(Operation *op) {
  if (!isa<math::FmaOp, math::SqrtOp, math::RsqrtOp, math::Exp2Op, math::Log2Op,
           math::AbsFOp, math::ExpOp, math::LogOp, math::SinOp, math::CosOp, math::FloorOp,
           math::CeilOp, math::TruncOp, math::RoundEvenOp, math::CopySignOp, math::ExpM1Op,
           math::TanhOp, math::Log1pOp, math::Log10Op, math::AtanOp, math::Atan2Op,
           math::AsinOp, math::AcosOp, math::CbrtOp, math::ErfOp, math::ErfcOp>(op))
    return unsupported(op);
  Type t = op->getResult(0).getType();
  auto operands = getAll(op->getOperands());
  if (failed(operands))
    return failure();
  SmallVector<RV> &in = *operands;
  if (std::optional<LogicalResult> r = lowerMathFormats(*this, op))
    return *r;
  if (std::optional<LogicalResult> r = lowerMathF64(*this, op))
    return *r;
  if (std::optional<LogicalResult> r = lowerMathBf16(*this, op))
    return *r;
  if (std::optional<LogicalResult> r = lowerMathF64Trig(*this, op))
    return *r;
  // f16 / f64: fma and absf (v_fma_f16 / v_fma_f64; the sign bit cleared).
  if (t.isF16() || t.isF64()) {
    if (isa<math::AbsFOp>(op)) {
      auto clear = [&](RV x, uint32_t m) {
        return ibin("s_and_b32", "v_and_b32", false, x, RV::imm(m),
                    [](uint32_t a, uint32_t c) { return a & c; });
      };
      vals[op->getResult(0)] =
          t.isF16() ? clear(in[0], 0x7fff) : pair(lo(in[0]), clear(hi(in[0]), 0x7fffffff));
      return success();
    }
    if (isa<math::FmaOp>(op)) {
      if (t.isF16()) {
        vals[op->getResult(0)] =
            RV::of(RV::V, inst("v_fma_f16", vT, {toV(in[0]), toV(in[1]), toV(in[2])}));
      } else {
        vals[op->getResult(0)] =
            fromV64(inst("v_fma_f64", v2T, {toV64(in[0]), toV64(in[1]), toV64(in[2])}));
      }
      return success();
    }
  }
  if (!isF32(t))
    return unsupported(op, "this type is not lowered for it (f32; fma, absf, sqrt, rsqrt, exp, "
                           "log, exp2, log2 of f16 and f64; docs/lowering.md)");
  if (isa<math::SinOp, math::CosOp>(op)) {
    // LLVM's AMDGPU lowering of llvm.sin/cos.f32 (SITargetLowering::LowerTrig):
    // v_sin/v_cos_f32 take turns, not radians: x * 1/(2 pi) first (the inline
    // constant 0.15915494); gfx9 has no reduced-range v_sin, so no v_fract.
    Value turns = valu("v_mul_f32", {RV::imm(0x3e22f983, true), in[0]}, true).reg;
    vals[op->getResult(0)] =
        RV::of(RV::V, inst(isa<math::SinOp>(op) ? "v_sin_f32" : "v_cos_f32", vT, turns), true);
    return success();
  }
  if (isa<math::SqrtOp>(op)) {
    vals[op->getResult(0)] = sqrtF32(in[0]);
    return success();
  }
  if (isa<math::ExpOp>(op)) {
    vals[op->getResult(0)] = expF32(in[0]);
    return success();
  }
  if (isa<math::LogOp>(op)) {
    vals[op->getResult(0)] = logF32(in[0]);
    return success();
  }
  if (isa<math::AbsFOp>(op)) {
    // |x|: clear the sign bit (v_and_b32 with 0x7fffffff).
    vals[op->getResult(0)] = valu("v_and_b32", {RV::imm(0x7fffffff), in[0]}, true);
    return success();
  }
  if (isa<math::Exp2Op>(op)) {
    vals[op->getResult(0)] = exp2F32(*this, in[0]);
    return success();
  }
  if (isa<math::Log2Op>(op)) {
    vals[op->getResult(0)] = log2F32(*this, in[0]);
    return success();
  }
  if (isa<math::RsqrtOp>(op)) {
    vals[op->getResult(0)] = rsqrtF32(*this, in[0]);
    return success();
  }
  vals[op->getResult(0)] = valu("v_fma_f32", in, true);
  return success();
}

void populateMathLowering(LoweringTable &table) {
  table.add("math", [](KernelLowering &k, Operation *op) { return k.lowerMath(op); });
}

} // namespace aster::lower
