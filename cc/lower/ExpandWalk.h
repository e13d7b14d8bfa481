//===- ExpandWalk.h - finding the ops an expansion step rewrites ----------===//
//
// The steps that rewrite upstream ops into simpler upstream ops before the
// lowering walk (LowerVectorExpand.cpp, LowerSubgroupExpand.cpp,
// LowerMemExpand.cpp) each ask "is there anything to expand?" and then
// collect those ops as the roots of their rewrite. Included only by them.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_LOWER_EXPANDWALK_H
#define ASTER_LOWER_EXPANDWALK_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aster::lower {

/// Whether some op of `gm` satisfies `pick` (stops at the first).
template <typename Pick> bool anyOpWhere(mlir::gpu::GPUModuleOp gm, Pick pick) {
  return gm.walk([&](mlir::Operation *op) {
             return pick(op) ? mlir::WalkResult::interrupt() : mlir::WalkResult::advance();
           })
      .wasInterrupted();
}

/// The ops of `gm` that satisfy `pick`, in walk order.
template <typename Pick>
llvm::SmallVector<mlir::Operation *> opsWhere(mlir::gpu::GPUModuleOp gm, Pick pick) {
  llvm::SmallVector<mlir::Operation *> ops;
  gm.walk([&](mlir::Operation *op) {
    if (pick(op))
      ops.push_back(op);
  });
  return ops;
}

/// Applies `patterns` greedily to `roots` and to the ops the patterns create.
inline void rewriteRoots(llvm::ArrayRef<mlir::Operation *> roots,
                         mlir::RewritePatternSet &&patterns) {
  mlir::GreedyRewriteConfig cfg;
  cfg.setStrictness(mlir::GreedyRewriteStrictness::ExistingAndNewOps);
  (void)mlir::applyOpPatternsGreedily(roots, std::move(patterns), cfg);
}

} // namespace aster::lower

#endif
