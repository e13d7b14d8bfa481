//===- Wave.h - wave state and the launch context it runs in -------------===//
#ifndef ASTER_EMULATOR_WAVE_H
#define ASTER_EMULATOR_WAVE_H

#include "emulator/Emulator.h"
#include "emulator/MatrixThread.h"
#include "emulator/Memory.h"
#include "emulator/Program.h"

#include <atomic>
#include <cstring>
#include <string>

namespace aster::emu {

/// Everything shared by the waves of one launch (read-only while running,
/// except the atomic counters).
struct LaunchCtx {
  const CodeObject *co = nullptr;
  const Program *prog = nullptr;
  const KernelInfo *kernel = nullptr;
  LaunchOptions opts;
  AddressSpace mem;
  Dim3 grid, block;
  uint32_t ldsSize = 0;
  uint32_t scratchPerLane = 0;
  bool threaded = false;
  std::atomic<uint64_t> instructions{0};  ///< budget accounting (per slice)
  std::atomic<bool> abort{false};
  uint64_t clockBase = 0;
  double realtimeDivisor = 21;  ///< shader clock / s_memrealtime clock (timing)
  MatrixThread *matrix = nullptr;  ///< computes the dense MFMAs, if set
};

/// The waves of one workgroup.
struct WorkgroupCtx {
  uint32_t id[3] = {0, 0, 0};
  uint64_t linearId = 0;
  std::vector<uint8_t> lds;
  unsigned numWaves = 0;
};

enum class WaveStatus : uint8_t { Running, Barrier, Ended, Error };

struct alignas(64) Wave {
  // ---- architectural state ----
  // Register files, padded so that no operand range can index past them.
  uint32_t v[kNumVgprSlots + 32][64];
  uint32_t a[kNumAgprs + 32][64];
  uint32_t s[SR_COUNT];
  bool scc = false;
  uint32_t mode = 0;
  /// VGPR index mode (s_set_gpr_idx_on/off; MODE.gpr_idx_en): while on,
  /// the VGPR operands of VALU instructions m0[15:12] selects (1 SRC0, 2
  /// SRC1, 4 SRC2, 8 DST) are offset by m0[7:0] (gprIndexed, SemSOPP.cpp).
  bool gprIdxOn = false;
  /// MODE.VSKIP (s_setvskip, s_setreg of MODE bit 28): vector instructions
  /// are not issued while it is set (Interp.cpp).
  bool vskip = false;
  Inst idxInst;  ///< the current instruction with the offsets applied
  uint32_t pc = 0;  ///< index of the next instruction
  WaveStatus status = WaveStatus::Running;
  bool stop = false;  ///< leave the run loop after this instruction

  // ---- context ----
  LaunchCtx *L = nullptr;
  WorkgroupCtx *wg = nullptr;
  unsigned waveId = 0;           ///< within the workgroup
  std::vector<uint8_t> scratch;  ///< private memory, scratchPerLane per lane
  const Region *lastRegion = nullptr;

  // ---- strict-mode tracking ----
  uint8_t rstate[kTrackCount];   ///< RS_* bits per tracked register
  uint32_t pendSeq[kTrackCount];
  uint32_t pendInst[kTrackCount];
  uint32_t vmIssued = 0, vmDone = 0, ldsIssued = 0, ldsDone = 0, smIssued = 0,
           smDone = 0;

  // ---- matrix thread (MatrixThread.h) ----
  MatrixThread *matrix = nullptr;  ///< queues the wave's dense MFMAs, if set
  uint64_t mxLast = 0;             ///< the wave's last queued job
  uint64_t mxWrite[kTrackCount];   ///< per register: the last job writing it (D)
  uint64_t mxRead[kTrackCount];    ///< per register: the last job reading it (C)

  // ---- timing model ----
  bool timed = false;    ///< the launch runs the timing model
  uint64_t now = 0;      ///< simulated cycle of the instruction executing

  // ---- statistics and errors ----
  uint64_t icount = 0;
  uint64_t clsCount[8] = {};
  std::string error;
  std::vector<std::string> *warnings = nullptr;
  std::vector<std::string> *trace = nullptr;  ///< set when tracing
  /// The timing model formed the active lanes' addresses of global
  /// instruction *formedFor (vmemLaneAddrs) just before it executes: its
  /// semantic reads them from formedAddr instead of forming them again
  /// ([host] ~200 host instructions per global load/store). Set and
  /// cleared around that one instruction (timing/Model.cpp: issue).
  const Inst *formedFor = nullptr;
  const uint64_t *formedAddr = nullptr;

  uint64_t exec() const {
    uint64_t e;
    std::memcpy(&e, &s[SR_EXEC], 8);
    return e;
  }
  void setExec(uint64_t e) { std::memcpy(&s[SR_EXEC], &e, 8); }
  uint64_t vcc() const {
    uint64_t e;
    std::memcpy(&e, &s[SR_VCC], 8);
    return e;
  }
  uint64_t sgpr64(unsigned r) const {
    uint64_t e;
    std::memcpy(&e, &s[r & 127], 8);
    return e;
  }
  void setSgpr64(unsigned r, uint64_t e) { std::memcpy(&s[r & 127], &e, 8); }

  /// Stops the wave with an error about instruction `in`.
  void fail(const Inst &in, const std::string &msg);
  /// Same, with the lane that caused it.
  void failLane(const Inst &in, unsigned lane, const std::string &msg);
  void warn(const Inst &in, const std::string &msg);
  /// Where the wave is, for messages: "wave W of workgroup (x,y,z)".
  std::string where() const;
};

enum RegState : uint8_t { RS_UNINIT = 1, RS_PENDING = 2 };

/// Runs `w` until it ends, waits at a barrier, fails or has executed `slice`
/// instructions. Returns the number executed.
uint64_t runWave(Wave &w, uint64_t slice);

/// Like runWave, but stops before an instruction whose `stopAt[index]` is
/// set, and writes the index of each executed instruction to `log` (the
/// timing model's run-ahead). No instruction trace.
uint64_t runWaveLogged(Wave &w, uint64_t slice, const uint8_t *stopAt, uint32_t *log);

/// Waits for the wave's queued MFMAs that instruction `in` (about to
/// execute) depends on (MatrixThread.h).
void matrixSyncSlow(Wave &w, const Inst &in);
inline void matrixSync(Wave &w, const Inst &in) {
  if (w.matrix && w.mxLast > w.matrix->done())
    matrixSyncSlow(w, in);
}

/// Formats "kernel K, pc 0x..: TEXT".
std::string describeInst(const LaunchCtx &L, const Inst &in);

} // namespace aster::emu

#endif
