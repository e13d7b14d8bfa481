//===- CU.h - the timing model's per-CU state (Model.cpp, Account.cpp) ----===//
#ifndef ASTER_EMULATOR_TIMING_CU_H
#define ASTER_EMULATOR_TIMING_CU_H

#include "emulator/Launcher.h"
#include "emulator/timing/InstInfo.h"
#include "emulator/timing/Memory.h"
#include "emulator/timing/Params.h"
#include "emulator/timing/Result.h"
#include "emulator/timing/HugeSlots.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace aster::emu::timing::detail {

inline constexpr uint64_t kNever = ~0ull >> 2;

struct Group;

/// When a register's value is available to the wave's next instructions.
struct RegTime {
  uint64_t ready = 0;     ///< result available
  uint64_t fwd = 0;       ///< an MFMA result: available as the same range's srcC
                          ///< (forwarding)
  uint32_t fwdRange = 0;  ///< the MFMA destination range (first << 8 | count) that
                          ///< fwd is for; 0: none
};

struct TWave {
  // [host] What the turn loop reads of every wave each turn (w, done,
  // barrier, head, next) lies in its first host cache line, what an issue
  // reads and writes in the next ones, the register times (~15 KiB) last.
  // A turn read three or four lines of each wave and its Wave's pc (far
  // into the Wave) before: the states of a launch's thousands of waves are
  // far from the host's caches, and each line is a miss.
  Wave *w = nullptr;
  Group *g = nullptr;
  uint64_t head = 0;           ///< earliest issue of its next instruction
  uint32_t next = 0;           ///< its next instruction to issue (nextPc; set by computeHead)
  unsigned simd = 0;
  bool barrier = false, done = false;
  bool localNext = false;      ///< its next instruction is SIMD-local
  Stall headWhy = Stall::None;
  Stall blockWhy = Stall::Arbitration;  ///< why a ready wave did not issue
  Stall allowedWhy = Stall::None;
  uint32_t rec = 0;            ///< index of its WaveRecord
  uint64_t allowed = 0;        ///< earliest issue its previous instruction allows
  uint64_t baseline = 0;       ///< its next turn after the previous issue
  // [host] What an issue reads and writes besides: its second line, the
  // batch's length and first indices next to it.
  uint64_t fetchLine = ~0ull;  ///< the instruction-cache line it executes from
  uint64_t pendingUntil = 0;   ///< no result recorded in ready/fwd is later
  size_t qpos = 0;
  /// Its WaveRecord's counters, kept here while it runs and added to the
  /// record when it ends ([host]: the records of 1024 waves are far from
  /// the wave's hot state; one access per issued instruction missed).
  uint64_t instructions = 0;
  /// Blocks of kRegBlock register times that may be non-zero (bit b of
  /// word b / 64: regs[b * kRegBlock, (b + 1) * kRegBlock)); the others are
  /// all zero (never written). [host] One high-water mark over the tracked
  /// registers cleared every SGPR time below the VGPRs when a kernel wrote
  /// VCC or a VGPR (3.3 KiB a vector_add wave); per block, only the blocks
  /// the wave wrote.
  static constexpr unsigned kRegBlock = 8;
  static constexpr unsigned kRegBlocks = (kTrackCount + kRegBlock - 1) / kRegBlock;
  uint64_t regsDirty[(kRegBlocks + 63) / 64] = {};
  WaitOn waitOn = WaitOn::L1;  ///< what its head's s_waitcnt waits for
  WaitOn memLevel = WaitOn::L1;  ///< the level of the memory op being issued
  /// SIMD-local instructions the emulator already executed (in a batch)
  /// and the model has yet to issue, from qpos on.
  struct Batch {
    static constexpr size_t kMax = 256;  ///< instructions per batch
    size_t n = 0;
    uint32_t idx[kMax];
    size_t size() const { return n; }
    bool empty() const { return !n; }
    void clear() { n = 0; }
    void resize(size_t k) { n = k; }  ///< (k <= kMax; no initialisation)
    uint32_t *data() { return idx; }
    uint32_t operator[](size_t i) const { return idx[i]; }
  } queue;
  /// (added to only when it stalled)
  uint64_t stall[unsigned(Stall::Count)] = {};
  uint64_t waitedOn[unsigned(WaitOn::Count)] = {};
  /// Completion times of outstanding operations, in the wave's own state
  /// up to the inline counts ([host]: in std::vectors, each was a block of
  /// the host heap of its own, one more host cache miss per memory
  /// instruction and s_waitcnt of a wave).
  llvm::SmallVector<uint64_t, 16> vm, lds;
  llvm::SmallVector<uint64_t, 8> smem;
  llvm::SmallVector<uint8_t, 16> vmLevel;  ///< per vm entry: its deepest memory level
  /// Per tracked register: when its result is available (one host cache
  /// line holds all three facts of a register, read together).
  RegTime regs[kTrackCount];
};

