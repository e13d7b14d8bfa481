//===- LowerArithExpand.cpp - arith / math ops rewritten to others first --===//
//
// Before the walk (upstream IR in, upstream IR out, on the clone
// lowerGpuModules lowers, like LowerMathExpand.cpp), ops that are other
// lowered ops in disguise are rewritten to them; each rewrite computes the
// op's definition, and the instructions are then those LLVM's AMDGPU
// backend picks for the parts (checked with llc-22 -mcpu=gfx942):
//   i1 (and vector of i1) arithmetic, MLIR's i1 semantics (signed: true is
//     -1, so -1 < 0): addi, subi -> xori; muli, maxsi, minui -> andi;
//     minsi, maxui -> ori; cmpi slt / ugt -> a & ~b, sle / uge -> a | ~b,
//     sgt / ult -> ~a & b, sge / ule -> ~a | b (~x = x xor true). LLVM
//     legalises i1 arithmetic to the same bit operations. select of i1:
//     (c & t) | (~c & f).
//   addui_extended: the sum, and the carry as sum <u a (LLVM: v_add_co_u32's
//     carry-out; the same bit).
//   mului_extended / mulsi_extended of i8 / i16: the operands zero- /
//     sign-extended to twice the width, one multiply, the high half shifted
//     down and truncated (LLVM's mul of the extended values). Of vectors of
//     i32 / i64: the scalar op per element (vector.extract, from_elements),
//     which the walk lowers as LLVM does (LowerArithMulExtended.cpp; scalar
//     i32 / i64 ones are left to it).
//   sitofp / uitofp i64 -> bf16: to f32 (LowerArith64Convert.cpp), then
//     truncf: the double rounding LLVM's build does (llc-22: the i64 -> f32
//     sequence, then the bf16 rounding of the f32).
//   fptosi / fptoui bf16 -> i64, remf of bf16: through f32 (extf exact; the
//     f32 remainder of two bf16 values is exact and a bf16 again).
//   math.copysign f64: the sign bit of y into x (integer and / or on the
//     bits; LLVM: v_bfi_b32 on the high dword).
//   math.round f64: LLVM's lowerFROUND: t = trunc(x), t + copysign(|x - t|
//     >= 0.5 ? 1.0 : 0.0, x).
//   math.ipowi: upstream's definition (convert-math-to-funcs' outlined
//     function, which convert-gpu-to-rocdl does not run): b == 0 -> 1;
//     b < 0 -> 1 for a == 1, +-1 for a == -1 (b odd: -1), else 0 (a == 0 is
//     a division by zero there: undefined; 0 here); b > 0 -> square and
//     multiply over b's bits (an scf.while). Vectors element by element.
// Needs before: a gpu.module (its clone). Guarantees after: none of the
// ops above left (the other ops unchanged).
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace aster::lower {

namespace {

Type elem(Type t) { return getElementTypeOrSelf(t); }
bool isI1(Type t) { return elem(t).isInteger(1); }

bool i1Arith(Operation *op) {
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::MaxSIOp, arith::MinSIOp,
           arith::MaxUIOp, arith::MinUIOp>(op))
    return false;
  return isI1(op->getResult(0).getType());
}
bool i1Cmp(Operation *op) {
  auto c = dyn_cast<arith::CmpIOp>(op);
  return c && isI1(c.getLhs().getType()) && c.getPredicate() != arith::CmpIPredicate::eq &&
         c.getPredicate() != arith::CmpIPredicate::ne;
}
bool i1Select(Operation *op) {
  return isa<arith::SelectOp>(op) && isI1(op->getResult(0).getType());
}
bool viaF32(Operation *op) {
  if (isa<arith::SIToFPOp, arith::UIToFPOp>(op))
    return elem(op->getOperand(0).getType()).isInteger(64) &&
           elem(op->getResult(0).getType()).isBF16();
  if (isa<arith::FPToSIOp, arith::FPToUIOp>(op))
    return elem(op->getOperand(0).getType()).isBF16() &&
           elem(op->getResult(0).getType()).isInteger(64);
  if (isa<arith::RemFOp>(op))
    return elem(op->getResult(0).getType()).isBF16();
  return false;
}
/// mului_extended / mulsi_extended the walk takes as they are (scalar i32 /
/// i64: LowerArithMulExtended.cpp).
bool mulExtendedInWalk(Operation *op) {
  Type t = op->getResult(0).getType();
  return isa<arith::MulUIExtendedOp, arith::MulSIExtendedOp>(op) &&
         (t.isInteger(32) || t.isInteger(64));
}
bool f64Math(Operation *op) {
  return isa<math::CopySignOp, math::RoundOp>(op) && elem(op->getResult(0).getType()).isF64();
}
bool expandable(Operation *op) {
  return i1Arith(op) || i1Cmp(op) || i1Select(op) ||
         isa<arith::AddUIExtendedOp, math::IPowIOp>(op) ||
         (isa<arith::MulUIExtendedOp, arith::MulSIExtendedOp>(op) && !mulExtendedInWalk(op)) ||
         viaF32(op) || f64Math(op);
}

/// A constant of type `t` (a splat for a vector).
Value constant(OpBuilder &b, Location loc, Type t, int64_t v) {
  Type e = elem(t);
  TypedAttr a;
  if (auto ft = dyn_cast<FloatType>(e))
    a = b.getFloatAttr(ft, (double)v);
  else
    a = b.getIntegerAttr(e, APInt(e.getIntOrFloatBitWidth(), (uint64_t)v, /*isSigned=*/v < 0));
  if (auto vt = dyn_cast<VectorType>(t))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vt, a));
  return arith::ConstantOp::create(b, loc, a);
}
Value fconstant(OpBuilder &b, Location loc, Type t, double v) {
  TypedAttr a = b.getFloatAttr(elem(t), v);
  if (auto vt = dyn_cast<VectorType>(t))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vt, a));
  return arith::ConstantOp::create(b, loc, a);
}
/// `t` with element type `e`.
Type withElem(Type t, Type e) {
  if (auto vt = dyn_cast<VectorType>(t))
    return vt.clone(e);
  return e;
}

