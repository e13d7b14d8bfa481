//===- LowerMathBf16.cpp - bf16 math; log10 of f16 / f32 / bf16 ------------===//
//
// gfx942 has no bf16 arithmetic: LLVM's AMDGPU backend promotes a bf16
// intrinsic to f32 (the operands shifted left by 16, exact), computes the
// f32 intrinsic's own expansion and rounds back to nearest even (bit 16 +
// 0x7fff, a NaN quieted by | 0x400000; v_cvt_pk_bf16_f32 on gfx950), as
// llc-22 -mcpu=gfx942 shows for llvm.{exp,exp2,log,log2,log10,sqrt,fma}.bf16
// (tests/lit/lower/math-bf16-log10.mlir, tests/py/lower_suite_math_gaps.py).
// Here, for a bf16 result:
//   absf          v_and_b32 0x7fff (llvm.fabs.bf16: no promotion)
//   exp / log     expF32 / logF32 (LLVM's llvm.exp / llvm.log.f32)
//   exp2          llvm.exp2.f32 without afn: x < -126 gets + 64 before
//                 v_exp_f32 and the result * 2^-64 (v_ldexp_f32 by -64), so
//                 denormal results are not flushed
//   log2          llvm.log2.f32 without afn: a denormal input * 2^32
//                 (v_ldexp_f32), v_log_f32, less 32
//   log10         logBaseF32 with log10(2) (llvm.log10.f32)
//   sqrt          sqrtF32 (llvm.sqrt.f32, correctly rounded)
//   fma           v_fma_f32, then rounded (LLVM's promotion: two roundings)
//   rsqrt         rsqrtF32 of the f32, rounded: upstream's convert-gpu-to-
//                 rocdl extends to f32 and calls ocml's __ocml_rsqrt_f32
//                 (LowerMath.cpp's header: its scaled v_rsq_f32)
// log10 of f32 is logBaseF32 as above; of f16 what upstream's
// convert-gpu-to-rocdl calls, ocml's __ocml_log10_f16 (log10H.cl in
// ROCm-Device-Libs: (half)(v_log_f32((float)x) * 0x1.344136p-2f)):
// v_cvt_f32_f16, v_log_f32, v_mul_f32 by log10(2) rounded to f32,
// v_cvt_f16_f32 (not llvm.log10.f16's v_log_f16 * log10(2) in f16, a
// different result). (f64: LowerMathF64.cpp.)
// Needs before: the operands lowered. Guarantees after: one RV (a VGPR; the
// bf16 in its low 16 bits) per result; nullopt for other ops and types.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <optional>

namespace aster::lower {

// f32 expansions LowerMath.cpp defines (LLVM's / ocml's; its header).
RV logBaseF32(KernelLowering &L, RV x, uint32_t cHi, uint32_t cLo, uint32_t c32);
RV exp2F32(KernelLowering &L, RV x);
RV log2F32(KernelLowering &L, RV x);
RV rsqrtF32(KernelLowering &L, RV x);

namespace {
// log10(2) = 0.30102999566398119521...: the f32 nearest (0x3e9a209a), the
// f32 nearest the rest (0x3284fbcf), and 32 log10(2) (0x411a209b),
// as llc-22 -mcpu=gfx942 emits them for llvm.log10.f32.
constexpr uint32_t kLog10Of2Hi = 0x3e9a209a;
constexpr uint32_t kLog10Of2Lo = 0x3284fbcf;
constexpr uint32_t k32Log10Of2 = 0x411a209b;
constexpr uint32_t kLog10Of2Rounded = 0x3e9a209b; // log10(2) rounded to f32 (ocml's)

} // namespace

/// The f32 `x` rounded to nearest even bf16 as LLVM does on gfx942 (gfx950:
/// v_cvt_pk_bf16_f32, the same bits); the bf16 in the low 16 bits.
RV roundToBf16(KernelLowering &L, RV x) {
  Value xv = L.toV(x);
  if (L.km.getTarget() == "gfx950")
    return RV::of(RV::V, L.inst("v_cvt_pk_bf16_f32", L.vT, {xv, L.cst(0)}));
  Value lsb = L.inst("v_bfe_u32", L.vT, {xv, L.cst(16), L.cst(1)});
  Value r = L.inst("v_add3_u32", L.vT, {lsb, xv, L.toV(RV::imm(0x7fff))});
  Value q = L.inst("v_or_b32", L.vT, {L.toV(RV::imm(0x400000)), xv});
  Value nan = L.inst("v_cmp_u_f32", L.s2T, {xv, xv});
  r = L.inst("v_cndmask_b32", L.vT, {r, q, nan});
  return RV::of(RV::V, L.inst("v_lshrrev_b32", L.vT, {L.cst(16), r}));
}

std::optional<LogicalResult> lowerMathBf16(KernelLowering &L, Operation *op) {
  Type t = op->getResult(0).getType();
  bool log10 = isa<math::Log10Op>(op);
  if (!(t.isBF16() && isa<math::AbsFOp, math::ExpOp, math::Exp2Op, math::LogOp, math::Log2Op,
                          math::Log10Op, math::SqrtOp, math::RsqrtOp, math::FmaOp>(op)) &&
      !(log10 && (t.isF16() || t.isF32())))
    return std::nullopt;
  auto in = L.getAll(op->getOperands());
  if (failed(in))
    return failure();
  Value res = op->getResult(0);
  if (log10 && t.isF16()) {
    Value y = L.inst("v_log_f32", L.vT, L.inst("v_cvt_f32_f16", L.vT, L.toV((*in)[0])));
    Value r = L.inst("v_mul_f32", L.vT, {L.toV(RV::imm(kLog10Of2Rounded, true)), y});
    L.vals[res] = RV::of(RV::V, L.inst("v_cvt_f16_f32", L.vT, r));
    return success();
  }
  if (log10 && t.isF32()) {
    L.vals[res] = logBaseF32(L, (*in)[0], kLog10Of2Hi, kLog10Of2Lo, k32Log10Of2);
    return success();
  }
  if (isa<math::AbsFOp>(op)) {
    L.vals[res] = L.ibin("s_and_b32", "v_and_b32", false, (*in)[0], RV::imm(0x7fff),
                         [](uint32_t a, uint32_t c) { return a & c; });
    return success();
  }
  SmallVector<RV> f; // the f32s: x << 16 (shared in the block: ibin's CSE)
  for (RV x : *in) {
    RV e = L.ibin("s_lshl_b32", "v_lshlrev_b32", true, x, RV::imm(16),
                  [](uint32_t a, uint32_t c) { return a << c; });
    f.push_back(RV::of(RV::V, L.toV(e), true));
  }
  RV r;
  if (isa<math::ExpOp>(op))
    r = L.expF32(f[0]);
  else if (isa<math::LogOp>(op))
    r = L.logF32(f[0]);
  else if (isa<math::Exp2Op>(op))
    r = exp2F32(L, f[0]);
  else if (isa<math::Log2Op>(op))
    r = log2F32(L, f[0]);
  else if (log10)
    r = logBaseF32(L, f[0], kLog10Of2Hi, kLog10Of2Lo, k32Log10Of2);
  else if (isa<math::SqrtOp>(op))
    r = L.sqrtF32(f[0]);
  else if (isa<math::RsqrtOp>(op))
    r = rsqrtF32(L, f[0]);
  else
    r = RV::of(RV::V, L.inst("v_fma_f32", L.vT, {f[0].reg, f[1].reg, f[2].reg}), true);
  L.vals[res] = roundToBf16(L, r);
  return success();
}

} // namespace aster::lower
