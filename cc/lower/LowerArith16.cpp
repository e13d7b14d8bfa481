//===- LowerArith16.cpp - f16, bf16, i8 and i16 arith ---------------------===//
//
// A 16-bit (8-bit) value is held in the low bits of a dword (an SGPR,
// VGPR or immediate); the bits above are unspecified, so each op that reads
// them extends its operands first - as LLVM legalises i8/i16 by promotion
// to i32 (AMDGPU has no 8-bit ALU; gfx9's 16-bit VALU ops are used for f16).
//
// How each op lowers (LLVM's AMDGPU selection for gfx942, checked with
// llc-22 -mcpu=gfx942 on the same IR; tests/lit/lower/arith16.mlir):
//   i8/i16 add, sub, mul, and/or/xor, shl, select, trunci: the 32-bit op
//             (lowerArith32; the low bits are exact)
//   shrui/shrsi, div/rem, min/max, cmpi, extui/extsi, sitofp/uitofp: the
//             operands zero- or sign-extended (v_bfe_u32/i32, s_bfe_u32/i32)
//             to 32 bits, then the 32-bit op
//   f16 add/sub/mul/fma/min/max, cmpf: v_add_f16, ... (gfx9 f16 VALU)
//   f16 divf: the f32 quotient (divF32, correctly rounded) rounded to f16 -
//             correctly rounded, since 24 >= 2 * 11 + 2 (double rounding is
//             innocuous; Figueroa, "When is double rounding innocuous?",
//             SIGNUM 1995), as LLVM's f16 fdiv is (v_div_fixup_f16)
//   extf f16->f32 v_cvt_f32_f16; truncf f32->f16 v_cvt_f16_f32 (RNE)
//   bf16: ops in f32 (extf is a shift by 16), rounded back as LLVM does on
//         gfx942: r = x + 0x7fff + bit 16 of x, the high half; a NaN keeps
//         its sign and payload, quieted (x | 0x400000); gfx950 has
//         v_cvt_pk_bf16_f32 (RNE, the same bits)
//   fptosi/fptoui/sitofp/uitofp with f16/bf16: through f32 (exact: every
//         f16/bf16 is an f32; every i16 converts exactly to f32)
// Needs before: operands lowered. Guarantees after: one RV per result;
// other ops (remf of bf16, i8/i16 <-> f64 conversions) are errors naming the op
// (remf of f16: LowerRemf.cpp).
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "llvm/ADT/TypeSwitch.h"

