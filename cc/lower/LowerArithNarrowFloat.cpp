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
// Other ops on these types (extf / truncf: upstream's scaling_extf /
// scaling_truncf expansions target the amdgpu ops directly) stay an error at
// the op naming it.
//
// Needs before: operands lowered. Guarantees after: the result in vals
// (scalar) or vecs (vector).
//===----------------------------------------------------------------------===//
#include "lower/LowerVectorUtil.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

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

} // namespace aster::lower
