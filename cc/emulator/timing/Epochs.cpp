//===- Epochs.cpp - the CUs of a launch in time: epochs, XCD groups, threads ===//
//
// Needs: the CU models (Model.cpp, Account.cpp: a CUModel runs its turns up
// to a cycle) and the memory hierarchy (Memory.h: GlobalMemory, grouped or
// not). Guarantees: the launch's cycles, events, wave records, results and
// reports are the same run to run and for any number of host threads
// (ASTER_TIMING_THREADS; tests/py/test_timing_threads.py).
//
// Epochs. All CUs advance together in epochs of Params::epochCycles of
// global time: each runs its turns of the epoch, then the next epoch
// starts (skipping time no CU has a turn in). Within an epoch the CUs of a
// group run one after another in a new order every epoch (a shuffle from
// a fixed seed per group), so that when a bandwidth is oversubscribed no
// CU is first, or last, to it for long.
//
// Groups. A grouped launch makes a group of each XCD's CUs. An XCD's L2,
// L2 bandwidth, workgroup dispatcher and its CUs' own caches belong to it
// alone, so its CUs can advance through an epoch without the others: the
// groups of an epoch run on the host threads at once (group g on thread
// g mod threads, or on another thread done with its own), and see what
// all XCDs share (the Infinity Cache's lines, the MALL and HBM bandwidth)
// as it was at the epoch's start plus their own requests; at the epoch's
// end those are merged in XCD order (GlobalMemory::endEpochLines,
// endEpochBandwidth, endEpochSettle: the first two on two host threads at
// once), as are the groups' events (Result::events:
// each group's of the epoch, in XCD order), wave records (numbered in
// that order), budget counts and faults (the lowest XCD's fault is
// reported). A group's work depends only on the state at the epoch's
// start and its own CUs, so the threads only change who computes it. The
// groups' CUs also start their first workgroups on the threads at once,
// before the first epoch (each group's in CU order).
//
// Serial: the groups run one after another on the launching thread, each
// request seeing all before it (the model before groups, with the CUs in
// group order). From the epoch after a wave's next instruction is an
// atomic (vector or scalar: workgroups exchanging data through memory) or
// s_sleep (a spin-wait's): the group stops before that instruction can
// issue (Shared::wantSerial), so none executes while groups run at once.
// One group of all CUs (exactly the model before groups): launches of fewer
// than 1024 waves, with an instruction trace (kept in execution order) or
// with ASTER_TIMING_THREADS=0 (unset: grouped, on the cores the process may
// use),
// the caller's choice for a kernel whose workgroups exchange data through
// plain loads and stores. Other kernels' workgroups only read what no
// other workgroup writes during the launch, so running them at once on
// several host threads gives the same results.
//
//===----------------------------------------------------------------------===//
#include "emulator/timing/Model.h"

#include "emulator/timing/CU.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <functional>
#include <mutex>
#include <sched.h>
#include <thread>

namespace aster::emu::timing {

using namespace detail;

namespace {

/// One group of CUs that advances on its own between epoch boundaries.
struct CUGroup {
  std::unique_ptr<Shared> sh;  ///< its pools, memos, budget count, failure
  Worker wk;                   ///< its fault, warnings and counts
  Result part;                 ///< its wave records, its events of the epoch, its counters
  std::vector<unsigned> live;  ///< its CUs (indices into the models) not finished
  uint64_t rng = 0;
  std::vector<uint32_t> waveIndex;  ///< part.waves[i] is the launch's waves[waveIndex[i]]
  /// [host] Nothing: the groups are one block (744 bytes each), run by
  /// different host threads; the next group's state shares no host cache
  /// line with this one's result counters (written per instruction).
  char apart_[64];
};

/// Host threads for one launch: run() calls work(t) on threads t = 0 (the
/// caller) .. n - 1 and returns when all are done. The threads exist only
/// during the launch (a process may fork between launches).
class EpochThreads {
public:
  EpochThreads(unsigned n, std::function<void(unsigned)> work) : work_(std::move(work)) {
    for (unsigned t = 1; t < n; ++t)
      threads_.emplace_back([this, t] { loop(t); });
  }
  ~EpochThreads() {
    {
      std::lock_guard<std::mutex> lk(m_);
      stop_ = true;
    }
    start_.notify_all();
    for (std::thread &t : threads_)
      t.join();
  }
  void run() {
    {
      std::lock_guard<std::mutex> lk(m_);
      ++round_;
      pending_ = unsigned(threads_.size());
    }
    start_.notify_all();
    call(0);
    std::unique_lock<std::mutex> lk(m_);
    done_.wait(lk, [&] { return pending_ == 0; });
    if (error_) {
      std::exception_ptr e = error_;
      error_ = nullptr;
      std::rethrow_exception(e);
    }
  }

private:
  std::function<void(unsigned)> work_;
  std::vector<std::thread> threads_;
  std::mutex m_;
  std::condition_variable start_, done_;
  uint64_t round_ = 0;
  unsigned pending_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
  void call(unsigned t) {
    try {
      work_(t);
    } catch (...) {  // (std::bad_alloc: rethrown on the caller's thread)
      std::lock_guard<std::mutex> lk(m_);
      if (!error_)
        error_ = std::current_exception();
    }
  }
  void loop(unsigned t) {
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lk(m_);
        start_.wait(lk, [&] { return stop_ || round_ != seen; });
        if (stop_)
          return;
        seen = round_;
      }
      call(t);
      std::lock_guard<std::mutex> lk(m_);
      if (--pending_ == 0)
        done_.notify_one();
    }
  }
};

