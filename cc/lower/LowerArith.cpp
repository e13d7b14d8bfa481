//===- LowerArith.cpp - arith ops to SALU / VALU instructions -------------===//
//
// Integer ops whose operands are all immediates or SGPRs become SALU
// instructions (constants fold), others VALU; float ops are VALU. i1 values
// are 0/1 in an SGPR when uniform, a lane mask (SGPR pair) when divergent;
// compares of uniform integers set SCC and read it back with s_cselect.
// Needs before: the operands lowered (i1, i32, index, f32; index is 32-bit).
// Guarantees after: one RV per result; any other op or type is an error
// naming the op.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "llvm/ADT/TypeSwitch.h"

namespace aster::lower {

static std::optional<std::pair<StringRef, StringRef>> icmpNames(arith::CmpIPredicate p) {
  using P = arith::CmpIPredicate;
  switch (p) {
  case P::eq: return std::pair{"s_cmp_eq_u32", "v_cmp_eq_u32"};
  case P::ne: return std::pair{"s_cmp_lg_u32", "v_cmp_ne_u32"};
  case P::slt: return std::pair{"s_cmp_lt_i32", "v_cmp_lt_i32"};
  case P::sle: return std::pair{"s_cmp_le_i32", "v_cmp_le_i32"};
  case P::sgt: return std::pair{"s_cmp_gt_i32", "v_cmp_gt_i32"};
  case P::sge: return std::pair{"s_cmp_ge_i32", "v_cmp_ge_i32"};
  case P::ult: return std::pair{"s_cmp_lt_u32", "v_cmp_lt_u32"};
  case P::ule: return std::pair{"s_cmp_le_u32", "v_cmp_le_u32"};
  case P::ugt: return std::pair{"s_cmp_gt_u32", "v_cmp_gt_u32"};
  case P::uge: return std::pair{"s_cmp_ge_u32", "v_cmp_ge_u32"};
  }
  return std::nullopt;
}

// Constant compares: upstream's arith::applyCmpPredicate on the 32-bit values.
static bool foldCmp(arith::CmpIPredicate p, uint32_t a, uint32_t c) {
  return arith::applyCmpPredicate(p, APInt(32, a), APInt(32, c));
}

static StringRef fcmpName(arith::CmpFPredicate p) {
  using P = arith::CmpFPredicate;
  switch (p) {
  case P::OEQ: return "v_cmp_eq_f32";
  case P::OGT: return "v_cmp_gt_f32";
  case P::OGE: return "v_cmp_ge_f32";
  case P::OLT: return "v_cmp_lt_f32";
  case P::OLE: return "v_cmp_le_f32";
  case P::ONE: return "v_cmp_lg_f32";
  case P::ORD: return "v_cmp_o_f32";
  case P::UEQ: return "v_cmp_nlg_f32";
  case P::UGT: return "v_cmp_nle_f32";
  case P::UGE: return "v_cmp_nlt_f32";
  case P::ULT: return "v_cmp_nge_f32";
  case P::ULE: return "v_cmp_ngt_f32";
  case P::UNE: return "v_cmp_neq_f32";
  case P::UNO: return "v_cmp_u_f32";
  default: return "";
  }
}

namespace {
/// A lane mask operand of a 64-bit SALU op: a constant as the inline
/// constant -1 / 0 (no s_mov_b64), a uniform 0/1 SGPR turned into a mask
/// once per block (KernelLowering::cse), a mask as it is.
Value maskOperand(KernelLowering &L, RV r) {
  if (r.k == RV::Imm)
    return r.bits & 1 ? L.allLanes() : L.cst(0);
  if (r.k != RV::S)
    return L.toMask(r);
  static const char kMask[] = "mask-of-sgpr";
  auto key = std::make_tuple(kMask, 0, r.reg.getAsOpaquePointer(), 0u, 0, (void *)nullptr, 0u);
  if (auto it = L.cse.find(key); it != L.cse.end())
    return it->second.reg;
  Value m = L.toMask(r);
  L.cse[key] = RV::of(RV::Mask, m);
  return m;
}

/// `b` if `v` is `arith.xori b, true` of i1 read by this op alone, whose
/// lowering (one s_xor_b64 of b's mask with -1) is then erased: the reader
/// takes b with s_andn2_b64 / s_orn2_b64 instead (LLVM's selection of
/// a & ~b, a | ~b on lane masks). Nothing reads the s_xor_b64's SCC: the
/// walk puts every SCC reader right after its own SCC writer.
std::optional<RV> negated(KernelLowering &L, Value v) {
  auto x = v.getDefiningOp<arith::XOrIOp>();
  if (!x || !v.hasOneUse())
    return std::nullopt;
  for (unsigned k = 0; k < 2; ++k) {
    auto c = x->getOperand(1 - k).getDefiningOp<arith::ConstantOp>();
    auto a = c ? dyn_cast<IntegerAttr>(c.getValue()) : IntegerAttr();
    if (!a || !a.getValue().isOne())
      continue;
    auto lowered = L.vals.find(v), inner = L.vals.find(x->getOperand(k));
    if (lowered == L.vals.end() || inner == L.vals.end() || lowered->second.k != RV::Mask)
      return std::nullopt;
    Operation *d = lowered->second.reg.getDefiningOp();
    if (!d || !d->getName().getStringRef().ends_with(".s_xor_b64") ||
        !lowered->second.reg.use_empty())
      return std::nullopt;
    d->erase();
    L.vals.erase(lowered);
    return inner->second;
  }
  return std::nullopt;
}
} // namespace

/// and / or / xor of i1 values, one of them a lane mask (divergent).
static RV maskLogic(KernelLowering &L, Operation *op, RV x, RV y) {
  bool andOp = isa<arith::AndIOp>(op), orOp = isa<arith::OrIOp>(op);
  // Identities LLVM folds: x & true, x | false, x ^ false are x; x & false
  // is false, x | true is true.
  for (auto [a, c] : {std::pair{x, y}, std::pair{y, x}})
    if (c.k == RV::Imm && a.k == RV::Mask) {
      bool one = c.bits & 1;
      if ((andOp && one) || (!andOp && !one))
        return a;
      if (andOp || orOp)
        return RV::imm(one);
    }
  if (andOp || orOp)
    for (unsigned k = 0; k < 2; ++k)
      if (std::optional<RV> n = negated(L, op->getOperand(k))) {
        RV other = k ? x : y;
        return RV::of(RV::Mask, L.inst(andOp ? "s_andn2_b64" : "s_orn2_b64", L.s2T,
                                       {maskOperand(L, other), maskOperand(L, *n)}));
      }
  StringRef mn = andOp ? "s_and_b64" : orOp ? "s_or_b64" : "s_xor_b64";
  return RV::of(RV::Mask, L.inst(mn, L.s2T, {maskOperand(L, x), maskOperand(L, y)}));
}

// Narrow (8/6/4-bit) floats: LowerArithNarrowFloat.cpp.
bool isNarrowFloat(Type t);
LogicalResult lowerArithNarrowFloat(KernelLowering &L, Operation *op);

LogicalResult KernelLowering::lowerArith(Operation *op) {
  for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (isNarrowFloat(t) && !isa<VectorType>(t))
      return lowerArithNarrowFloat(*this, op);
  for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (!(is32(t) || t.isInteger(1) || is64(t) || isNarrow(t)))
      return unsupported(op, "only i1, i8, i16, i32, i64, index, f16, bf16, f32 and f64 "
                             "values are lowered");
  // 64-bit values are dword pairs (LowerArith64.cpp); 16- and 8-bit ones the
  // low bits of a dword (LowerArith16.cpp).
  auto types = llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes());
  if (llvm::any_of(types, is64))
    return lowerArith64(op);
  if (llvm::any_of(types, isNarrow))
    return lowerArith16(op);
  return lowerArith32(op);
}

