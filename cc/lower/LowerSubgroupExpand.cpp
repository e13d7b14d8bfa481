//===- LowerSubgroupExpand.cpp - gpu ops through upstream's own rewrites ---===//
//
// gpu ops the walk (LowerGpu.cpp) does not lower directly are first
// rewritten into ones it does, by upstream MLIR's own GPU rewrite patterns
// (system MLIR 22 libraries, no copy of upstream code) and two small
// rewrites of our own, upstream IR in, upstream IR out:
//   gpu.global_id            populateGpuGlobalIdPatterns: block_id * block_dim
//                            + thread_id
//   gpu.subgroup_id          populateGpuSubgroupIdPatterns: the linear
//                            work-item id / subgroup_size
//   gpu.num_subgroups        (ours) (block_dim x * y * z + subgroup_size - 1) /
//                            subgroup_size
//   gpu.shuffle of i64 / f64 populateGpuShufflePatterns: two i32 shuffles
//   gpu.shuffle of 8/16-bit  (ours) the value zero-extended to i32 (a 2x16-bit
//   values / vector<2xf16>   vector bitcast to i32), shuffled, truncated back
//   gpu.subgroup_reduce the  populateGpuLowerSubgroupReduceToShufflePatterns /
//     walk does not lower   ...Clustered... (64 lanes; a xor butterfly of
//     (types other than     gpu.shuffle with the cluster's stride; values
//     i32 / f32, a cluster  narrower than 32 bits packed into an i32, 64-bit
//     stride, minimumf /    ones shuffled as i64 and then split as above),
//     maximumf, vectors)    populateGpuBreakDownSubgroupReducePatterns (vectors
//                           to scalars)
// The patterns run on those ops and the ops their rewrites create only.
// Also lowered here directly (registered by name, LoweringTable):
//   gpu.subgroup_broadcast   first_active_lane / any_lane: v_readfirstlane_b32;
//                            specific_lane (uniform): v_readlane_b32; per dword
//                            of a 64-bit value. The result is uniform (SGPR).
// Needs before: a gpu.module (the clone lowerGpuModules lowers). Guarantees
// after: only gpu ops LowerGpu.cpp lowers remain of those listed.
//===----------------------------------------------------------------------===//
#include "lower/ExpandWalk.h"
#include "lower/KernelLowering.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aster::lower {

namespace {

/// gpu.subgroup_reduce forms LowerGpu.cpp lowers itself.
bool nativeReduce(gpu::SubgroupReduceOp r) {
  // 32-bit values, and 8/16-bit scalars (moved as their dword: the
  // narrow reductions of LowerGpu.cpp, cheaper than the shuffle expansion).
  Type t = r.getValue().getType();
  bool narrow = t.isInteger(8) || t.isInteger(16) || t.isF16() || t.isBF16();
  if (!t.isInteger(32) && !t.isF32() && !narrow)
    return false;
  if (r.getClusterStride() != 1)
    return false;
  auto k = r.getOp();
  return k != gpu::AllReduceOperation::MINIMUMF && k != gpu::AllReduceOperation::MAXIMUMF;
}

bool narrowShuffle(gpu::ShuffleOp s) {
  Type t = s.getValue().getType();
  unsigned bits = t.isIntOrFloat() ? t.getIntOrFloatBitWidth() : 0;
  if (auto vt = dyn_cast<VectorType>(t))
    bits = vt.getRank() == 1 && vt.getElementType().isIntOrFloat()
               ? (unsigned)vt.getNumElements() * vt.getElementType().getIntOrFloatBitWidth()
               : 0;
  return (bits == 8 || bits == 16 || (bits == 32 && isa<VectorType>(t)));
}

bool needsExpansion(Operation *op) {
  if (isa<gpu::GlobalIdOp, gpu::SubgroupIdOp, gpu::NumSubgroupsOp>(op))
    return true;
  if (auto s = dyn_cast<gpu::ShuffleOp>(op))
    return s.getValue().getType().isInteger(64) || s.getValue().getType().isF64() ||
           narrowShuffle(s);
  if (auto r = dyn_cast<gpu::SubgroupReduceOp>(op))
    return !nativeReduce(r);
  return false;
}

/// A shuffle of an 8/16-bit value (or a 32-bit vector) as an i32 shuffle.
struct NarrowShuffle : OpRewritePattern<gpu::ShuffleOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(gpu::ShuffleOp s, PatternRewriter &rw) const override {
    if (!narrowShuffle(s))
      return failure();
    Location loc = s.getLoc();
    Type t = s.getValue().getType(), i32 = rw.getI32Type();
    Value v = s.getValue(), w;
    if (isa<VectorType>(t)) {
      w = arith::BitcastOp::create(rw, loc, i32, v);
    } else {
      Type in = rw.getIntegerType(t.getIntOrFloatBitWidth());
      Value i = t == in ? v : (Value)arith::BitcastOp::create(rw, loc, in, v);
      w = arith::ExtUIOp::create(rw, loc, i32, i);
    }
    auto sh = gpu::ShuffleOp::create(rw, loc, w, s.getOffset(), s.getWidth(), s.getMode());
    Value r = sh.getShuffleResult();
    if (isa<VectorType>(t)) {
      r = arith::BitcastOp::create(rw, loc, t, r);
    } else {
      Type in = rw.getIntegerType(t.getIntOrFloatBitWidth());
      r = arith::TruncIOp::create(rw, loc, in, r);
      if (t != in)
        r = arith::BitcastOp::create(rw, loc, t, r);
    }
    rw.replaceOp(s, {r, sh.getValid()});
    return success();
  }
};

