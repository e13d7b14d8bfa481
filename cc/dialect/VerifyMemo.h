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
  /// Keys are a few pointers (uniqued types and attributes, small ints):
  /// a multiply-xorshift per word hashes them in a few instructions (LLVM's
  /// hash_combine_range, the default for ArrayRef, was a quarter of a
  /// memo hit).
  struct ShapeInfo {
    using Base = llvm::DenseMapInfo<llvm::ArrayRef<const void *>>;
    static llvm::ArrayRef<const void *> getEmptyKey() { return Base::getEmptyKey(); }
    static llvm::ArrayRef<const void *> getTombstoneKey() { return Base::getTombstoneKey(); }
    static unsigned getHashValue(llvm::ArrayRef<const void *> k) {
      uint64_t h = k.size();
      for (const void *p : k) {
        h = (h ^ (uint64_t)(uintptr_t)p) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
      }
      return unsigned(h ^ (h >> 32));
    }
    static bool isEqual(llvm::ArrayRef<const void *> a, llvm::ArrayRef<const void *> b) {
      return Base::isEqual(a, b);
    }
  };
  static constexpr size_t kMaxShapes = 1 << 18; // then it starts over
  std::mutex mu;
  llvm::BumpPtrAllocator arena;
  llvm::DenseSet<llvm::ArrayRef<const void *>, ShapeInfo> shapes;
};

/// The memo of the context `op` belongs to (null if `op` is not an
/// instruction op of the amdgcn dialect).
VerifyMemo *verifyMemoOf(mlir::Operation *op);

} // namespace aster::amdgcn

#endif
