//===- Liveness.h - liveness of register values in an amdgcn kernel ------===//
//
// Program points: the ops of a kernel body are numbered in IR order (blocks
// in region order, ops in block order) from 0; op i reads its operands at
// point 2i and writes its results at point 2i+1. A block spans
// [2*first, 2*last+1]; its arguments are defined at its first point.
//
// Liveness of SSA values over the CFG (loops included), by path exploration
// from each use (cost proportional to the size of the live sets). A value
// passed to a successor's block argument is used by the branch; a block
// argument is defined at the start of its block.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TRANSFORMS_LIVENESS_H
#define ASTER_TRANSFORMS_LIVENESS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Region.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace aster {

/// Asks the cache for the memory 4 KiB past `op`: ops built one after the
/// other usually lie one after the other in memory, so a walk along the op
/// list (each next op known only once this one is loaded) finds its next
/// ops there instead of waiting on each. A wrong guess costs nothing.
inline void prefetchFollowing(const mlir::Operation *op) {
  const char *p = reinterpret_cast<const char *>(op) + 4096;
  for (int line = 0; line < 4; ++line)
    __builtin_prefetch(p + 64 * line);
}

/// A closed interval of program points.
struct Segment {
  unsigned start, end;
};

/// Blocks of a region, numbered in region order, with predecessors and their
/// point ranges.
class BlockNumbering {
public:
  /// `visit`, if given, sees each op of the region as it is numbered (in
  /// IR order); returning false stops the numbering, which is then partial.
  explicit BlockNumbering(mlir::Region &body,
                          llvm::function_ref<bool(mlir::Operation *)> visit = nullptr);
  unsigned size() const { return blocks.size(); }
  mlir::Block *block(unsigned b) const { return blocks[b]; }
  unsigned index(mlir::Block *b) const { return indexOf.lookup(b); }
  llvm::ArrayRef<unsigned> preds(unsigned b) const { return predList[b]; }
  unsigned begin(unsigned b) const { return 2 * firstOp[b]; }
  unsigned end(unsigned b) const { return 2 * (firstOp[b] + numOps[b]) - 1; }
  unsigned firstOpIndex(unsigned b) const { return firstOp[b]; }
  unsigned numOpsIn(unsigned b) const { return numOps[b]; }
  unsigned totalOps() const { return total; }
  /// Op `i` in IR order (a table: sweeps over it do not chase list links).
  mlir::Operation *op(unsigned i) const { return ops[i]; }
  /// Asks the cache for op `i + kAhead` (its results before it, operands
  /// after): a sweep over a kernel larger than the cache then overlaps its
  /// misses instead of waiting for each op.
  void prefetch(unsigned i) const {
    if (i + kAhead < ops.size()) {
      const char *p = reinterpret_cast<const char *>(ops[i + kAhead]);
      __builtin_prefetch(p - 64);
      __builtin_prefetch(p);
      __builtin_prefetch(p + 64);
    }
  }
  static constexpr unsigned kAhead = 16;

  /// Path exploration: `var` is used in block `b` before any definition in
  /// `b`. Marks it live-in at `b` and at every block reachable backwards
  /// without crossing a block that defines it (`defines(block)`), and live-out
  /// at their predecessors. `inStamp`/`outStamp` (one per block, initialised to
  /// ~0u) avoid duplicates while `stamp` stays the same for one variable.
  void propagateUse(unsigned var, unsigned b,
                    llvm::function_ref<bool(unsigned block)> defines,
                    unsigned stamp, std::vector<unsigned> &inStamp,
                    std::vector<unsigned> &outStamp,
                    std::vector<std::vector<unsigned>> &liveIn,
                    std::vector<std::vector<unsigned>> &liveOut) const;

private:
  std::vector<mlir::Block *> blocks;
  llvm::DenseMap<mlir::Block *, unsigned> indexOf;
  std::vector<llvm::SmallVector<unsigned, 2>> predList;
  std::vector<unsigned> firstOp, numOps;
  llvm::SmallVector<mlir::Operation *, 0> ops; // (grows by realloc, no copy)
  unsigned total = 0;
};

/// Liveness of the SSA values selected by `track` (register-typed values:
/// op results and block arguments).
class Liveness {
public:
  Liveness(BlockNumbering blocks, llvm::function_ref<bool(mlir::Value)> track);

