//===- LowerVectorExpand.cpp - vector ops through upstream's own lowerings ==//
//
// The vector ops the walk does not lower element by element (contractions,
// transposes, n-D and permuted transfers, gathers, masked loads / stores,
// ...) are first rewritten by upstream MLIR's own vector lowering patterns,
// loaded from the system MLIR 22 libraries (no copy of upstream code), into
// the 1-D ops the vector files lower (LowerVectorUtil.h): the patterns
// convert-vector-to-llvm applies before its conversion, with its default
// options (contract: Dot, i.e. an elementwise product and an ordered
// vector.reduction per result element; transpose: EltWise), so LLVM's
// oracle computes the same function, plus the ones it leaves to other
// passes:
//   vector.contract / outerproduct  populateVectorContractLoweringPatterns(Dot),
//                                   populateVectorOuterProductLoweringPatterns
//   vector.multi_reduction          ...MultiReductionLoweringPatterns(InnerReduction)
//   vector.transpose                ...TransposeLoweringPatterns(EltWise)
//   vector.broadcast (stretching)   ...BroadcastLoweringPatterns
//   vector.step                     ...StepLoweringPatterns (a constant)
//   vector.gather                   ...GatherLoweringPatterns + GatherToConditionalLoad
//                                   (scf.if + memref.load per element)
//   vector.maskedload / maskedstore ...MaskedLoadStoreEmulationPatterns (scf.if per element)
//   vector.mask                     ...MaskLoweringPatternsForSideEffectingOps
//   vector.interleave                ...InterleaveLowering + InterleaveToShuffle
//   vector.scan                     ...ScanLoweringPatterns
//   vector.insert/extract_strided_slice (n-D) ...InsertExtractStridedSliceTransforms
//   vector.transfer_read / write with a permutation map or rank > 1:
//                                   ...TransferPermutationMapLoweringPatterns and
//                                   VectorToSCF (target rank 1, fully unrolled;
//                                   its affine.apply by upstream's lower-affine)
// The patterns run on the listed ops and the ops their rewrites create only
// (GreedyRewriteStrictness::ExistingAndNewOps), so a kernel's own 1-D
// vector ops keep their direct lowering.
// Needs before: a gpu.module (the clone lowerGpuModules lowers). Guarantees
// after: upstream IR (gpu / scf / memref / vector / arith); a listed op that
// no pattern rewrote is left for the walk, which names it in its error.
//===----------------------------------------------------------------------===//
#include "lower/ExpandWalk.h"
#include "lower/KernelLowering.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aster::lower {

namespace {

bool minorIdentity1D(VectorTransferOpInterface t) {
  return t.getVectorType().getRank() <= 1 && t.getPermutationMap().isMinorIdentity();
}

/// Whether the walk lowers `op` as it is (false: upstream's patterns first).
bool needsExpansion(Operation *op) {
  if (isa<vector::ContractionOp, vector::OuterProductOp, vector::MultiDimReductionOp,
          vector::TransposeOp, vector::StepOp, vector::GatherOp, vector::MaskedLoadOp,
          vector::MaskedStoreOp, vector::MaskOp, vector::InterleaveOp, vector::ScanOp>(op))
    return true;
  if (auto s = dyn_cast<vector::InsertStridedSliceOp>(op))
    return true;
  if (auto s = dyn_cast<vector::ExtractStridedSliceOp>(op))
    return s.getSourceVectorType().getRank() > 1;
  if (auto bc = dyn_cast<vector::BroadcastOp>(op)) {
    auto src = dyn_cast<VectorType>(bc.getSourceType());
    return src && src.getShape() != bc.getResultVectorType().getShape().take_back(src.getRank());
  }
  if (auto t = dyn_cast<VectorTransferOpInterface>(op))
    return !minorIdentity1D(t);
  return false;
}

} // namespace

bool hasExpandableVector(gpu::GPUModuleOp gm) {
  return anyOpWhere(gm, needsExpansion);
}

LogicalResult expandVector(gpu::GPUModuleOp gm) {
  MLIRContext *ctx = gm.getContext();
  SmallVector<Operation *> roots = opsWhere(gm, needsExpansion);
  RewritePatternSet patterns(ctx);
  vector::populateVectorContractLoweringPatterns(patterns, vector::VectorContractLowering::Dot);
  vector::populateVectorOuterProductLoweringPatterns(patterns);
  vector::populateVectorMultiReductionLoweringPatterns(
      patterns, vector::VectorMultiReductionLowering::InnerReduction);
  vector::populateVectorTransposeLoweringPatterns(patterns,
                                                  vector::VectorTransposeLowering::EltWise);
  vector::populateVectorBroadcastLoweringPatterns(patterns);
  vector::populateVectorStepLoweringPatterns(patterns);
  vector::populateVectorGatherLoweringPatterns(patterns);
  vector::populateVectorGatherToConditionalLoadPatterns(patterns);
  vector::populateVectorMaskedLoadStoreEmulationPatterns(patterns);
  vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
  vector::populateVectorInterleaveLoweringPatterns(patterns);
  vector::populateVectorInterleaveToShufflePatterns(patterns);
  vector::populateVectorScanLoweringPatterns(patterns);
  vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  populateVectorToSCFConversionPatterns(
      patterns, VectorTransferToSCFOptions().enableFullUnroll().setTargetRank(1));
  rewriteRoots(roots, std::move(patterns));
  // VectorToSCF indexes with affine.apply: upstream's lower-affine patterns.
  RewritePatternSet affine(ctx);
  populateAffineToStdConversionPatterns(affine);
  SmallVector<Operation *> applies;
  gm.walk([&](affine::AffineApplyOp a) { applies.push_back(a); });
  if (!applies.empty())
    (void)applyOpPatternsGreedily(applies, std::move(affine));
  return success();
}

} // namespace aster::lower