/// The cores this process may run on (taskset).
unsigned hostCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
    return unsigned(CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

/// Host threads for grouped launches: ASTER_TIMING_THREADS (read per
/// launch; 0: one group of all CUs, the model before the groups), unset:
/// the cores this process may use. The grouped model's cycles do not
/// depend on the number.
unsigned timingThreads() {
  if (const char *e = std::getenv("ASTER_TIMING_THREADS"); e && *e) {
    char *end = nullptr;
    unsigned long n = std::strtoul(e, &end, 10);
    if (end && !*end)
      return unsigned(std::min<unsigned long>(n, 256));
  }
  return std::min(hostCores(), 256u);
}

/// [host] The event and wave-record buffers of results the caller has let
/// go, and of the groups' parts, kept for the next launch: freed, they were
/// handed back to the host (the heap's top trimmed, or unmapped), and the
/// next launch paid a page fault per 4 KiB it wrote again (a 64-workgroup
/// vector_add: 12 a launch; a 1024-workgroup one ~400, its groups' events
/// grown by reallocation every launch).
struct ResultBuffers {
  static constexpr size_t kKeep = 16, kKeepBytes = size_t(64) << 20;  // in all
  std::mutex m;
  size_t bytes = 0;
  std::vector<std::pair<std::vector<Event>, std::vector<WaveRecord>>> free;
};
ResultBuffers &resultBuffers(bool part) {
  static ResultBuffers *b = new ResultBuffers[2];  // (never destroyed: results
  return b[part];                                  // may outlive static teardown)
}
size_t bufferBytes(const Result &r) {
  return r.events.capacity() * sizeof(Event) + r.waves.capacity() * sizeof(WaveRecord);
}
void takeBuffers(Result &r, bool part) {
  ResultBuffers &b = resultBuffers(part);
  std::lock_guard<std::mutex> lk(b.m);
  if (b.free.empty())
    return;
  r.events = std::move(b.free.back().first);
  r.waves = std::move(b.free.back().second);
  b.free.pop_back();
  b.bytes -= bufferBytes(r);
  r.events.clear();
  r.waves.clear();
}
void giveBuffers(Result &r, bool part) {
  size_t bytes = bufferBytes(r);
  ResultBuffers &b = resultBuffers(part);
  std::lock_guard<std::mutex> lk(b.m);
  if (bytes && b.free.size() < ResultBuffers::kKeep &&
      b.bytes + bytes <= ResultBuffers::kKeepBytes) {
    b.free.emplace_back(std::move(r.events), std::move(r.waves));
    b.bytes += bytes;
  }
}

std::shared_ptr<Result> newResult() {
  std::shared_ptr<Result> R(new Result, [](Result *r) {
    giveBuffers(*r, false);
    delete r;
  });
  takeBuffers(*R, false);
  return R;
}

} // namespace

