//===- LowerArithNarrowFloat.cpp - constants of the MX / fp8 float types --===//
//
// The 8-, 6- and 4-bit float types (f8E8M0FNU, the E8M0 scale of the MX
// formats; f8E4M3FN, f8E5M2 and their FNUZ kin; f6E2M3FN, f6E3M2FN;
// f4E2M1FN) are operands of the amdgpu conversions and MFMAs only: nothing
// computes on them here. What reaches those ops is lowered as bit patterns:
//   arith.constant of a scalar -> its bits as an immediate (the low bits of
//     a dword, like an i8: LowerArith16.cpp);
//   arith.bitcast between an 8-bit float and i8 (either way) -> the same
//     value (LLVM: a bitcast is no instruction);
//   arith.constant of a vector of 4- or 6-bit floats filling whole 32-bit
//     words -> the words, element k at bits [k w, (k + 1) w) of the vector's
//     bit string (LLVM's layout of <32 x i6>, what vector.bitcast from
//     vector<6xi32> gives); vectors of 8-bit floats are the vector
//     lowering's 8-bit case (four per word).
// Casts to and from them are rewritten before the walk (upstream IR in,
// upstream IR out, on the clone lowerGpuModules lowers, like
// LowerArithExpand.cpp) by upstream's own patterns, as mlir-opt-22's
// convert-arith-to-amdgpu{chipset=<target>} and arith-expand{include-f8e8m0
// include-f4e2m1} do: extf / truncf of the target's 8-bit floats (FNUZ on
// gfx942, OCP on gfx950) -> amdgpu.ext_packed_fp8 / packed_trunc_2xfp8;
// scaling_extf / scaling_truncf -> amdgpu.scaled_ext_packed /
// packed_scaled_trunc on gfx950 (upstream's arith expansion elsewhere);
// f8E8M0FNU and f4E2M1FN extf / truncf -> integer arith on their bits
// (upstream's definitions: E8M0 truncf keeps the exponent field, i.e. rounds
// toward zero; 0xff is NaN). The amdgpu ops then lower as
// LowerAmdgpuFp8.cpp / LowerAmdgpuScaled.cpp say. Anything else on these
// types stays an error at the op naming it.
//
// Needs before: operands lowered. Guarantees after: the result in vals
// (scalar) or vecs (vector).
//===----------------------------------------------------------------------===//
#include "lower/LowerVectorUtil.h"

#include "mlir/Conversion/ArithToAMDGPU/ArithToAMDGPU.h"
#include "mlir/Dialect/AMDGPU/Utils/Chipset.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aster::lower {

/// An element type of 8 bits or fewer that is a float (the formats above).
bool isNarrowFloat(Type t) {
  auto f = dyn_cast<FloatType>(getElementTypeOrSelf(t));
  return f && f.getWidth() <= 8;
}

/// arith ops with a narrow-float operand or result (scalars; vector
/// constants of 4/6-bit floats through lowerNarrowFloatVectorConstant).
LogicalResult lowerArithNarrowFloat(KernelLowering &L, Operation *op) {
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    auto f = dyn_cast<FloatAttr>(c.getValue());
    if (!f)
      return L.unsupported(op, "only scalar constants of narrow floats are lowered here");
    L.vals[c] = RV::imm((uint32_t)f.getValue().bitcastToAPInt().getZExtValue());
    return success();
  }
  if (isa<arith::BitcastOp>(op)) {
    Type in = op->getOperand(0).getType(), out = op->getResult(0).getType();
    if (in.getIntOrFloatBitWidth() == 8 && out.getIntOrFloatBitWidth() == 8) {
      auto r = L.get(op->getOperand(0));
      if (failed(r))
        return failure();
      RV v = *r;
      v.isFloat = false;
      L.vals[op->getResult(0)] = v;
      return success();
    }
  }
  return L.unsupported(op, "8-, 6- and 4-bit floats are lowered as constants and bitcasts "
                           "(the operands of the amdgpu conversions and MFMAs), not computed on");
}

/// A dense constant of a vector of 4- or 6-bit floats filling whole words.
LogicalResult lowerNarrowFloatVectorConstant(KernelLowering &L, arith::ConstantOp c) {
  auto vt = cast<VectorType>(c.getType());
  auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
  unsigned w = vt.getElementTypeBitWidth();
  uint64_t bits = w * vt.getNumElements();
  if (!dense || bits % 32)
    return L.unsupported(c, "a dense constant of 4- or 6-bit floats filling whole 32-bit words");
  SmallVector<uint32_t> words(bits / 32, 0);
  uint64_t at = 0;
  for (APFloat f : dense.getValues<APFloat>()) {
    uint64_t x = f.bitcastToAPInt().getZExtValue() & ((1u << w) - 1);
    words[at / 32] |= (uint32_t)(x << (at % 32));
    if (at % 32 + w > 32)
      words[at / 32 + 1] |= (uint32_t)(x >> (32 - at % 32));
    at += w;
  }
  SmallVector<RV> out;
  for (uint32_t x : words)
    out.push_back(RV::imm(x));
  L.vecs[c] = out;
  return success();
}

/// Whether `gm` holds a cast to or from a narrow float (rewritten first).
bool hasNarrowFloatCasts(gpu::GPUModuleOp gm) {
  bool found = false;
  gm.walk([&](Operation *op) {
    if (!isa<arith::ExtFOp, arith::TruncFOp, arith::ScalingExtFOp, arith::ScalingTruncFOp>(op))
      return WalkResult::advance();
    for (Type t : llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
      if (isNarrowFloat(t))
        found = true;
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

/// The casts above rewritten by upstream's patterns for `target`.
LogicalResult expandNarrowFloatCasts(gpu::GPUModuleOp gm, StringRef target) {
  auto chip = amdgpu::Chipset::parse(target);
  if (failed(chip))
    return gm.emitError("amdgcn-lower: unknown chipset ") << target;
  bool gfx950 = target == "gfx950";
  RewritePatternSet ps(gm.getContext());
  arith::populateArithToAMDGPUConversionPatterns(ps, /*convertFP8Arithmetic=*/true,
                                                 /*saturateFP8Truncf=*/false,
                                                 /*allowPackedF16Rtz=*/false,
                                                 /*supportsScaledExtTrunc=*/gfx950, *chip);
  arith::populateExpandF8E8M0Patterns(ps);
  arith::populateExpandF4E2M1Patterns(ps);
  if (!gfx950)
    arith::populateExpandScalingExtTruncPatterns(ps);
  (void)applyPatternsGreedily(gm, std::move(ps));
  return success();
}

} // namespace aster::lower
