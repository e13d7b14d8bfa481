//===- Model.h - the timing model's entry point ---------------------------===//
#ifndef ASTER_EMULATOR_TIMING_MODEL_H
#define ASTER_EMULATOR_TIMING_MODEL_H

#include "emulator/Launcher.h"
#include "emulator/timing/Result.h"

#include "llvm/Support/Error.h"

#include <memory>

namespace aster::emu::timing {

/// Runs all workgroups of the launch through the timing model: workgroups
/// are placed on CUs (group g on CU g mod 304), as many resident per CU as
/// occupancy allows, and the waves of each CU issue cycle by cycle, each
/// instruction executed by the emulator when it issues. The CUs run side by
/// side in epochs of global time, sharing caches and bandwidth. A kernel fault is
/// left in `wk.error` (like Launcher::runGroup); an Error means the launch
/// cannot run at all (a workgroup does not fit on a CU).
llvm::Expected<std::shared_ptr<Result>> runTimed(Launcher &LN, Worker &wk,
                                                 const KernelInfo &k);

} // namespace aster::emu::timing

#endif
