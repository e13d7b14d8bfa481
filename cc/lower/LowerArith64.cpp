//===- LowerArith64.cpp - i64 and f64 arith on dword pairs ----------------===//
//
// A 64-bit value (i64, f64) is held as two dwords (RV::wide: lo, hi), both
// immediates, both SGPRs (uniform integers) or both VGPRs; an instruction
// that takes a 64-bit operand gets the pair as one range (amdgcn.concat),
// its 64-bit result is split back (amdgcn.part). `index` stays 32 bits
// (Lower.h): index_cast from i64 keeps the low dword, to i64 sign-extends
// (index_castui: zero-extends).
//
// How each op lowers (LLVM's AMDGPU selection for gfx942, checked with
// llc-22 -mcpu=gfx942 on the same IR; tests/lit/lower/arith64.mlir):
//   add       SALU s_add_u32 + s_addc_u32; VALU v_lshl_add_u64 (shift 0)
//   sub       s_sub_u32 + s_subb_u32; v_sub_co_u32 + v_subb_co_u32
//   mul       lo*lo by v_mad_u64_u32 (s_mul_i32 + s_mul_hi_u32), the cross
//             products (v_mul_lo_u32 / s_mul_i32) added to the high dword
//   and/or/xor, select, min/max (compare + select): per dword
//   shifts    v_lshlrev_b64 / v_lshrrev_b64 / v_ashrrev_i64 (s_*_b64)
//   cmpi      v_cmp_<p>_{i,u}64 (a lane mask; uniform ones too, except
//             eq/ne: s_cmp_eq/lg_u64)
//   f64 add/mul/fma/min/max/cmp: v_add_f64, v_mul_f64, ...; sub as add of
//             the negation (sign bit flipped, as LLVM's neg modifier);
//   divf f64  LLVM's SITargetLowering::LowerFDIV64: v_div_scale_f64 x2,
//             v_rcp_f64, two fma refinements, v_div_fmas_f64, v_div_fixup
//   extf/truncf f32<->f64 v_cvt_f64_f32 / v_cvt_f32_f64 (RNE)
//   sitofp/uitofp i32->f64 v_cvt_f64_{i,u}32; i64->f64: hi converted,
//             scaled by 2^32 (v_ldexp_f64), plus the unsigned lo (as LLVM)
//   fptosi/fptoui f64->i32 v_cvt_{i,u}32_f64
// Division and remainder of i64: LowerArith64Div.cpp; conversions between
// i64 and f32 / f16, f64 -> i64, f64 -> f16 / bf16: LowerArith64Convert.cpp.
// ceildivsi / ceildivui / floordivsi arrive expanded by upstream
// (LowerMathExpand.cpp).
// Needs before: operands lowered (64-bit ones as wide RVs). Guarantees after:
// one RV per result, wide for 64-bit results.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "llvm/ADT/TypeSwitch.h"

#include <optional>

