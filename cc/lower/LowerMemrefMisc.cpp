//===- LowerMemrefMisc.cpp - memref ops that need no memory access --------===//
//
//   memref.rank                a constant (the rank of the ranked memref type)
//   memref.prefetch            no instruction (gfx9 has no prefetch; LLVM's
//                              AMDGPU backend drops llvm.prefetch before gfx12)
//   memref.distinct_objects    its operands (an aliasing fact only)
//   memref.extract_aligned_pointer_as_index
//                              the low dword of the aligned pointer (index is
//                              lowered as 32 bits; docs/lowering.md)
// Needs before: the memref operands lowered (KernelLowering::mems).
// Guarantees after: results in vals / mems; anything else an error naming
// the op.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace aster::lower {

namespace {

LogicalResult lowerRank(KernelLowering &L, Operation *op) {
  auto r = cast<memref::RankOp>(op);
  auto mt = dyn_cast<MemRefType>(r.getMemref().getType());
  if (!mt)
    return L.unsupported(op, "unranked memrefs are not lowered");
  L.vals[r.getResult()] = RV::imm((uint32_t)mt.getRank());
  return success();
}

LogicalResult lowerDistinct(KernelLowering &L, Operation *op) {
  for (auto [in, out] : llvm::zip(op->getOperands(), op->getResults())) {
    auto m = L.memrefOf(op, in);
    if (failed(m))
      return failure();
    L.mems[out] = *m;
  }
  return success();
}

LogicalResult lowerAlignedPointer(KernelLowering &L, Operation *op) {
  auto e = cast<memref::ExtractAlignedPointerAsIndexOp>(op);
  auto m = L.memrefOf(op, e.getSource());
  if (failed(m))
    return failure();
  if (m->lds || m->priv || m->regs || m->ptrReg)
    return L.unsupported(op, "only kernel-argument memrefs in global memory have a pointer here");
  Value p = L.loadPtr(m->ptr);
  L.vals[e.getResult()] =
      RV::of(RV::S, PartOp::create(L.b, L.loc, L.sT, p, L.b.getI32IntegerAttr(0)));
  return success();
}

} // namespace

void populateMemrefMiscLowering(LoweringTable &table) {
  table.add(memref::RankOp::getOperationName(), lowerRank);
  table.add(memref::PrefetchOp::getOperationName(),
            [](KernelLowering &, Operation *) { return success(); });
  table.add(memref::DistinctObjectsOp::getOperationName(), lowerDistinct);
  table.add(memref::ExtractAlignedPointerAsIndexOp::getOperationName(), lowerAlignedPointer);
}

} // namespace aster::lower
