//===- LowerLinalg.cpp - linalg ops in kernels to loops -------------------===//
//
// A linalg op on memrefs inside a gpu.func (linalg.generic, matmul,
// batch_matmul, fill, copy, ...) is, as upstream defines it, executed by
// every work-item that reaches it. It becomes that work-item's loop nest with
// upstream's own rewrite (linalg::linalgOpToLoops, what mlir-opt
// --convert-linalg-to-loops runs: scf.for over the iteration domain,
// memref.load / store of the operands, the payload region inlined, its
// linalg.index the loop variables), and the affine.apply of the indexing
// maps become arith ops (affine::expandAffineMap, as --lower-affine does).
// A kernel splits the work among its threads the usual way: each work-item
// runs the op on its own subview (tests/py/lower_suite_linalg.py).
//
// Needs before: linalg ops with buffer semantics (memref operands): ops on
// tensors are bufferized first by upstream's passes (LowerTensors.cpp). Guarantees after: no linalg or
// affine.apply op in the gpu.module; the rest lowers as scf / memref / arith.
// It works on a clone of the gpu.module (lowerGpuModules lowers the clone),
// so on any error the input is left as it was.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace aster::lower {

// LowerTensors.cpp: whether `gm` holds tensors; bufferizes them.
bool hasTensors(gpu::GPUModuleOp gm);
LogicalResult bufferizeTensors(gpu::GPUModuleOp gm);

bool hasLinalg(gpu::GPUModuleOp gm) {
  if (hasTensors(gm)) // bufferized first (linalgToLoops)
    return true;
  bool found = false;
  gm.walk([&](Operation *op) {
    if (isa<linalg::LinalgDialect>(op->getDialect()))
      found = true;
  });
  return found;
}

LogicalResult linalgToLoops(gpu::GPUModuleOp gm) {
  if (hasTensors(gm) && failed(bufferizeTensors(gm)))
    return failure();
  SmallVector<linalg::LinalgOp> ops;
  gm.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
  IRRewriter rewriter(gm.getContext());
  for (linalg::LinalgOp op : ops) {
    if (!op.hasPureBufferSemantics())
      return op->emitOpError("cannot be lowered to amdgcn: linalg ops on tensors are not "
                             "lowered (bufferize first)");
    rewriter.setInsertionPoint(op);
    if (failed(linalg::linalgOpToLoops(rewriter, op)))
      return op->emitOpError("cannot be lowered to amdgcn: upstream's linalg-to-loops "
                             "rewrite failed on it");
    rewriter.eraseOp(op);
  }
  SmallVector<affine::AffineApplyOp> applies;
  gm.walk([&](affine::AffineApplyOp op) { applies.push_back(op); });
  for (affine::AffineApplyOp op : applies) {
    OpBuilder b(op);
    auto v = affine::expandAffineMap(b, op.getLoc(), op.getAffineMap(), op.getOperands());
    if (!v)
      return op->emitOpError("cannot be lowered to amdgcn: not expandable to arith");
    op.getResult().replaceAllUsesWith((*v)[0]);
    op.erase();
  }
  // The loops load every operand, outs too, also where the payload never
  // reads its block argument (an elementwise op's outs, a copy's target):
  // such a load is dead (only a read: MLIR's isOpTriviallyDead), erased as
  // LLVM's -O3 erases it in its build.
  SmallVector<Operation *> dead;
  gm.walk([&](memref::LoadOp l) {
    if (isOpTriviallyDead(l))
      dead.push_back(l);
  });
  for (Operation *op : dead)
    op->erase();
  // Whatever linalg op is left (not a LinalgOp: e.g. linalg.index outside a
  // payload) is an error at it.
  LogicalResult ok = success();
  gm.walk([&](Operation *op) {
    if (succeeded(ok) && isa<linalg::LinalgDialect>(op->getDialect()))
      ok = op->emitOpError("cannot be lowered to amdgcn");
  });
  return ok;
}

} // namespace aster::lower