LogicalResult KernelLowering::lowerArith32(Operation *op) {
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    Attribute v = c.getValue();
    if (auto i = dyn_cast<IntegerAttr>(v)) {
      vals[c] = RV::imm((uint32_t)i.getValue().getZExtValue() &
                        (c.getType().isInteger(1) ? 1u : ~0u));
      return success();
    }
    if (auto f = dyn_cast<FloatAttr>(v)) {
      vals[c] = RV::imm((uint32_t)f.getValue().bitcastToAPInt().getZExtValue(), true);
      return success();
    }
    return unsupported(op, "only scalar constants are lowered");
  }
  auto operands = getAll(op->getOperands());
  if (failed(operands))
    return failure();
  SmallVector<RV> &in = *operands;
  Value res = op->getNumResults() ? op->getResult(0) : Value();
  auto set = [&](RV r) {
    vals[res] = r;
    return success();
  };
  bool i1 = res && res.getType().isInteger(1);
  // Casts that keep the 32 bits.
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
          arith::TruncIOp>(op) && !op->getOperand(0).getType().isInteger(1) && !i1)
    return set(in[0]);
  if (isa<arith::TruncIOp>(op) && i1) { // bit 0
    if (in[0].k == RV::Imm)
      return set(RV::imm(in[0].bits & 1));
    if (in[0].k == RV::S)
      return set(ibin("s_and_b32", "v_and_b32", false, in[0], RV::imm(1), nullptr));
    return set(RV::of(RV::Mask, inst("v_cmp_ne_u32", s2T,
                                     {cst(0), inst("v_and_b32", vT, {cst(1), toV(in[0])})})));
  }
  if (isa<arith::ExtSIOp>(op) && op->getOperand(0).getType().isInteger(1)) { // 0 / -1
    if (in[0].k == RV::Imm)
      return set(RV::imm(in[0].bits & 1 ? ~0u : 0));
    if (in[0].k == RV::Mask)
      return set(RV::of(RV::V, inst("v_cndmask_b32", vT, {cst(0), cst(-1), in[0].reg})));
    return set(ibin("s_sub_u32", "v_sub_u32", false, RV::imm(0), in[0], nullptr));
  }
  if (isa<arith::ExtUIOp>(op) && op->getOperand(0).getType().isInteger(1)) {
    if (in[0].k == RV::Mask)
      return set(RV::of(RV::V, inst("v_cndmask_b32", vT, {cst(0), cst(1), in[0].reg})));
    return set(in[0]);
  }
  if (isa<arith::BitcastOp>(op)) {
    RV r = in[0];
    r.isFloat = isF32(res.getType());
    return set(r);
  }
  using Fold = uint32_t (*)(uint32_t, uint32_t);
  struct IntOp {
    StringRef salu, valu;
    bool rev;
    Fold fold;
  };
  std::optional<IntOp> io =
      TypeSwitch<Operation *, std::optional<IntOp>>(op)
          .Case([](arith::SubIOp) {
            return IntOp{"s_sub_u32", "v_sub_u32", false, [](uint32_t a, uint32_t c) { return a - c; }};
          })
          .Case([](arith::AndIOp) {
            return IntOp{"s_and_b32", "v_and_b32", false, [](uint32_t a, uint32_t c) { return a & c; }};
          })
          .Case([](arith::OrIOp) {
            return IntOp{"s_or_b32", "v_or_b32", false, [](uint32_t a, uint32_t c) { return a | c; }};
          })
          .Case([](arith::XOrIOp) {
            return IntOp{"s_xor_b32", "v_xor_b32", false, [](uint32_t a, uint32_t c) { return a ^ c; }};
          })
          .Case([](arith::ShRUIOp) {
            return IntOp{"s_lshr_b32", "v_lshrrev_b32", true,
                         [](uint32_t a, uint32_t c) { return c < 32 ? a >> c : 0u; }};
          })
          .Case([](arith::ShRSIOp) {
            return IntOp{"s_ashr_i32", "v_ashrrev_i32", true, [](uint32_t a, uint32_t c) {
                           return (uint32_t)((int32_t)a >> (c < 32 ? c : 31));
                         }};
          })
          .Case([](arith::MinSIOp) {
            return IntOp{"s_min_i32", "v_min_i32", false, [](uint32_t a, uint32_t c) {
                           return (uint32_t)std::min((int32_t)a, (int32_t)c);
                         }};
          })
          .Case([](arith::MaxSIOp) {
            return IntOp{"s_max_i32", "v_max_i32", false, [](uint32_t a, uint32_t c) {
                           return (uint32_t)std::max((int32_t)a, (int32_t)c);
                         }};
          })
          .Case([](arith::MinUIOp) {
            return IntOp{"s_min_u32", "v_min_u32", false, [](uint32_t a, uint32_t c) { return std::min(a, c); }};
          })
          .Case([](arith::MaxUIOp) {
            return IntOp{"s_max_u32", "v_max_u32", false, [](uint32_t a, uint32_t c) { return std::max(a, c); }};
          })
          .Default([](Operation *) { return std::nullopt; });
  if (i1 && isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(op)) {
    if (in[0].scalar() && in[1].scalar())
      return set(ibin(io->salu, "", false, in[0], in[1], io->fold));
    return set(maskLogic(*this, op, in[0], in[1]));
  }
  if (isa<arith::AddIOp>(op) && !i1)
    return set(add(in[0], in[1]));
  if (isa<arith::MulIOp>(op) && !i1)
    return set(mul(in[0], in[1]));
  if (isa<arith::ShLIOp>(op) && !i1)
    return set(shl(in[0], in[1]));
  if (io && !i1)
    return set(ibin(io->salu, io->valu, io->rev, in[0], in[1], io->fold));
  if (isa<arith::DivUIOp, arith::RemUIOp, arith::DivSIOp, arith::RemSIOp>(op) && !i1 &&
      !(in[1].k == RV::Imm && in[1].bits && !(in[1].bits & (in[1].bits - 1)) &&
        isa<arith::DivUIOp, arith::RemUIOp>(op))) {
    if (!is32(res.getType()))
      return unsupported(op, "only 32-bit (and index) division is lowered");
    bool isSigned = isa<arith::DivSIOp, arith::RemSIOp>(op);
    bool isDiv = isa<arith::DivUIOp, arith::DivSIOp>(op);
    if (in[0].k == RV::Imm && in[1].k == RV::Imm && in[1].bits &&
        !(isSigned && in[0].bits == 0x80000000u && in[1].bits == ~0u)) {
      uint32_t x = in[0].bits, y = in[1].bits;
      if (isSigned)
        return set(RV::imm(isDiv ? (uint32_t)((int32_t)x / (int32_t)y)
                                 : (uint32_t)((int32_t)x % (int32_t)y)));
      return set(RV::imm(isDiv ? x / y : x % y));
    }
    if (!isSigned) {
      auto [q, r] = udivrem32(in[0], in[1]);
      return set(RV::of(RV::V, isDiv ? q : r));
    }
    // Signed: divide the magnitudes ((v + s) ^ s with s = v >> 31), then
    // give the quotient the sign sx ^ sy and the remainder x's sign, as
    // LLVM's expandDivRem32 does.
    Value xv = toV(in[0]), yv = toV(in[1]);
    Value sx = inst("v_ashrrev_i32", vT, {cst(31), xv});
    Value sy = inst("v_ashrrev_i32", vT, {cst(31), yv});
    Value ax = inst("v_xor_b32", vT, {inst("v_add_u32", vT, {xv, sx}), sx});
    Value ay = inst("v_xor_b32", vT, {inst("v_add_u32", vT, {yv, sy}), sy});
    auto [q, r] = udivrem32(RV::of(RV::V, ax), RV::of(RV::V, ay));
    Value s = isDiv ? inst("v_xor_b32", vT, {sx, sy}) : sx;
    Value v = inst("v_xor_b32", vT, {isDiv ? q : r, s});
    return set(RV::of(RV::V, inst("v_sub_u32", vT, {v, s})));
  }
  if ((isa<arith::DivUIOp, arith::RemUIOp>(op)) && in[1].k == RV::Imm && in[1].bits &&
      !(in[1].bits & (in[1].bits - 1))) {
    if (isa<arith::DivUIOp>(op))
      return set(ibin("s_lshr_b32", "v_lshrrev_b32", true, in[0],
                      RV::imm(llvm::countr_zero(in[1].bits)),
                      [](uint32_t a, uint32_t c) { return a >> c; }));
    return set(ibin("s_and_b32", "v_and_b32", false, in[0], RV::imm(in[1].bits - 1),
                    [](uint32_t a, uint32_t c) { return a & c; }));
  }
  if (auto c = dyn_cast<arith::CmpIOp>(op)) {
    if (op->getOperand(0).getType().isInteger(1)) {
      // eq / ne of i1 (upstream's ceildivsi / floordivsi expansion compares
      // signs): ne is xor, eq its negation (xor with true).
      if (c.getPredicate() != arith::CmpIPredicate::eq &&
          c.getPredicate() != arith::CmpIPredicate::ne)
        return unsupported(op, "compares of i1 values other than eq / ne are not lowered");
      Type i1 = op->getOperand(0).getType();
      SmallVector<Type> two = {i1, i1};
      FailureOr<RV> x = scalarOp(*this, op->getLoc(), "arith.xori", {in[0], in[1]}, two, i1, {});
      if (succeeded(x) && c.getPredicate() == arith::CmpIPredicate::eq)
        x = scalarOp(*this, op->getLoc(), "arith.xori", {*x, RV::imm(1)}, two, i1, {});
      if (failed(x))
        return failure();
      return set(*x);
    }
    return set(cmpi32(c.getPredicate(), in[0], in[1]));
  }
  if (auto c = dyn_cast<arith::CmpFOp>(op)) {
    if (c.getPredicate() == arith::CmpFPredicate::AlwaysTrue)
      return set(RV::imm(1));
    if (c.getPredicate() == arith::CmpFPredicate::AlwaysFalse)
      return set(RV::imm(0));
    return set(RV::of(RV::Mask, inst(fcmpName(c.getPredicate()), s2T, vOps(in))));
  }
  if (auto s = dyn_cast<arith::SelectOp>(op)) {
    if (i1)
      return unsupported(op, "selects of i1 values are not lowered");
    RV c = in[0], t = in[1], f = in[2];
    bool fl = isF32(res.getType());
    if (c.k == RV::Imm)
      return set(c.bits ? t : f);
    if (c.scalar() && t.scalar() && f.scalar()) {
      toSCC(c);
      RV r = RV::of(RV::S, inst("s_cselect_b32", sT, {sOp(t), sOp(f)}), fl);
      return set(r);
    }
    Value m = toMask(c);
    // The mask is the one SGPR read: sources go to VGPRs unless inline.
    auto src = [&](RV r) {
      return r.k == RV::Imm && inlineConstant(r.bits, r.isFloat) ? cst(r.bits, r.isFloat) : toV(r);
    };
    Value fv = src(f), tv = src(t);
    return set(RV::of(RV::V, inst("v_cndmask_b32", vT, {fv, tv, m}), fl));
  }
  // Floats: always VALU.
  StringRef fmn = TypeSwitch<Operation *, StringRef>(op)
                      .Case([](arith::AddFOp) { return "v_add_f32"; })
                      .Case([](arith::SubFOp) { return "v_sub_f32"; })
                      .Case([](arith::MulFOp) { return "v_mul_f32"; })
                      .Case([](arith::MaxNumFOp) { return "v_max_f32"; })
                      .Case([](arith::MinNumFOp) { return "v_min_f32"; })
                      .Case([](arith::SIToFPOp) { return "v_cvt_f32_i32"; })
                      .Case([](arith::UIToFPOp) { return "v_cvt_f32_u32"; })
                      .Case([](arith::FPToSIOp) { return "v_cvt_i32_f32"; })
                      .Case([](arith::FPToUIOp) { return "v_cvt_u32_f32"; })
                      .Default([](Operation *) { return ""; });
  if (!fmn.empty()) {
    if (!res.getType().isF32() && !isa<arith::FPToSIOp, arith::FPToUIOp>(op))
      return unsupported(op, "only f32 is lowered");
    // A constant operand of a commutative op first: src0 is where the
    // 32-bit encoding takes a literal (LowerFoldLiterals.cpp).
    if (in.size() == 2 && op->hasTrait<OpTrait::IsCommutative>() && in[1].k == RV::Imm &&
        in[0].k != RV::Imm)
      return set(valu(fmn, {in[1], in[0]}, true));
    return set(valu(fmn, in, res.getType().isF32()));
  }
  if (isa<arith::DivFOp>(op)) {
    if (!res.getType().isF32())
      return unsupported(op, "only f32 is lowered");
    auto fm = cast<arith::DivFOp>(op).getFastmath();
    if (arith::bitEnumContainsAll(fm, arith::FastMathFlags::arcp | arith::FastMathFlags::afn)) {
      // Reciprocal allowed and approximate functions: x * v_rcp_f32(y)
      // (LLVM: lowerFastUnsafeFDIV, 1 ulp of v_rcp_f32 plus the rounding
      // of the product).
      Value r = inst("v_rcp_f32", vT, toV(in[1]));
      return set(valu("v_mul_f32", {in[0], RV::of(RV::V, r, true)}, true));
    }
    return set(divF32(in[0], in[1]));
  }
  if (isa<arith::MinimumFOp, arith::MaximumFOp>(op)) {
    if (!res.getType().isF32())
      return unsupported(op, "only f32 is lowered");
    // IEEE-754 minimum/maximum (NaN if either operand is NaN) on gfx9, which
    // has no v_minimum_f32: v_min_f32 (the non-NaN operand for one NaN),
    // then the canonical quiet NaN 0x7fc00000 where the operands are
    // unordered, as LLVM's AMDGPU backend expands fminimum/fmaximum.
    bool mn = isa<arith::MinimumFOp>(op);
    Value m = valu(mn ? "v_min_f32" : "v_max_f32", in, true).reg;
    Value ord = inst("v_cmp_o_f32", s2T, vOps(in));
    Value nan = toV(RV::imm(0x7fc00000, true));
    return set(RV::of(RV::V, inst("v_cndmask_b32", vT, {nan, m, ord}), true));
  }
  if (isa<arith::NegFOp>(op)) // -x exactly (sign flip, NaN kept): x * -1.0
    return set(valu("v_mul_f32", {RV::imm(0xbf800000, true), in[0]}, true));
  return unsupported(op);
}

