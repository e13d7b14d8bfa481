//===- LowerArithMulExtended.cpp - mului_extended / mulsi_extended --------===//
//
// The double-width product of i32 and i64 operands (vectors arrive element
// by element: LowerArithExpand.cpp splits them; i8 / i16 are expanded there
// to one multiply of the extended operands). The instructions are those
// LLVM's AMDGPU backend selects for upstream's lowering of the ops (zext /
// sext to twice the width, one mul, the halves) on gfx942, checked with
// llc-22 -mcpu=gfx942 on LLVM's build of tests/py/lower_suite_arith_gaps.py's
// extended_i32 / extended_i64 kernels (tests/lit/lower/mul-extended.mlir):
//   i32, VALU: both halves used: v_mad_u64_u32 / v_mad_i64_i32 x, y, 0;
//        only the high one: v_mul_hi_u32 / v_mul_hi_i32; only the low one:
//        v_mul_lo_u32. SALU: s_mul_i32 and s_mul_hi_u32 / s_mul_hi_i32.
//   i64, VALU: four v_mad_u64_u32 (LLVM's too), the 128-bit product's
//        columns chained through whole-range addends (v_lshrrev_b64 32 for a
//        column's high half, the middle column's carry-out into the high
//        dword by v_addc_co_u32) where LLVM joins dword pairs by moves; the
//        signed high half less the operands' sign words and-ed with the
//        other operand (v_ashrrev_i32 31, v_and_b32, v_sub_co / subb_co)
//        where LLVM multiplies by them. The same bits (mul64Valu).
//        SALU: the same columns from s_mul_i32 / s_mul_hi_u32 with the
//        carries through SCC (s_add_u32 / s_addc_u32), as LLVM.
// Constants fold (APInt). A result nothing uses costs no instruction where
// the other one does not need it.
// Needs before: the operands lowered (i64 ones as wide RVs). Guarantees
// after: one RV per result (wide for i64).
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