void rewriteI1(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  Value x = op->getOperand(0), y = op->getOperand(1);
  auto no = [&](Value v) {
    return arith::XOrIOp::create(b, loc, v, constant(b, loc, v.getType(), 1)).getResult();
  };
  Value r;
  if (isa<arith::SelectOp>(op)) { // (c & t) | (~c & f)
    Value c = x, t = y, f = op->getOperand(2);
    if (c.getType() != t.getType()) // a scalar condition of a vector select
      c = vector::BroadcastOp::create(b, loc, t.getType(), c);
    r = arith::OrIOp::create(b, loc, arith::AndIOp::create(b, loc, c, t),
                             arith::AndIOp::create(b, loc, no(c), f));
  } else if (isa<arith::AddIOp, arith::SubIOp>(op))
    r = arith::XOrIOp::create(b, loc, x, y);
  else if (isa<arith::MulIOp, arith::MaxSIOp, arith::MinUIOp>(op))
    r = arith::AndIOp::create(b, loc, x, y);
  else if (isa<arith::MinSIOp, arith::MaxUIOp>(op))
    r = arith::OrIOp::create(b, loc, x, y);
  else {
    using P = arith::CmpIPredicate;
    switch (cast<arith::CmpIOp>(op).getPredicate()) {
    case P::slt: case P::ugt: r = arith::AndIOp::create(b, loc, x, no(y)); break;
    case P::sle: case P::uge: r = arith::OrIOp::create(b, loc, x, no(y)); break;
    case P::sgt: case P::ult: r = arith::AndIOp::create(b, loc, no(x), y); break;
    default: r = arith::OrIOp::create(b, loc, no(x), y); break; // sge, ule
    }
  }
  op->getResult(0).replaceAllUsesWith(r);
  op->erase();
}

void rewriteAddExtended(OpBuilder &b, arith::AddUIExtendedOp op) {
  Location loc = op.getLoc();
  Value s = arith::AddIOp::create(b, loc, op.getLhs(), op.getRhs());
  Value c = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, s, op.getLhs());
  op.getSum().replaceAllUsesWith(s);
  op.getOverflow().replaceAllUsesWith(c);
  op->erase();
}