/// Notes that t.regs[first, first + count) may be written (regsDirty).
inline void markRegsWritten(TWave &t, unsigned first, unsigned count) {
  if (!count)
    return;
  for (unsigned b = first / TWave::kRegBlock, e = (first + count - 1) / TWave::kRegBlock;
       b <= e; ++b)
    t.regsDirty[b / 64] |= 1ull << (b % 64);
}

/// Calls f(block's first RegTime, its count) for each block of t.regs that
/// may be non-zero (regsDirty).
template <typename TW, typename F> inline void forDirtyRegs(TW &t, F f) {  // (TWave, const or not)
  for (unsigned wd = 0; wd < std::size(t.regsDirty); ++wd)
    for (uint64_t m = t.regsDirty[wd]; m; m &= m - 1) {
      unsigned b = wd * 64 + unsigned(__builtin_ctzll(m));
      unsigned first = b * TWave::kRegBlock;
      f(t.regs + first, std::min<unsigned>(TWave::kRegBlock, kTrackCount - first));
    }
}

/// The wave's next instruction to issue (computeHead keeps it in t.next).
inline uint32_t nextPc(const TWave &t) {
  return t.qpos < t.queue.size() ? t.queue[t.qpos] : t.w->pc;
}

// [host] The small containers of a CU's model (its SIMDs' and workgroups'
// waves, its resident waves) hold their elements inline up to the usual
// counts: a launch makes each CU's model anew, and their heap blocks were
// ~6 of the ~11 host allocations per CU of a timed launch (64 workgroups:
// 719 a launch; 34 for a plain one).
struct Group {
  WorkgroupCtx ctx;
  llvm::SmallVector<TWave *, 16> waves;  ///< (at most 16: 1024 lanes)
  unsigned alive = 0, atBarrier = 0;
  uint64_t barrierLast = 0;
};

struct Simd {
  llvm::SmallVector<TWave *, 8> waves;  ///< oldest first
  unsigned active = 0;         ///< waves not ended
  uint64_t valuFree = 0, transFree = 0, mfmaFree = 0;
  uint64_t next = kNever;      ///< no wave can issue before this cycle
};

inline uint64_t turnAtOrAfter(unsigned simd, uint64_t t) { return t + ((simd + 4 - t % 4) % 4); }

/// Occupancy: resident workgroups per CU and the per-SIMD wave limit.
struct Occupancy {
  unsigned groups = 0, wavesPerSimd = 0;
  std::string limit;
};

Occupancy occupancy(const Params &P, const KernelInfo &k, unsigned wavesPerGroup,
                    uint32_t lds);

/// The last LDS access of one instruction and its bank cycles (memoryOp).
struct LdsMemo {
  bool valid = false;
  unsigned per = 0, cycles = 0, ideal = 0;
  uint64_t exec = 0;
  uint32_t dw[64 * 8];
  /// The address VGPR's lanes and EXEC (before any phase reordering) the
  /// result was computed for: the first check, before the dwords are formed.
  bool baseValid = false;
  uint64_t baseExec = 0;
  uint32_t base[64];
};

