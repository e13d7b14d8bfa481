//===- LowerVectorShape.cpp - vector ops that move elements ---------------===//
//
// broadcast (adding leading dimensions), from_elements, to_elements,
// shuffle, deinterleave (rank 1), extract / insert (static positions), extract_strided_slice (rank
// 1), shape_cast, bitcast: the result's elements are the source's RVs
// rearranged; no instruction. extract / insert at a dynamic position (rank
// 1): a compare and a select per element (lowerDynamicPosition).
// Needs before: 1-, 16-, 32- or 64-bit elements (unpacked to one RV each by
// elementsOf, packed back by packElements), except casts between whole words.
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

/// Element widths the moves below take: those elementsOf unpacks (1, 16,
/// 32, 64 bits), else only32's error.
LogicalResult elemsOK(KernelLowering &L, Operation *op, VectorType vt) {
  return perElement(vt) ? success() : only32(L, op, vt);
}

/// extract / insert of one element at a dynamic position of a rank-1
/// vector: a compare-and-select per element (as LLVM selects
/// extractelement / insertelement with a variable index on AMDGPU for short
/// vectors: v_cmp + v_cndmask per element), through the scalar lowering of
/// arith.cmpi / arith.select (scalarOp).
LogicalResult lowerDynamicPosition(KernelLowering &L, Operation *op, VectorType vt) {
  auto ex = dyn_cast<vector::ExtractOp>(op);
  auto in = dyn_cast<vector::InsertOp>(op);
  if (vt.getRank() != 1)
    return L.unsupported(op, "dynamic positions are lowered in rank-1 vectors");
  Value posV = ex ? ex.getDynamicPosition()[0] : in.getDynamicPosition()[0];
  auto pos = L.get(posV);
  auto src = elementsOf(L, op, ex ? ex.getSource() : in.getDest());
  if (failed(pos) || failed(src))
    return failure();
  Type et = vt.getElementType(), idx = posV.getType(), i1 = IntegerType::get(L.ctx, 1);
  auto eq = L.b.getNamedAttr("predicate",
                             arith::CmpIPredicateAttr::get(L.ctx, arith::CmpIPredicate::eq));
  auto isAt = [&](int64_t k) -> FailureOr<RV> {
    RV kv = RV::imm((uint32_t)k);
    if (idx.isInteger(64))
      kv = KernelLowering::imm64((uint64_t)k);
    return scalarOp(L, op->getLoc(), "arith.cmpi", {*pos, kv}, {idx, idx}, i1, {eq});
  };
  auto select = [&](RV c, RV t, RV f) {
    return scalarOp(L, op->getLoc(), "arith.select", {c, t, f}, {i1, et, et}, et, {});
  };
  if (ex) {
    RV r = (*src)[0];
    for (int64_t k = 1; k < vt.getNumElements(); ++k) {
      auto c = isAt(k);
      if (failed(c))
        return failure();
      auto s = select(*c, (*src)[k], r);
      if (failed(s))
        return failure();
      r = *s;
    }
    L.vals[ex.getResult()] = r;
    return success();
  }
  auto v = L.get(in.getValueToStore());
  if (failed(v))
    return failure();
  SmallVector<RV> out;
  for (int64_t k = 0; k < vt.getNumElements(); ++k) {
    auto c = isAt(k);
    if (failed(c))
      return failure();
    auto s = select(*c, *v, (*src)[k]);
    if (failed(s))
      return failure();
    out.push_back(*s);
  }
  L.vecs[in] = packElements(L, vt, out);
  return success();
}