namespace aster::lower {

/// i64 division / remainder (LowerArith64Div.cpp).
RV lowerDivRem64(KernelLowering &L, Operation *op, RV x, RV y);
/// Conversions between i64 and f16 / f32 / f64 and f64 -> f16 / bf16 that
/// take more than one instruction (LowerArith64Convert.cpp); nullopt for
/// other ops.
std::optional<RV> lowerConvert64(KernelLowering &L, Operation *op, ArrayRef<RV> in);

// LLVM's SITargetLowering::LowerFDIV64 (gfx9): the same steps as divF32
// (LowerArith.cpp) in f64, with one rcp refinement more. Correctly rounded.
RV divF64(KernelLowering &L, RV x, RV y) {
  auto neg = [&](RV v) { // the sign bit flipped
    return L.pair(KernelLowering::lo(v),
                  L.ibin("s_xor_b32", "v_xor_b32", false, KernelLowering::hi(v),
                         RV::imm(0x80000000u), [](uint32_t a, uint32_t c) { return a ^ c; }));
  };
  Value xv = L.toV64(x), yv = L.toV64(y);
  Value den = L.instN("v_div_scale_f64", {L.v2T, L.s2T}, {yv, yv, xv})->getResult(0);
  RV d = L.fromV64(den);
  Value nden = L.toV64(neg(d));
  Value one = L.toV64(KernelLowering::imm64(0x3ff0000000000000ull));
  Value r = L.inst("v_rcp_f64", L.v2T, den);
  Value e = L.inst("v_fma_f64", L.v2T, {nden, r, one});
  r = L.inst("v_fma_f64", L.v2T, {r, e, r});
  e = L.inst("v_fma_f64", L.v2T, {nden, r, one});
  r = L.inst("v_fma_f64", L.v2T, {r, e, r});
  Value num = L.instN("v_div_scale_f64", {L.v2T, L.vccT}, {xv, yv, xv})->getResult(0);
  Value q = L.inst("v_mul_f64", L.v2T, {num, r});
  Value t = L.inst("v_fma_f64", L.v2T, {nden, q, num});
  q = L.inst("v_div_fmas_f64", L.v2T, {t, r, q});
  return L.fromV64(L.inst("v_div_fixup_f64", L.v2T, {q, yv, xv}));
}

RV KernelLowering::pair(RV l, RV h) {
  RV r;
  if (l.k == RV::Imm && h.k == RV::Imm) {
    r = RV::imm(l.bits);
    r.hiBits = h.bits;
  } else if (l.scalar() && h.scalar()) {
    r = RV::of(RV::S, toS(l));
    r.hiReg = toS(h);
  } else {
    r = RV::of(RV::V, toV(l));
    r.hiReg = toV(h);
  }
  r.wide = true;
  return r;
}

// The parts of a range are virtual registers: a hardware-initialised one
// (v0's thread id, an SGPR workgroup id) is copied first.
// A pair of VGPRs is joined once per block: the block-local cache `cse`
// (cleared when a block starts, so the join dominates its reuses) keeps the
// range, so a value read by several 64-bit instructions is copied once, at
// its first 64-bit use (not where it is defined: a join there would wait
// for loads still in flight).
Value KernelLowering::toV64(RV r) {
  if (r.whole && r.k == RV::V)
    return r.whole;
  static const char kJoin[] = "concat64";
  auto key = std::make_tuple(kJoin, (int)r.k, r.reg.getAsOpaquePointer(), r.bits, (int)r.k,
                             r.hiReg.getAsOpaquePointer(), r.hiBits);
  if (r.k == RV::V)
    if (auto it = cse.find(key); it != cse.end())
      return it->second.reg;
  // A uniform pair one instruction made, or a 64-bit inline constant: one
  // v_mov_b64 (gfx940+; llc-22 -mcpu=gfx942 moves an SGPR pair or a 64-bit
  // inline constant into VGPRs so), not a v_mov_b32 per dword.
  if (r.k == RV::S && r.whole && r.whole.getType() == s2T)
    return inst("v_mov_b64", v2T, r.whole);
  if (r.k == RV::S && r.reg && r.hiReg && r.reg != r.hiReg && r.reg.getType() == sT &&
      r.hiReg.getType() == sT) {
    // The two dwords of one SGPR pair (amdgcn.part 0 and 1 of it): that pair.
    auto p0 = r.reg.getDefiningOp<PartOp>(), p1 = r.hiReg.getDefiningOp<PartOp>();
    if (p0 && p1 && p0.getSource() == p1.getSource() && p0.getOffset() == 0 &&
        p1.getOffset() == 1 && p0.getSource().getType() == s2T)
      return inst("v_mov_b64", v2T, p0.getSource());
    return inst("v_mov_b64", v2T, toS64(r));
  }
  if (r.k == RV::Imm) {
    int64_t x = (int64_t)(((uint64_t)r.hiBits << 32) | r.bits);
    if (x >= -16 && x <= 64)
      return inst("v_mov_b64", v2T, Value(arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(x))));
  }
  auto part = [&](RV x) {
    Value v = toV(x);
    return v.getType() == vT ? v : inst("v_mov_b32", vT, v);
  };
  Value v = ConcatOp::create(b, loc, v2T, ValueRange{part(lo(r)), part(hi(r))});
  if (r.k == RV::V)
    cse[key] = RV::of(RV::V, v);
  return v;
}

