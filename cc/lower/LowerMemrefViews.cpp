//===- LowerMemrefViews.cpp - memref views: subview, casts, reshapes ------===//
//
// A view is a memref over the memory of another (a kernel argument,
// workgroup attribution or scratch alloca): its MemArg copies the source's
// memory (pointer slot / LDS or scratch offset) and sets view = true with
// its offset, sizes and strides in elements as lowered values (immediates
// when static: no instruction; SALU when uniform). Accesses through it
// then go through address() like any memref (LowerMemory.cpp). The rules,
// as MLIR's memref dialect defines the ops (MemRefOps.td) and
// expand-strided-metadata computes them:
//
//   subview          offset' = offset + sum(o_i * stride_i),
//                    stride'_i = stride_i * step_i, size'_i = s_i, the
//                    dropped unit dimensions of a rank-reducing subview left out
//   reinterpret_cast offset / sizes / strides as given (relative to the
//                    source's aligned pointer; the source's offset ignored)
//   collapse_shape   per group: size = product of the sizes, stride = the
//                    stride of the group's innermost dimension
//   expand_shape     per group: sizes from output_shape; the innermost
//                    stride is the source dimension's, each outer one the
//                    next inner stride times its size
//   cast, assume_alignment,  the same view under the result type
//   memory_space_cast
//   transpose        sizes and strides permuted (size'_i = size_perm(i))
//   extract_strided_metadata  the view's offset, sizes and strides as
//                    values; the base buffer the memory at offset 0, rank 0
//   vector.type_cast the source itself (its leading dimensions index the
//                    vectors: LowerVectorTypeCast.cpp)
//
// Needs before: the source in `mems`. Guarantees after: the result in
// `mems`; a register-held alloca cannot be viewed (an error at the op).
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace aster::lower {

namespace {

/// The source's memory with its full view (offset, every size and stride)
/// as lowered values.
FailureOr<MemArg> viewOf(KernelLowering &L, Operation *op, Value src) {
  auto mo = L.memrefOf(op, src);
  if (failed(mo))
    return failure();
  if (mo->regs)
    return L.unsupported(op, "views of an alloca held in registers are not lowered");
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(mo->type.getStridesAndOffset(strides, offset)))
    return L.unsupported(op, "the memref layout is not strided");
  MemArg m = *mo;
  m.viewOffset = L.memrefOffset(*mo);
  SmallVector<RV> sizes, strideRVs;
  for (int64_t d = 0; d < mo->type.getRank(); ++d) {
    sizes.push_back(L.memrefSize(*mo, d));
    strideRVs.push_back(L.memrefStride(*mo, d));
  }
  m.viewSizes = sizes;
  m.viewStrides = strideRVs;
  m.view = true;
  return m;
}

FailureOr<RV> fold(KernelLowering &L, OpFoldResult r) {
  if (auto a = dyn_cast<Attribute>(r))
    return RV::imm((uint32_t)cast<IntegerAttr>(a).getInt());
  return L.get(cast<Value>(r));
}

LogicalResult finish(KernelLowering &L, Operation *op, MemArg m, Value result) {
  m.type = cast<MemRefType>(result.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(m.type.getStridesAndOffset(strides, offset)))
    return L.unsupported(op, "the result layout is not strided");
  if (m.viewSizes.size() != (size_t)m.type.getRank() ||
      m.viewStrides.size() != (size_t)m.type.getRank())
    return L.unsupported(op, "the view's rank does not match its type");
  L.mems[result] = m;
  return success();
}

LogicalResult lowerSubview(KernelLowering &L, Operation *op) {
  auto sv = cast<memref::SubViewOp>(op);
  auto m = viewOf(L, op, sv.getSource());
  if (failed(m))
    return failure();
  RV off = m->viewOffset;
  SmallVector<RV> sizes, strides;
  llvm::SmallBitVector dropped = sv.getDroppedDims();
  auto offs = sv.getMixedOffsets(), szs = sv.getMixedSizes(), steps = sv.getMixedStrides();
  for (unsigned d = 0; d < offs.size(); ++d) {
    auto o = fold(L, offs[d]), s = fold(L, szs[d]), st = fold(L, steps[d]);
    if (failed(o) || failed(s) || failed(st))
      return failure();
    off = L.add(off, L.mul(*o, m->viewStrides[d]));
    if (dropped.test(d))
      continue;
    sizes.push_back(*s);
    strides.push_back(L.mul(m->viewStrides[d], *st));
  }
  m->viewOffset = off;
  m->viewSizes = sizes;
  m->viewStrides = strides;
  return finish(L, op, *m, sv.getResult());
}

LogicalResult lowerReinterpretCast(KernelLowering &L, Operation *op) {
  auto rc = cast<memref::ReinterpretCastOp>(op);
  auto m = viewOf(L, op, rc.getSource());
  if (failed(m))
    return failure();
  auto o = fold(L, rc.getMixedOffsets()[0]);
  if (failed(o))
    return failure();
  // Relative to the memory's start: for an LDS or scratch memref that is
  // its byte offset there (kept in ldsOffset / privOffset), for global
  // memory the aligned pointer.
  m->viewOffset = *o;
  m->viewSizes.clear();
  m->viewStrides.clear();
  for (OpFoldResult s : rc.getMixedSizes()) {
    auto r = fold(L, s);
    if (failed(r))
      return failure();
    m->viewSizes.push_back(*r);
  }
  for (OpFoldResult s : rc.getMixedStrides()) {
    auto r = fold(L, s);
    if (failed(r))
      return failure();
    m->viewStrides.push_back(*r);
  }
  return finish(L, op, *m, rc.getResult());
}

LogicalResult lowerCollapse(KernelLowering &L, Operation *op) {
  auto cs = cast<memref::CollapseShapeOp>(op);
  auto m = viewOf(L, op, cs.getSrc());
  if (failed(m))
    return failure();
  SmallVector<RV> sizes, strides;
  for (ReassociationIndices group : cs.getReassociationIndices()) {
    RV size = RV::imm(1);
    for (int64_t d : group)
      size = L.mul(size, m->viewSizes[d]);
    sizes.push_back(size);
    strides.push_back(group.empty() ? RV::imm(1) : m->viewStrides[group.back()]);
  }
  m->viewSizes = sizes;
  m->viewStrides = strides;
  return finish(L, op, *m, cs.getResult());
}

LogicalResult lowerExpand(KernelLowering &L, Operation *op) {
  auto es = cast<memref::ExpandShapeOp>(op);
  auto m = viewOf(L, op, es.getSrc());
  if (failed(m))
    return failure();
  SmallVector<OpFoldResult> shape = es.getMixedOutputShape();
  SmallVector<RV> sizes(shape.size()), strides(shape.size());
  for (unsigned d = 0; d < shape.size(); ++d) {
    auto r = fold(L, shape[d]);
    if (failed(r))
      return failure();
    sizes[d] = *r;
  }
  for (auto [srcDim, group] : llvm::enumerate(es.getReassociationIndices())) {
    RV st = m->viewStrides[srcDim];
    for (int64_t d : llvm::reverse(group)) {
      strides[d] = st;
      st = L.mul(st, sizes[d]);
    }
  }
  m->viewSizes = sizes;
  m->viewStrides = strides;
  return finish(L, op, *m, es.getResult());
}

LogicalResult lowerAlias(KernelLowering &L, Operation *op) {
  auto m = viewOf(L, op, op->getOperand(0));
  if (failed(m))
    return failure();
  return finish(L, op, *m, op->getResult(0));
}

LogicalResult lowerTranspose(KernelLowering &L, Operation *op) {
  auto t = cast<memref::TransposeOp>(op);
  auto m = viewOf(L, op, t.getIn());
  if (failed(m))
    return failure();
  AffineMap perm = t.getPermutation();
  SmallVector<RV> sizes, strides;
  for (unsigned d = 0; d < perm.getNumResults(); ++d) {
    unsigned from = perm.getDimPosition(d);
    sizes.push_back(m->viewSizes[from]);
    strides.push_back(m->viewStrides[from]);
  }
  m->viewSizes = sizes;
  m->viewStrides = strides;
  return finish(L, op, *m, t.getResult());
}

LogicalResult lowerStridedMetadata(KernelLowering &L, Operation *op) {
  auto e = cast<memref::ExtractStridedMetadataOp>(op);
  auto m = viewOf(L, op, e.getSource());
  if (failed(m))
    return failure();
  for (auto [r, v] : llvm::zip(e.getSizes(), m->viewSizes))
    L.vals[r] = v;
  for (auto [r, v] : llvm::zip(e.getStrides(), m->viewStrides))
    L.vals[r] = v;
  L.vals[e.getOffset()] = m->viewOffset;
  // The base buffer: the memory itself, rank 0 at offset 0.
  MemArg base = *m;
  base.viewOffset = RV::imm(0);
  base.viewSizes.clear();
  base.viewStrides.clear();
  return finish(L, op, base, e.getBaseBuffer());
}

/// vector.type_cast: the source's memory under the source's MemArg (its
/// scalar type): the result's dimensions are the source's leading ones, so
/// its sizes and strides are theirs, and a memref.load / store of a vector
/// element through it (LowerVectorTypeCast.cpp) addresses the source at
/// those leading indices.
LogicalResult lowerTypeCast(KernelLowering &L, Operation *op) {
  auto m = L.memrefOf(op, op->getOperand(0));
  if (failed(m))
    return failure();
  if (m->regs)
    return L.unsupported(op, "views of an alloca held in registers are not lowered");
  L.mems[op->getResult(0)] = *m;
  return success();
}

} // namespace

