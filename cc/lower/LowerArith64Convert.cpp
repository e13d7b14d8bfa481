//===- LowerArith64Convert.cpp - i64 <-> f16/f32, f64 -> i64/f16/bf16 -----===//
//
// The conversions of 64-bit values that take a sequence, each as LLVM's
// AMDGPU backend selects it for gfx942 (llc-22 -mcpu=gfx942 on the same
// IR; tests/lit/lower/arith64-div-convert.mlir); VALU forms of LLVM's (LLVM
// picks SALU for uniform operands; same values):
//   uitofp i64 -> f32  n = min(clz(hi), 32); (hi:lo) << n; its high dword
//        with a sticky bit (lo != 0) converted (v_cvt_f32_u32), scaled by
//        2^(32 - n) (v_ldexp_f32): one rounding.
//   sitofp i64 -> f32  the same with n = min(ffbh_i32(hi) - 1, 32 - (sign
//        of lo ^ hi)) leading sign bits, v_cvt_f32_i32.
//   i64 -> f16: to f32 as above, then v_cvt_f16_f32 (LLVM rounds twice too).
//   fptoui / fptosi f32 -> i64: t = trunc(x) (|t| for signed), hi =
//        floor(t * 2^-32), lo = fma(hi, -2^32, t), both v_cvt_u32_f32; the
//        signed result negated where x < 0 ((v ^ s) - s).
//   fptoui / fptosi f64 -> i64: t = trunc(x), hi = floor(ldexp(t, -32)),
//        lo = fma(hi, -2^32, t): v_cvt_u32_f64(lo), v_cvt_{u,i}32_f64(hi).
//   f16 -> i64: v_cvt_f32_f16 (exact), v_cvt_{i,u}32_f32, extended.
//   truncf f64 -> bf16: f32 rounded to odd (v_cvt_f32_f64, then +-1 ulp
//        toward x where inexact and even, as LLVM's sequence), then the
//        f32 -> bf16 rounding of LowerArith16.cpp (NaN quieted).
//   truncf f64 -> f16: the same f32 rounded to odd, then v_cvt_f16_f32
//        (RNE): rounding to odd with 24 >= 11 + 2 bits then to nearest is
//        correctly rounded (Boldo & Melquiond, "When double rounding is
//        odd"), so the bits equal LLVM's bit-level f64 -> f16 expansion
//        (SITargetLowering's FP_TO_FP16 for f64); NaN: 0x7e00 with x's
//        sign, as LLVM's.
// Needs before: operands lowered (wide RVs for 64-bit ones). Guarantees
// after: the result RV (wide for i64), or nullopt for ops it does not take.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include <optional>