LogicalResult lowerVectorShape(KernelLowering &L, Operation *op) {
  if (auto sh = dyn_cast<vector::ShuffleOp>(op)) {
    // Elements of the two (rank-1) operands picked by the mask; -1 (poison)
    // takes element 0.
    if (failed(elemsOK(L, op, sh.getResultVectorType())))
      return failure();
    auto a = elementsOf(L, op, sh.getV1()), c = elementsOf(L, op, sh.getV2());
    if (failed(a) || failed(c))
      return failure();
    SmallVector<RV> both = *a;
    both.append(c->begin(), c->end());
    SmallVector<RV> out;
    for (int64_t m : sh.getMask())
      out.push_back(both[m < 0 ? 0 : m]);
    L.vecs[sh] = packElements(L, sh.getResultVectorType(), out);
    return success();
  }
  if (auto di = dyn_cast<vector::DeinterleaveOp>(op)) {
    // rank 1: the even elements, then the odd ones.
    if (failed(elemsOK(L, op, di.getSourceVectorType())) || di.getSourceVectorType().getRank() != 1)
      return di.getSourceVectorType().getRank() != 1
                 ? L.unsupported(op, "only rank-1 vectors are deinterleaved")
                 : failure();
    auto src = elementsOf(L, op, di.getSource());
    if (failed(src))
      return failure();
    SmallVector<RV> even, odd;
    for (size_t k = 0; k < src->size(); ++k)
      (k % 2 ? odd : even).push_back((*src)[k]);
    L.vecs[di.getRes1()] = packElements(L, cast<VectorType>(di.getRes1().getType()), even);
    L.vecs[di.getRes2()] = packElements(L, cast<VectorType>(di.getRes2().getType()), odd);
    return success();
  }
  if (auto te = dyn_cast<vector::ToElementsOp>(op)) {
    if (failed(elemsOK(L, op, te.getSource().getType())))
      return failure();
    auto src = elementsOf(L, op, te.getSource());
    if (failed(src))
      return failure();
    for (auto [r, v] : llvm::zip(te.getResults(), *src))
      L.vals[r] = v;
    return success();
  }
  if (auto bc = dyn_cast<vector::BroadcastOp>(op)) {
    auto vt = bc.getResultVectorType();
    if (failed(elemsOK(L, op, vt)))
      return failure();
    SmallVector<RV> src;
    if (auto svt = dyn_cast<VectorType>(bc.getSourceType())) {
      if (svt.getShape() != vt.getShape().take_back(svt.getRank()))
        return L.unsupported(op, "only broadcasts that add leading dimensions are lowered");
      auto e = elementsOf(L, op, bc.getSource());
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
    L.vecs[bc] = packElements(L, vt, out);
    return success();
  }
  if (auto fe = dyn_cast<vector::FromElementsOp>(op)) {
    if (failed(elemsOK(L, op, fe.getType())))
      return failure();
    SmallVector<RV> out;
    for (Value v : fe.getElements()) {
      auto r = L.get(v);
      if (failed(r))
        return failure();
      out.push_back(*r);
    }
    L.vecs[fe] = packElements(L, fe.getType(), out);
    return success();
  }
  if (isa<vector::ExtractOp, vector::InsertOp>(op)) {
    auto ex = dyn_cast<vector::ExtractOp>(op);
    auto in = dyn_cast<vector::InsertOp>(op);
    VectorType vt = ex ? ex.getSourceVectorType() : in.getDestVectorType();
    if (failed(elemsOK(L, op, vt)))
      return failure();
    bool dynamic = ex ? !ex.getDynamicPosition().empty() : !in.getDynamicPosition().empty();
    if (dynamic)
      return lowerDynamicPosition(L, op, vt);
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
    auto src = elementsOf(L, op, ex ? ex.getSource() : in.getDest());
    if (failed(src))
      return failure();
    if (ex) {
      if (isa<VectorType>(ex.getType()))
        L.vecs[ex] = packElements(L, cast<VectorType>(ex.getType()),
                                 ArrayRef<RV>(*src).slice(lin, inner));
      else
        L.vals[ex.getResult()] = (*src)[lin];
      return success();
    }
    SmallVector<RV> out = *src;
    if (isa<VectorType>(in.getValueToStoreType())) {
      auto v = elementsOf(L, op, in.getValueToStore());
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
    L.vecs[in] = packElements(L, vt, out);
    return success();
  }
  if (auto ss = dyn_cast<vector::ExtractStridedSliceOp>(op)) {
    auto vt = ss.getSourceVectorType();
    if (failed(elemsOK(L, op, vt)) || vt.getRank() != 1)
      return vt.getRank() != 1 ? L.unsupported(op, "only rank-1 slices are lowered") : failure();
    auto src = elementsOf(L, op, ss.getSource());
    if (failed(src))
      return failure();
    int64_t off = cast<IntegerAttr>(ss.getOffsets()[0]).getInt();
    int64_t n = cast<IntegerAttr>(ss.getSizes()[0]).getInt();
    int64_t step = cast<IntegerAttr>(ss.getStrides()[0]).getInt();
    SmallVector<RV> out;
    for (int64_t i = 0; i < n; ++i)
      out.push_back((*src)[off + i * step]);
    L.vecs[ss] = packElements(L, cast<VectorType>(ss.getType()), out);
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
               vector::ExtractStridedSliceOp, vector::ShapeCastOp, vector::BitCastOp,
               vector::ShuffleOp, vector::ToElementsOp, vector::DeinterleaveOp>(
      lowerVectorShape);
}

} // namespace aster::lower
