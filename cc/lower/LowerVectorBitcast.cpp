//===- LowerVectorBitcast.cpp - arith.bitcast between vectors and scalars -===//
//
// arith.bitcast of a vector to a scalar of the same number of bits, or of a
// scalar to such a vector (e.g. vector<2xf16> <-> i32, the form upstream's
// shuffle rewrites of gpu.shuffle make; vector<4xf16> / vector<2xf32> <->
// i64 / f64). A vector is held as its 32-bit words (LowerVectorUtil.h: two
// 16-bit elements per word, the lower index in the low half, the memory
// layout); a scalar of 32 bits or less as one RV, of 64 bits as a dword
// pair, low first (LowerArith64.cpp) - the little-endian order LLVM's
// `bitcast <2 x half> to i32` has. So the cast moves the words: no
// instruction.
// Needs before: the operand lowered; a vector of whole 32-bit words, or of
// 16-bit elements for a 16-bit scalar (vector<1xf16>). Guarantees after: the
// result in vals (scalar) or vecs (vector); other sizes an error at the op.
//===----------------------------------------------------------------------===//
#include "lower/LowerVectorUtil.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace aster::lower {

using namespace vec;

LogicalResult lowerVectorScalarBitcast(KernelLowering &L, Operation *op) {
  Type in = op->getOperand(0).getType(), out = op->getResult(0).getType();
  auto vt = dyn_cast<VectorType>(isa<VectorType>(in) ? in : out);
  Type scalar = isa<VectorType>(in) ? out : in;
  unsigned bits = scalar.isIntOrFloat() ? scalar.getIntOrFloatBitWidth() : 0;
  unsigned eb = elemBits(vt.getElementType());
  if (vt.getRank() > 1 || !bits || eb * vt.getNumElements() != bits ||
      !(bits == 32 || bits == 64 || (bits == 16 && eb == 16)))
    return L.unsupported(op, "only bitcasts between a vector and a scalar of 16 (16-bit "
                             "elements), 32 or 64 bits are lowered");
  if (isa<VectorType>(in)) {
    auto words = getVec(L, op->getOperand(0));
    if (failed(words))
      return failure();
    if (bits == 64) {
      L.vals[op->getResult(0)] = L.pair((*words)[0], (*words)[1]);
      return success();
    }
    RV r = (*words)[0];
    r.isFloat = scalar.isF32();
    L.vals[op->getResult(0)] = r;
    return success();
  }
  auto s = L.get(op->getOperand(0));
  if (failed(s))
    return failure();
  bool fl = eb == 32 && isa<FloatType>(vt.getElementType());
  SmallVector<RV> words;
  if (bits == 64) {
    words = {KernelLowering::lo(*s), KernelLowering::hi(*s)};
  } else {
    RV r = *s;
    r.wide = false;
    words = {r};
  }
  for (RV &w : words)
    w.isFloat = fl;
  L.vecs[op->getResult(0)] = words;
  return success();
}

} // namespace aster::lower