Value KernelLowering::toS64(RV r) {
  if (r.whole && r.k == RV::S)
    return r.whole;
  auto part = [&](RV x) {
    Value v = toS(x);
    return v.getType() == sT ? v : inst("s_mov_b32", sT, v);
  };
  return ConcatOp::create(b, loc, s2T, ValueRange{part(lo(r)), part(hi(r))});
}

RV KernelLowering::fromV64(Value v) {
  RV r = pair(RV::of(RV::V, PartOp::create(b, loc, vT, v, b.getI32IntegerAttr(0))),
              RV::of(RV::V, PartOp::create(b, loc, vT, v, b.getI32IntegerAttr(1))));
  r.whole = v;
  return r;
}

RV KernelLowering::fromS64(Value v) {
  RV r = pair(RV::of(RV::S, PartOp::create(b, loc, sT, v, b.getI32IntegerAttr(0))),
              RV::of(RV::S, PartOp::create(b, loc, sT, v, b.getI32IntegerAttr(1))));
  r.whole = v;
  return r;
}

namespace {

using P = arith::CmpIPredicate;

StringRef icmp64(P p) {
  switch (p) {
  case P::eq: return "v_cmp_eq_u64";
  case P::ne: return "v_cmp_ne_u64";
  case P::slt: return "v_cmp_lt_i64";
  case P::sle: return "v_cmp_le_i64";
  case P::sgt: return "v_cmp_gt_i64";
  case P::sge: return "v_cmp_ge_i64";
  case P::ult: return "v_cmp_lt_u64";
  case P::ule: return "v_cmp_le_u64";
  case P::ugt: return "v_cmp_gt_u64";
  case P::uge: return "v_cmp_ge_u64";
  }
  return "";
}

// Constant compares: upstream's arith::applyCmpPredicate on the 64-bit values.
bool fold64(P p, uint64_t a, uint64_t c) {
  return arith::applyCmpPredicate(p, APInt(64, a), APInt(64, c));
}

uint64_t bits64(RV r) { return (uint64_t)r.hiBits << 32 | r.bits; }

/// A dword that pair() moved into a register from an immediate (the 0 high
/// dword of a zero-extended i32, the 0 low dword of x << 32) as that
/// immediate again; others unchanged.
RV knownDword(RV r) {
  if (r.k != RV::V && r.k != RV::S)
    return r;
  Operation *d = r.reg ? r.reg.getDefiningOp() : nullptr;
  if (!d || d->getNumOperands() != 1)
    return r;
  StringRef n = d->getName().getStringRef();
  if (!n.ends_with(".v_mov_b32") && !n.ends_with(".s_mov_b32"))
    return r;
  auto c = d->getOperand(0).getDefiningOp<arith::ConstantOp>();
  if (!c)
    return r;
  if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
    return RV::imm((uint32_t)i.getValue().getZExtValue());
  return r;
}

StringRef fcmp64(arith::CmpFPredicate p) {
  using F = arith::CmpFPredicate;
  switch (p) {
  case F::OEQ: return "v_cmp_eq_f64";
  case F::OGT: return "v_cmp_gt_f64";
  case F::OGE: return "v_cmp_ge_f64";
  case F::OLT: return "v_cmp_lt_f64";
  case F::OLE: return "v_cmp_le_f64";
  case F::ONE: return "v_cmp_lg_f64";
  case F::ORD: return "v_cmp_o_f64";
  case F::UEQ: return "v_cmp_nlg_f64";
  case F::UGT: return "v_cmp_nle_f64";
  case F::UGE: return "v_cmp_nlt_f64";
  case F::ULT: return "v_cmp_nge_f64";
  case F::ULE: return "v_cmp_ngt_f64";
  case F::UNE: return "v_cmp_neq_f64";
  case F::UNO: return "v_cmp_u_f64";
  default: return "";
  }
}

} // namespace

