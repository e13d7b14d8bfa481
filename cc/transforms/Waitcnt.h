//===- Waitcnt.h - s_waitcnt insertion over the CFG ------------------------===//
//
// amdgcn-waitcnt: waits for memory results before they are read or
// overwritten. The counter model per target (which counters an instruction
// increments, in order or not, the counters' maxima) is WaitcntModel.h; the
// analysis and insertion Waitcnt.cpp (its types WaitcntAnalysis.h, the loop
// preheader flush WaitcntPreheader.cpp); the pass WaitcntPass.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TRANSFORMS_WAITCNT_H
#define ASTER_TRANSFORMS_WAITCNT_H

#include "dialect/Dialect.h"

#include <string>

namespace aster {

/// What insertWaits did to one kernel.
struct WaitcntStats {
  unsigned inserted = 0;   ///< wait instructions inserted
  unsigned replaced = 0;   ///< amdgcn-regalloc spill waits removed (kSpillWaitAttr)
  unsigned author = 0;     ///< waits already in the kernel (kept as written)
  /// Inserted waits naming each counter (vmcnt, lgkmcnt, expcnt on gfx9;
  /// loadcnt, storecnt, kmcnt, dscnt on gfx1201), in the model's order.
  llvm::SmallVector<std::pair<std::string, unsigned>, 4> perCounter;
};

/// Inserts the waits `code` (an amdgcn.kernel or amdgcn.device_function)
/// needs (see kWaitcntDoc). Fails with a diagnostic at the op when an
/// instruction counts on a counter the target has no wait instruction for
/// in the table.
mlir::FailureOr<WaitcntStats> insertWaits(mlir::Operation *code);

/// The pass documentation (what it needs before, what it guarantees after).
extern const char *const kWaitcntDoc;

} // namespace aster

#endif
