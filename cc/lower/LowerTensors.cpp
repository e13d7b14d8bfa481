//===- LowerTensors.cpp - tensors in kernels through upstream bufferization -===//
//
// linalg (and tensor / arith / scf / vector) ops on tensors inside a gpu.func, the
// tensors made from memref arguments (bufferization.to_tensor ... restrict)
// and written back to them (bufferization.materialize_in_destination), are
// turned into ops on memrefs by upstream MLIR's own passes, loaded from the
// system MLIR 22 libraries (no copy of upstream code), in the order
// aster.lowering.llvm gives LLVM's oracle the same passes:
//   One-Shot Bufferize (runOneShotBufferize: what mlir-opt
//   --one-shot-bufferize runs, with function boundaries left alone: a
//   kernel's arguments are memrefs already): in place where the analysis
//   allows, a new buffer and a copy where it does not (e.g. a tensor.empty,
//   or a to_tensor written to while still read).
//   - A new buffer is a memref.alloca (the options' allocationFn): the
//     work-item's private memory (LowerMemory.cpp; a dynamic size in a loop
//     too), which is what a tensor value of one work-item is. (Upstream's
//     promote-buffers-to-stack does the same for small buffers but runs on
//     func.func only.)
//   - A copy is a linalg.copy (the options' memCpyFn; loops by
//     LowerLinalg.cpp) rather than a memref.copy (upstream's LLVM lowering
//     calls a runtime memrefCopy for strided ones).
//   mlir-opt-22's pass has options for neither: aster.lowering.llvm rewrites
//   its output's memref.alloc / memref.copy to the same ops.
//   Then upstream's scf canonicalizations, so that a loop that carried a
//   tensor updated in place does not carry its buffer (yielded unchanged),
//   and a linalg.copy of a buffer onto itself (what materializing such a
//   loop's result in its own buffer leaves) is erased.
// A constant tensor becomes a memref.global of the top-level module, moved
// into the gpu.module (LowerConstantTensor.cpp).
// What is left is linalg on memrefs (LowerLinalg.cpp makes loops of it).
// Needs before: the gpu.module clone lowerGpuModules lowers (LowerLinalg.cpp
// calls it). Guarantees after: no value of tensor type in the gpu.module;
// a kernel argument of tensor type, or a tensor upstream did not bufferize,
// is an error naming its op and location.
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aster::lower {

void registerTensorBufferization(DialectRegistry &registry) {
  registry.insert<bufferization::BufferizationDialect, tensor::TensorDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  vector::registerBufferizableOpInterfaceExternalModels(registry);
}

// LowerConstantTensor.cpp: the globals of constant tensors into `gm`.
void moveReferencedGlobals(gpu::GPUModuleOp gm);

namespace {
bool isTensor(Type t) { return isa<TensorType>(t); }
bool touchesTensors(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}
} // namespace

bool hasTensors(gpu::GPUModuleOp gm) {
  bool found = false;
  gm.walk([&](Operation *op) {
    if (touchesTensors(op))
      found = true;
  });
  return found;
}

LogicalResult bufferizeTensors(gpu::GPUModuleOp gm) {
  for (auto fn : gm.getOps<gpu::GPUFuncOp>())
    for (Type t : fn.getArgumentTypes())
      if (isTensor(t))
        return fn.emitOpError("cannot be lowered to amdgcn: a tensor argument (a kernel "
                              "takes memrefs; make tensors of them inside with "
                              "bufferization.to_tensor)");
  bufferization::OneShotBufferizationOptions opts;
  opts.bufferizeFunctionBoundaries = false;
  // A copy the analysis needs is a linalg.copy (then loops, LowerLinalg.cpp)
  // rather than a memref.copy (a runtime call in upstream's LLVM lowering).
  opts.memCpyFn = [](OpBuilder &b, Location loc, Value from, Value to) -> LogicalResult {
    if (from == to) // materialized where it already is (LLVM's -O3 drops the copy too)
      return success();
    linalg::CopyOp::create(b, loc, from, to);
    return success();
  };
  opts.allocationFn = [](OpBuilder &b, Location loc, MemRefType type, ValueRange dynShape,
                         unsigned alignment) -> FailureOr<Value> {
    auto a = memref::AllocaOp::create(b, loc, type, dynShape);
    if (alignment)
      a.setAlignment(alignment);
    return a.getResult();
  };
  bufferization::BufferizationState state;
  if (failed(bufferization::runOneShotBufferize(gm, opts, state)))
    return gm.emitOpError("cannot be lowered to amdgcn: upstream's one-shot bufferization "
                          "failed on its tensors");
  // Constant tensors became globals of the top-level module: into `gm`.
  moveReferencedGlobals(gm);
  // A loop that carried a tensor updated in place now carries its buffer,
  // yielded unchanged: upstream's scf canonicalizations drop such an
  // iteration argument (amdgcn-lower's loops carry registers, not memrefs).
  RewritePatternSet patterns(gm.getContext());
  scf::ForOp::getCanonicalizationPatterns(patterns, gm.getContext());
  scf::WhileOp::getCanonicalizationPatterns(patterns, gm.getContext());
  scf::IfOp::getCanonicalizationPatterns(patterns, gm.getContext());
  (void)applyPatternsGreedily(gm, std::move(patterns));
  // A copy whose source is now its own target (a loop's buffer materialized
  // where it already is, seen once the carry above is dropped) stores each
  // element's own value: erased (LLVM's -O3 drops the load / store pair of
  // the same address too; bench_lower's tensor_loop_recurrence).
  SmallVector<linalg::CopyOp> selfCopies;
  gm.walk([&](linalg::CopyOp c) {
    if (c.hasPureBufferSemantics() && c.getDpsInputs()[0] == c.getDpsInits()[0])
      selfCopies.push_back(c);
  });
  for (auto c : selfCopies)
    c.erase();
  LogicalResult ok = success();
  gm.walk([&](Operation *op) {
    if (succeeded(ok) && touchesTensors(op))
      ok = op->emitOpError("cannot be lowered to amdgcn: a tensor upstream's bufferization "
                           "left (it must become a memref inside the kernel)");
  });
  return ok;
}

} // namespace aster::lower
