//===- LowerVectorElementwise.cpp - per-element vector arithmetic ---------===//
//
// arith / math ops on vectors, vector.fma, create_mask / constant_mask: the
// scalar op per element, lowered by its own dialect file (scalarOp), so the
// SALU/VALU choice, folding and errors are the scalar ones.
// vector.reduction: a left fold in order with the kind's arith op (LLVM's
// llvm.vector.reduce.fadd without reassoc is ordered the same way).
// Needs before: 1-, 16-, 32- or 64-bit elements (16- and 64-bit ones
// unpacked to one RV each by elementsOf and packed back by packElements).
// Guarantees after: the result in vecs (a reduction's in vals).
//===----------------------------------------------------------------------===//
#include "lower/LowerVectorUtil.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace aster::lower {

using namespace vec;

// Vector constants of 4- and 6-bit floats: LowerArithNarrowFloat.cpp.
LogicalResult lowerNarrowFloatVectorConstant(KernelLowering &L, arith::ConstantOp c);


/// Lowers a scalar `name` op on `operands` (of `types`) to `result` type by
/// the scalar lowering of its dialect (a placeholder op with the source
/// op's location, erased after).
FailureOr<RV> scalarOp(KernelLowering &L, Location at, StringRef name, ArrayRef<RV> operands,
                       TypeRange types, Type result, ArrayRef<NamedAttribute> attrs) {
  Block tmp;
  for (Type t : types)
    tmp.addArgument(t, at);
  OperationState st(at, name);
  st.addOperands(tmp.getArguments());
  st.addTypes(result);
  st.addAttributes(attrs);
  OpBuilder ob(L.ctx);
  ob.setInsertionPointToEnd(&tmp);
  Operation *op = ob.create(st);
  for (auto [a, r] : llvm::zip(tmp.getArguments(), operands))
    L.vals[a] = r;
  LogicalResult ok = L.lowerOp(op);
  FailureOr<RV> out = failure();
  if (succeeded(ok))
    out = L.vals.lookup(op->getResult(0));
  for (BlockArgument a : tmp.getArguments())
    L.vals.erase(a);
  L.vals.erase(op->getResult(0));
  op->erase();
  return out;
}

/// An arith / math op on vectors: its scalar op per element.
LogicalResult lowerElementwise(KernelLowering &L, Operation *op) {
  if (op->getNumResults() != 1)
    return L.unsupported(op);
  auto vt = dyn_cast<VectorType>(op->getResult(0).getType());
  if (!vt)
    return L.unsupported(op, "a vector operand with a scalar result");
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
    if (isa<FloatType>(vt.getElementType()) && (elemBits(vt.getElementType()) == 4 ||
                                                elemBits(vt.getElementType()) == 6))
      return lowerNarrowFloatVectorConstant(L, c);
    if (!perElement(vt))
      return only32(L, op, vt);
    if (!dense)
      return L.unsupported(op, "not a dense constant");
    SmallVector<RV> out;
    unsigned bits = elemBits(vt.getElementType());
    auto element = [&](uint64_t x) {
      if (bits == 64)
        return KernelLowering::imm64(x);
      if (bits == 16)
        return RV::imm((uint32_t)x & 0xffff);
      return RV::imm((uint32_t)x & (bits == 1 ? 1u : ~0u), bits == 32 &&
                                                            isa<FloatType>(vt.getElementType()));
    };
    if (isa<FloatType>(vt.getElementType()))
      for (APFloat f : dense.getValues<APFloat>())
        out.push_back(element(f.bitcastToAPInt().getZExtValue()));
    else
      for (APInt i : dense.getValues<APInt>())
        out.push_back(element(i.getZExtValue()));
    L.vecs[c] = packElements(L, vt, out);
    return success();
  }
  if (!perElement(vt))
    return only32(L, op, vt);
  SmallVector<Type> types;
  SmallVector<SmallVector<RV>> ins;
  for (Value v : op->getOperands()) {
    if (auto ovt = dyn_cast<VectorType>(v.getType())) {
      auto e = elementsOf(L, op, v);
      if (failed(e))
        return failure();
      ins.push_back(*e);
      types.push_back(ovt.getElementType());
    } else {
      auto r = L.get(v);
      if (failed(r))
        return failure();
      ins.push_back(SmallVector<RV>(vt.getNumElements(), *r));
      types.push_back(v.getType());
    }
  }
  StringRef name = op->getName().getStringRef();
  if (isa<vector::FMAOp>(op))
    name = math::FmaOp::getOperationName();
  SmallVector<RV> out;
  for (int64_t e = 0; e < vt.getNumElements(); ++e) {
    SmallVector<RV> xs;
    for (auto &in : ins)
      xs.push_back(in[e]);
    auto r = scalarOp(L, op->getLoc(), name, xs, types, vt.getElementType(), op->getAttrs());
    if (failed(r))
      return failure();
    out.push_back(*r);
  }
  L.vecs[op->getResult(0)] = packElements(L, vt, out);
  return success();
}

