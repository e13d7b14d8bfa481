//===- LowerMathExpand.cpp - math ops through upstream's own expansions ---===//
//
// The math functions gfx9 has no instruction for and LLVM's AMDGPU backend
// does not expand (upstream MLIR calls ROCm's ocml for them, which is not
// installed here) are rewritten by upstream MLIR's own expansions, loaded
// from the system MLIR 22 libraries (no copy of upstream code), in the
// order aster.lowering.llvm gives LLVM's oracle the same passes:
//   1. f16 / bf16 operands of those ops (and of sin / cos / floor / ceil /
//      trunc / roundeven / copysign) are extended to f32 and the result
//      truncated back: upstream's math-extend-to-supported-types (its type
//      converter, target and patterns; the ops aster lowers natively in f16
//      stay legal: sqrt, exp, log, exp2, log2, fma, absf). Each new
//      extension is then moved down to its first reader in its block.
//   2. kApproximated: upstream's polynomial approximations
//      (populateMathPolynomialApproximationPatterns, what mlir-opt
//      --test-math-polynomial-approximation applies), on those ops and the
//      ops their rewrites create only (a math.exp / log the kernel itself
//      holds keeps LLVM's native expansion, LowerMath.cpp).
//   3. kExpanded: upstream's math-expand-ops patterns
//      (math::populateExpansionPatterns with the mnemonics), e.g. powf as
//      exp(y * log|x|) with the sign cases, sinh / cosh by exp, tan by sin
//      / cos, asinh / acosh / atanh by log and sqrt.
//   4. arith.ceildivsi / ceildivui / floordivsi (any width): upstream's
//      arith-expand patterns (populateCeilFloorDivExpandOpsPatterns).
//   0. (first) math.sincos becomes a math.sin and a math.cos of its operand.
// What is left are arith and math ops LowerArith / LowerMath lower (f64
// tanh / log1p / expm1 stay: LowerMathF64.cpp lowers them; f64 atan / atan2
// / asin / acos / cbrt: LowerMathF64Trig.cpp; erf / erfc: LowerMathF64Erf.cpp).
// Needs before: a gpu.module (the clone lowerGpuModules lowers). Guarantees
// after: no op of kApproximated / kExpanded (one that upstream could not
// rewrite, e.g. an f64 tanh, is an error naming it and its location).
//===----------------------------------------------------------------------===//
#include "lower/KernelLowering.h"

#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/STLExtras.h"

namespace aster::lower {

namespace {
// Upstream's polynomial approximations (f32).
constexpr StringLiteral kApproximated[] = {"tanh", "erf",  "erfc", "atan",  "atan2",
                                           "asin", "acos", "cbrt", "log1p", "expm1"};
// Upstream's math-expand-ops expansions (any float type their parts lower).
constexpr StringLiteral kExpanded[] = {"powf",  "sinh",  "cosh",  "tan",   "asinh",
                                       "acosh", "atanh", "fpowi", "round", "ipowi"};
// f16 / bf16 ops extended to f32 besides the two lists.
constexpr StringLiteral kExtendedToo[] = {"sin",   "cos",       "floor",   "ceil",
                                          "trunc", "roundeven", "copysign"};

StringRef mnemonic(Operation *op) { return op->getName().stripDialect(); }
bool inList(ArrayRef<StringLiteral> l, StringRef m) { return llvm::is_contained(l, m); }
bool isMath(Operation *op) { return isa<math::MathDialect>(op->getDialect()); }
// Of f64, aster's own (LowerMathF64.cpp): not upstream's (f32-only) rewrites.
constexpr StringLiteral kOwnF64[] = {"tanh", "log1p", "expm1", "atan", "atan2",
                                     "asin", "acos",  "cbrt",  "erf",  "erfc"};
bool ownF64(Operation *op) {
  return op->getNumResults() == 1 && op->getResult(0).getType().isF64() &&
         inList(kOwnF64, mnemonic(op));
}
bool approximated(Operation *op) {
  return isMath(op) && inList(kApproximated, mnemonic(op)) && !ownF64(op);
}
bool expanded(Operation *op) { return isMath(op) && inList(kExpanded, mnemonic(op)); }
bool hasNarrowFloat(Operation *op) {
  auto narrow = [](Type t) {
    Type e = getElementTypeOrSelf(t);
    return e.isF16() || e.isBF16();
  };
  return llvm::any_of(op->getOperandTypes(), narrow) || llvm::any_of(op->getResultTypes(), narrow);
}
bool ceilFloorDiv(Operation *op) {
  return isa<arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op);
}
bool extended(Operation *op) {
  return isMath(op) && hasNarrowFloat(op) &&
         (approximated(op) || expanded(op) || inList(kExtendedToo, mnemonic(op)));
}
} // namespace

