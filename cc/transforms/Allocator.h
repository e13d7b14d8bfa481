//===- Allocator.h - the register allocator's state (internal) ---------===//
//
// Shared by RegAlloc.cpp (colouring, rewriting), SpillChoice.cpp (which value
// to spill when a class runs out) and EdgeCopies.cpp (moves on branch
// edges). Not a public header: use RegAlloc.h.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TRANSFORMS_ALLOCATOR_H
#define ASTER_TRANSFORMS_ALLOCATOR_H

#include "transforms/RegAlloc.h"
#include "transforms/Liveness.h"
#include "transforms/ParallelCopy.h"
#include "transforms/PinnedRegisters.h"
#include "transforms/Spill.h"

#include "mlir/IR/Builders.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/Dominance.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/DepthFirstIterator.h"

namespace aster {
namespace regalloc {

using namespace mlir;
using namespace aster::amdgcn;

/// Registers of each class the hardware has (gfx9: 256 VGPRs + 256 AGPRs in
/// the unified file, s0..s101; gfx12: no AGPRs, s0..s105).
inline unsigned hwRegs(RegKind k, uint8_t target) {
  bool gfx12 = target == ISA::T_GFX1201;
  switch (k) {
  case RegKind::VGPR: return 256;
  case RegKind::SGPR: return gfx12 ? 106 : 102;
  case RegKind::AGPR: return gfx12 ? 0 : 256;
  }
  return 0;
}

inline RegType virtualReg(Type t) {
  auto r = dyn_cast<RegType>(t);
  return r && r.isVirtual() ? r : RegType();
}
inline RegType pinnedReg(Type t) {
  auto r = dyn_cast<RegType>(t);
  return r && !r.isVirtual() ? r : RegType();
}



/// Occupied units of one class.
struct Occupancy {
  uint64_t bits[8] = {0};
  unsigned count = 0;
  bool isFree(unsigned r, unsigned w) const {
    for (unsigned u = r; u < r + w; ++u)
      if (bits[u / 64] >> (u % 64) & 1)
        return false;
    return true;
  }
  void set(unsigned r, unsigned w) {
    for (unsigned u = r; u < r + w; ++u)
      bits[u / 64] |= 1ull << (u % 64);
    count += w;
  }
  void clear(unsigned r, unsigned w) {
    for (unsigned u = r; u < r + w; ++u)
      bits[u / 64] &= ~(1ull << (u % 64));
    count -= w;
  }
  void reset() {
    for (auto &b : bits)
      b = 0;
    count = 0;
  }
  static constexpr unsigned kUnits = 512;
};

/// A value to spill; `early`: a load's result saved right after the load,
/// behind a wait, rather than at its first use.
struct SpillVictim {
  Value value;
  bool early;
};

/// How a result gets its register.
enum class Mode { Normal, Early, Forced };

class Allocator {
public:
  Allocator(KernelOp k, const RegAllocOptions &o,
            const llvm::DenseSet<Operation *> &spillCode)
      : kernel(k), opts(o), spillCode(spillCode) {}
  FailureOr<RegAllocStats> run();
  /// After a failed run: values whose spilling lets allocation go further
  /// (empty when the failure was diagnosed).
  ArrayRef<SpillVictim> spillVictims() const { return victims; }

private:
  /// Checks the kernel while numbering its ops and blocks.
  FailureOr<BlockNumbering> checkInput();
  LogicalResult checkPinnedOverwrites();
  void computeOrder(SmallVectorImpl<unsigned> &order);
  LogicalResult colourBlock(unsigned b);
  // amdgcn.part / amdgcn.concat (RangeOps.cpp).
  void colourPart(PartOp part, int root, int id);
  void planConcats();
  int concatHint(unsigned id);
  bool concatInPlace(ArrayRef<int> opIds, ArrayRef<unsigned> kills, unsigned id);
  LogicalResult resolveRangeOps();
  int pick(unsigned id, int hint, int startOverride);
  int pickIn(unsigned id, int hint, int startOverride, bool keepReserved);
  void assign(unsigned id, unsigned r);
  /// Registers used: counts a pinned register type (others are ignored), or
  /// units of `k` up to `end`.
  void noteUsed(Type t);
  void noteUsed(RegKind k, unsigned end);
  void release(unsigned id);
  unsigned alignOf(RegType t) const;
  void notePressure(unsigned point, ArrayRef<unsigned> notLive = {});
  enum class Room { Retry, Skip, Fail };
  /// No register for value `id` at `at`: picks a value to spill and frees
  /// its register (Retry), or spills `id` itself (Skip), or emits the
  /// diagnostic (Fail).
  Room makeRoom(Operation *at, unsigned id);
  /// pick() until it succeeds, making room; false after a diagnostic.
  bool pickOrSpill(Operation *at, unsigned id, int hint, int startOverride);
  LogicalResult rewrite();
  LogicalResult insertEdgeCopies();

