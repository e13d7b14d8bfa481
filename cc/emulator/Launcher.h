//===- Launcher.h - running the workgroups of one launch -----------------===//
//
// Shared by the plain run loop (Launch.cpp: workgroups one after another, or
// on worker threads) and the timing model's (timing/Model.cpp: the
// workgroups resident on a CU interleaved cycle by cycle).
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_LAUNCHER_H
#define ASTER_EMULATOR_LAUNCHER_H

#include "emulator/Wave.h"

#include <memory>
#include <mutex>

namespace aster::emu {

constexpr uint64_t kSysBase = 0x0000600000000000ull;  // kernarg, packet, queue

struct SysRegions {
  std::vector<uint8_t> kernarg, packet, queue, image;
  uint64_t kernargAddr = kSysBase, packetAddr = kSysBase + 0x100000,
           queueAddr = kSysBase + 0x200000;
};

/// Per-thread resources for running workgroups.
struct Worker {
  std::vector<std::unique_ptr<Wave>> waves;
  WorkgroupCtx wg;
  std::vector<std::string> warnings, trace;
  std::string error;
  uint64_t errorGroup = ~0ull;
  uint64_t cls[8] = {};
  uint64_t waveCount = 0, groups = 0;
  uint64_t unflushed = 0;  ///< executed, not yet added to LaunchCtx::instructions
};

class Launcher {
public:
  Launcher(LaunchCtx &L) : L(L) {}
  /// Runs workgroup `g`; false on error (in w.error).
  bool runGroup(Worker &w, uint64_t g);
  /// Sets up workgroup `g`'s ids and zeroed LDS.
  void initGroup(WorkgroupCtx &wg, uint64_t g);
  /// Sets wave `waveIdx` of workgroup `wg` to its initial state.
  void initWave(Wave &w, WorkgroupCtx &wg, Worker &wk, unsigned waveIdx);

  LaunchCtx &L;
  SysRegions sys;
  unsigned numWaves = 0;
  unsigned vgprsToClear = 0, agprsToClear = 0;
};

} // namespace aster::emu

#endif
