//===- LowerRemf.cpp - arith.remf as LLVM's AMDGPU backend expands frem ---===//
//
// arith.remf (f16, f32, f64) is C's fmod: x - trunc(x / y) * y, exact. LLVM
// 22 has no instruction for `frem` on AMDGPU; its IR expansion
// (expand-ir-insts, "frem.compute" / "frem.loop_body"; checked with llc-22
// -mcpu=gfx942 -print-after=expand-ir-insts on `frem half/float/double`)
// is the one lowered here, step for step:
//   ax = |x|, ay = |y|;  if ax > ay (frem.compute):
//     ex = frexp_exp(ax) - 1, a = ldexp(frexp_mant(ax), B)
//     ey = frexp_exp(ay) - 1, ay2 = ldexp(frexp_mant(ay), 1)
//     nb = ex - ey, ayinv = 1 / ay2 (correctly rounded division)
//     while nb > B: a = step(a) scaled by 2^B, nb -= B
//     a = ldexp(a, nb - B + 1); a = step(a); r = copysign(ldexp(a, ey), x)
//     where step(a) = fma(-rint(a * ayinv), ay2, a), + ay2 if negative
//   else (frem.else): ax == ay ? copysign(0, x) : x
//   then NaN (0x7fc00000 / 0x7e00 / 0x7ff8...) where y is 0 or NaN (ueq 0)
//   or |x| is not below +inf (ult)
// with B = 12 bits per step for f32, 26 for f64; f16 is computed in f32
// with B = 11 (ax, ay extended; the f32 result rounded to f16 before the
// copysign). The loop runs under EXEC like LLVM's: lanes with nb <= B (and
// the frem.else lanes, whose nb is set to 0) leave it, the others go on;
// the ax <= ay lanes compute the frem.compute steps too (their results are
// not selected: the instructions cannot trap) where LLVM branches around.
// Each step is exact (the remainder of a B-bit quotient digit), so the
// result is the exact fmod: NumPy's np.fmod gives the same value.
// Needs before: the operands lowered. Guarantees after: one RV (VGPR /
// VGPR pair) per result; bit-exact with LLVM's build (tests/py/
// test_lower_remf.py, tests/lit/lower/remf-rsqrt.mlir).
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