/// What the CU models of a launch share: the program's timing facts, the
/// pools of wave and workgroup state (a workgroup that ends on one CU leaves
/// its memory to the next one started anywhere), the instruction budget.
struct Shared {
  Shared(const Program &prog, const LaunchOptions &opts, const Params &P)
      : facts(programFacts(prog)), info(facts->info), stopAhead(facts->stopAhead) {
    // The instruction trace lists instructions as they execute: keep it in
    // issue order (no batches, no run-ahead).
    batching = !opts.traceLimit;
    while ((2u << lineShift) <= P.lineBytes)
      ++lineShift;
    if (P.icacheLine && !(P.icacheLine & (P.icacheLine - 1)))
      while ((2u << icacheShift) <= P.icacheLine)
        ++icacheShift;
    else
      icacheShift = ~0u;
    dispatcherFree.assign((P.numCUs + P.cusPerXcd - 1) / P.cusPerXcd, 0);
    ldsMemo.resize(prog.insts.size());
  }
  /// Another group's (Model.cpp): the same program facts, its own pools,
  /// memos, budget count and failure.
  explicit Shared(const Shared &o)
      : facts(o.facts), info(facts->info), stopAhead(facts->stopAhead), batching(o.batching),
        smallWaves(o.smallWaves), lineShift(o.lineShift),
        icacheShift(o.icacheShift) {
    dispatcherFree.assign(o.dispatcherFree.size(), 0);
    ldsMemo.resize(o.ldsMemo.size());
  }
  std::shared_ptr<const ProgramFacts> facts;  ///< the program's (made once per program)
  const std::vector<InstInfo> &info;
  const std::vector<uint8_t> &stopAhead;  ///< by index: not SIMD-local (ends a batch)
  bool batching = true;            ///< execute SIMD-local instructions in batches
                                   ///< and let SIMDs run ahead
  /// The launch's waves touch few registers (smallRegs): their state goes in
  /// 4 KiB host pages and more of them are kept for the next launch
  /// (Model.cpp: WavePool; host memory only, no effect on the model).
  bool smallWaves = false;
  static constexpr unsigned kSmallRegs = 64;  ///< VGPRs + AGPRs cleared per wave
  unsigned lineShift = 0;          ///< log2(P.lineBytes)
  unsigned icacheShift = 0;        ///< log2(P.icacheLine); ~0u: not a power of two
  std::vector<HugePtr<TWave>> twavesFree;
  std::vector<HugePtr<Wave>> wavesFree;
  std::vector<std::unique_ptr<Group>> groupsFree;
  std::vector<uint64_t> dispatcherFree;  ///< per XCD: its workgroup dispatcher's next free cycle
  std::vector<std::unique_ptr<LdsMemo>> ldsMemo;  ///< per instruction, LDS ones
  /// Takes up to `most` of the free waves earlier launches left (cleared as
  /// fresh ones), and gives this launch's back at its end.
  void takePooled(size_t most);
  void returnPooled();
  uint64_t executed = 0; ///< wave-instructions of the launch so far (budget)
  bool failed = false;   ///< a kernel fault or the budget ended the launch
  size_t eventRoom = 0;  ///< events the group may record (Result::events) this epoch
  /// Grouped launches (Epochs.cpp): by index, instructions that must not
  /// execute while groups run at once (atomics, s_sleep); nullptr: none.
  const uint8_t *serialAt = nullptr;
  /// A wave's next instruction is one of them: the group's CUs stop before
  /// their next turn, and the launch runs its groups one at a time from the
  /// next epoch on.
  bool wantSerial = false;
  /// The dense-MFMA thread of the host thread running the group (initWave's
  /// L.matrix is the launching thread's), or none.
  MatrixThread *matrix = nullptr;
};

/// One CU: its SIMDs, resident workgroups and waves, LDS and vector memory
/// pipeline. It runs in steps (runUntil) so that all CUs of a launch
/// advance together in global time (Model.cpp).
class CUModel {
public:
  CUModel(Launcher &LN, Worker &wk, const Params &P, Result &R, const Occupancy &occ,
          GlobalMemory &mem, Shared &sh)
      : LN(LN), L(LN.L), wk(wk), P(P), R(R), occ(occ), mem(mem), prog(L.prog->insts.data()),
        progSize(L.prog->insts.size()),
        info(sh.info), stopAhead(sh.stopAhead), batching(sh.batching),
        lineShift(sh.lineShift), icacheShift(sh.icacheShift), twavesFree(sh.twavesFree), wavesFree(sh.wavesFree),
        groupsFree(sh.groupsFree), dispatcherFree(sh.dispatcherFree), ldsMemo(sh.ldsMemo),
        executed(sh.executed),
        failed(sh.failed), eventRoom(sh.eventRoom), matrix(sh.matrix), smallWaves(sh.smallWaves),
        serialAt(sh.serialAt),
        wantSerial(sh.wantSerial) {}