bool hasExpandableMath(gpu::GPUModuleOp gm) {
  bool found = false;
  gm.walk([&](Operation *op) {
    if (approximated(op) || expanded(op) || extended(op) || ceilFloorDiv(op) ||
        isa<math::SincosOp>(op))
      found = true;
  });
  return found;
}

LogicalResult expandMath(gpu::GPUModuleOp gm) {
  MLIRContext *ctx = gm.getContext();
  // 0. math.sincos: its two results as a math.sin and a math.cos of the
  //    operand (the same values; each then lowered, extended, as above).
  SmallVector<math::SincosOp> sincos;
  gm.walk([&](math::SincosOp op) { sincos.push_back(op); });
  for (math::SincosOp op : sincos) {
    OpBuilder b(op);
    Value s = math::SinOp::create(b, op.getLoc(), op.getOperand(), op.getFastmathAttr());
    Value c = math::CosOp::create(b, op.getLoc(), op.getOperand(), op.getFastmathAttr());
    op.getSin().replaceAllUsesWith(s);
    op.getCos().replaceAllUsesWith(c);
    op.erase();
  }
  // 1. math-extend-to-supported-types (target f32), on the listed ops only.
  bool anyNarrow = false;
  gm.walk([&](Operation *op) { anyNarrow |= extended(op); });
  if (anyNarrow) {
    TypeConverter tc;
    SetVector<Type> supported; // the pass's "source types": f32, f64 (no extra types)
    supported.insert(Float32Type::get(ctx));
    supported.insert(Float64Type::get(ctx));
    math::populateExtendToSupportedTypesTypeConverter(tc, supported, Float32Type::get(ctx));
    ConversionTarget target(*ctx);
    math::populateExtendToSupportedTypesConversionTarget(target, tc);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addDynamicallyLegalDialect<math::MathDialect>(
        [](Operation *op) { return !extended(op); });
    RewritePatternSet patterns(ctx);
    math::populateExtendToSupportedTypesPatterns(patterns, tc);
    DenseSet<Operation *> before;
    gm.walk([&](arith::ExtFOp e) { before.insert(e); });
    if (failed(applyPartialConversion(gm, target, std::move(patterns))))
      return gm.emitOpError("cannot be lowered to amdgcn: upstream's "
                            "math-extend-to-supported-types failed on it");
    // The conversion puts each extension right after its operand's
    // definition (a load): moved down to its first reader of the same
    // block, so the loads of a kernel are issued together and the first
    // waits for all, not one after another (the order LLVM's scheduler
    // reaches; the value is the same).
    // Collected first, then moved: moving while walking revisits a moved
    // extension, and two sharing a first reader swapped places forever.
    SmallVector<arith::ExtFOp> added;
    gm.walk([&](arith::ExtFOp e) {
      if (!before.contains(e))
        added.push_back(e);
    });
    for (arith::ExtFOp e : added) {
      Operation *first = nullptr;
      for (Operation *u : e->getUsers()) {
        Operation *a = e->getBlock()->findAncestorOpInBlock(*u);
        if (!a) {
          first = nullptr;
          break;
        }
        if (!first || a->isBeforeInBlock(first))
          first = a;
      }
      if (first && first != e->getNextNode())
        e->moveBefore(first);
    }
  }
  // 2. polynomial approximations of the listed ops and the ops they create.
  SmallVector<Operation *> roots;
  gm.walk([&](Operation *op) {
    if (approximated(op))
      roots.push_back(op);
  });
  if (!roots.empty()) {
    RewritePatternSet patterns(ctx);
    populateMathPolynomialApproximationPatterns(patterns);
    GreedyRewriteConfig cfg;
    cfg.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    (void)applyOpPatternsGreedily(roots, std::move(patterns), cfg);
  }
  // 3. math-expand-ops{ops=kExpanded}.
  bool anyExpanded = false;
  gm.walk([&](Operation *op) { anyExpanded |= expanded(op); });
  if (anyExpanded) {
    SmallVector<StringRef> names(std::begin(kExpanded), std::end(kExpanded));
    RewritePatternSet patterns(ctx);
    math::populateExpansionPatterns(patterns, names);
    (void)applyPatternsGreedily(gm, std::move(patterns));
  }
  // 4. arith.ceildivsi / ceildivui / floordivsi: upstream's arith-expand
  //    patterns (divisions, compares and selects; what the oracle's
  //    `arith-expand` runs).
  bool anyDiv = false;
  gm.walk([&](Operation *op) { anyDiv |= ceilFloorDiv(op); });
  if (anyDiv) {
    RewritePatternSet patterns(ctx);
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    (void)applyPatternsGreedily(gm, std::move(patterns));
  }
  LogicalResult ok = success();
  gm.walk([&](Operation *op) {
    if (succeeded(ok) && (approximated(op) || expanded(op)))
      ok = op->emitOpError("cannot be lowered to amdgcn: upstream's math expansions do not "
                           "rewrite it for this type (they cover f32, f16 and bf16)");
  });
  return ok;
}

} // namespace aster::lower