llvm::Expected<std::shared_ptr<Result>> runTimed(Launcher &LN, Worker &wk,
                                                 const KernelInfo &k) {
  LaunchCtx &L = LN.L;
  std::string processor = L.co->processor().str();
  std::string device = L.opts.timingDevice.empty() ? Params::defaultDevice(processor)
                                                   : L.opts.timingDevice;
  Params P;
  if (!Params::forDevice(device, P)) {
    std::string known;
    for (const std::string &d : Params::devices())
      known += (known.empty() ? "" : ", ") + d;
    return llvm::createStringError("timing model: no device profile '" + device +
                                   "' (profiles: " + known + ")");
  }
  P.dataInMall = L.opts.timingDataInMall;
  if ((P.target == "gfx950") != (processor == "gfx950"))
    return llvm::createStringError("timing model: device " + device + " runs " + P.target +
                                   " code; the code object is for " + processor);
  L.realtimeDivisor = P.clockMHz / P.realtimeMHz;
  auto R = newResult();  // (with an earlier result's buffers, emptied)
  R->clockMHz = P.clockMHz;
  R->device = P.device;
  Occupancy occ = occupancy(P, k, LN.numWaves, L.ldsSize);
  if (!occ.groups)
    return llvm::createStringError(
        "launch of kernel " + k.name + ": a workgroup of " + llvm::Twine(LN.numWaves) +
        " waves does not fit on a CU with " + llvm::Twine(occ.wavesPerSimd) +
        " waves per SIMD (limited by " + occ.limit + ") for the timing model");
  R->groupsPerCU = occ.groups;
  R->wavesPerSimd = occ.wavesPerSimd;
  R->occupancyLimit = occ.limit;
  uint64_t numGroups = L.grid.count();
  unsigned cus = unsigned(std::min<uint64_t>(numGroups, P.numCUs));
  R->cusUsed = cus;
  // (grows: a large reservation is mapped anew by the host each launch,
  // and a small launch then pays a page fault per 4 KiB of events)
  R->events.reserve(std::min<size_t>(L.opts.timingEvents, 1 << 12));
  R->waves.reserve(size_t(std::min<uint64_t>(numGroups, 1 << 16)) * LN.numWaves);
  auto memHolder = GlobalMemory::take(P);  // (an earlier launch's, reset)
  GlobalMemory &mem = *memHolder;
  if (P.codeWarm)
    mem.warmCode(L.kernel->entryAddr, L.prog->end, cus);

  // The groups: one per XCD the launch uses, or one of all CUs.
  auto first = std::make_unique<Shared>(*L.prog, L.opts, P);
  first->smallWaves = LN.vgprsToClear + LN.agprsToClear <= Shared::kSmallRegs;
  unsigned threads = timingThreads();
  // [host] A launch of fewer than 1024 waves (vector_add on 64 workgroups:
  // 256) is one group: its few epochs cost less than the groups' setup and
  // merges (1.34 vs 1.83 ms for that vector_add).
  bool grouped = threads > 0 && mem.groupable() && !L.opts.traceLimit &&
                 numGroups * LN.numWaves >= 1024;
  // What must not execute while groups run at once: atomics (workgroups
  // exchanging data through memory) and s_sleep (a spin-wait's).
  const std::vector<uint8_t> &serialAt = first->facts->serialAt;
  R->text = first->facts->text;
  unsigned ngroups = grouped ? std::min(mem.xcds(), cus) : 1;
  threads = std::max(1u, std::min(threads, ngroups));
  if (grouped)
    mem.setGrouped();
  std::vector<CUGroup> groups(ngroups);
  // Dense MFMAs: the launching thread's matrix thread (Launch.cpp) for its
  // groups, one more per other host thread (a matrix thread has one
  // producer).
  // Only where the host has cores to spare beyond the timing threads
  // ([host]: on two cores, two timing threads and their matrix threads took
  // more CPU than the timing threads computing the MFMAs themselves).
  bool matrixThreads = L.matrix && (threads == 1 || threads < hostCores());
  std::vector<std::unique_ptr<MatrixThread>> matrices(threads);
  for (unsigned t = 1; t < threads && matrixThreads; ++t)
    matrices[t] = std::make_unique<MatrixThread>();
  // [host] The waves each group can have alive at once: on each of its
  // CUs, its workgroups up to the resident limit (a pooled wave taken by a
  // group that does not need it is a wave another group makes anew).
  std::vector<uint64_t> alive(ngroups, 0);
  for (unsigned cu = 0; cu < cus; ++cu) {
    uint64_t onCU = (numGroups - cu + P.numCUs - 1) / P.numCUs;  // (cu < numGroups)
    alive[grouped ? mem.xcdOf(cu) : 0] += std::min<uint64_t>(onCU, occ.groups) * LN.numWaves;
  }
  // [host] One group writes its events and wave records into the launch's
  // result directly: its records are the launch's in the same order (no
  // per-epoch copy, and the result's reserved events are used, not a second
  // buffer grown by reallocation and page faults per launch).
  const bool direct = !grouped;  // (one group)
  for (unsigned g = 0; g < ngroups; ++g) {
    CUGroup &G = groups[g];
    G.sh = g ? std::make_unique<Shared>(*groups[0].sh) : std::move(first);
    G.sh->matrix = !matrixThreads ? nullptr : g % threads ? matrices[g % threads].get() : L.matrix;
    G.sh->serialAt = grouped ? serialAt.data() : nullptr;
    G.rng = 0x9e3779b97f4a7c15ull + g * 0x632be59bd9b4e019ull;  // xorshift64: never 0
    G.sh->takePooled(size_t(alive[g]));
    if (!direct)
      takeBuffers(G.part, true);  // (an earlier launch's groups', emptied)
  }
  // The host threads run `phase` (the CUs' start, then each epoch).
  std::function<void(unsigned)> phase;
  EpochThreads pool(threads, [&phase](unsigned t) { phase(t); });
  // (in one block: [host] a heap block per CU model was 64 of a 64-workgroup
  // launch's ~200 allocations; reserved, the models never move)
  std::vector<CUModel> models;
  models.reserve(cus);
  for (CUGroup &G : groups)
    G.live.reserve(grouped ? (cus + ngroups - 1) / ngroups + 1 : cus);
  for (unsigned cu = 0; cu < cus; ++cu) {
    CUGroup &G = groups[grouped ? mem.xcdOf(cu) : 0];
    models.emplace_back(LN, G.wk, P, direct ? *R : G.part, occ, mem, *G.sh);
    G.live.push_back(cu);
  }
  // The CUs start their first workgroups at cycle 0, in CU order within
  // each group. [host] A grouped launch's groups start on the host threads
  // at once: what a CU's start touches is its group's (pools, dispatcher,
  // wave records, its XCD's caches and view of the shared ones: Memory.h),
  // so the threads only change who computes it (a 1024-workgroup
  // vector_add: its 4096 waves' start-up was ~8% of the launch's CPU, all
  // on the launching thread before the first epoch).
  // [host] Which host thread runs a group changes only who computes it, so
  // a thread that is done with its own groups (g mod threads = t, in order)
  // takes the others' not yet begun, last first: a thread the host kept
  // off its core, or given the costlier groups, no longer holds the round
  // up (a 1024-workgroup vector_add on two cores shared with other work:
  // the rounds' two threads finished 1-10 ms apart; the XCDs' costs of an
  // epoch differ up to 3x, some XCDs' waves run ahead). Not with matrix
  // threads: a matrix thread has one producer, the host thread of its
  // groups.
  const bool steal = threads > 1 && !matrixThreads;
  const unsigned items = std::max(ngroups, 2u);
  std::unique_ptr<std::atomic<bool>[]> claimed(new std::atomic<bool>[items]);
  auto newRound = [&] {
    for (unsigned i = 0; i < items; ++i)
      claimed[i].store(false, std::memory_order_relaxed);
  };
  // Items 0 .. n-1 of a round on thread t: its own (i mod threads = t), then,
  // with `mayTake`, the others' not yet begun.
  auto forItems = [&](unsigned t, unsigned n, bool mayTake, auto f) {
    if (!mayTake) {
      for (unsigned i = t; i < n; i += threads)
        f(i);
      return;
    }
    for (unsigned i = t; i < n; i += threads)
      if (!claimed[i].exchange(true, std::memory_order_relaxed))
        f(i);
    for (unsigned k = 1; k < threads; ++k) {
      unsigned o = (t + k) % threads;  // another thread's items, last first
      if (o >= n)
        continue;
      for (unsigned i = o + (n - 1 - o) / threads * threads;; i -= threads) {
        if (!claimed[i].exchange(true, std::memory_order_relaxed))
          f(i);
        if (i < threads)
          break;
      }
    }
  };
  auto forGroups = [&](unsigned t, auto f) { forItems(t, ngroups, steal, f); };
  phase = [&](unsigned t) {
    forGroups(t, [&](unsigned g) {
      for (unsigned cu : groups[g].live)
        models[cu].start(cu, numGroups);
    });
  };
  newRound();
  pool.run();
  // [host] The CUs' wave state is brought into the host's caches one CU
  // ahead when all of it exceeds them (a 2048^3 GEMM: 1024 waves of ~50 KiB
  // of registers, each CU's reloaded every epoch); a small launch's stays
  // cached and skips it, as do small waves (Shared::smallWaves: a few host
  // cache lines each, in 4 KiB pages; [host] the 4096 waves of a
  // 1024-workgroup vector_add spent more in the prefetches' page walks than
  // their misses cost).
  uint64_t waveBytes = uint64_t(LN.vgprsToClear + LN.agprsToClear) * 64 * 4 + 4096;
  bool prefetchStates =
      !groups[0].sh->smallWaves &&
      uint64_t(cus) * occ.groups * LN.numWaves * waveBytes > (uint64_t(16) << 20);
  uint64_t T = 0;
  auto runCUs = [&](std::vector<unsigned> &live, uint64_t &rng, auto failedNow) {
    auto random = [&rng] {  // xorshift64: the same sequence everywhere
      rng ^= rng << 13;
      rng ^= rng >> 7;
      rng ^= rng << 17;
      return rng;
    };
    for (size_t i = live.size(); i > 1; --i)
      std::swap(live[i - 1], live[random() % i]);
    for (size_t i = 0; i < live.size(); ++i) {
      if (prefetchStates && i + 1 < live.size())
        models[live[i + 1]].prefetch();
      if (!failedNow())
        models[live[i]].runUntil(T);
    }
  };
  auto runGroup = [&](CUGroup &G) { runCUs(G.live, G.rng, [&G] { return G.sh->failed; }); };
  // Serial: the groups one after another on this thread, every request
  // seeing all before it (from the start, or from the epoch after a wave
  // reached an instruction of serialAt).
  // After a switch the CUs of all groups run in one order, shuffled anew
  // every epoch (as with one group).
  bool serial = !grouped;
  std::vector<unsigned> serialLive;
  uint64_t serialRng = groups[0].rng;
  auto toSerial = [&] {
    serial = true;
    mem.setUngrouped();
    for (CUGroup &G : groups) {
      G.sh->serialAt = nullptr;
      G.sh->wantSerial = false;
      serialLive.insert(serialLive.end(), G.live.begin(), G.live.end());
    }
    std::sort(serialLive.begin(), serialLive.end());
  };
  if (std::any_of(groups.begin(), groups.end(),
                  [](const CUGroup &G) { return G.sh->wantSerial; }))
    toSerial();  // (a wave starts at one)
  uint64_t executed = 0;  // wave-instructions of all groups (the budget)
  std::vector<uint64_t> again;
  const size_t limit = L.opts.timingEvents;
  // The two tasks of an epoch's end. [host] They touch disjoint state, so
  // they run on two host threads at once, when both are awake (the other
  // threads waited for the launching thread's merge: of a 1024-workgroup
  // vector_add's epoch, the lines ~0.2-0.3 ms, the calendars, events and
  // records ~0.1-0.4 ms); GlobalMemory::endEpochSettle after both.
  auto endTask = [&](unsigned k) {
    if (k == 0) {  // the Infinity Cache's lines
      mem.endEpochLines(again);
      return;
    }
    mem.endEpochBandwidth();
    // The groups' wave records and events of the epoch, in XCD order.
    for (CUGroup &G : groups) {
      for (size_t i = G.waveIndex.size(); !direct && i < G.part.waves.size(); ++i) {
        G.waveIndex.push_back(uint32_t(R->waves.size()));
        R->waves.push_back(G.part.waves[i]);  // (completed at the launch's end)
      }
      // (in one block, then the waves renumbered in place)
      size_t take = std::min(G.part.events.size(), limit - std::min(limit, R->events.size()));
      R->eventsTruncated |= take < G.part.events.size();
      size_t at = R->events.size();
      R->events.insert(R->events.end(), G.part.events.begin(), G.part.events.begin() + take);
      for (size_t i = at; i < R->events.size(); ++i)
        R->events[i].wave = G.waveIndex[R->events[i].wave];
      G.part.events.clear();
    }
  };
  bool merging = false;  // (the host threads run endTask)
  phase = [&](unsigned t) {
    if (merging) {
      forItems(t, 2, true, endTask);
      return;
    }
    if (serial && ngroups > 1) {
      if (!t) {
        serialLive.erase(std::remove_if(serialLive.begin(), serialLive.end(),
                                        [&](unsigned cu) { return models[cu].finished(); }),
                         serialLive.end());
        runCUs(serialLive, serialRng, [&] {
          return std::any_of(groups.begin(), groups.end(),
                             [](const CUGroup &G) { return G.sh->failed; });
        });
      }
      return;
    }
    forGroups(t, [&](unsigned g) {
      if (!groups[g].live.empty())
        runGroup(groups[g]);
    });
  };
  bool failed = false, live = cus > 0;
  while (live && !failed) {
    // Skip time no CU has anything in (all waiting, or run ahead).
    uint64_t soonest = kNever;
    for (CUGroup &G : groups)
      for (unsigned cu : G.live)
        soonest = std::min(soonest, models[cu].now());
    T = std::max(T, soonest - soonest % P.epochCycles);
    mem.beginEpoch(T);
    T += P.epochCycles;
    size_t room = direct ? limit : limit - std::min(limit, R->events.size());
    for (CUGroup &G : groups) {
      G.sh->executed = executed;
      G.sh->eventRoom = room;
    }
    newRound();
    pool.run();
    // The epoch's end: the groups' requests, events and wave records are
    // merged in XCD order (two tasks, on the host threads at once).
    if (threads > 1 && !serial) {
      merging = true;
      newRound();
      pool.run();
      merging = false;
    } else {
      endTask(0);
      endTask(1);
    }
    mem.endEpochSettle();
    for (size_t x = 0; x < again.size() && x < groups.size(); ++x) {
      groups[x].part.memLines[HBM] -= again[x];  // (served as a miss merged
      groups[x].part.memLines[MALL] += again[x]; // into the first XCD's)
    }
    uint64_t before = executed;
    live = false;
    bool want = false;
    for (CUGroup &G : groups) {
      executed += G.sh->executed - before;
      G.live.erase(std::remove_if(G.live.begin(), G.live.end(),
                                  [&](unsigned cu) { return models[cu].finished(); }),
                   G.live.end());
      live |= !G.live.empty();
      failed |= G.sh->failed;
      want |= G.sh->wantSerial;
    }
    if (want && !serial)
      toSerial();
  }
  // The waves go away with the models: their MFMAs computed first.
  if (L.matrix)
    L.matrix->drain();
  for (auto &m : matrices)
    if (m)
      m->drain();
  for (CUGroup &G : groups) {
    if (!failed)
      G.sh->returnPooled();
    if (!direct) {  // (direct: the models wrote to *R)
      for (size_t i = 0; i < G.part.waves.size(); ++i)
        R->waves[G.waveIndex[i]] = G.part.waves[i];
      const Result &p = G.part;
      R->eventsTruncated |= p.eventsTruncated;
      R->icacheMisses += p.icacheMisses;
      R->scalarMisses += p.scalarMisses;
      R->ldsCycles += p.ldsCycles;
      R->ldsIdealCycles += p.ldsIdealCycles;
      for (unsigned u = 0; u < unsigned(Unit::Count); ++u) {
        R->unitBusy[u] += p.unitBusy[u];
        R->unitCount[u] += p.unitCount[u];
      }
      for (unsigned l = 0; l < 5; ++l)
        R->memLines[l] += p.memLines[l];
    }
    giveBuffers(G.part, true);
    // The worker's: the lowest XCD's fault, warnings and traces in XCD order.
    if (wk.error.empty() && !G.wk.error.empty())
      wk.error = G.wk.error;
    wk.warnings.insert(wk.warnings.end(), G.wk.warnings.begin(), G.wk.warnings.end());
    wk.trace.insert(wk.trace.end(), G.wk.trace.begin(), G.wk.trace.end());
    for (unsigned c = 0; c < 8; ++c)
      wk.cls[c] += G.wk.cls[c];
    wk.waveCount += G.wk.waveCount;
    wk.groups += G.wk.groups;
  }
  if (failed)
    wk.errorGroup = 0;
  for (auto &m : models)
    if (m.end() >= R->cycles) {
      R->cycles = m.end();
      R->drainCycles = m.end() - std::min(m.end(), m.lastWaveEnd());
    }
  // Wall time: the launch's fixed cost, and the cycles at the engine clock
  // its matrix-core load allows (the clock drops from peak towards
  // mfmaClockMHz with the share of all matrix cores of the device busy).
  double simdCycles = double(std::max<uint64_t>(R->cycles, 1)) * P.simdsPerCU * P.numCUs;
  R->mfmaUtilization = std::min(1.0, double(R->unitBusy[unsigned(Unit::MFMA)]) / simdCycles);
  R->effectiveMHz = P.clockMHz - (P.clockMHz - P.mfmaClockMHz) * R->mfmaUtilization;
  R->launchUs = P.launchUs;
  R->microseconds = P.launchUs + double(R->cycles) / R->effectiveMHz;
  return R;
}

} // namespace aster::emu::timing
