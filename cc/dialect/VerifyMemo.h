//===- VerifyMemo.h - instruction shapes that verified, per context ------===//
//
// verifyInstruction (Verify.cpp) checks an op against its table row; what it
// checks depends only on the op's *shape*: its row, the target, its result
// and operand types, its attributes, the constants its immediates are, and
// which operands are the same virtual SGPR (the constant bus counts values).
// Shapes that verified are remembered per context (owned by the dialect), so
// an op shaped like one before (the same instruction on the same registers,
// as in unrolled code) costs a hash lookup. Failures are never remembered:
// each one reports its diagnostic. Ops with successors are not memoised.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_DIALECT_VERIFYMEMO_H
#define ASTER_DIALECT_VERIFYMEMO_H

#include "dialect/ISA.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"

#include <mutex>

namespace aster::amdgcn {

class VerifyMemo {
public:
  using Key = llvm::SmallVector<const void *, 16>;
  /// The shape of `op` (row `d`, on `target`) as a key; false if it is not
  /// memoised (successors, an immediate that is not an arith.constant).
  static bool key(mlir::Operation *op, const ISA::InstDesc &d, uint8_t target, Key &k);
  bool contains(llvm::ArrayRef<const void *> k);
  void insert(llvm::ArrayRef<const void *> k);

private:
  static constexpr size_t kMaxShapes = 1 << 18; // then it starts over
  std::mutex mu;
  llvm::BumpPtrAllocator arena;
  llvm::DenseSet<llvm::ArrayRef<const void *>> shapes;
};

/// The memo of the context `op` belongs to (null if `op` is not an
/// instruction op of the amdgcn dialect).
VerifyMemo *verifyMemoOf(mlir::Operation *op);

} // namespace aster::amdgcn

#endif