  const BlockNumbering &blocks() const { return bn; }
  unsigned numValues() const { return typeOf.size(); }
  /// The value (found from where it is defined: no table of values).
  mlir::Value value(unsigned id) const;
  /// The value's type when liveness was computed (a table: reading it does
  /// not touch the IR).
  mlir::Type type(unsigned id) const { return typeOf[id]; }
  /// Id of a tracked value, or -1 (a hash map built on the first call:
  /// operandIds/resultIds/argId answer without it).
  int idOf(mlir::Value v) const;
  /// Id of argument `arg` of block `block`, or -1 if untracked.
  int argId(unsigned block, unsigned arg) const { return argIdOf[argBegin[block] + arg]; }
  unsigned defBlock(unsigned id) const { return defBlockOf[id]; }
  /// Point where the value is written (2i+1 for a result of op i, the block's
  /// first point for a block argument).
  unsigned defPoint(unsigned id) const { return defPointOf[id]; }
  llvm::ArrayRef<unsigned> liveIn(unsigned block) const { return liveInOf[block]; }
  llvm::ArrayRef<unsigned> liveOut(unsigned block) const { return liveOutOf[block]; }
  bool isLiveOut(unsigned id, unsigned block) const;
  /// Point of the last use of the value in `block`, or -1 if not used there.
  int lastUseIn(unsigned id, unsigned block) const {
    unsigned u = lastUse[id];
    if (u == kUnused)
      return -1;
    unsigned p = u & ~kEarlierUses;
    if (p >= bn.begin(block) && p <= bn.end(block))
      return p;
    return u & kEarlierUses ? earlierUseIn(id, block) : -1;
  }
  /// Where the value is live, as segments ordered by point: from its
  /// definition (or block start) to its last use (or block end if live-out).
  /// A value never used is live at its definition point only.
  void segments(unsigned id, llvm::SmallVectorImpl<Segment> &out) const;
  /// Blocks where the value is live-in.
  llvm::ArrayRef<unsigned> liveInBlocks(unsigned id) const {
    if (inBlocksBegin.empty())
      return {};
    return llvm::ArrayRef<unsigned>(inBlocksFlat)
        .slice(inBlocksBegin[id], inBlocksBegin[id + 1] - inBlocksBegin[id]);
  }
  /// Ids of the operands / results of op `op` (its number in IR order), in
  /// operand / result order, -1 where untracked: idOf without hashing.
  llvm::ArrayRef<int> operandIds(unsigned op) const {
    return llvm::ArrayRef<int>(operandIdOf).slice(operandBegin[op],
                                                  operandBegin[op + 1] - operandBegin[op]);
  }
  llvm::ArrayRef<int> resultIds(unsigned op) const {
    return llvm::ArrayRef<int>(resultIdOf).slice(resultBegin[op],
                                                 resultBegin[op + 1] - resultBegin[op]);
  }

private:
  /// Id of value `v` used by op `i`, found without the hash map: a
  /// block argument by its number, a result in the op table. With `upTo`,
  /// only the values defined before op `upTo` (in IR order) are numbered:
  /// kLater for the others.
  int findId(mlir::Value v, unsigned i, unsigned upTo = ~0u);
  static constexpr int kLater = -3;
  /// The block holding op `i`.
  unsigned blockOfOp(unsigned i) const;
  int earlierUseIn(unsigned id, unsigned block) const;

  BlockNumbering bn;
  std::vector<mlir::Type> typeOf;
  /// Ids of the block arguments (-1 where untracked); block b's start at
  /// argBegin[b] (one extra entry at the end).
  std::vector<int> argIdOf;
  std::vector<unsigned> argBegin;
  /// Lookups findId answered by a binary search (it builds the hash map
  /// once they are many).
  unsigned searches = 0;
  mutable llvm::DenseMap<mlir::Value, unsigned> ids;
  std::vector<unsigned> defBlockOf, defPointOf;
  std::vector<std::vector<unsigned>> liveInOf, liveOutOf; // sorted
  /// Per value: where its live-in blocks start in inBlocksFlat (one extra
  /// entry; empty when no value is live-in anywhere).
  std::vector<unsigned> inBlocksBegin, inBlocksFlat;
  /// Per op (IR order): where its operand / result ids start in the flat
  /// arrays (one extra entry at the end).
  llvm::SmallVector<int, 0> operandIdOf, resultIdOf;
  std::vector<unsigned> operandBegin, resultBegin;
  /// Per value: the point of its last use in the last block using it
  /// (| kEarlierUses if earlier blocks use it too; kUnused if none). Most
  /// values are used in one block: a flat array, no allocation per value.
  std::vector<unsigned> lastUse;
  static constexpr unsigned kEarlierUses = 1u << 31, kUnused = ~0u;
  /// (value, point of its last use in the block) of the earlier blocks, by
  /// value then point.
  struct Use {
    unsigned id, point;
  };
  std::vector<Use> earlierUses;
};

} // namespace aster

#endif