RV KernelLowering::cmpi32(arith::CmpIPredicate p, RV x, RV y) {
  auto [sn, vn] = *icmpNames(p);
  if (x.k == RV::Imm && y.k == RV::Imm)
    return RV::imm(foldCmp(p, x.bits, y.bits));
  if (x.scalar() && y.scalar()) {
    inst(sn, {}, {sOp(x), sOp(y)});
    return RV::of(RV::S, inst("s_cselect_b32", sT, {cst(1), cst(0)}));
  }
  return RV::of(RV::Mask, inst(vn, s2T, vOps({x, y})));
}

// Unsigned x / y and x % y as LLVM's AMDGPU backend expands a 32-bit
// udiv/urem (AMDGPUCodeGenPrepare::expandDivRem32): z ~ 2^32 / y from
// v_rcp_iflag_f32 scaled by 0x4f7ffffe (2^32 less 2 ulp, so z <= 2^32 / y),
// one Newton-Raphson step z += mulhi(z, -y * z), q = mulhi(x, z), then two
// corrections of q and r = x - q * y while r >= y. Exact for every y != 0
// (y == 0 is undefined in arith, as in LLVM).
std::pair<Value, Value> KernelLowering::udivrem32(RV x, RV y) {
  Value xv = toV(x), yv = toV(y);
  Value rcp = inst("v_rcp_iflag_f32", vT, inst("v_cvt_f32_u32", vT, yv));
  Value sc = inst("v_mul_f32", vT, {toV(RV::imm(0x4f7ffffe, true)), rcp});
  Value z = inst("v_cvt_u32_f32", vT, sc);
  Value ny = inst("v_sub_u32", vT, {cst(0), yv});
  Value e = inst("v_mul_lo_u32", vT, {ny, z});
  z = inst("v_add_u32", vT, {z, inst("v_mul_hi_u32", vT, {z, e})});
  Value q = inst("v_mul_hi_u32", vT, {xv, z});
  Value r = inst("v_sub_u32", vT, {xv, inst("v_mul_lo_u32", vT, {q, yv})});
  for (int i = 0; i < 2; ++i) {
    Value ge = inst("v_cmp_ge_u32", s2T, {r, yv});
    Value q1 = inst("v_add_u32", vT, {cst(1), q});
    Value r1 = inst("v_sub_u32", vT, {r, yv});
    q = inst("v_cndmask_b32", vT, {q, q1, ge});
    r = inst("v_cndmask_b32", vT, {r, r1, ge});
  }
  return {q, r};
}

