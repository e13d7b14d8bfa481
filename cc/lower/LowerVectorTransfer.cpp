//===- LowerVectorTransfer.cpp - vector loads, stores and transfers -------===//
//
// vector.load / store and in-bounds transfer_read / transfer_write: 32-bit
// words in chunks (LowerVectorUtil's loadWords / storeWords; LLVM selects
// the same dword loads at any alignment on gfx942: unaligned access mode),
// a vector that is not whole words with its last 1-3 bytes as a 16-bit
// piece and / or a byte (loadBytes / storeBytes, LowerVectorMasked.cpp);
// out-of-bounds or masked transfers per element (transferPerElement,
// LowerVectorMasked.cpp). Needs before: rank-0/1 vectors (n-D transfers are
// unrolled by LowerVectorExpand.cpp), minor-identity maps, elements memory
// ops lower (1, 2, 4, 8 bytes). Guarantees after: the loaded vector in
// vecs; anything else an error naming what is missing.
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

/// An error at `op` unless `vt` (rank 0 / 1) is moved to / from memref `mt`
/// of an element type memory ops lower.
LogicalResult checkMem(KernelLowering &L, Operation *op, MemRefType mt, VectorType vt) {
  if (!memElementBytes(mt.getElementType()))
    return L.unsupported(op, "vector memory accesses are lowered on memrefs of f16, "
                             "bf16, f32, f64, i8, i16, i32, i64 elements");
  if (vt.getRank() > 1)
    return L.unsupported(op, "only vectors of rank 0 and 1 are loaded and stored");
  return success();
}

/// Known byte alignment of memref[idx] relative to its base (any element
/// size: knownByteAlign counts 4-byte elements).
uint64_t byteAlign(MemRefType mt, ValueRange idx) {
  return knownByteAlign(mt, idx) / 4 * memElementBytes(mt.getElementType());
}

/// Bytes of a value of `vt`.
unsigned bytesOf(VectorType vt) {
  return (unsigned)vt.getNumElements() * elemBits(vt.getElementType()) / 8;
}

bool isF32Vector(VectorType vt) {
  return elemBits(vt.getElementType()) == 32 && isa<FloatType>(vt.getElementType());
}

LogicalResult lowerVectorTransfer(KernelLowering &L, Operation *op) {
  if (auto ld = dyn_cast<vector::LoadOp>(op)) {
    auto vt = ld.getVectorType();
    if (failed(checkMem(L, op, ld.getMemRefType(), vt)))
      return failure();
    auto a = L.address(op, ld.getBase(), ld.getIndices(), false, /*allowFlat=*/true);
    if (failed(a))
      return failure();
    L.vecs[ld] = loadBytes(L, a->first, a->second, bytesOf(vt),
                           byteAlign(ld.getMemRefType(), ld.getIndices()), isF32Vector(vt));
    return success();
  }
  if (auto st = dyn_cast<vector::StoreOp>(op)) {
    auto vt = st.getVectorType();
    if (failed(checkMem(L, op, st.getMemRefType(), vt)))
      return failure();
    auto a = L.address(op, st.getBase(), st.getIndices(), false, /*allowFlat=*/true);
    auto v = getVec(L, st.getValueToStore());
    if (failed(a) || failed(v))
      return failure();
    storeBytes(L, a->first, a->second, *v, bytesOf(vt),
               byteAlign(st.getMemRefType(), st.getIndices()));
    return success();
  }
  auto tr = dyn_cast<vector::TransferReadOp>(op);
  auto tw = dyn_cast<vector::TransferWriteOp>(op);
  if (!tr && !tw)
    return L.unsupported(op);
  Value memref = tr ? tr.getBase() : tw.getBase();
  VectorType vt = tr ? tr.getVectorType() : tw.getVectorType();
  auto mt = dyn_cast<MemRefType>(memref.getType());
  if (!mt)
    return L.unsupported(op, "transfers of tensors are not lowered (bufferize first)");
  if (!(tr ? tr.getPermutationMap() : tw.getPermutationMap()).isMinorIdentity())
    return L.unsupported(op, "only minor-identity permutation maps are lowered");
  auto inb = tr ? tr.getInBoundsValues() : tw.getInBoundsValues();
  bool inBounds = inb.empty() || inb[0];
  if (!inBounds || (tr ? tr.getMask() : tw.getMask()))
    return transferPerElement(L, op);
  if (failed(checkMem(L, op, mt, vt)))
    return failure();
  ValueRange indices = tr ? tr.getIndices() : tw.getIndices();
  auto a = L.address(op, memref, indices, false, /*allowFlat=*/true);
  if (failed(a))
    return failure();
  if (tr) {
    L.vecs[tr] = loadBytes(L, a->first, a->second, bytesOf(vt), byteAlign(mt, indices),
                           isF32Vector(vt));
    return success();
  }
  auto v = getVec(L, tw.getVector());
  if (failed(v))
    return failure();
  storeBytes(L, a->first, a->second, *v, bytesOf(vt), byteAlign(mt, indices));
  return success();
}

} // namespace

void populateVectorTransferLowering(LoweringTable &table) {
  table.addOps<vector::LoadOp, vector::StoreOp, vector::TransferReadOp,
               vector::TransferWriteOp>(lowerVectorTransfer);
}

} // namespace aster::lower