// LowerMemrefGlobal.cpp: memref.get_global of a global in global memory.
LogicalResult lowerGetGlobal(KernelLowering &L, Operation *op);
// LowerMemrefFlat.cpp: arith.select of memrefs (flat pointers).
void populateMemrefFlatLowering(LoweringTable &table);

void populateMemrefViewsLowering(LoweringTable &table) {
  table.add(memref::SubViewOp::getOperationName(), lowerSubview);
  table.add(memref::ReinterpretCastOp::getOperationName(), lowerReinterpretCast);
  table.add(memref::CollapseShapeOp::getOperationName(), lowerCollapse);
  table.add(memref::ExpandShapeOp::getOperationName(), lowerExpand);
  table.add(memref::CastOp::getOperationName(), lowerAlias);
  table.add(memref::AssumeAlignmentOp::getOperationName(), lowerAlias);
  // A workgroup / global memref cast to generic and back stays the memory it
  // is (ds_* / global_* accesses): LLVM's InferAddressSpaces does the same
  // for a flat pointer whose space is known.
  table.add(memref::MemorySpaceCastOp::getOperationName(), lowerAlias);
  table.add(memref::TransposeOp::getOperationName(), lowerTranspose);
  table.add(memref::ExtractStridedMetadataOp::getOperationName(), lowerStridedMetadata);
  table.add("vector.type_cast", lowerTypeCast);
  table.add(memref::GetGlobalOp::getOperationName(), lowerGetGlobal);
  populateMemrefFlatLowering(table);
}

} // namespace aster::lower
