//===- Schedule.h - amdgcn-schedule: list scheduling per basic block ------===//
//
// The order of instructions inside each basic block, chosen by a list
// scheduler on the timing model's machine facts (emulator/timing/Costs.h:
// issue period, VALU/transcendental/matrix-core busy cycles and result
// latencies, MFMA passes from the instruction table, memory latencies).
//   ScheduleGraph.cpp  regions (between fences) and their dependences
//   Schedule.cpp       the list scheduler, the cycle estimate, MaxLive
//   SchedulePass.cpp   the pass (options, statistics)
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_TRANSFORMS_SCHEDULE_H
#define ASTER_TRANSFORMS_SCHEDULE_H

#include "dialect/Dialect.h"

#include <cstdint>

namespace aster {

struct ScheduleOptions {
  /// false: latency first (the longest path to the region's end first;
  /// register pressure only over the limits); true: pressure first (the
  /// candidate that adds the fewest live registers first, then latency).
  bool pressureFirst = false;
  /// Ties between equally good candidates: 0 keeps the original order,
  /// any other value breaks them by a hash of (seed, op).
  uint64_t seed = 0;
  /// Live registers of virtual values (VGPR, SGPR, AGPR) the scheduler
  /// avoids exceeding (when the original order exceeds them, it does no
  /// worse than the best candidate at each step).
  unsigned maxLive[3] = {128, 96, 256};
};

/// What scheduling one kernel did.
struct ScheduleStats {
  uint64_t cyclesBefore = 0, cyclesAfter = 0; ///< estimated (see kScheduleDoc)
  unsigned maxLiveBefore[3] = {0, 0, 0};      ///< VGPR, SGPR, AGPR registers
  unsigned maxLiveAfter[3] = {0, 0, 0};
  unsigned regions = 0;  ///< regions scheduled
  unsigned frozen = 0;   ///< regions kept as written (sched_barrier {freeze})
  unsigned moved = 0;    ///< ops whose position in their region changed
};

/// Schedules every block of `kernel` (see kScheduleDoc).
mlir::FailureOr<ScheduleStats> scheduleKernel(mlir::Operation *kernel,
                                              const ScheduleOptions &opts);

/// The pass documentation (what it needs before, what it guarantees after).
extern const char *const kScheduleDoc;

} // namespace aster

#endif
