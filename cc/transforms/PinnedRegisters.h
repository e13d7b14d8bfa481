//===- PinnedRegisters.h - where allocated (pinned) registers are busy ---===//
//
// A value of allocated type names a physical register: a use reads it at that
// point, a result writes it (amdgcn.reg only names it). Per register unit
// (one 32-bit register of a class) this computes the points where the unit
// is busy: from each write or kernel entry to the last read that sees it
// (liveness of the physical register over the CFG), and every write point
// even when nothing reads it. A virtual value may take a unit only if their
// points do not meet.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TRANSFORMS_PINNEDREGISTERS_H
#define ASTER_TRANSFORMS_PINNEDREGISTERS_H

#include "dialect/Types.h"
#include "transforms/Liveness.h"

#include "mlir/IR/Operation.h"

namespace aster {

class PinnedRegisters {
public:
  /// From the kernel's liveness (its op table and value types).
  explicit PinnedRegisters(const Liveness &lv);

  /// True if a unit of [first, first+width) of `kind` is busy at a point of
  /// `segs` (sorted by start).
  bool conflicts(amdgcn::RegKind kind, unsigned first, unsigned width,
                 llvm::ArrayRef<Segment> segs) const;
  /// True if a unit of [first, first+width) is busy at `point`.
  bool busyAt(amdgcn::RegKind kind, unsigned first, unsigned width,
              unsigned point) const {
    return conflicts(kind, first, width, Segment{point, point});
  }
  /// True if any unit at or above `first` has pinned points at all.
  bool anyAtOrAbove(amdgcn::RegKind kind, unsigned first) const {
    return first < units[(int)kind].size();
  }
  /// Units of `kind` named anywhere (highest index + 1).
  unsigned extent(amdgcn::RegKind kind) const { return units[(int)kind].size(); }
  /// Busy units of `kind` at each point (for MaxLive), computed on demand.
  const std::vector<unsigned> &busyCount(amdgcn::RegKind kind);
  /// The op that writes unit `unit` of `kind` first in (after, upTo], or null.
  mlir::Operation *writerIn(amdgcn::RegKind kind, unsigned unit, unsigned after,
                            unsigned upTo) const;

private:
  struct Unit {
    std::vector<Segment> busy; // sorted by start
    std::vector<std::pair<unsigned, mlir::Operation *>> writes; // by point
  };
  std::vector<Unit> units[3];
  std::vector<unsigned> counts[3];
  bool counted[3] = {false, false, false};
  unsigned numPoints;
};

} // namespace aster

#endif
