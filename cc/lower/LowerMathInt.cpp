//===- LowerMathInt.cpp - math.ctlz / cttz / ctpop / absi -----------------===//
//
// Integer bit counts and absolute value of i8, i16, i32, i64 (vectors element
// by element, LowerVectorElementwise.cpp). The instructions are what LLVM's
// AMDGPU backend selects for llvm.ctlz / cttz (zero not poison: MLIR's ops
// define ctlz(0) = cttz(0) = the bit width) / ctpop / abs on gfx942
// (checked with llc-22 -mcpu=gfx942; tests/lit/lower/math-int.mlir):
//   ctlz  i32: v_ffbh_u32 (-1 for 0), v_min_u32 with 32
//         i8/i16: the same of the zero-extended value, minus 32 - width
//         i64: min(ffbh(hi), min(ffbh(lo), 32) + 32) (LLVM: the same
//              minimum with v_add_u32 clamp and v_min3_u32)
//   cttz  i32: v_ffbl_b32, v_min_u32 with 32
//         i8/i16: v_ffbl_b32 of x | (1 << width) (no minimum needed)
//         i64: min(ffbl(lo), min(ffbl(hi), 32) + 32)
//   ctpop i32: v_bcnt_u32_b32 x, 0; i8/i16 of the zero-extended value;
//         i64: v_bcnt_u32_b32 hi, (v_bcnt_u32_b32 lo, 0)
//   absi: max(x, 0 - x) (LLVM: v_sub_u32 + v_max_i32; absi(INT_MIN) is
//         INT_MIN, as llvm.abs with is_int_min_poison = false)
// Uniform operands use the SALU forms (s_flbit_i32_b32/b64, s_ff1_i32_b32/
// b64, s_bcnt1_i32_b32/b64, s_min_u32), constants fold. A 64-bit result's
// high dword is 0.
// Needs before: operands lowered (narrow ones: the low bits of a dword, the
// rest unspecified). Guarantees after: one RV for the result.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/bit.h"