namespace aster::lower {

/// An f32 rounded to nearest-even bf16 (LowerMathBf16.cpp).
RV roundToBf16(KernelLowering &L, RV x);

RV KernelLowering::extendNarrow(RV x, unsigned w, bool sign) {
  if (x.k == RV::Imm) {
    uint32_t m = x.bits & ((1u << w) - 1);
    if (sign && (m >> (w - 1)))
      m |= ~((1u << w) - 1);
    return RV::imm(m);
  }
  if (x.k == RV::S)
    return RV::of(RV::S, inst(sign ? "s_bfe_i32" : "s_bfe_u32", sT, {x.reg, cst(w << 16)}));
  return RV::of(RV::V, inst(sign ? "v_bfe_i32" : "v_bfe_u32", vT, {toV(x), cst(0), cst(w)}));
}

namespace {

StringRef fcmp16(arith::CmpFPredicate p) {
  using F = arith::CmpFPredicate;
  switch (p) {
  case F::OEQ: return "v_cmp_eq_f16";
  case F::OGT: return "v_cmp_gt_f16";
  case F::OGE: return "v_cmp_ge_f16";
  case F::OLT: return "v_cmp_lt_f16";
  case F::OLE: return "v_cmp_le_f16";
  case F::ONE: return "v_cmp_lg_f16";
  case F::ORD: return "v_cmp_o_f16";
  case F::UEQ: return "v_cmp_nlg_f16";
  case F::UGT: return "v_cmp_nle_f16";
  case F::UGE: return "v_cmp_nlt_f16";
  case F::ULT: return "v_cmp_nge_f16";
  case F::ULE: return "v_cmp_ngt_f16";
  case F::UNE: return "v_cmp_neq_f16";
  case F::UNO: return "v_cmp_u_f16";
  default: return "";
  }
}

bool isSignedPred(arith::CmpIPredicate p) {
  using P = arith::CmpIPredicate;
  return p == P::slt || p == P::sle || p == P::sgt || p == P::sge;
}

} // namespace

LogicalResult KernelLowering::lowerArith16(Operation *op) {
  Value res = op->getNumResults() ? op->getResult(0) : Value();
  Type rt = res ? res.getType() : Type();
  Type st = op->getNumOperands() ? op->getOperand(0).getType() : Type();
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    if (auto f = dyn_cast<FloatAttr>(c.getValue())) {
      vals[res] = RV::imm((uint32_t)f.getValue().bitcastToAPInt().getZExtValue());
      return success();
    }
    return lowerArith32(op);
  }
  // Ops whose 32-bit form gives the right low bits.
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::AndIOp, arith::OrIOp,
          arith::XOrIOp, arith::ShLIOp, arith::SelectOp>(op))
    return lowerArith32(op);
  if (isa<arith::TruncIOp>(op) && !rt.isInteger(1))
    return lowerArith32(op);
  if (isa<arith::ExtUIOp, arith::ExtSIOp>(op) && st.isInteger(1))
    return lowerArith32(op);
  auto operands = getAll(op->getOperands());
  if (failed(operands))
    return failure();
  SmallVector<RV> &in = *operands;
  auto set = [&](RV r) {
    vals[res] = r;
    return success();
  };
  auto width = [](Type t) { return t.getIntOrFloatBitWidth(); };
  // f32 of a 16-bit float.
  auto toF32 = [&](RV x, Type t) {
    if (t.isBF16())
      return RV::of(RV::V, inst("v_lshlrev_b32", vT, {cst(16), toV(x)}), true);
    return RV::of(RV::V, inst("v_cvt_f32_f16", vT, toV(x)), true);
  };
  // An f32 rounded to nearest-even 16-bit float.
  auto fromF32 = [&](RV x, Type t) -> RV {
    Value xv = toV(x);
    if (t.isF16())
      return RV::of(RV::V, inst("v_cvt_f16_f32", vT, xv));
    return roundToBf16(*this, RV::of(RV::V, xv, true));
  };
  // ---- integers -------------------------------------------------------------
  if (isa<arith::ExtUIOp, arith::ExtSIOp, arith::IndexCastOp, arith::IndexCastUIOp>(op)) {
    if (!isNarrow(st)) // index -> i8/i16: the low bits
      return set(in[0]);
    return set(extendNarrow(in[0], width(st), isa<arith::ExtSIOp, arith::IndexCastOp>(op)));
  }
  if (isa<arith::TruncIOp>(op)) // to i1: bit 0
    return lowerArith32(op);
  if (rt && rt.isInteger() && !rt.isInteger(1) && op->getNumOperands() == 2 &&
      isa<arith::ShRUIOp, arith::ShRSIOp, arith::DivUIOp, arith::DivSIOp, arith::RemUIOp,
          arith::RemSIOp, arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp>(op)) {
    bool sign = isa<arith::ShRSIOp, arith::DivSIOp, arith::RemSIOp, arith::MinSIOp,
                    arith::MaxSIOp>(op);
    unsigned w = width(rt);
    // The shift amount: its low bits as unsigned (a shift >= w is poison).
    RV x = extendNarrow(in[0], w, sign);
    RV y = extendNarrow(in[1], w, sign && !isa<arith::ShRSIOp>(op));
    // The 32-bit op on the extended operands, through a scratch op of i32
    // type (the lowering of an i32 op is the one of lowerArith32).
    OpBuilder ob(op);
    Value a = arith::ConstantOp::create(ob, op->getLoc(), ob.getI32IntegerAttr(0));
    Value c = arith::ConstantOp::create(ob, op->getLoc(), ob.getI32IntegerAttr(0));
    OperationState s(op->getLoc(), op->getName());
    s.addOperands({a, c});
    s.addTypes(ob.getI32Type());
    Operation *tmp = ob.create(s);
    vals[a] = x, vals[c] = y;
    LogicalResult ok = lowerArith32(tmp);
    RV r = vals.lookup(tmp->getResult(0));
    vals.erase(a), vals.erase(c), vals.erase(tmp->getResult(0));
    tmp->erase();
    a.getDefiningOp()->erase();
    c.getDefiningOp()->erase();
    if (failed(ok))
      return failure();
    return set(r);
  }
  if (auto c = dyn_cast<arith::CmpIOp>(op)) {
    bool sign = isSignedPred(c.getPredicate());
    unsigned w = width(st);
    return set(cmpi32(c.getPredicate(), extendNarrow(in[0], w, sign),
                      extendNarrow(in[1], w, sign)));
  }
  // ---- conversions ---------------------------------------------------------
  if (isa<arith::ExtFOp>(op) && rt.isF32())
    return set(toF32(in[0], st));
  if (isa<arith::TruncFOp>(op) && st.isF32())
    return set(fromF32(in[0], rt));
  if (isa<arith::ExtFOp>(op) && st.isBF16() == false && rt.isBF16())
    return unsupported(op, "f16 -> bf16 is not an extension");
  if (isa<arith::SIToFPOp, arith::UIToFPOp>(op)) {
    bool sign = isa<arith::SIToFPOp>(op);
    RV x = !st.isIndex() && st.getIntOrFloatBitWidth() < 32 ? extendNarrow(in[0], width(st), sign) : in[0];
    RV f = valu(sign ? "v_cvt_f32_i32" : "v_cvt_f32_u32", {x}, true);
    if (rt.isF32())
      return set(f);
    return set(fromF32(f, rt));
  }
  if (isa<arith::FPToSIOp, arith::FPToUIOp>(op)) {
    bool sign = isa<arith::FPToSIOp>(op);
    RV x = st.isF32() ? in[0] : toF32(in[0], st);
    return set(valu(sign ? "v_cvt_i32_f32" : "v_cvt_u32_f32", {x}, false));
  }
  if (isa<arith::BitcastOp>(op))
    return set(in[0]);
  // ---- 16-bit floats --------------------------------------------------------
  Type ft = st && isa<FloatType>(st) ? st : rt;
  if (auto c = dyn_cast<arith::CmpFOp>(op)) {
    if (c.getPredicate() == arith::CmpFPredicate::AlwaysTrue)
      return set(RV::imm(1));
    if (c.getPredicate() == arith::CmpFPredicate::AlwaysFalse)
      return set(RV::imm(0));
    if (ft.isBF16()) { // compared as f32 (exact)
      std::string mn = fcmp16(c.getPredicate()).str();
      mn.replace(mn.size() - 3, 3, "f32");
      return set(RV::of(RV::Mask, inst(mn, s2T, {toF32(in[0], ft).reg, toF32(in[1], ft).reg})));
    }
    return set(RV::of(RV::Mask, inst(fcmp16(c.getPredicate()), s2T, {toV(in[0]), toV(in[1])})));
  }
  if (isa<arith::NegFOp>(op))
    return set(ibin("s_xor_b32", "v_xor_b32", false, in[0], RV::imm(0x8000),
                    [](uint32_t a, uint32_t c) { return a ^ c; }));
  StringRef f16 = TypeSwitch<Operation *, StringRef>(op)
                      .Case([](arith::AddFOp) { return "v_add_f16"; })
                      .Case([](arith::SubFOp) { return "v_sub_f16"; })
                      .Case([](arith::MulFOp) { return "v_mul_f16"; })
                      .Case([](arith::MaxNumFOp) { return "v_max_f16"; })
                      .Case([](arith::MinNumFOp) { return "v_min_f16"; })
                      .Default([](Operation *) { return ""; });
  StringRef f32 = TypeSwitch<Operation *, StringRef>(op)
                      .Case([](arith::AddFOp) { return "v_add_f32"; })
                      .Case([](arith::SubFOp) { return "v_sub_f32"; })
                      .Case([](arith::MulFOp) { return "v_mul_f32"; })
                      .Case([](arith::MaxNumFOp) { return "v_max_f32"; })
                      .Case([](arith::MinNumFOp) { return "v_min_f32"; })
                      .Default([](Operation *) { return ""; });
  if (!f16.empty() && rt.isF16()) {
    SmallVector<Value> ops{toV(in[0]), toV(in[1])};
    return set(RV::of(RV::V, inst(f16, vT, ops)));
  }
  if (!f32.empty() && rt.isBF16())
    return set(fromF32(valu(f32, {toF32(in[0], rt), toF32(in[1], rt)}, true), rt));
  if (isa<arith::DivFOp>(op) && (rt.isF16() || rt.isBF16()))
    return set(fromF32(divF32(toF32(in[0], rt), toF32(in[1], rt)), rt));
  return unsupported(op, "this 16-bit op is not lowered");
}

} // namespace aster::lower