// x / y correctly rounded, as LLVM's AMDGPU backend lowers an f32 fdiv with
// f32 denormals on (SITargetLowering::LowerFDIV32): v_div_scale_f32 scales
// the denominator and numerator out of the ranges where the reciprocal
// would lose precision (its sdst, in vcc, says whether the quotient must be
// scaled back), v_rcp_f32 and two Newton-Raphson refinements by fma,
// v_div_fmas_f32 applies the scale, v_div_fixup_f32 gives the special cases
// (zeros, infinities, NaN, overflow) from the original operands. The negated
// denominator is a v_xor_b32 of its sign (the same bits as LLVM's neg source
// modifier).
RV KernelLowering::divF32(RV x, RV y) {
  Value xv = toV(x), yv = toV(y);
  Value den = instN("v_div_scale_f32", {vT, s2T}, {yv, yv, xv})->getResult(0);
  Value num = instN("v_div_scale_f32", {vT, vccT}, {xv, yv, xv})->getResult(0);
  Value nden = inst("v_xor_b32", vT, {toV(RV::imm(0x80000000)), den});
  Value r = inst("v_rcp_f32", vT, den);
  Value e = inst("v_fma_f32", vT, {nden, r, cst(0x3f800000, true)});
  r = inst("v_fma_f32", vT, {e, r, r});
  Value q = inst("v_mul_f32", vT, {num, r});
  Value t = inst("v_fma_f32", vT, {nden, q, num});
  q = inst("v_fma_f32", vT, {t, r, q});
  t = inst("v_fma_f32", vT, {nden, q, num});
  q = inst("v_div_fmas_f32", vT, {t, r, q});
  return RV::of(RV::V, inst("v_div_fixup_f32", vT, {q, yv, xv}), true);
}

/// mului_extended / mulsi_extended of i32 / i64 (LowerArithMulExtended.cpp).
void populateArithMulExtendedLowering(LoweringTable &table);

void populateArithLowering(LoweringTable &table) {
  table.add("arith", [](KernelLowering &k, Operation *op) { return k.lowerArith(op); });
  populateArithMulExtendedLowering(table);
}

} // namespace aster::lower
