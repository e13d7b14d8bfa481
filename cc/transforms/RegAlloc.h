//===- RegAlloc.h - register allocation of one kernel --------------------===//
#ifndef ASTER_TRANSFORMS_REGALLOC_H
#define ASTER_TRANSFORMS_REGALLOC_H

#include "dialect/Dialect.h"

namespace aster {

struct RegAllocOptions {
  /// Registers the allocator may use per class (VGPR, SGPR, AGPR), at most
  /// the target's.
  unsigned maxRegs[3] = {256, 102, 256};
};

/// What one allocation did, per class (VGPR, SGPR, AGPR).
struct RegAllocStats {
  unsigned used[3] = {0, 0, 0};    ///< highest register index + 1 in the kernel
  unsigned maxLive[3] = {0, 0, 0}; ///< most registers live at one point
  unsigned spills = 0;             ///< values spilled (to AGPRs or scratch)
  unsigned scratchSpills = 0;      ///< of which kept in scratch memory
  unsigned scratchBytes = 0;       ///< bytes their slots take (shared where disjoint)
  unsigned copies = 0;             ///< moves inserted (edges, tied operands)
  unsigned hazardNops = 0;         ///< s_nop inserted around spill code
};

/// Allocates every virtual register of `kernel` (see the pass documentation
/// in Passes.cpp). Diagnostics at the offending op on failure.
mlir::FailureOr<RegAllocStats> allocateRegisters(amdgcn::KernelOp kernel,
                                                 const RegAllocOptions &opts);

/// The pass documentation (what it needs before, what it guarantees after).
extern const char *const kRegAllocDoc;

} // namespace aster

#endif
