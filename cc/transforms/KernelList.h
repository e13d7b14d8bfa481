//===- KernelList.h - the kernels a pass runs on --------------------------===//
//
// The kernels (and device functions) under a pass's root, in order. Kernels hold no kernels, so
// their bodies (most of the IR) are not walked: a walk of every op costs a
// cache miss per op on large kernels.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TRANSFORMS_KERNELLIST_H
#define ASTER_TRANSFORMS_KERNELLIST_H

#include "dialect/Dialect.h"

#include "llvm/ADT/SmallVector.h"

namespace aster {
inline llvm::SmallVector<amdgcn::KernelOp> kernelsUnder(mlir::Operation *root) {
  llvm::SmallVector<amdgcn::KernelOp> kernels;
  root->walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *op) {
    if (auto k = llvm::dyn_cast<amdgcn::KernelOp>(op)) {
      kernels.push_back(k);
      return mlir::WalkResult::skip();
    }
    return mlir::WalkResult::advance();
  });
  return kernels;
}
/// The kernels and device functions under `root`, in order (the code a
/// pass that looks at every instruction runs on).
inline llvm::SmallVector<mlir::Operation *> codeUnder(mlir::Operation *root) {
  llvm::SmallVector<mlir::Operation *> code;
  root->walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *op) {
    if (llvm::isa<amdgcn::KernelOp, amdgcn::DeviceFunctionOp>(op)) {
      code.push_back(op);
      return mlir::WalkResult::skip();
    }
    return mlir::WalkResult::advance();
  });
  return code;
}
/// The first op under `code` that names a virtual register (in a result,
/// an operand or a block argument), or nullptr.
inline mlir::Operation *firstVirtualOp(mlir::Operation *code) {
  auto isVirtual = [](mlir::Type t) {
    auto r = llvm::dyn_cast<amdgcn::RegType>(t);
    return r && r.isVirtual();
  };
  mlir::Operation *found = nullptr;
  code->walk([&](mlir::Operation *op) {
    bool hit = llvm::any_of(op->getResultTypes(), isVirtual) ||
               llvm::any_of(op->getOperandTypes(), isVirtual);
    for (mlir::Region &r : op->getRegions())
      for (mlir::Block &b : r)
        hit |= llvm::any_of(b.getArgumentTypes(), isVirtual);
    if (!hit)
      return mlir::WalkResult::advance();
    found = op;
    return mlir::WalkResult::interrupt();
  });
  return found;
}
} // namespace aster

#endif