  /// Makes this CU `cu` of a launch of `numGroups` workgroups and starts
  /// its first ones at cycle 0.
  void start(unsigned cu, uint64_t numGroups);
  /// Runs its turns before cycle `limit`, or until a wave's next
  /// instruction must run with the groups one at a time (Shared::wantSerial);
  /// false once it has nothing left to run (or the launch failed:
  /// Shared::failed, the fault in wk.error).
  bool runUntil(uint64_t limit);
  /// Asks the host to bring this CU's wave state into its caches (no
  /// effect on the model): called for the next CU of an epoch while the
  /// one before it runs.
  void prefetch() const;
  /// The cycle of its next turn.
  uint64_t now() const { return c; }
  /// All its workgroups ended.
  bool finished() const { return !resident; }
  /// Its last cycle: the last wave's end or the last result or memory
  /// access completing.
  uint64_t end() const { return std::max(lastEnd, drained); }
  /// Its last wave's end.
  uint64_t lastWaveEnd() const { return lastEnd; }

private:
  Launcher &LN;
  LaunchCtx &L;
  Worker &wk;
  const Params &P;
  Result &R;
  const Occupancy &occ;
  GlobalMemory &mem;
  const Inst *prog;
  const size_t progSize;  ///< instructions in prog ([host]: not a division per issue)
  const std::vector<InstInfo> &info;
  const std::vector<uint8_t> &stopAhead;
  const bool batching;
  const unsigned lineShift;
  const unsigned icacheShift;
  /// The instruction-cache line of code address a ([host]: a shift, not a
  /// division, per issued instruction).
  uint64_t icacheLineOf(uint64_t a) const {
    return icacheShift != ~0u ? a >> icacheShift : a / P.icacheLine;
  }
  std::vector<HugePtr<TWave>> &twavesFree;
  std::vector<HugePtr<Wave>> &wavesFree;
  std::vector<std::unique_ptr<Group>> &groupsFree;
  std::vector<uint64_t> &dispatcherFree;
  std::vector<std::unique_ptr<LdsMemo>> &ldsMemo;
  uint64_t &executed;
  bool &failed;
  const size_t &eventRoom;
  MatrixThread *const &matrix;
  const bool smallWaves;
  const uint8_t *const &serialAt;
  bool &wantSerial;
  Simd simd[4];
  llvm::SmallVector<HugePtr<TWave>, 32> wavePool;  ///< resident waves (32: 8 per SIMD)
  CUMemory cmem;         ///< its L1 and vector memory pipeline
  unsigned cu = 0, resident = 0;
  uint32_t ldsUsed = 0;
  uint64_t numGroups = 0, nextGroup = 0;
  uint64_t c = 0;        ///< the cycle of its next turn
  uint64_t drained = 0;  ///< the last completion (results, memory) so far
  uint64_t lastEnd = 0;
  uint64_t ldsFree = 0;  ///< the CU's LDS pipeline is busy until then
  /// The lane addresses memoryOp formed for the instruction issuing (read
  /// by its semantic too: Wave::formedFor).
  uint64_t laneAddr[64];
  /// [host] Nothing: a launch's CU models are one block and neighbouring
  /// CUs belong to different XCD groups, run by different host threads; a
  /// model's last line (laneAddr, written per vector-memory instruction)
  /// was the next model's first (its references, read per instruction).
  char apart_[64];