namespace {

StringRef reductionOpName(vector::CombiningKind k, bool fl) {
  using K = vector::CombiningKind;
  switch (k) {
  case K::ADD: return fl ? "arith.addf" : "arith.addi";
  case K::MUL: return fl ? "arith.mulf" : "arith.muli";
  case K::MINUI: return "arith.minui";
  case K::MINSI: return "arith.minsi";
  case K::MAXUI: return "arith.maxui";
  case K::MAXSI: return "arith.maxsi";
  case K::MINNUMF: return "arith.minnumf";
  case K::MAXNUMF: return "arith.maxnumf";
  case K::MINIMUMF: return "arith.minimumf";
  case K::MAXIMUMF: return "arith.maximumf";
  case K::AND: return "arith.andi";
  case K::OR: return "arith.ori";
  case K::XOR: return "arith.xori";
  }
  return "";
}

LogicalResult lowerVectorArith(KernelLowering &L, Operation *op) {
  if (auto cm = dyn_cast<vector::ConstantMaskOp>(op)) {
    auto vt = cm.getVectorType();
    if (vt.getRank() != 1)
      return L.unsupported(op, "only rank-1 masks are lowered");
    int64_t k = cm.getMaskDimSizes()[0];
    SmallVector<RV> out;
    for (int64_t e = 0; e < vt.getNumElements(); ++e)
      out.push_back(RV::imm(e < k));
    L.vecs[cm] = out;
    return success();
  }
  if (auto cm = dyn_cast<vector::CreateMaskOp>(op)) {
    auto vt = cm.getVectorType();
    if (vt.getRank() != 1)
      return L.unsupported(op, "only rank-1 masks are lowered");
    auto n = L.get(cm.getOperand(0));
    if (failed(n))
      return failure();
    SmallVector<RV> out;
    for (int64_t e = 0; e < vt.getNumElements(); ++e) {
      auto c = scalarOp(L, op->getLoc(), "arith.cmpi", {RV::imm(e), *n},
                        {L.b.getIndexType(), L.b.getIndexType()}, L.b.getI1Type(),
                        {L.b.getNamedAttr("predicate", arith::CmpIPredicateAttr::get(
                                                           L.ctx, arith::CmpIPredicate::slt))});
      if (failed(c))
        return failure();
      out.push_back(*c);
    }
    L.vecs[cm] = out;
    return success();
  }
  if (isa<vector::FMAOp>(op))
    return lowerElementwise(L, op);
  if (auto red = dyn_cast<vector::ReductionOp>(op)) {
    auto vt = red.getSourceVectorType();
    if (!perElement(vt))
      return only32(L, op, vt);
    auto src = elementsOf(L, op, red.getVector());
    if (failed(src))
      return failure();
    Type et = vt.getElementType();
    StringRef name = reductionOpName(red.getKind(), isa<FloatType>(et));
    SmallVector<RV> xs(*src);
    RV acc;
    size_t first = 0;
    if (red.getAcc()) {
      auto a = L.get(red.getAcc());
      if (failed(a))
        return failure();
      acc = *a;
    } else {
      acc = xs[0];
      first = 1;
    }
    for (size_t i = first; i < xs.size(); ++i) {
      auto r = scalarOp(L, op->getLoc(), name, {acc, xs[i]}, {et, et}, et, {});
      if (failed(r))
        return failure();
      acc = *r;
    }
    L.vals[red.getResult()] = acc;
    return success();
  }
  return L.unsupported(op);
}

} // namespace

void populateVectorElementwiseLowering(LoweringTable &table) {
  table.addOps<vector::ConstantMaskOp, vector::CreateMaskOp, vector::FMAOp,
               vector::ReductionOp>(lowerVectorArith);
}

} // namespace aster::lower
