//===- LowerVectorShape.cpp - vector ops that move elements ---------------===//
//
// broadcast (adding leading dimensions), from_elements, extract / insert
// (static positions), extract_strided_slice (rank 1), shape_cast, bitcast:
// the result's elements are the source's RVs rearranged; no instruction.
// Needs before: 32-bit (or i1) elements, except casts between whole words.
// Guarantees after: the result in vecs (or vals for a scalar extract).
//===----------------------------------------------------------------------===//
#include "lower/LowerVectorUtil.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace aster::lower {

using namespace vec;

namespace {

LogicalResult lowerVectorShape(KernelLowering &L, Operation *op) {
  if (auto bc = dyn_cast<vector::BroadcastOp>(op)) {
    auto vt = bc.getResultVectorType();
    if (failed(only32(L, op, vt)))
      return failure();
    SmallVector<RV> src;
    if (auto svt = dyn_cast<VectorType>(bc.getSourceType())) {
      if (svt.getShape() != vt.getShape().take_back(svt.getRank()))
        return L.unsupported(op, "only broadcasts that add leading dimensions are lowered");
      auto e = getVec(L, bc.getSource());
      if (failed(e))
        return failure();
      src = *e;
    } else {
      auto r = L.get(bc.getSource());
      if (failed(r))
        return failure();
      src.push_back(*r);
    }
    SmallVector<RV> out;
    while (out.size() < (size_t)vt.getNumElements())
      out.append(src.begin(), src.end());
    L.vecs[bc] = out;
    return success();
  }
  if (auto fe = dyn_cast<vector::FromElementsOp>(op)) {
    if (failed(only32(L, op, fe.getType())))
      return failure();
    SmallVector<RV> out;
    for (Value v : fe.getElements()) {
      auto r = L.get(v);
      if (failed(r))
        return failure();
      out.push_back(*r);
    }
    L.vecs[fe] = out;
    return success();
  }
  if (isa<vector::ExtractOp, vector::InsertOp>(op)) {
    auto ex = dyn_cast<vector::ExtractOp>(op);
    auto in = dyn_cast<vector::InsertOp>(op);
    VectorType vt = ex ? ex.getSourceVectorType() : in.getDestVectorType();
    if (failed(only32(L, op, vt)))
      return failure();
    bool dynamic = ex ? !ex.getDynamicPosition().empty() : !in.getDynamicPosition().empty();
    if (dynamic)
      return L.unsupported(op, "only static positions are lowered");
    ArrayRef<int64_t> pos = ex ? ex.getStaticPosition() : in.getStaticPosition();
    int64_t inner = 1, lin = 0;
    for (int64_t d = 0; d < vt.getRank(); ++d) {
      if (d >= (int64_t)pos.size())
        inner *= vt.getDimSize(d);
    }
    for (int64_t d = 0; d < (int64_t)pos.size(); ++d) {
      int64_t below = 1;
      for (int64_t e = d + 1; e < vt.getRank(); ++e)
        below *= vt.getDimSize(e);
      lin += pos[d] * below;
    }
    auto src = getVec(L, ex ? ex.getSource() : in.getDest());
    if (failed(src))
      return failure();
    if (ex) {
      if (isa<VectorType>(ex.getType()))
        L.vecs[ex] = SmallVector<RV>(ArrayRef<RV>(*src).slice(lin, inner));
      else
        L.vals[ex.getResult()] = (*src)[lin];
      return success();
    }
    SmallVector<RV> out = *src;
    if (isa<VectorType>(in.getValueToStoreType())) {
      auto v = getVec(L, in.getValueToStore());
      if (failed(v))
        return failure();
      for (int64_t i = 0; i < inner; ++i)
        out[lin + i] = (*v)[i];
    } else {
      auto v = L.get(in.getValueToStore());
      if (failed(v))
        return failure();
      out[lin] = *v;
    }
    L.vecs[in] = out;
    return success();
  }
  if (auto ss = dyn_cast<vector::ExtractStridedSliceOp>(op)) {
    auto vt = ss.getSourceVectorType();
    if (failed(only32(L, op, vt)) || vt.getRank() != 1)
      return vt.getRank() != 1 ? L.unsupported(op, "only rank-1 slices are lowered") : failure();
    auto src = getVec(L, ss.getSource());
    if (failed(src))
      return failure();
    int64_t off = cast<IntegerAttr>(ss.getOffsets()[0]).getInt();
    int64_t n = cast<IntegerAttr>(ss.getSizes()[0]).getInt();
    int64_t step = cast<IntegerAttr>(ss.getStrides()[0]).getInt();
    SmallVector<RV> out;
    for (int64_t i = 0; i < n; ++i)
      out.push_back((*src)[off + i * step]);
    L.vecs[ss] = out;
    return success();
  }
  if (isa<vector::ShapeCastOp, vector::BitCastOp>(op)) {
    auto src = getVec(L, op->getOperand(0));
    if (failed(src))
      return failure();
    auto from = cast<VectorType>(op->getOperand(0).getType());
    auto to = cast<VectorType>(op->getResult(0).getType());
    unsigned fb = elemBits(from.getElementType()), tb = elemBits(to.getElementType());
    if (fb == 1 || tb == 1 || (fb != tb && (fb * from.getNumElements()) % 32))
      return L.unsupported(op, "only casts between vectors of whole 32-bit words are lowered");
    SmallVector<RV> out = *src;
    for (RV &r : out)
      r.isFloat = isa<FloatType>(to.getElementType()) && tb == 32;
    L.vecs[op->getResult(0)] = out;
    return success();
  }
  return L.unsupported(op);
}

} // namespace

void populateVectorShapeLowering(LoweringTable &table) {
  table.addOps<vector::BroadcastOp, vector::FromElementsOp, vector::ExtractOp, vector::InsertOp,
               vector::ExtractStridedSliceOp, vector::ShapeCastOp, vector::BitCastOp>(
      lowerVectorShape);
}

} // namespace aster::lower