  bool dispatch(uint64_t g, uint64_t now);
  void finishGroup(Group *grp);
  /// The wave's next instruction is `pc`: when it can issue (t.head) and
  /// why not sooner. [host] Inline: most instructions need no register
  /// time (no result pending past t.allowed) and are not s_waitcnt, and the
  /// call's frame was most of the cost (~65 host instructions a call).
  void computeHead(TWave &t, uint32_t pc) {
    t.next = pc;
    t.localNext = !stopAhead[pc];
    if (serialAt && serialAt[pc])  // (before it can issue: Epochs.cpp)
      wantSerial = true;
    if ((prog[pc].nreads && t.pendingUntil > t.allowed) || info[pc].ctl == CTL_WAITCNT) {
      computeHeadSlow(t, pc);
      return;
    }
    t.head = t.allowed;
    t.headWhy = t.allowedWhy;
  }
  /// computeHead's register times and s_waitcnt counters (Account.cpp).
  void computeHeadSlow(TWave &t, uint32_t pc);
  uint64_t waitTime(TWave &t, const Inst &in);
  /// When the unit the instruction needs on its SIMD is free.
  uint64_t unitFree(const Simd &S, const InstInfo &ti) const {
    switch (ti.unit) {
    case Unit::VALU: return S.valuFree;
    case Unit::TRANS: return std::max(S.valuFree, S.transFree);
    case Unit::MFMA: return std::max(S.valuFree, S.mfmaFree);
    default: return 0;
    }
  }
  /// Executes wave t's next instruction at cycle c and accounts for it.
  void issue(TWave &t, uint64_t c);
  /// One issue turn of SIMD s at cycle c: returns the earliest cycle a wave
  /// of it may issue next; `ended` when a wave ended. `alone`: no workgroup
  /// is left to start (run-ahead allowed).
  uint64_t turn(unsigned s, uint64_t c, bool &ended, bool alone);
  /// All live waves of SIMD s are at SIMD-local instructions.
  bool simdLocal(unsigned s) const;
  /// Issues the wave's SIMD-local instructions one after another (a wave
  /// alone on its SIMD; see run()).
  void runAhead(TWave &t, unsigned s);
  /// Executes the wave's next SIMD-local instructions as a batch into its
  /// queue; false after a fault.
  bool fillQueue(TWave &t);
  /// The timing effects of instruction `idx` issued at c (`done`/`busy`:
  /// from the memory model for memory instructions).
  void account(TWave &t, uint64_t c, uint32_t idx, uint32_t nextPc, uint64_t stall,
               Stall why, uint64_t done, uint16_t busy);
  /// Cycles between the wave's earliest issue and c, and the main cause.
  static Stall stallBefore(const TWave &t, uint64_t c, uint64_t &stall) {
    stall = c > t.baseline ? c - t.baseline : 0;
    if (!stall)
      return Stall::None;
    uint64_t waitedForHead = t.head > t.baseline ? t.head - t.baseline : 0;
    return waitedForHead && waitedForHead >= c - std::max(t.head, t.baseline) ? t.headWhy
                                                                              : t.blockWhy;
  }
  /// After executing: a kernel fault or an exhausted budget ends the launch.
  bool overBudget(Wave &w, const Inst &in) {
    // ([host] inline: the check, not a call, per issued instruction)
    if (__builtin_expect(w.status != WaveStatus::Error &&
                             !(L.opts.instructionBudget && executed > L.opts.instructionBudget),
                         1))
      return failed;
    return overBudgetFail(w, in);
  }
  bool overBudgetFail(Wave &w, const Inst &in);
  void releaseBarrier(Group &grp);
  uint64_t memoryOp(TWave &t, const Inst &in, const InstInfo &ti, uint64_t c,
                    uint16_t &busy);
  /// A scalar load issued at c: when its data is there (scalar cache).
  uint64_t scalarOp(TWave &t, const Inst &in, const InstInfo &ti, uint64_t c);
  /// The wave goes on at instruction `pc` from cycle c: its line must be in
  /// the instruction cache (t.allowed waits for a miss).
  void fetchNext(TWave &t, uint32_t pc, uint64_t c) {
    // ([host] inline: most instructions are on the line the last one was)
    uint64_t line = icacheLineOf(prog[pc].pc);
    if (line != t.fetchLine)
      fetchLine(t, line, c);
  }
  /// fetchNext's new line (Account.cpp).
  void fetchLine(TWave &t, uint64_t line, uint64_t c);
};

} // namespace aster::emu::timing::detail

#endif