LogicalResult KernelLowering::lowerArith64(Operation *op) {
  Value res = op->getNumResults() ? op->getResult(0) : Value();
  Type rt = res ? res.getType() : Type();
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      vals[res] = imm64(i.getValue().getZExtValue());
    else if (auto f = dyn_cast<FloatAttr>(c.getValue()))
      vals[res] = imm64(f.getValue().bitcastToAPInt().getZExtValue());
    else
      return unsupported(op, "only scalar constants are lowered");
    return success();
  }
  auto operands = getAll(op->getOperands());
  if (failed(operands))
    return failure();
  SmallVector<RV> &in = *operands;
  auto set = [&](RV r) {
    vals[res] = r;
    return success();
  };
  if (std::optional<RV> r = lowerConvert64(*this, op, in))
    return set(*r);
  auto v64 = [&](StringRef mn, ArrayRef<RV> xs) {
    SmallVector<Value> ops;
    for (const RV &x : xs)
      ops.push_back(x.wide ? toV64(x) : toV(x));
    return fromV64(inst(mn, v2T, ops));
  };
  Type st = op->getNumOperands() ? op->getOperand(0).getType() : Type();
  auto widen = [&](RV x, Type from, bool sign) -> RV {
    // x (32 bits or narrower, or i1) as an i64.
    if (from.isInteger(1)) {
      if (x.k == RV::Imm)
        return imm64(x.bits & 1 ? (sign ? ~0ull : 1ull) : 0);
      RV l = x.k == RV::Mask
                 ? RV::of(RV::V, inst("v_cndmask_b32", vT, {cst(0), cst(sign ? -1 : 1), x.reg}))
                 : (sign ? ibin("s_sub_u32", "v_sub_u32", false, RV::imm(0), x, nullptr) : x);
      return pair(l, sign ? l : RV::imm(0));
    }
    unsigned w = from.isIndex() ? 32 : from.getIntOrFloatBitWidth();
    if (w < 32)
      x = extendNarrow(x, w, sign);
    if (x.k == RV::Imm)
      return imm64(sign ? (uint64_t)(int64_t)(int32_t)x.bits : x.bits);
    RV h = sign ? ibin("s_ashr_i32", "v_ashrrev_i32", true, x, RV::imm(31), nullptr)
                : RV::imm(0);
    return pair(x, h);
  };
  // ---- casts --------------------------------------------------------------
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
          arith::TruncIOp>(op)) {
    if (!is64(rt)) { // to a narrower integer: the low dword
      if (rt.isInteger(1)) {
        RV l = lo(in[0]);
        if (l.k == RV::Imm)
          return set(RV::imm(l.bits & 1));
        if (l.k == RV::S)
          return set(ibin("s_and_b32", "v_and_b32", false, l, RV::imm(1), nullptr));
        return set(RV::of(RV::Mask, inst("v_cmp_ne_u32", s2T,
                                          {cst(0), inst("v_and_b32", vT, {cst(1), l.reg})})));
      }
      return set(lo(in[0]));
    }
    if (is64(st))
      return set(in[0]);
    bool sign = isa<arith::IndexCastOp, arith::ExtSIOp>(op);
    return set(widen(in[0], st, sign));
  }
  if (isa<arith::BitcastOp>(op))
    return set(in[0]);
  // ---- integers -----------------------------------------------------------
  if (rt && rt.isInteger(64)) {
    RV x = in.size() > 0 ? in[0] : RV(), y = in.size() > 1 ? in[1] : RV();
    bool imm = x.k == RV::Imm && y.k == RV::Imm;
    bool sc = x.scalar() && y.scalar();
    // Per dword, with the identities folded (x | 0, x ^ 0, x & -1: x; x & 0:
    // 0), as LLVM folds them: the dword pairs the suites assemble from two
    // i32 words (extui, shli 32, ori) cost no instruction then.
    auto perDword = [&](StringRef s, StringRef v, uint32_t (*f)(uint32_t, uint32_t)) {
      auto one = [&](RV a, RV c) -> RV {
        a = knownDword(a), c = knownDword(c);
        bool isAnd = s == "s_and_b32";
        for (auto [p, q] : {std::pair{a, c}, std::pair{c, a}}) {
          if (q.k != RV::Imm || p.k == RV::Imm)
            continue;
          if (q.bits == (isAnd ? ~0u : 0u))
            return p;
          if (isAnd && q.bits == 0)
            return RV::imm(0);
        }
        return ibin(s, v, false, a, c, f);
      };
      RV l = one(lo(x), lo(y)), h = one(hi(x), hi(y));
      // Both dwords passed through from one operand: that operand (its
      // register range too).
      for (const RV *o : {&x, &y})
        if (l.k == o->k && h.k == o->k && o->k != RV::Imm && l.reg == o->reg && h.reg == o->hiReg)
          return *o;
      return pair(l, h);
    };
    if (isa<arith::AndIOp>(op))
      return set(perDword("s_and_b32", "v_and_b32", [](uint32_t a, uint32_t c) { return a & c; }));
    if (isa<arith::OrIOp>(op))
      return set(perDword("s_or_b32", "v_or_b32", [](uint32_t a, uint32_t c) { return a | c; }));
    if (isa<arith::XOrIOp>(op))
      return set(perDword("s_xor_b32", "v_xor_b32", [](uint32_t a, uint32_t c) { return a ^ c; }));
    if (isa<arith::AddIOp, arith::SubIOp>(op)) {
      bool add = isa<arith::AddIOp>(op);
      if (y.k == RV::Imm && bits64(y) == 0)
        return set(x);
      if (add && x.k == RV::Imm && bits64(x) == 0)
        return set(y);
      if (imm)
        return set(imm64(add ? bits64(x) + bits64(y) : bits64(x) - bits64(y)));
      if (sc) {
        Value l = inst(add ? "s_add_u32" : "s_sub_u32", sT, {sOp(lo(x)), sOp(lo(y))});
        Value h = inst(add ? "s_addc_u32" : "s_subb_u32", sT, {sOp(hi(x)), sOp(hi(y))});
        return set(pair(RV::of(RV::S, l), RV::of(RV::S, h)));
      }
      if (add)
        return set(fromV64(inst("v_lshl_add_u64", v2T, {toV64(x), cst(0), toV64(y)})));
      Operation *l = instN("v_sub_co_u32", {vT, s2T}, {toV(lo(x)), toV(lo(y))});
      Operation *h = instN("v_subb_co_u32", {vT, s2T},
                           {toV(hi(x)), toV(hi(y)), l->getResult(1)});
      return set(pair(RV::of(RV::V, l->getResult(0)), RV::of(RV::V, h->getResult(0))));
    }
    if (isa<arith::MulIOp>(op)) {
      if (imm)
        return set(imm64(bits64(x) * bits64(y)));
      if (sc) {
        Value l = inst("s_mul_i32", sT, {sOp(lo(x)), sOp(lo(y))});
        Value h = inst("s_mul_hi_u32", sT, {sOp(lo(x)), sOp(lo(y))});
        Value c1 = inst("s_mul_i32", sT, {sOp(lo(x)), sOp(hi(y))});
        Value c2 = inst("s_mul_i32", sT, {sOp(hi(x)), sOp(lo(y))});
        h = inst("s_add_u32", sT, {h, c1});
        h = inst("s_add_u32", sT, {h, c2});
        return set(pair(RV::of(RV::S, l), RV::of(RV::S, h)));
      }
      RV p = fromV64(
          instN("v_mad_u64_u32", {v2T, s2T}, {toV(lo(x)), toV(lo(y)), toV64(imm64(0))})
              ->getResult(0));
      Value c1 = inst("v_mul_lo_u32", vT, {toV(hi(x)), toV(lo(y))});
      Value c2 = inst("v_mul_lo_u32", vT, {toV(lo(x)), toV(hi(y))});
      Value h = inst("v_add3_u32", vT, {p.hiReg, c2, c1});
      return set(pair(lo(p), RV::of(RV::V, h)));
    }
    if (isa<arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>(op)) {
      uint32_t amt = lo(y).bits;
      if (imm) {
        uint64_t a = bits64(x);
        if (amt >= 64)
          return set(imm64(0));
        return set(imm64(isa<arith::ShLIOp>(op)    ? a << amt
                         : isa<arith::ShRUIOp>(op) ? a >> amt
                                                   : (uint64_t)((int64_t)a >> amt)));
      }
      if (y.k == RV::Imm && amt == 32) { // a dword move (LLVM does the same)
        if (isa<arith::ShLIOp>(op))
          return set(pair(RV::imm(0), lo(x)));
        if (isa<arith::ShRUIOp>(op))
          return set(pair(hi(x), RV::imm(0)));
      }
      if (sc) {
        StringRef mn = isa<arith::ShLIOp>(op)    ? "s_lshl_b64"
                       : isa<arith::ShRUIOp>(op) ? "s_lshr_b64"
                                                 : "s_ashr_i64";
        return set(fromS64(inst(mn, s2T, {toS64(x), sOp(lo(y))})));
      }
      StringRef mn = isa<arith::ShLIOp>(op)    ? "v_lshlrev_b64"
                     : isa<arith::ShRUIOp>(op) ? "v_lshrrev_b64"
                                               : "v_ashrrev_i64";
      Value a = lo(y).k == RV::Imm && inlineConstant(amt, false) ? cst(amt) : toV(lo(y));
      return set(fromV64(inst(mn, v2T, {a, toV64(x)})));
    }
    if (isa<arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp>(op)) {
      P p = isa<arith::MinSIOp>(op)   ? P::slt
            : isa<arith::MaxSIOp>(op) ? P::sgt
            : isa<arith::MinUIOp>(op) ? P::ult
                                      : P::ugt;
      if (imm)
        return set(fold64(p, bits64(x), bits64(y)) ? x : y);
      Value m = inst(icmp64(p), s2T, {toV64(x), toV64(y)});
      return set(pair(RV::of(RV::V, inst("v_cndmask_b32", vT, {toV(lo(y)), toV(lo(x)), m})),
                      RV::of(RV::V, inst("v_cndmask_b32", vT, {toV(hi(y)), toV(hi(x)), m}))));
    }
    if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp>(op)) {
      uint64_t a = bits64(x), c = bits64(y);
      bool sgn = isa<arith::DivSIOp, arith::RemSIOp>(op), div = isa<arith::DivSIOp, arith::DivUIOp>(op);
      if (imm && c && !(sgn && c == ~0ull)) // constants (no division by 0, no overflow)
        return set(imm64(sgn ? (uint64_t)(div ? (int64_t)a / (int64_t)c : (int64_t)a % (int64_t)c)
                             : (div ? a / c : a % c)));
      return set(lowerDivRem64(*this, op, x, y)); // LowerArith64Div.cpp
    }
    if (isa<arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op))
      return unsupported(op, "expected upstream's arith expansion of it before the walk");
  }
  if (auto c = dyn_cast<arith::CmpIOp>(op)) {
    RV x = in[0], y = in[1];
    if (x.k == RV::Imm && y.k == RV::Imm)
      return set(RV::imm(fold64(c.getPredicate(), bits64(x), bits64(y))));
    if (x.scalar() && y.scalar() &&
        (c.getPredicate() == P::eq || c.getPredicate() == P::ne)) {
      inst(c.getPredicate() == P::eq ? "s_cmp_eq_u64" : "s_cmp_lg_u64", {}, {toS64(x), toS64(y)});
      return set(RV::of(RV::S, inst("s_cselect_b32", sT, {cst(1), cst(0)})));
    }
    return set(RV::of(RV::Mask, inst(icmp64(c.getPredicate()), s2T, {toV64(x), toV64(y)})));
  }
  if (auto s = dyn_cast<arith::SelectOp>(op)) {
    RV c = in[0], t = in[1], f = in[2];
    if (c.k == RV::Imm)
      return set(c.bits ? t : f);
    if (c.scalar() && t.scalar() && f.scalar()) {
      toSCC(c);
      return set(fromS64(inst("s_cselect_b64", s2T, {toS64(t), toS64(f)})));
    }
    Value m = toMask(c);
    return set(pair(RV::of(RV::V, inst("v_cndmask_b32", vT, {toV(lo(f)), toV(lo(t)), m})),
                    RV::of(RV::V, inst("v_cndmask_b32", vT, {toV(hi(f)), toV(hi(t)), m}))));
  }
  // ---- f64 ------------------------------------------------------------------
  if (auto c = dyn_cast<arith::CmpFOp>(op)) {
    if (c.getPredicate() == arith::CmpFPredicate::AlwaysTrue)
      return set(RV::imm(1));
    if (c.getPredicate() == arith::CmpFPredicate::AlwaysFalse)
      return set(RV::imm(0));
    return set(RV::of(RV::Mask, inst(fcmp64(c.getPredicate()), s2T, {toV64(in[0]), toV64(in[1])})));
  }
  auto neg = [&](RV x) { // the sign bit flipped
    return pair(lo(x), ibin("s_xor_b32", "v_xor_b32", false, hi(x), RV::imm(0x80000000u),
                            [](uint32_t a, uint32_t c) { return a ^ c; }));
  };
  if (rt && rt.isF64()) {
    StringRef mn = TypeSwitch<Operation *, StringRef>(op)
                       .Case([](arith::AddFOp) { return "v_add_f64"; })
                       .Case([](arith::MulFOp) { return "v_mul_f64"; })
                       .Case([](arith::MaxNumFOp) { return "v_max_f64"; })
                       .Case([](arith::MinNumFOp) { return "v_min_f64"; })
                       .Default([](Operation *) { return ""; });
    if (!mn.empty())
      return set(v64(mn, in));
    if (isa<arith::SubFOp>(op))
      return set(v64("v_add_f64", {in[0], neg(in[1])}));
    if (isa<arith::NegFOp>(op))
      return set(neg(in[0]));
    if (isa<arith::DivFOp>(op))
      return set(divF64(*this, in[0], in[1]));
    if (isa<arith::ExtFOp>(op)) {
      RV x = in[0];
      if (st.isF16())
        x = RV::of(RV::V, inst("v_cvt_f32_f16", vT, toV(x)));
      else if (st.isBF16())
        x = RV::of(RV::V, inst("v_lshlrev_b32", vT, {cst(16), toV(x)}));
      return set(fromV64(inst("v_cvt_f64_f32", v2T, toV(x))));
    }
    if (isa<arith::SIToFPOp, arith::UIToFPOp>(op)) {
      bool sign = isa<arith::SIToFPOp>(op);
      if (!is64(st)) {
        RV x = !st.isIndex() && st.getIntOrFloatBitWidth() < 32 ? lo(widen(in[0], st, sign))
                                                                : in[0];
        return set(fromV64(inst(sign ? "v_cvt_f64_i32" : "v_cvt_f64_u32", v2T, toV(x))));
      }
      // hi * 2^32 + lo (unsigned), as LLVM's LowerINT_TO_FP64.
      Value h = inst(sign ? "v_cvt_f64_i32" : "v_cvt_f64_u32", v2T, toV(hi(in[0])));
      h = inst("v_ldexp_f64", v2T, {h, cst(32)});
      Value l = inst("v_cvt_f64_u32", v2T, toV(lo(in[0])));
      return set(fromV64(inst("v_add_f64", v2T, {h, l})));
    }
    return unsupported(op, "this f64 op is not lowered");
  }
  if (isa<arith::TruncFOp>(op) && st.isF64() && rt.isF32())
    return set(RV::of(RV::V, inst("v_cvt_f32_f64", vT, toV64(in[0])), true));
  if (isa<arith::FPToSIOp, arith::FPToUIOp>(op) && st.isF64() && !is64(rt)) {
    bool sign = isa<arith::FPToSIOp>(op);
    return set(RV::of(RV::V, inst(sign ? "v_cvt_i32_f64" : "v_cvt_u32_f64", vT, toV64(in[0]))));
  }
  return unsupported(op, "this 64-bit op is not lowered");
}

} // namespace aster::lower
