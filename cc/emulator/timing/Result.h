//===- Result.h - what a timed launch reports ------------------------------===//
//
// `LaunchOptions::timing` runs the timing model (cc/emulator/timing) next to
// the functional emulation; `LaunchStats::timing` then holds the launch's
// cycles, one record per wave, per-instruction events (issue, completion,
// stall before issue and its reason) and unit utilization.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_TIMING_RESULT_H
#define ASTER_EMULATOR_TIMING_RESULT_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace aster::emu::timing {

/// Why a wave's instruction issued later than the wave's previous one
/// allowed (the largest cause is recorded).
enum class Stall : uint8_t {
  None,        ///< issued at the first opportunity
  Arbitration, ///< ready, but the SIMD's slot went to an older wave
  Dependency,  ///< a source register was not ready (VALU/TRANS/MFMA result)
  MatrixCore,  ///< the SIMD's matrix core was busy with an earlier MFMA
  Unit,        ///< VALU or transcendental unit busy
  Waitcnt,     ///< s_waitcnt until the counter condition held
  Barrier,     ///< s_barrier until the workgroup's waves arrived
  Nop,         ///< s_nop / s_sleep
  Branch,      ///< taken-branch refill
  Dispatch,    ///< before its first instruction: the XCD's workgroup
               ///< dispatcher and the wave's start-up
  Fetch,       ///< its instruction's line was not in the instruction cache
  Count
};
inline const char *stallName(Stall s) {
  static const char *n[] = {"none",    "arbitration", "dependency", "matrix_core", "unit",
                            "waitcnt", "barrier",     "nop",        "branch",
                            "dispatch", "fetch"};
  return n[unsigned(s)];
}

/// What an `s_waitcnt` stall waited for: the deepest memory level of the
/// vector-memory instruction it waited on (L1 .. HBM), or an LDS or scalar
/// (SMEM) result.
enum class WaitOn : uint8_t { L1, L2, MALL, HBM, LDS, SMEM, Count };
inline const char *waitOnName(WaitOn w) {
  static const char *n[] = {"l1", "l2", "mall", "hbm", "lds", "smem"};
  return n[unsigned(w)];
}

/// Execution units, for events and utilization.
enum class Unit : uint8_t { VALU, TRANS, MFMA, SALU, SMEM, VMEM, LDS, Branch, Internal, Count };
inline const char *unitName(Unit u) {
  static const char *n[] = {"valu", "trans", "mfma", "salu", "smem",
                            "vmem", "lds",   "branch", "internal"};
  return n[unsigned(u)];
}

/// One issued instruction. `issue + dur` is its completion (result written,
/// memory op counted down); `stall` cycles passed between the earliest
/// issue the wave's previous instruction allowed and `issue`.
struct Event {
  uint64_t issue;
  uint32_t dur;
  uint32_t stall;
  uint32_t inst;   ///< index into Result::text
  uint32_t wave;   ///< index into Result::waves
  uint16_t busy;   ///< cycles the unit was occupied (MFMA passes x 4, LDS
                   ///< bank cycles, vector-memory cycles)
  uint8_t reason;  ///< Stall
  uint8_t unit;    ///< Unit
  uint32_t pad = 0;
};
static_assert(sizeof(Event) == 32, "Event layout is read from Python");

struct WaveRecord {
  uint32_t cu, simd, waveInGroup;
  uint64_t group;  ///< linear workgroup id
  uint64_t start, end;
  uint64_t instructions = 0;
  uint64_t stall[unsigned(Stall::Count)] = {};
  /// The Waitcnt stall cycles split by what the wave waited for.
  uint64_t waitOn[unsigned(WaitOn::Count)] = {};
};

struct Result {
  uint64_t cycles = 0;                   ///< whole launch (waves, from the
                                         ///< first dispatch to the last store)
  double clockMHz = 0;                   ///< the device's peak engine clock
  std::string device;                    ///< the profile (Params::device)
  /// Wall time on the device: launchUs + cycles / effectiveMHz.
  double microseconds = 0;
  double launchUs = 0;                   ///< Params::launchUs
  double effectiveMHz = 0;               ///< the clock under this launch's MFMA load
  double mfmaUtilization = 0;            ///< matrix-core busy / (SIMDs x cycles)
  /// Cycles from the last wave's end until the last store or result
  /// landed (the drain at the end of the kernel).
  uint64_t drainCycles = 0;
  uint64_t icacheMisses = 0;             ///< instruction lines fetched from L2
  uint64_t scalarMisses = 0;             ///< scalar-cache lines fetched from L2
  unsigned cusUsed = 0;
  unsigned groupsPerCU = 0;              ///< occupancy: resident workgroups per CU
  unsigned wavesPerSimd = 0;             ///< occupancy limit per SIMD
  std::string occupancyLimit;            ///< what limits it: waves, vgprs, sgprs, lds, workgroups
  std::vector<WaveRecord> waves;
  std::vector<Event> events;             ///< per CU in issue order, the CUs
                                         ///< interleaved by epoch (Model.cpp)
  bool eventsTruncated = false;
  /// Instruction text by index (the program's, shared: not copied per launch).
  std::shared_ptr<const std::vector<std::string>> text;
  uint64_t unitBusy[unsigned(Unit::Count)] = {};   ///< summed over SIMDs/CUs
  uint64_t unitCount[unsigned(Unit::Count)] = {};  ///< instructions per unit
  uint64_t ldsCycles = 0, ldsIdealCycles = 0;      ///< bank-conflict factor
  uint64_t memLines[5] = {};             ///< vector-memory lines: L1, L2, MALL, HBM;
                                         ///< [4]: lines atomics updated at L2
};

} // namespace aster::emu::timing

#endif