/// gpu.num_subgroups = ceil(block_dim.x * block_dim.y * block_dim.z / subgroup_size).
struct NumSubgroups : OpRewritePattern<gpu::NumSubgroupsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(gpu::NumSubgroupsOp op, PatternRewriter &rw) const override {
    Location loc = op.getLoc();
    Value n;
    for (auto d : {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z}) {
      Value b = gpu::BlockDimOp::create(rw, loc, d);
      n = n ? (Value)arith::MulIOp::create(rw, loc, n, b) : b;
    }
    Value sg = gpu::SubgroupSizeOp::create(rw, loc, rw.getIndexType(), nullptr);
    Value one = arith::ConstantIndexOp::create(rw, loc, 1);
    Value up = arith::AddIOp::create(rw, loc, n, arith::SubIOp::create(rw, loc, sg, one));
    rw.replaceOpWithNewOp<arith::DivUIOp>(op, up, sg);
    return success();
  }
};

LogicalResult lowerSubgroupBroadcast(KernelLowering &L, Operation *op) {
  auto bc = cast<gpu::SubgroupBroadcastOp>(op);
  auto v = L.get(bc.getSrc());
  if (failed(v))
    return failure();
  Type t = bc.getSrc().getType();
  if (!t.isIntOrIndexOrFloat())
    return L.unsupported(op, "only scalar values are broadcast");
  Value lane;
  if (bc.getBroadcastType() == gpu::BroadcastType::specific_lane) {
    auto l = L.get(bc.getLane());
    if (failed(l))
      return failure();
    lane = L.sOp(*l); // the op's rule: the lane is uniform
  }
  auto one = [&](RV x) -> RV {
    if (x.scalar())
      return x;
    Value r = lane ? L.inst("v_readlane_b32", L.sT, {L.toV(x), lane})
                   : L.inst("v_readfirstlane_b32", L.sT, L.toV(x));
    return RV::of(RV::S, r, x.isFloat);
  };
  if (v->wide) {
    RV r = L.pair(one(KernelLowering::lo(*v)), one(KernelLowering::hi(*v)));
    L.vals[bc.getResult()] = r;
    return success();
  }
  L.vals[bc.getResult()] = one(*v);
  return success();
}

} // namespace

bool hasExpandableGpu(gpu::GPUModuleOp gm) {
  return anyOpWhere(gm, needsExpansion);
}

LogicalResult expandGpu(gpu::GPUModuleOp gm) {
  MLIRContext *ctx = gm.getContext();
  SmallVector<Operation *> roots = opsWhere(gm, needsExpansion);
  RewritePatternSet patterns(ctx);
  populateGpuGlobalIdPatterns(patterns);
  populateGpuSubgroupIdPatterns(patterns);
  populateGpuShufflePatterns(patterns);
  populateGpuBreakDownSubgroupReducePatterns(patterns, /*maxShuffleBitwidth=*/64);
  // Values of up to 32 bits first (benefit 2), 64-bit ones as i64 shuffles.
  populateGpuLowerSubgroupReduceToShufflePatterns(patterns, 64, 32, 2);
  populateGpuLowerClusteredSubgroupReduceToShufflePatterns(patterns, 64, 32, 2);
  populateGpuLowerSubgroupReduceToShufflePatterns(patterns, 64, 64, 1);
  populateGpuLowerClusteredSubgroupReduceToShufflePatterns(patterns, 64, 64, 1);
  patterns.add<NarrowShuffle, NumSubgroups>(ctx);
  rewriteRoots(roots, std::move(patterns));
  return success();
}

void populateSubgroupExpandLowering(LoweringTable &table) {
  table.add(gpu::SubgroupBroadcastOp::getOperationName(), lowerSubgroupBroadcast);
}

} // namespace aster::lower