namespace aster::lower {

namespace {

using KL = KernelLowering;

uint64_t bits64(RV r) { return (uint64_t)r.hiBits << 32 | r.bits; }

/// Both products of two constants: (low, high) of the 2w-bit product.
std::pair<APInt, APInt> foldProduct(uint64_t a, uint64_t c, unsigned w, bool sign) {
  APInt x(w, a), y(w, c);
  APInt p = sign ? x.sext(2 * w) * y.sext(2 * w) : x.zext(2 * w) * y.zext(2 * w);
  return {p.trunc(w), p.lshr(w).trunc(w)};
}

struct Halves {
  RV lo, hi;
};

Halves mul32(KL &L, RV x, RV y, bool sign, bool wantLo, bool wantHi) {
  if (x.scalar() && y.scalar()) {
    RV lo, hi;
    if (wantLo)
      lo = RV::of(RV::S, L.inst("s_mul_i32", L.sT, {L.sOp(x), L.sOp(y)}));
    if (wantHi)
      hi = RV::of(RV::S,
                  L.inst(sign ? "s_mul_hi_i32" : "s_mul_hi_u32", L.sT, {L.sOp(x), L.sOp(y)}));
    return {lo, hi};
  }
  if (!wantHi)
    return {L.valu("v_mul_lo_u32", {x, y}, false), RV()};
  if (!wantLo)
    return {RV(), L.valu(sign ? "v_mul_hi_i32" : "v_mul_hi_u32", {x, y}, false)};
  SmallVector<Value> ops = L.vOps({x, y});
  ops.push_back(L.cst(0));
  RV p = L.fromV64(
      L.instN(sign ? "v_mad_i64_i32" : "v_mad_u64_u32", {L.v2T, L.s2T}, ops)->getResult(0));
  return {KL::lo(p), KL::hi(p)};
}

/// v_mad_u64_u32 a, c, add (a, c 32-bit; add a 64-bit RV or the constant
/// 0): the product and its carry-out mask.
std::pair<RV, Value> mad(KL &L, RV a, RV c, std::optional<RV> add) {
  SmallVector<Value> ops = L.vOps({a, c});
  ops.push_back(add ? L.toV64(*add) : L.cst(0));
  Operation *m = L.instN("v_mad_u64_u32", {L.v2T, L.s2T}, ops);
  return {L.fromV64(m->getResult(0)), m->getResult(1)};
}

/// x >> 32 of a 64-bit VGPR pair as one range (v_lshrrev_b64).
RV high32(KL &L, RV x) {
  return L.fromV64(L.inst("v_lshrrev_b64", L.v2T, {L.cst(32), L.toV64(x)}));
}

// The 128-bit product's columns with each addend a whole register range (no
// dword pairs joined: a join costs copies), the middle column's carry-out
// added to the high dword:
//   p = x0*y0; b = x0*y1 + (p >> 32); m = x1*y0 + b (carry-out k);
//   d = x1*y1 + (m >> 32); high = d + k * 2^32 (v_addc_co_u32), low = (p.lo, m.lo).
// b cannot overflow ((2^32-1)^2 + 2^32-1 < 2^64), m can by one bit. The
// signed high is the unsigned one less (x < 0 ? y : 0) and (y < 0 ? x : 0):
// the sign words (v_ashrrev_i32 31) and-ed with the other operand, two 64-bit
// subtractions. (LLVM's build: the same v_mad_u64_u32 products, its
// columns joined into pairs by moves, the corrections as products of the
// sign words: more instructions, the same bits.)
Halves mul64Valu(KL &L, RV x, RV y, bool sign) {
  RV x0 = KL::lo(x), x1 = KL::hi(x), y0 = KL::lo(y), y1 = KL::hi(y);
  RV p = mad(L, x0, y0, std::nullopt).first;
  RV b = mad(L, x0, y1, high32(L, p)).first;
  auto [m, k] = mad(L, x1, y0, b);
  RV d = mad(L, x1, y1, high32(L, m)).first;
  Value dh = L.instN("v_addc_co_u32", {L.vT, L.s2T}, {L.toV(KL::hi(d)), L.cst(0), k})->getResult(0);
  RV hi = L.pair(KL::lo(d), RV::of(RV::V, dh));
  RV lo = L.pair(KL::lo(p), KL::lo(m));
  if (!sign)
    return {lo, hi};
  auto andW = [&](RV a, RV c) {
    return L.ibin("s_and_b32", "v_and_b32", false, a, c, [](uint32_t u, uint32_t v) { return u & v; });
  };
  auto sub64 = [&](RV a, RV w, RV c0, RV c1) { // (a.lo, a.hi) - (w & c0, w & c1)
    Operation *l = L.instN("v_sub_co_u32", {L.vT, L.s2T}, L.vOps({KL::lo(a), andW(w, c0)}));
    SmallVector<Value> hops = L.vOps({KL::hi(a), andW(w, c1)});
    hops.push_back(l->getResult(1));
    Operation *h = L.instN("v_subb_co_u32", {L.vT, L.s2T}, hops);
    return L.pair(RV::of(RV::V, l->getResult(0)), RV::of(RV::V, h->getResult(0)));
  };
  auto signWord = [&](RV h) {
    return L.ibin("s_ashr_i32", "v_ashrrev_i32", true, h, RV::imm(31), nullptr);
  };
  RV sx = signWord(x1), sy = signWord(y1);
  hi = sub64(hi, sx, y0, y1);
  hi = sub64(hi, sy, x0, x1);
  return {lo, hi};
}

/// SALU: (lo, hi) = a + b with the carry (s_add_u32 / s_addc_u32; `bh` may
/// be the immediate 0).
RV addS(KL &L, RV al, RV ah, RV bl, RV bh) {
  Value l = L.inst("s_add_u32", L.sT, {L.sOp(al), L.sOp(bl)});
  Value h = L.inst("s_addc_u32", L.sT, {L.sOp(ah), L.sOp(bh)});
  return L.pair(RV::of(RV::S, l), RV::of(RV::S, h));
}

Halves mul64Salu(KL &L, RV x, RV y, bool sign) {
  RV x0 = KL::lo(x), x1 = KL::hi(x), y0 = KL::lo(y), y1 = KL::hi(y);
  auto mulLo = [&](RV a, RV c) { return RV::of(RV::S, L.inst("s_mul_i32", L.sT, {L.sOp(a), L.sOp(c)})); };
  auto mulHi = [&](RV a, RV c) {
    return RV::of(RV::S, L.inst("s_mul_hi_u32", L.sT, {L.sOp(a), L.sOp(c)}));
  };
  RV zero = RV::imm(0);
  RV p0 = mulLo(x0, y0), t = mulHi(x0, y0);
  RV a = addS(L, mulLo(x1, y0), mulHi(x1, y0), t, zero);          // x1*y0 + t
  RV b = addS(L, mulLo(x0, y1), mulHi(x0, y1), KL::lo(a), zero);  // x0*y1 + a.lo
  RV c = addS(L, KL::hi(a), zero, KL::hi(b), zero);              // a.hi + b.hi
  RV d = addS(L, mulLo(x1, y1), mulHi(x1, y1), KL::lo(c), KL::hi(c));
  RV lo = L.pair(p0, KL::lo(b));
  if (!sign)
    return {lo, d};
  // (s:s) * (v1:v0) mod 2^64 = (s*v0, hi(s*v0) + s*v1 + s*v0).
  auto signTimesS = [&](RV s, RV v0, RV v1) {
    RV l = mulLo(s, v0);
    Value h = L.inst("s_add_i32", L.sT, {mulHi(s, v0).reg, l.reg});
    h = L.inst("s_add_i32", L.sT, {h, mulLo(s, v1).reg});
    return L.pair(l, RV::of(RV::S, h));
  };
  auto signWord = [&](RV h) { return RV::of(RV::S, L.inst("s_ashr_i32", L.sT, {L.sOp(h), L.cst(31)})); };
  RV cx = signTimesS(signWord(x1), y0, y1), cy = signTimesS(signWord(y1), x0, x1);
  RV corr = addS(L, KL::lo(cx), KL::hi(cx), KL::lo(cy), KL::hi(cy));
  return {lo, addS(L, KL::lo(d), KL::hi(d), KL::lo(corr), KL::hi(corr))};
}

LogicalResult lowerMulExtended(KL &L, Operation *op) {
  bool sign = isa<arith::MulSIExtendedOp>(op);
  Type t = op->getResult(0).getType();
  if (!t.isInteger(32) && !t.isInteger(64))
    return L.unsupported(op, "expected i32 or i64 here (narrower ones and vectors are "
                             "rewritten before the walk)");
  auto x = L.get(op->getOperand(0)), y = L.get(op->getOperand(1));
  if (failed(x) || failed(y))
    return failure();
  bool wantLo = !op->getResult(0).use_empty(), wantHi = !op->getResult(1).use_empty();
  unsigned w = t.getIntOrFloatBitWidth();
  Halves r;
  if (x->k == RV::Imm && y->k == RV::Imm) {
    auto [l, h] = foldProduct(w == 64 ? bits64(*x) : x->bits, w == 64 ? bits64(*y) : y->bits,
                              w, sign);
    r = w == 64 ? Halves{KL::imm64(l.getZExtValue()), KL::imm64(h.getZExtValue())}
                : Halves{RV::imm((uint32_t)l.getZExtValue()), RV::imm((uint32_t)h.getZExtValue())};
  } else if (w == 32) {
    r = mul32(L, *x, *y, sign, wantLo, wantHi);
  } else if (!wantHi) { // the low half alone: arith.muli's lowering
    auto lo = scalarOp(L, op->getLoc(), "arith.muli", {*x, *y}, {t, t}, t, {});
    if (failed(lo))
      return failure();
    r.lo = *lo;
  } else if (x->scalar() && y->scalar()) {
    r = mul64Salu(L, *x, *y, sign);
  } else {
    r = mul64Valu(L, *x, *y, sign);
  }
  if (wantLo)
    L.vals[op->getResult(0)] = r.lo;
  if (wantHi)
    L.vals[op->getResult(1)] = r.hi;
  return success();
}

} // namespace

void populateArithMulExtendedLowering(LoweringTable &table) {
  table.addOps<arith::MulUIExtendedOp, arith::MulSIExtendedOp>(lowerMulExtended);
}

} // namespace aster::lower