namespace aster::lower {

namespace {

Value f32c(KernelLowering &L, uint32_t bits) { return L.toV(RV::imm(bits, true)); }

/// i64 (as a wide RV) -> f32 with one rounding.
Value i64ToF32(KernelLowering &L, RV x, bool sign) {
  Value lo = L.toV(KernelLowering::lo(x)), hi = L.toV(KernelLowering::hi(x));
  Value n;
  if (!sign) {
    n = L.inst("v_min_u32", L.vT, {L.toV(RV::imm(32)), L.inst("v_ffbh_u32", L.vT, hi)});
  } else {
    Value s = L.inst("v_ashrrev_i32", L.vT, {L.cst(31), L.inst("v_xor_b32", L.vT, {lo, hi})});
    s = L.inst("v_add_u32", L.vT, {L.toV(RV::imm(32)), s});
    Value f = L.inst("v_add_u32", L.vT, {L.cst(-1), L.inst("v_ffbh_i32", L.vT, hi)});
    n = L.inst("v_min_u32", L.vT, {f, s});
  }
  Value sh = L.inst("v_lshlrev_b64", L.v2T, {n, L.toV64(x)});
  RV S = L.fromV64(sh);
  Value sticky = L.inst("v_min_u32", L.vT, {L.cst(1), L.toV(KernelLowering::lo(S))});
  Value top = L.inst("v_or_b32", L.vT, {L.toV(KernelLowering::hi(S)), sticky});
  Value f = L.inst(sign ? "v_cvt_f32_i32" : "v_cvt_f32_u32", L.vT, top);
  Value e = L.inst("v_sub_u32", L.vT, {L.toV(RV::imm(32)), n});
  return L.inst("v_ldexp_f32", L.vT, {f, e});
}

/// (v ^ s) - s on a pair with s = 0 or -1 (a VGPR).
RV negateWhere(KernelLowering &L, Value lo, Value hi, Value s) {
  Value l = L.inst("v_xor_b32", L.vT, {lo, s}), h = L.inst("v_xor_b32", L.vT, {hi, s});
  Operation *a = L.instN("v_sub_co_u32", {L.vT, L.s2T}, {l, s});
  Operation *c = L.instN("v_subb_co_u32", {L.vT, L.s2T}, {h, s, a->getResult(1)});
  return L.pair(RV::of(RV::V, a->getResult(0)), RV::of(RV::V, c->getResult(0)));
}

/// f64 -> f32 rounded to odd (the f32 bits).
Value f64ToF32Odd(KernelLowering &L, RV x) {
  Value xv = L.toV64(x);
  Value f = L.inst("v_cvt_f32_f64", L.vT, xv);
  Value back = L.inst("v_cvt_f64_f32", L.v2T, f);
  Value exact = L.inst("v_cmp_nlg_f64", L.s2T, {xv, back}); // equal or NaN
  Value odd = L.inst("v_cmp_ne_u32", L.s2T, {L.cst(0), L.inst("v_and_b32", L.vT, {L.cst(1), f})});
  Value keep = L.inst("s_or_b64", L.s2T, {exact, odd});
  auto absOf = [&](Value p) {
    RV P = L.fromV64(p);
    return L.toV64(L.pair(KernelLowering::lo(P),
                          RV::of(RV::V, L.inst("v_and_b32", L.vT,
                                               {L.toV(RV::imm(0x7fffffff)),
                                                L.toV(KernelLowering::hi(P))}))));
  };
  Value gt = L.inst("v_cmp_gt_f64", L.s2T, {absOf(xv), absOf(back)});
  Value adj = L.inst("v_cndmask_b32", L.vT, {L.cst(-1), L.cst(1), gt});
  Value moved = L.inst("v_add_u32", L.vT, {f, adj});
  return L.inst("v_cndmask_b32", L.vT, {moved, f, keep});
}

} // namespace

std::optional<RV> lowerConvert64(KernelLowering &L, Operation *op, ArrayRef<RV> in) {
  if (op->getNumOperands() != 1 || op->getNumResults() != 1)
    return std::nullopt;
  Type st = op->getOperand(0).getType(), rt = op->getResult(0).getType();
  // i64 -> f32 / f16
  if (isa<arith::SIToFPOp, arith::UIToFPOp>(op) && st.isInteger(64) && (rt.isF32() || rt.isF16())) {
    Value f = i64ToF32(L, in[0], isa<arith::SIToFPOp>(op));
    if (rt.isF16())
      return RV::of(RV::V, L.inst("v_cvt_f16_f32", L.vT, f));
    return RV::of(RV::V, f, true);
  }
  if (!isa<arith::FPToSIOp, arith::FPToUIOp>(op) || !rt.isInteger(64)) {
    if (isa<arith::TruncFOp>(op) && st.isF64() && (rt.isF16() || rt.isBF16())) {
      Value f = f64ToF32Odd(L, in[0]);
      if (rt.isBF16()) {
        Type f32t = Float32Type::get(L.ctx);
        RV fr = RV::of(RV::V, f, true);
        FailureOr<RV> r = scalarOp(L, op->getLoc(), "arith.truncf", ArrayRef<RV>(fr),
                                   TypeRange(ArrayRef<Type>(f32t)), rt, {});
        if (failed(r))
          return std::nullopt;
        return *r;
      }
      Value h = L.inst("v_cvt_f16_f32", L.vT, f);
      // NaN: 0x7e00 with x's sign.
      Value hi = L.toV(KernelLowering::hi(in[0]));
      Value sgn = L.inst("v_and_b32", L.vT,
                         {L.toV(RV::imm(0x8000)), L.inst("v_lshrrev_b32", L.vT, {L.cst(16), hi})});
      Value qnan = L.inst("v_or_b32", L.vT, {L.toV(RV::imm(0x7e00)), sgn});
      Value xv = L.toV64(in[0]);
      Value nan = L.inst("v_cmp_u_f64", L.s2T, {xv, xv});
      return RV::of(RV::V, L.inst("v_cndmask_b32", L.vT, {h, qnan, nan}));
    }
    return std::nullopt;
  }
  bool sign = isa<arith::FPToSIOp>(op);
  // f16 -> i64: the f32 value converted to 32 bits, extended.
  if (st.isF16()) {
    Value f = L.inst("v_cvt_f32_f16", L.vT, L.toV(in[0]));
    Value i = L.inst(sign ? "v_cvt_i32_f32" : "v_cvt_u32_f32", L.vT, f);
    Value h = sign ? L.inst("v_ashrrev_i32", L.vT, {L.cst(31), i}) : L.toV(RV::imm(0));
    return L.pair(RV::of(RV::V, i), RV::of(RV::V, h));
  }
  if (st.isF32()) {
    Value t = L.inst("v_trunc_f32", L.vT, L.toV(in[0]));
    Value a = sign ? L.inst("v_and_b32", L.vT, {L.toV(RV::imm(0x7fffffff)), t}) : t;
    Value h = L.inst("v_floor_f32", L.vT, L.inst("v_mul_f32", L.vT, {f32c(L, 0x2f800000), a}));
    Value l = L.inst("v_fma_f32", L.vT, {h, f32c(L, 0xcf800000), a});
    Value hi = L.inst("v_cvt_u32_f32", L.vT, h), lo = L.inst("v_cvt_u32_f32", L.vT, l);
    if (!sign)
      return L.pair(RV::of(RV::V, lo), RV::of(RV::V, hi));
    Value s = L.inst("v_ashrrev_i32", L.vT, {L.cst(31), t});
    return negateWhere(L, lo, hi, s);
  }
  if (st.isF64()) {
    Value t = L.inst("v_trunc_f64", L.v2T, L.toV64(in[0]));
    Value h = L.inst("v_floor_f64", L.v2T, L.inst("v_ldexp_f64", L.v2T, {t, L.toV(RV::imm(-32))}));
    Value l = L.inst("v_fma_f64", L.v2T, {h, L.toV64(KernelLowering::imm64(0xc1f0000000000000ull)), t});
    Value lo = L.inst("v_cvt_u32_f64", L.vT, l);
    Value hi = L.inst(sign ? "v_cvt_i32_f64" : "v_cvt_u32_f64", L.vT, h);
    return L.pair(RV::of(RV::V, lo), RV::of(RV::V, hi));
  }
  return std::nullopt;
}

} // namespace aster::lower