namespace aster::lower {

namespace {

enum class Count { Lz, Tz, Pop };

uint32_t fold(Count c, uint64_t x, unsigned w) {
  uint64_t m = w == 64 ? x : x & ((1ull << w) - 1);
  switch (c) {
  case Count::Lz: return m ? llvm::countl_zero(m) - (64 - w) : w;
  case Count::Tz: return m ? llvm::countr_zero(m) : w;
  case Count::Pop: return llvm::popcount(m);
  }
  return 0;
}

// min(r, bound) for r an SGPR / VGPR.
RV minU(KernelLowering &L, RV r, uint32_t bound) {
  if (r.k == RV::S)
    return RV::of(RV::S, L.inst("s_min_u32", L.sT, {r.reg, L.cst(bound)}));
  return L.valu("v_min_u32", {RV::imm(bound), r}, false);
}

// The count of a 32-bit value (its low `w` bits significant; x zero-extended
// already where the count reads the upper bits).
RV count32(KernelLowering &L, Count c, RV x, unsigned w) {
  bool s = x.k == RV::S;
  switch (c) {
  case Count::Lz: {
    RV f = s ? RV::of(RV::S, L.inst("s_flbit_i32_b32", L.sT, x.reg))
             : RV::of(RV::V, L.inst("v_ffbh_u32", L.vT, L.toV(x)));
    RV r = minU(L, f, 32);
    if (w == 32)
      return r;
    return s ? RV::of(RV::S, L.inst("s_sub_u32", L.sT, {r.reg, L.cst(32 - w)}))
             : L.valu("v_subrev_u32", {RV::imm(32 - w), r}, false);
  }
  case Count::Tz: {
    if (w < 32)
      x = L.ibin("s_or_b32", "v_or_b32", false, x, RV::imm(1u << w), nullptr);
    RV f = s ? RV::of(RV::S, L.inst("s_ff1_i32_b32", L.sT, x.reg))
             : RV::of(RV::V, L.inst("v_ffbl_b32", L.vT, L.toV(x)));
    return w < 32 ? f : minU(L, f, 32);
  }
  case Count::Pop:
    if (s)
      return RV::of(RV::S, L.inst("s_bcnt1_i32_b32", L.sT, x.reg));
    return RV::of(RV::V, L.inst("v_bcnt_u32_b32", L.vT, {L.toV(x), L.cst(0)}));
  }
  return RV();
}

RV count64(KernelLowering &L, Count c, RV x) {
  if (x.scalar()) {
    Value p = L.toS64(x);
    StringRef mn = c == Count::Lz ? "s_flbit_i32_b64" : c == Count::Tz ? "s_ff1_i32_b64"
                                                                      : "s_bcnt1_i32_b64";
    RV r = RV::of(RV::S, L.inst(mn, L.sT, p));
    if (c != Count::Pop)
      r = minU(L, r, 64);
    return L.pair(r, RV::imm(0));
  }
  Value lo = L.toV(KernelLowering::lo(x)), hi = L.toV(KernelLowering::hi(x));
  if (c == Count::Pop) {
    Value a = L.inst("v_bcnt_u32_b32", L.vT, {lo, L.cst(0)});
    return L.pair(RV::of(RV::V, L.inst("v_bcnt_u32_b32", L.vT, {hi, a})), RV::imm(0));
  }
  // ctlz: the high dword's count, else 32 + the low one's; cttz mirrored.
  StringRef mn = c == Count::Lz ? "v_ffbh_u32" : "v_ffbl_b32";
  Value first = c == Count::Lz ? hi : lo, second = c == Count::Lz ? lo : hi;
  Value f2 = L.inst(mn, L.vT, second);
  Value m2 = L.inst("v_min_u32", L.vT, {L.cst(32), f2});
  Value a2 = L.inst("v_add_u32", L.vT, {L.cst(32), m2});
  Value f1 = L.inst(mn, L.vT, first);
  return L.pair(RV::of(RV::V, L.inst("v_min_u32", L.vT, {f1, a2})), RV::imm(0));
}

LogicalResult lowerCount(KernelLowering &L, Operation *op, Count c) {
  Type t = op->getResult(0).getType();
  unsigned w = t.isIndex() ? 32 : t.getIntOrFloatBitWidth();
  if (!(w == 8 || w == 16 || w == 32 || w == 64))
    return L.unsupported(op, "bit counts are lowered for i8, i16, i32 and i64");
  auto x = L.get(op->getOperand(0));
  if (failed(x))
    return failure();
  RV r;
  if (x->k == RV::Imm) {
    uint64_t v = x->bits | (w == 64 ? (uint64_t)x->hiBits << 32 : 0);
    r = w == 64 ? KernelLowering::imm64(fold(c, v, w)) : RV::imm(fold(c, v, w));
  } else if (w == 64) {
    r = count64(L, c, *x);
  } else {
    RV in = *x;
    if (w < 32 && c != Count::Tz) // the count reads the upper bits
      in = L.extendNarrow(in, w, false);
    r = count32(L, c, in, w);
  }
  L.vals[op->getResult(0)] = r;
  return success();
}

LogicalResult lowerAbsI(KernelLowering &L, Operation *op) {
  Type t = op->getResult(0).getType();
  auto x = L.get(op->getOperand(0));
  if (failed(x))
    return failure();
  Location at = op->getLoc();
  SmallVector<Type> two = {t, t};
  RV zero = is64(t) ? KernelLowering::imm64(0) : RV::imm(0);
  auto neg = scalarOp(L, at, "arith.subi", {zero, *x}, two, t, {});
  if (failed(neg))
    return failure();
  auto r = scalarOp(L, at, "arith.maxsi", {*x, *neg}, two, t, {});
  if (failed(r))
    return failure();
  L.vals[op->getResult(0)] = *r;
  return success();
}

} // namespace

void populateMathIntLowering(LoweringTable &table) {
  table.add(math::CountLeadingZerosOp::getOperationName(),
            [](KernelLowering &L, Operation *op) { return lowerCount(L, op, Count::Lz); });
  table.add(math::CountTrailingZerosOp::getOperationName(),
            [](KernelLowering &L, Operation *op) { return lowerCount(L, op, Count::Tz); });
  table.add(math::CtPopOp::getOperationName(),
            [](KernelLowering &L, Operation *op) { return lowerCount(L, op, Count::Pop); });
  table.add(math::AbsIOp::getOperationName(), lowerAbsI);
}

} // namespace aster::lower