void rewriteMulExtended(OpBuilder &b, Operation *op, bool sign) {
  Location loc = op->getLoc();
  Value x = op->getOperand(0), y = op->getOperand(1);
  Type t = x.getType();
  unsigned w = elem(t).getIntOrFloatBitWidth();
  Value lo, hi;
  if (w >= 32) { // a vector of i32 / i64: the scalar op per element, in 1-D
    auto vt = cast<VectorType>(t);
    auto flat = VectorType::get({vt.getNumElements()}, vt.getElementType());
    auto flatten = [&](Value v) -> Value {
      return vt.getRank() == 1 ? v : vector::ShapeCastOp::create(b, loc, flat, v).getResult();
    };
    Value fx = flatten(x), fy = flatten(y);
    SmallVector<Value> los, his;
    for (int64_t i = 0; i < vt.getNumElements(); ++i) {
      SmallVector<int64_t> pos = {i};
      Value a = vector::ExtractOp::create(b, loc, fx, pos);
      Value c = vector::ExtractOp::create(b, loc, fy, pos);
      Operation *m = sign ? arith::MulSIExtendedOp::create(b, loc, a, c).getOperation()
                          : arith::MulUIExtendedOp::create(b, loc, a, c).getOperation();
      los.push_back(m->getResult(0));
      his.push_back(m->getResult(1));
    }
    auto unflatten = [&](ArrayRef<Value> parts) -> Value {
      Value v = vector::FromElementsOp::create(b, loc, flat, parts);
      return vt.getRank() == 1 ? v : vector::ShapeCastOp::create(b, loc, vt, v).getResult();
    };
    lo = unflatten(los);
    hi = unflatten(his);
  } else {
    lo = arith::MulIOp::create(b, loc, x, y);
    Type wt = withElem(t, IntegerType::get(b.getContext(), 2 * w));
    auto ext = [&](Value v) -> Value {
      if (sign)
        return arith::ExtSIOp::create(b, loc, wt, v);
      return arith::ExtUIOp::create(b, loc, wt, v);
    };
    Value p = arith::MulIOp::create(b, loc, ext(x), ext(y));
    Value s = arith::ShRUIOp::create(b, loc, p, constant(b, loc, wt, w));
    hi = arith::TruncIOp::create(b, loc, t, s);
  }
  op->getResult(0).replaceAllUsesWith(lo);
  op->getResult(1).replaceAllUsesWith(hi);
  op->erase();
}

void rewriteViaF32(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  Type res = op->getResult(0).getType();
  Type f32 = withElem(res, b.getF32Type());
  Value r;
  if (isa<arith::SIToFPOp, arith::UIToFPOp>(op)) {
    f32 = withElem(res, b.getF32Type());
    Value f = isa<arith::SIToFPOp>(op)
                  ? arith::SIToFPOp::create(b, loc, f32, op->getOperand(0)).getResult()
                  : arith::UIToFPOp::create(b, loc, f32, op->getOperand(0)).getResult();
    r = arith::TruncFOp::create(b, loc, res, f);
  } else {
    Type in32 = withElem(op->getOperand(0).getType(), b.getF32Type());
    SmallVector<Value> ext;
    for (Value v : op->getOperands())
      ext.push_back(arith::ExtFOp::create(b, loc, in32, v));
    if (isa<arith::FPToSIOp>(op))
      r = arith::FPToSIOp::create(b, loc, res, ext[0]);
    else if (isa<arith::FPToUIOp>(op))
      r = arith::FPToUIOp::create(b, loc, res, ext[0]);
    else
      r = arith::TruncFOp::create(b, loc, res, arith::RemFOp::create(b, loc, ext[0], ext[1]));
  }
  op->getResult(0).replaceAllUsesWith(r);
  op->erase();
}

Value copySign64(OpBuilder &b, Location loc, Value x, Value y) {
  Type it = withElem(x.getType(), b.getI64Type());
  Value xi = arith::BitcastOp::create(b, loc, it, x), yi = arith::BitcastOp::create(b, loc, it, y);
  Value mag = arith::AndIOp::create(b, loc, xi, constant(b, loc, it, INT64_MAX));
  Value sgn = arith::AndIOp::create(b, loc, yi, constant(b, loc, it, INT64_MIN));
  return arith::BitcastOp::create(b, loc, x.getType(), arith::OrIOp::create(b, loc, mag, sgn));
}

void rewriteF64Math(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  Value x = op->getOperand(0), r;
  if (isa<math::CopySignOp>(op)) {
    r = copySign64(b, loc, x, op->getOperand(1));
  } else {
    Type t = x.getType();
    Value tr = math::TruncOp::create(b, loc, x);
    Value d = math::AbsFOp::create(b, loc, arith::SubFOp::create(b, loc, x, tr));
    Value ge = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, d, fconstant(b, loc, t, 0.5));
    Value one = arith::SelectOp::create(b, loc, ge, fconstant(b, loc, t, 1.0),
                                        fconstant(b, loc, t, 0.0));
    r = arith::AddFOp::create(b, loc, tr, copySign64(b, loc, one, x));
  }
  op->getResult(0).replaceAllUsesWith(r);
  op->erase();
}