  KernelOp kernel;
  RegAllocOptions opts;
  uint8_t target = 0;
  unsigned limit[3];
  std::unique_ptr<Liveness> lv;
  std::unique_ptr<PinnedRegisters> pinned;
  /// amdgcn.part ops have been moved next to their readers (placeParts).
  bool partsPlaced = false;
  /// Op indices of the amdgcn.part and amdgcn.concat ops; value id of a
  /// part read only in a concat -> (concat, offset); per concat, the planned
  /// first register of its range (-1: not yet).
  std::vector<unsigned> partsAt, concatsAt;
  llvm::DenseMap<unsigned, std::pair<unsigned, unsigned>> concatPart;
  std::vector<int> concatBase;
  std::vector<int> reg;         // per value id: register index, -1 if none yet
  /// Per value id: a part that reads registers its range still holds.
  std::vector<bool> borrowed;
  Occupancy occ[3];
  RegAllocStats stats;
  /// Value id -> ids of block arguments it is passed to (hints).
  llvm::DenseMap<unsigned, SmallVector<unsigned, 1>> passedTo;
  /// Block argument id -> ids of values passed to it.
  llvm::DenseMap<unsigned, SmallVector<unsigned, 2>> incoming;
  /// Results whose tied source must be copied into them before the op:
  /// (op, operand index, result id).
  std::vector<std::tuple<Operation *, unsigned, unsigned>> tiedCopies;
  /// Moves between virtual registers that may become no-ops, with the id
  /// of their result.
  std::vector<std::pair<Operation *, unsigned>> moves;
  /// The ops rewrite() inserts (copies): with the allocated values, the
  /// registers the kernel uses.
  struct InsertedOps : OpBuilder::Listener {
    std::vector<Operation *> ops;
    void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
      ops.push_back(op);
    }
  } inserted;
  std::vector<Segment> segBuf;
  const llvm::DenseSet<Operation *> &spillCode;
  SmallVector<SpillVictim> victims;
  /// Per class and unit: the value id holding it, or -1.
  std::vector<int> owner[3];
  /// Per class and unit: the block argument whose register it was, kept
  /// for the values passed to that argument (not yet allocated) after the
  /// argument died in this block, or -1. Other values take such a unit
  /// only when nothing else is free, so a value carried around a loop
  /// (a load in flight on the back edge) gets its argument's register
  /// instead of a copy on the edge.
  std::vector<int> reserved[3];
};


/// Each amdgcn.part right before its only reader (RangeOps.cpp).
void placeParts(KernelOp kernel);

// Spill predicates (SpillChoice.cpp), also used by allocateRegisters.
bool hasScratch(uint8_t target);
/// Where a virtual value of type `t` goes when spilled on `target`: an SGPR
/// (range) to VGPR lanes, a 32-bit VGPR to an AGPR (targets with AGPRs), any
/// other VGPR/AGPR (range) to scratch (targets with scratch instructions).
enum class SpillPlace { None, Lanes, AGPR, Scratch };
SpillPlace spillPlace(RegType t, uint8_t target);
bool isAgprSlot(Value v, uint8_t target, const llvm::DenseSet<Operation *> &spillCode);

} // namespace regalloc
} // namespace aster

#endif
