//===- LowerVectorTypeCast.cpp - memref.load / store of vector elements ---===//
//
// A memref whose elements are vectors comes from vector.type_cast of a
// memref of scalars (memref<256x4xf32> to memref<256xvector<4xf32>>, or to
// memref<vector<256x4xf32>>: the vector takes the source's trailing
// dimensions, VectorOps.td). LowerMemrefViews.cpp keeps the source's MemArg
// for the result, so the result's indices are the source's leading ones: a
// memref.load of one vector element is the vector at source[i0, ..., ik,
// 0, ..., 0] — the bytes of the trailing dimensions, contiguous (type_cast
// needs a static identity-strided source) — loaded as vector.load loads it
// (LowerVectorUtil's loadBytes: global_load_dwordx4 chunks, LDS
// ds_read_b128 where aligned); a store alike. LLVM's build (the memref of
// vectors as a pointer to <N x T>, convert-vector-to-llvm) loads the same
// bytes.
// Needs before: the memref in mems (a type_cast result), its indices
// lowered; the vector to store in vecs. Guarantees after: the loaded vector
// in vecs in the held form (LowerVectorUtil.h); other memrefs of vectors
// (an alloca, a kernel argument) an error at the op.
//===----------------------------------------------------------------------===//
#include "lower/LowerVectorUtil.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace aster::lower {

using namespace vec;

bool isFlat(KernelLowering &L, const MemArg &m); // LowerMemrefFlat.cpp

LogicalResult lowerVectorElementAccess(KernelLowering &L, Operation *op) {
  auto ld = dyn_cast<memref::LoadOp>(op);
  auto st = dyn_cast<memref::StoreOp>(op);
  Value memref = ld ? ld.getMemRef() : st.getMemRef();
  ValueRange indices = ld ? ld.getIndices() : st.getIndices();
  auto vt = cast<VectorType>(cast<MemRefType>(memref.getType()).getElementType());
  auto m = L.memrefOf(op, memref);
  if (failed(m))
    return failure();
  if (isa<VectorType>(m->type.getElementType()) || m->regs || m->priv)
    return L.unsupported(op, "memrefs of vectors are lowered as vector.type_cast views of a "
                             "memref of scalars in global or workgroup memory");
  auto a = L.address(op, memref, indices, false, isFlat(L, *m));
  if (failed(a))
    return failure();
  unsigned bytes = (unsigned)vt.getNumElements() * elemBits(vt.getElementType()) / 8;
  // Alignment: the leading indices' (the trailing dimensions start at 0).
  uint64_t align = knownByteAlign(m->type, indices) / 4 * memElementBytes(m->type.getElementType());
  if (ld) {
    bool fl = elemBits(vt.getElementType()) == 32 && isa<FloatType>(vt.getElementType());
    L.vecs[ld] = loadBytes(L, a->first, a->second, bytes, align, fl);
    return success();
  }
  auto v = getVec(L, st.getValueToStore());
  if (failed(v))
    return failure();
  storeBytes(L, a->first, a->second, *v, bytes, align);
  return success();
}

} // namespace aster::lower