// ipowi of two scalars (see the header).
Value ipowiScalar(OpBuilder &b, Location loc, Value a, Value e) {
  Type t = a.getType();
  Value zero = constant(b, loc, t, 0), one = constant(b, loc, t, 1), m1 = constant(b, loc, t, -1);
  Value neg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, e, zero);
  Value e0 = arith::SelectOp::create(b, loc, neg, zero, e);
  Type ts[] = {t, t, t};
  Value inits[] = {one, a, e0};
  auto w = scf::WhileOp::create(b, loc, TypeRange(ts), ValueRange(inits));
  {
    Block *before = b.createBlock(&w.getBefore(), {}, ts, {loc, loc, loc});
    Value go = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, before->getArgument(2), zero);
    scf::ConditionOp::create(b, loc, go, before->getArguments());
    Block *after = b.createBlock(&w.getAfter(), {}, ts, {loc, loc, loc});
    Value r = after->getArgument(0), base = after->getArgument(1), n = after->getArgument(2);
    Value bit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                      arith::AndIOp::create(b, loc, n, one), zero);
    Value rm = arith::SelectOp::create(b, loc, bit, arith::MulIOp::create(b, loc, r, base), r);
    Value bb = arith::MulIOp::create(b, loc, base, base);
    Value n1 = arith::ShRUIOp::create(b, loc, n, one);
    scf::YieldOp::create(b, loc, ValueRange{rm, bb, n1});
  }
  b.setInsertionPointAfter(w);
  // b < 0: 1 for a == 1, a == -1: -1 if b is odd else 1, 0 otherwise.
  Value isOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, a, one);
  Value isM1 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, a, m1);
  Value odd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                    arith::AndIOp::create(b, loc, e, one), zero);
  Value m1r = arith::SelectOp::create(b, loc, odd, m1, one);
  Value negr = arith::SelectOp::create(b, loc, isOne, one,
                                       arith::SelectOp::create(b, loc, isM1, m1r, zero));
  return arith::SelectOp::create(b, loc, neg, negr, w.getResult(0));
}

void rewriteIPowI(OpBuilder &b, math::IPowIOp op) {
  Location loc = op.getLoc();
  Value r;
  if (auto vt = dyn_cast<VectorType>(op.getType())) {
    SmallVector<Value> parts;
    for (int64_t i = 0; i < vt.getNumElements(); ++i) {
      SmallVector<int64_t> pos = {i};
      Value a = vector::ExtractOp::create(b, loc, op.getLhs(), pos);
      Value e = vector::ExtractOp::create(b, loc, op.getRhs(), pos);
      parts.push_back(ipowiScalar(b, loc, a, e));
    }
    r = vector::FromElementsOp::create(b, loc, vt, parts);
  } else {
    r = ipowiScalar(b, loc, op.getLhs(), op.getRhs());
  }
  op.getResult().replaceAllUsesWith(r);
  op->erase();
}

} // namespace

bool hasExpandableArith(gpu::GPUModuleOp gm) {
  return gm.walk([](Operation *op) {
             return expandable(op) ? WalkResult::interrupt() : WalkResult::advance();
           }).wasInterrupted();
}

LogicalResult expandArith(gpu::GPUModuleOp gm) {
  SmallVector<Operation *> ops;
  gm.walk([&](Operation *op) {
    if (expandable(op))
      ops.push_back(op);
  });
  OpBuilder b(gm.getContext());
  for (Operation *op : ops) {
    if (isa<VectorType>(op->getResult(0).getType()) && isa<math::IPowIOp>(op) &&
        cast<VectorType>(op->getResult(0).getType()).getRank() != 1)
      return op->emitOpError("cannot be lowered to amdgcn: ipowi of vectors of rank > 1");
    b.setInsertionPoint(op);
    if (i1Arith(op) || i1Cmp(op) || i1Select(op))
      rewriteI1(b, op);
    else if (auto a = dyn_cast<arith::AddUIExtendedOp>(op))
      rewriteAddExtended(b, a);
    else if (isa<arith::MulUIExtendedOp, arith::MulSIExtendedOp>(op))
      rewriteMulExtended(b, op, isa<arith::MulSIExtendedOp>(op));
    else if (viaF32(op))
      rewriteViaF32(b, op);
    else if (f64Math(op))
      rewriteF64Math(b, op);
    else
      rewriteIPowI(b, cast<math::IPowIOp>(op));
  }
  return success();
}

} // namespace aster::lower