namespace aster::lower {

RV divF64(KernelLowering &L, RV x, RV y);

namespace {

/// The loop `while (n > bits) { a = body(a); n -= bits; }` under EXEC
/// (lanes leave as their n drops to bits or below and keep their last a,
/// n); returns the final (a, n). `aT` is a's register type.
std::pair<Value, Value> execLoop(KernelLowering &L, Type aT, Value a0, Value n0, unsigned bits,
                                 function_ref<Value(Value)> body) {
  Value saved = L.inst("s_mov_b64", L.s2T, L.execReg());
  Block *head = L.newBlock({aT, L.vT});
  cf::BranchOp::create(L.b, L.loc, head, ValueRange{a0, n0});
  L.start(head);
  Value a = head->getArgument(0), n = head->getArgument(1);
  Value more = L.inst("v_cmp_lt_i32", L.s2T, {L.cst(bits), n});
  L.inst("s_and_b64", L.execT, {L.execReg(), more});
  Block *bodyB = L.newBlock(), *exit = L.newBlock();
  L.branch("s_cbranch_execz", exit, {}, bodyB, {});
  L.start(bodyB);
  Value a2 = body(a);
  Value n2 = L.inst("v_subrev_u32", L.vT, {L.cst(bits), n});
  cf::BranchOp::create(L.b, L.loc, head, ValueRange{a2, n2});
  L.start(exit);
  L.inst("s_mov_b64", L.execT, saved);
  return {a, n};
}

Value vconst(KernelLowering &L, uint32_t bits) { return L.toV(RV::imm(bits)); }

/// f32 (and f16 computed in f32): the result in the low bits of a VGPR.
RV remf32(KernelLowering &L, RV xr, RV yr, bool half) {
  unsigned B = half ? 11 : 12;
  uint32_t magMask = half ? 0x7fff : 0x7fffffff;
  uint32_t qnan = half ? 0x7e00 : 0x7fc00000;
  Value x = L.toV(xr), y = L.toV(yr);
  Value ax = L.inst("v_and_b32", L.vT, {vconst(L, magMask), x});
  Value ay = L.inst("v_and_b32", L.vT, {vconst(L, magMask), y});
  if (half) {
    ax = L.inst("v_cvt_f32_f16", L.vT, ax);
    ay = L.inst("v_cvt_f32_f16", L.vT, ay);
  }
  Value gt = L.inst("v_cmp_gt_f32", L.s2T, {ax, ay});
  // frem.compute
  Value ex = L.inst("v_frexp_exp_i32_f32", L.vT, ax);
  Value a = L.inst("v_ldexp_f32", L.vT, {L.inst("v_frexp_mant_f32", L.vT, ax), L.cst(B)});
  Value ey = L.inst("v_add_u32", L.vT, {L.cst(-1), L.inst("v_frexp_exp_i32_f32", L.vT, ay)});
  Value ay2 = L.inst("v_ldexp_f32", L.vT, {L.inst("v_frexp_mant_f32", L.vT, ay), L.cst(1)});
  // nb = (ex - 1) - ey; 0 in the frem.else lanes (they skip the loop).
  Value nb = L.inst("v_add_u32", L.vT, {L.cst(-1), L.inst("v_sub_u32", L.vT, {ex, ey})});
  nb = L.inst("v_cndmask_b32", L.vT, {L.cst(0), nb, gt});
  Value ayinv = L.divF32(RV::imm(0x3f800000, true), RV::of(RV::V, ay2, true)).reg;
  auto step = [&](Value v) {
    Value q = L.inst("v_rndne_f32", L.vT, L.inst("v_mul_f32", L.vT, {v, ayinv}));
    Value nq = L.inst("v_xor_b32", L.vT, {vconst(L, 0x80000000u), q});
    Value r = L.inst("v_fma_f32", L.vT, {nq, ay2, v});
    Value neg = L.inst("v_cmp_gt_f32", L.s2T, {L.cst(0, true), r});
    Value rp = L.inst("v_add_f32", L.vT, {r, ay2});
    return L.inst("v_cndmask_b32", L.vT, {r, rp, neg});
  };
  auto [al, nl] = execLoop(L, L.vT, a, nb, B, [&](Value v) {
    return L.inst("v_ldexp_f32", L.vT, {step(v), L.cst(B)});
  });
  // frem.loop_exit: ldexp(a, nb - B + 1), one more step, scaled by 2^ey.
  Value sh = L.inst("v_add_u32", L.vT, {L.cst(1 - (int)B), nl});
  Value r = step(L.inst("v_ldexp_f32", L.vT, {al, sh}));
  r = L.inst("v_ldexp_f32", L.vT, {r, ey});
  if (half)
    r = L.inst("v_cvt_f16_f32", L.vT, r);
  Value comp = L.inst("v_bfi_b32", L.vT, {vconst(L, magMask), r, x});
  // frem.else: |x| == |y| ? copysign(0, x) : x
  Value eq = L.inst("v_cmp_eq_f32", L.s2T, {ax, ay});
  Value sx = L.inst("v_and_b32", L.vT, {vconst(L, half ? 0x8000 : 0x80000000u), x});
  Value ret = L.inst("v_cndmask_b32", L.vT, {L.inst("v_cndmask_b32", L.vT, {x, sx, eq}), comp, gt});
  // NaN where y ueq 0 or |x| is not ult +inf (the extended f16 compare the same).
  Value yok = L.inst("v_cmp_lg_f32", L.s2T, {L.cst(0, true), ay});
  Value xok = L.inst("v_cmp_nge_f32", L.s2T, {ax, vconst(L, 0x7f800000)});
  Value ok = L.inst("s_and_b64", L.s2T, {yok, xok});
  return RV::of(RV::V, L.inst("v_cndmask_b32", L.vT, {vconst(L, qnan), ret, ok}), !half);
}

RV remf64(KernelLowering &L, RV xr, RV yr) {
  constexpr unsigned B = 26;
  using K = KernelLowering;
  Value x = L.toV64(xr), y = L.toV64(yr);
  RV X = L.fromV64(x), Y = L.fromV64(y);
  auto absOf = [&](RV v) {
    return L.toV64(L.pair(K::lo(v), RV::of(RV::V, L.inst("v_and_b32", L.vT,
                                                          {vconst(L, 0x7fffffff), L.toV(K::hi(v))}))));
  };
  auto negOf = [&](Value v) {
    RV r = L.fromV64(v);
    return L.toV64(L.pair(K::lo(r), RV::of(RV::V, L.inst("v_xor_b32", L.vT,
                                                          {vconst(L, 0x80000000u), L.toV(K::hi(r))}))));
  };
  Value ax = absOf(X), ay = absOf(Y);
  Value gt = L.inst("v_cmp_gt_f64", L.s2T, {ax, ay});
  Value ex = L.inst("v_frexp_exp_i32_f64", L.vT, ax);
  Value a = L.inst("v_ldexp_f64", L.v2T, {L.inst("v_frexp_mant_f64", L.v2T, ax), L.cst(B)});
  Value ey = L.inst("v_add_u32", L.vT, {L.cst(-1), L.inst("v_frexp_exp_i32_f64", L.vT, ay)});
  Value ay2 = L.inst("v_ldexp_f64", L.v2T, {L.inst("v_frexp_mant_f64", L.v2T, ay), L.cst(1)});
  Value nb = L.inst("v_add_u32", L.vT, {L.cst(-1), L.inst("v_sub_u32", L.vT, {ex, ey})});
  nb = L.inst("v_cndmask_b32", L.vT, {L.cst(0), nb, gt});
  Value ayinv = L.toV64(divF64(L, K::imm64(0x3ff0000000000000ull), L.fromV64(ay2)));
  Value zero = L.toV64(K::imm64(0));
  auto step = [&](Value v) {
    Value q = L.inst("v_rndne_f64", L.v2T, L.inst("v_mul_f64", L.v2T, {v, ayinv}));
    Value r = L.inst("v_fma_f64", L.v2T, {negOf(q), ay2, v});
    Value neg = L.inst("v_cmp_gt_f64", L.s2T, {zero, r});
    RV R = L.fromV64(r), P = L.fromV64(L.inst("v_add_f64", L.v2T, {r, ay2}));
    return L.toV64(L.pair(
        RV::of(RV::V, L.inst("v_cndmask_b32", L.vT, {L.toV(K::lo(R)), L.toV(K::lo(P)), neg})),
        RV::of(RV::V, L.inst("v_cndmask_b32", L.vT, {L.toV(K::hi(R)), L.toV(K::hi(P)), neg}))));
  };
  auto [al, nl] = execLoop(L, L.v2T, a, nb, B, [&](Value v) {
    return L.inst("v_ldexp_f64", L.v2T, {step(v), L.cst(B)});
  });
  zero = L.toV64(K::imm64(0)); // the loop began new blocks: constants again
  Value sh = L.inst("v_add_u32", L.vT, {L.toV(RV::imm(1 - (int)B)), nl});
  Value r = step(L.inst("v_ldexp_f64", L.v2T, {al, sh}));
  RV R = L.fromV64(L.inst("v_ldexp_f64", L.v2T, {r, ey}));
  X = L.fromV64(x);
  Value xh = L.toV(K::hi(X)), xl = L.toV(K::lo(X));
  Value compHi = L.inst("v_bfi_b32", L.vT, {vconst(L, 0x7fffffff), L.toV(K::hi(R)), xh});
  Value eq = L.inst("v_cmp_eq_f64", L.s2T, {ax, ay});
  Value sx = L.inst("v_and_b32", L.vT, {vconst(L, 0x80000000u), xh});
  Value elsLo = L.inst("v_cndmask_b32", L.vT, {xl, L.cst(0), eq});
  Value elsHi = L.inst("v_cndmask_b32", L.vT, {xh, sx, eq});
  Value retLo = L.inst("v_cndmask_b32", L.vT, {elsLo, L.toV(K::lo(R)), gt});
  Value retHi = L.inst("v_cndmask_b32", L.vT, {elsHi, compHi, gt});
  Value yok = L.inst("v_cmp_lg_f64", L.s2T, {zero, ay});
  Value xok = L.inst("v_cmp_nge_f64", L.s2T, {ax, L.toV64(K::imm64(0x7ff0000000000000ull))});
  Value ok = L.inst("s_and_b64", L.s2T, {yok, xok});
  return L.pair(RV::of(RV::V, L.inst("v_cndmask_b32", L.vT, {L.cst(0), retLo, ok})),
                RV::of(RV::V, L.inst("v_cndmask_b32", L.vT, {vconst(L, 0x7ff80000), retHi, ok})));
}

LogicalResult lowerRemf(KernelLowering &L, Operation *op) {
  Type t = op->getResult(0).getType();
  if (!t.isF16() && !t.isF32() && !t.isF64())
    return L.unsupported(op, "remf is lowered for f16, f32 and f64");
  auto in = L.getAll(op->getOperands());
  if (failed(in))
    return failure();
  L.vals[op->getResult(0)] =
      t.isF64() ? remf64(L, (*in)[0], (*in)[1]) : remf32(L, (*in)[0], (*in)[1], t.isF16());
  return success();
}

} // namespace

void populateRemfLowering(LoweringTable &table) { table.add("arith.remf", lowerRemf); }

} // namespace aster::lower
