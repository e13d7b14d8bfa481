//===- Model.cpp - CUs, SIMDs and waves, issued cycle by cycle ------------===//
//
// The timing model (parameters and their sources: Params.h):
//  * a launch costs Params::launchUs of wall time besides its cycles, and
//    its cycles run at the clock its matrix-core load allows (runTimed).
//  * each XCD's dispatcher starts one wave per Params::waveDispatchCycles,
//    and a wave issues its first instruction Params::waveStartCycles after
//    its dispatch (register initialisation), once its code line is in the
//    instruction cache.
//  * workgroup g runs on CU slot g mod numCUs, slot c on XCD c mod XCDs
//    (round-robin over the XCDs: GlobalMemory::initCU); a CU keeps as many workgroups
//    resident as occupancy allows (waves per SIMD, VGPRs, SGPRs, LDS,
//    workgroups) and starts the next when one ends. The CUs advance
//    together in epochs of global time (Params::epochCycles, runTimed):
//    they share the L2s, the Infinity Cache and the L2/MALL/HBM bandwidth,
//    which serve requests by demand in time (Memory.h).
//  * a workgroup's waves go to the SIMDs with the fewest waves. The CU
//    serves SIMD (cycle mod 4) each cycle: among its waves that are ready,
//    oldest first, it issues at most one instruction per wave and one per
//    type (VALU incl. MFMA, scalar, vector memory, LDS, branch); s_nop,
//    s_waitcnt, s_barrier, s_endpgm take no slot.
//  * a wave's next instruction is ready when the previous one allows it
//    (s_nop N: N+1 more turns, s_sleep, taken branch), its source registers
//    are (VALU/TRANS/SALU/MFMA results; an MFMA's accumulator input that is
//    exactly an earlier MFMA's result range takes it as soon as the matrix
//    core is free: srcC forwarding), and for s_waitcnt when the counter
//    condition holds (vector memory and LDS results return in order, SMEM
//    in any order). Account.cpp has these rules; this file the scheduling.
//  * units: VALU 4 cycles per wave64 instruction, transcendental unit 16;
//    one matrix core per SIMD, busy passes x 4 cycles per MFMA (the passes
//    are in the instruction table); LDS and vector memory per CU (Memory.h).
// Each instruction executes (the emulator's semantic) at its issue cycle, so
// s_memtime reads simulated time and branches follow real data.
//
//===----------------------------------------------------------------------===//
#include "emulator/timing/Model.h"

#include "emulator/timing/CU.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <mutex>

namespace aster::emu::timing {

namespace detail {

namespace {
/// Wave state kept from one timed launch to the next: a launch keeps all its
/// CUs' waves alive at once, and fresh ones cost the host a page fault per
/// 4 KiB they touch (most of a small launch's time). At most kKeep of each
/// are kept (a Wave's touched registers stay allocated: about 130 KiB each
/// at 512 registers).
/// Small waves (Shared::smallWaves: in 4 KiB host pages, each touching
/// tens of KiB) are kept up to kKeepSmall: a 1024-workgroup launch of
/// 4-wave workgroups keeps 4096 alive ([host]: made anew, its waves'
/// pages cost more than the launch's model).
struct WavePool {
  static constexpr size_t kKeep = 512, kKeepSmall = 4096;
  std::mutex m;
  std::vector<HugePtr<Wave>> waves[2];  ///< [Shared::smallWaves]
  std::vector<HugePtr<TWave>> twaves[2];
  /// Workgroup states (Group), up to kKeepGroups, without their LDS when it
  /// is over kKeepLds bytes ([host]: each CU's first workgroup of a launch
  /// was a heap block made anew).
  static constexpr size_t kKeepGroups = 1024, kKeepLds = 4096;
  std::vector<std::unique_ptr<Group>> groups;
};
WavePool &wavePool() {
  static WavePool *p = new WavePool;  // never destroyed: launches may run at exit
  return *p;
}
} // namespace

void Shared::takePooled(size_t most) {
  WavePool &p = wavePool();
  std::lock_guard<std::mutex> lk(p.m);
  // The most recently returned last, in the same order: dispatch takes
  // from the back, so a launch starts the waves the last one used (still
  // in the host's caches) first ([host]: taken in reverse, launches of
  // fewer waves than the pool alternated between its halves).
  auto take = [most](auto &from, auto &to) {
    size_t k = std::min(most, from.size());
    for (size_t i = from.size() - k; i < from.size(); ++i)
      to.push_back(std::move(from[i]));
    from.resize(from.size() - k);
  };
  // (room for all the launch's waves and groups given back: no reallocation)
  wavesFree.reserve(most);
  twavesFree.reserve(most);
  groupsFree.reserve(most);
  take(p.waves[smallWaves], wavesFree);
  // (dispatch clears the register times a wave of any kernel wrote)
  take(p.twaves[smallWaves], twavesFree);
  take(p.groups, groupsFree);  // (initGroup sets all of a group's context)
}

void Shared::returnPooled() {
  WavePool &p = wavePool();
  std::lock_guard<std::mutex> lk(p.m);
  // The last freed (the most recently used) are kept when not all fit.
  const size_t keep = smallWaves ? WavePool::kKeepSmall : WavePool::kKeep;
  auto give = [keep](auto &from, auto &to) {
    size_t room = keep - std::min(keep, to.size());
    for (size_t i = from.size() - std::min(room, from.size()); i < from.size(); ++i)
      to.push_back(std::move(from[i]));
  };
  give(wavesFree, p.waves[smallWaves]);
  give(twavesFree, p.twaves[smallWaves]);
  for (std::unique_ptr<Group> &g : groupsFree) {
    if (p.groups.size() >= WavePool::kKeepGroups)
      break;
    if (g->ctx.lds.capacity() > WavePool::kKeepLds)
      std::vector<uint8_t>().swap(g->ctx.lds);
    p.groups.push_back(std::move(g));
  }
  wavesFree.clear();
  twavesFree.clear();
  groupsFree.clear();
}

Occupancy occupancy(const Params &P, const KernelInfo &k, unsigned wavesPerGroup,
                    uint32_t lds) {
  Occupancy o;
  unsigned vg = std::max(k.granulatedVgprs, std::max(k.vgprCount, 1u));
  vg = (vg + P.vgprGranule - 1) / P.vgprGranule * P.vgprGranule;
  unsigned sg = (k.sgprCount + P.sgprExtra + P.sgprGranule - 1) / P.sgprGranule * P.sgprGranule;
  unsigned byV = P.vgprsPerSimd / vg, byS = sg ? P.sgprsPerSimd / sg : P.wavesPerSimd;
  o.wavesPerSimd = std::min({P.wavesPerSimd, byV, byS});
  o.limit = o.wavesPerSimd == P.wavesPerSimd ? "waves" : o.wavesPerSimd == byV ? "vgprs" : "sgprs";
  unsigned perSimdNeeded = (wavesPerGroup + P.simdsPerCU - 1) / P.simdsPerCU;
  unsigned byWaves = perSimdNeeded > o.wavesPerSimd
                         ? 0
                         : o.wavesPerSimd * P.simdsPerCU / wavesPerGroup;
  unsigned byLds = lds ? P.ldsPerCU / lds : ~0u;
  o.groups = std::min({byWaves, byLds, P.workgroupsPerCU});
  if (o.groups == byLds && byLds < byWaves)
    o.limit = "lds";
  else if (o.groups == P.workgroupsPerCU && P.workgroupsPerCU < byWaves)
    o.limit = "workgroups";
  return o;
}

bool CUModel::dispatch(uint64_t g, uint64_t now) {
  unsigned n = LN.numWaves;
  if (resident >= occ.groups || (L.ldsSize && ldsUsed + L.ldsSize > P.ldsPerCU))
    return false;
  unsigned count[4];
  for (unsigned s = 0; s < 4; ++s)
    count[s] = unsigned(simd[s].waves.size());
  unsigned place[1024 / 64];
  for (unsigned i = 0; i < n; ++i) {
    unsigned best = 0;
    for (unsigned s = 1; s < 4; ++s)
      if (count[s] < count[best])
        best = s;
    if (count[best] >= occ.wavesPerSimd)
      return false;
    place[i] = best;
    ++count[best];
  }
  std::unique_ptr<Group> gp;
  if (groupsFree.empty()) {
    gp = std::make_unique<Group>();
  } else {
    gp = std::move(groupsFree.back());
    groupsFree.pop_back();
  }
  Group *grp = gp.release();
  LN.initGroup(grp->ctx, g);
  // The XCD's dispatcher starts the workgroup's waves one after another.
  uint64_t &disp = dispatcherFree[cmem.xcd];
  uint64_t first = std::max(now, disp);
  disp = first + uint64_t(n) * P.waveDispatchCycles;
  grp->waves.clear();
  grp->waves.reserve(n);
  grp->alive = n;
  grp->atBarrier = 0;
  grp->barrierLast = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (wavesFree.empty())  // not value-initialized: the CUs of a launch keep
      wavesFree.push_back(HugePtr<Wave>(hugeNew<Wave>(smallWaves)));  // many waves alive, and
                                    // initWave clears the registers the kernel has
    Wave *w = wavesFree.back().release();
    wavesFree.pop_back();
    LN.initWave(*w, grp->ctx, wk, i);
    if (w->matrix != matrix) {  // (the group's host thread has its own)
      w->matrix = matrix;
      if (matrix) {
        std::memset(w->mxWrite, 0, sizeof(w->mxWrite));
        std::memset(w->mxRead, 0, sizeof(w->mxRead));
      }
    }
    HugePtr<TWave> tw;
    if (twavesFree.empty()) {
      tw.reset(hugeNew<TWave>(smallWaves));  // (its register times value-initialised: zero)
    } else {
      tw = std::move(twavesFree.back());
      twavesFree.pop_back();
      // Only the blocks in regsDirty hold an earlier wave's times.
      forDirtyRegs(*tw, [](RegTime *r, unsigned n) {
        std::memset(static_cast<void *>(r), 0, n * sizeof(RegTime));
      });
      std::fill(std::begin(tw->regsDirty), std::end(tw->regsDirty), 0);
      tw->vm.clear();
      tw->vmLevel.clear();  // (kept in step with vm: the level of each entry)
      tw->waitOn = tw->memLevel = WaitOn::L1;
      tw->lds.clear();
      tw->smem.clear();
      tw->barrier = tw->done = false;
      tw->queue.clear();
      tw->qpos = 0;
      tw->pendingUntil = 0;
      tw->instructions = 0;
      std::fill(std::begin(tw->stall), std::end(tw->stall), 0);
      std::fill(std::begin(tw->waitedOn), std::end(tw->waitedOn), 0);
      tw->allowedWhy = tw->headWhy = Stall::None;
      tw->blockWhy = Stall::Arbitration;
    }
    TWave &t = *tw;
    t.w = w;
    t.g = grp;
    t.simd = place[i];
    t.rec = uint32_t(R.waves.size());
    WaveRecord rec;
    rec.cu = cu;
    rec.simd = place[i];
    rec.waveInGroup = i;
    rec.group = g;
    rec.start = now;
    rec.end = now;
    R.waves.push_back(rec);
    t.baseline = now;
    t.allowed = first + uint64_t(i + 1) * P.waveDispatchCycles + P.waveStartCycles;
    t.allowedWhy = Stall::Dispatch;
    t.fetchLine = ~0ull;
    fetchNext(t, t.w->pc, t.allowed);
    computeHead(t, t.w->pc);
    grp->waves.push_back(&t);
    simd[t.simd].waves.push_back(&t);
    ++simd[t.simd].active;
    simd[t.simd].next = std::min(simd[t.simd].next, t.head);
    wavePool.push_back(std::move(tw));
  }
  ++resident;
  ldsUsed += L.ldsSize;
  return true;
}

void CUModel::finishGroup(Group *grp) {
  for (TWave *t : grp->waves) {
    for (unsigned c = 0; c < 8; ++c)
      wk.cls[c] += t->w->clsCount[c];
    wavesFree.emplace_back(HugePtr<Wave>(t->w));
    t->w = nullptr;
  }
  wk.waveCount += grp->waves.size();
  ++wk.groups;
  for (Simd &S : simd)
    S.waves.erase(std::remove_if(S.waves.begin(), S.waves.end(),
                                 [&](TWave *t) { return t->g == grp; }),
                  S.waves.end());
  for (auto &t : wavePool)
    if (t->g == grp)
      twavesFree.push_back(std::move(t));
  wavePool.erase(std::remove(wavePool.begin(), wavePool.end(), nullptr), wavePool.end());
  groupsFree.emplace_back(grp);
  --resident;
  ldsUsed -= L.ldsSize;
}

void CUModel::releaseBarrier(Group &grp) {
  uint64_t at = grp.barrierLast + P.barrierCycles;
  for (TWave *o : grp.waves)
    if (o->barrier) {
      o->barrier = false;
      o->w->status = WaveStatus::Running;
      if (at > o->allowed) {
        o->allowed = at;
        o->allowedWhy = Stall::Barrier;
      }
      computeHead(*o, o->w->pc);
      simd[o->simd].next = std::min(simd[o->simd].next, o->head);
    }
  grp.atBarrier = 0;
}

bool CUModel::fillQueue(TWave &t) {
  Wave &w = *t.w;
  t.queue.resize(TWave::Batch::kMax);
  t.qpos = 0;
  uint64_t n = runWaveLogged(w, t.queue.size(), stopAhead.data(), t.queue.data());
  t.queue.resize(n);
  executed += n;
  return !(n && overBudget(w, prog[t.queue[n - 1]]));
}

void CUModel::issue(TWave &t, uint64_t c) {
  Wave &w = *t.w;
  // SIMD-local instructions execute in batches ahead of their issue: they
  // touch only their wave, so when they execute does not matter, and the
  // instructions that do (memory, LDS, barriers, s_memtime) execute at
  // their issue cycle, in cycle order, once the queue before them is empty.
  // (t.next: w.pc when the queue is empty, read without the Wave's line)
  if (t.qpos == t.queue.size() && batching && !stopAhead[t.next] && !fillQueue(t))
    return;
  if (t.qpos < t.queue.size()) {
    uint32_t idx = t.queue[t.qpos++];
    if (t.qpos == t.queue.size()) {
      t.queue.clear();
      t.qpos = 0;
    }
    uint32_t next = nextPc(t);
    uint64_t stall;
    Stall why = stallBefore(t, c, stall);
    account(t, c, idx, next, stall, why, c + P.saluLatency, 0);
    computeHead(t, next);
    return;
  }
  uint32_t idx = w.pc;
  const Inst &in = prog[idx];
  const InstInfo &ti = info[idx];
  matrixSync(w, in);  // the addresses below may come from an MFMA's result
  uint64_t stall;
  Stall why = stallBefore(t, c, stall);
  // Memory: addresses are read before the instruction changes registers.
  uint16_t busy = 0;
  uint64_t done = c + P.saluLatency;
  if (ti.unit == Unit::VMEM || ti.unit == Unit::LDS)
    done = memoryOp(t, in, ti, c, busy);
  else if (ti.addr == ADDR_SMEM || ti.addr == ADDR_SBUFFER)
    done = scalarOp(t, in, ti, c);
  w.now = c;
  executed += runWave(w, 1);
  w.formedFor = nullptr;  // (memoryOp's addresses were for that one instruction)
  if (overBudget(w, in))
    return;
  account(t, c, idx, w.pc, stall, why, done, busy);
  Group &grp = *t.g;
  if (w.status == WaveStatus::Ended) {
    t.done = true;
    --simd[t.simd].active;
    WaveRecord &rec = R.waves[t.rec];
    rec.end = c;
    rec.instructions += t.instructions;
    for (unsigned k = 0; k < unsigned(Stall::Count); ++k)
      rec.stall[k] += t.stall[k];
    for (unsigned k = 0; k < unsigned(WaitOn::Count); ++k)
      rec.waitOn[k] += t.waitedOn[k];
    lastEnd = std::max(lastEnd, c);
    --grp.alive;
    if (grp.alive && grp.atBarrier == grp.alive)
      releaseBarrier(grp);
    return;
  }
  if (w.status == WaveStatus::Barrier) {
    t.barrier = true;
    ++grp.atBarrier;
    grp.barrierLast = std::max(grp.barrierLast, c);
    if (grp.atBarrier == grp.alive)
      releaseBarrier(grp);
    return;
  }
  computeHead(t, w.pc);
}

void CUModel::runAhead(TWave &t, unsigned s) {
  Simd &S = simd[s];
  // The same as issue() on the queue, in one loop.
  for (;;) {
    if (t.qpos == t.queue.size() &&
        (stopAhead[t.w->pc] || !fillQueue(t) || t.queue.empty()))
      return;
    for (size_t n = t.queue.size(); t.qpos < n;) {
      uint32_t idx = t.queue[t.qpos++];
      uint32_t next = t.qpos < n ? t.queue[t.qpos] : t.w->pc;
      uint64_t uf = unitFree(S, info[idx]);
      if (uf > t.head)
        t.blockWhy = info[idx].unit == Unit::MFMA && S.mfmaFree > t.head ? Stall::MatrixCore
                                                                         : Stall::Unit;
      uint64_t c = turnAtOrAfter(s, std::max(t.head, uf));
      uint64_t stall;
      Stall why = stallBefore(t, c, stall);
      account(t, c, idx, next, stall, why, c + P.saluLatency, 0);
      computeHead(t, next);
    }
    t.queue.clear();
    t.qpos = 0;
  }
}

uint64_t CUModel::turn(unsigned s, uint64_t c, bool &ended, bool alone) {
  Simd &S = simd[s];
  uint64_t minNext = kNever;
  uint8_t slots = 0;
  // [host] The waves' first lines (what the loop reads) asked for at once:
  // cold ones (a CU's first turns of an epoch) arrive together, not one
  // after another (no effect on the model).
  for (TWave *t : S.waves)
    __builtin_prefetch(t);
  for (size_t i = 0; i < S.waves.size(); ++i) {
    TWave &t = *S.waves[i];
    if (t.done || t.barrier)
      continue;
    const InstInfo &ti = info[t.next];  // (nextPc(t), without reading its Wave)
    uint64_t uf = unitFree(S, ti);
    if (t.head > c || uf > c) {
      if (t.head <= c)
        t.blockWhy = ti.unit == Unit::MFMA && S.mfmaFree > c ? Stall::MatrixCore : Stall::Unit;
      minNext = std::min(minNext, std::max(t.head, uf));
      continue;
    }
    if (ti.slot != SLOT_NONE && (slots >> ti.slot & 1)) {
      t.blockWhy = Stall::Arbitration;
      minNext = std::min(minNext, c + 4);
      continue;
    }
    if (ti.slot != SLOT_NONE)
      slots |= uint8_t(1u << ti.slot);
    issue(t, c);
    if (alone && !failed && !t.done && !t.barrier && S.active == 1)
      runAhead(t, s);
    if (failed)
      return kNever;
    if (t.done)
      ended = true;
    else if (!t.barrier)
      minNext = std::min(minNext, std::max(t.head, c + 4));
  }
  return minNext;
}

bool CUModel::simdLocal(unsigned s) const {
  bool any = false;
  for (const TWave *t : simd[s].waves) {
    if (t->done)
      continue;
    if (t->barrier || !t->localNext)
      return false;
    any = true;
  }
  return any;
}

void CUModel::prefetch() const {
  auto lines = [](const void *p, size_t bytes) {
    const char *c = static_cast<const char *>(p);
    for (size_t o = 0; o < bytes; o += 64)
      __builtin_prefetch(c + o);
  };
  for (const HugePtr<TWave> &tp : wavePool) {
    const TWave &t = *tp;
    if (t.done)
      continue;
    lines(&t, size_t(reinterpret_cast<const char *>(&t.queue) -
                     reinterpret_cast<const char *>(&t)) +
                  64);  // (and the queue's first indices)
    forDirtyRegs(t, [&](const RegTime *r, unsigned n) { lines(r, n * sizeof(RegTime)); });
    if (const Wave *w = t.w) {
      lines(w->v, LN.vgprsToClear * sizeof(w->v[0]));
      lines(w->a, LN.agprsToClear * sizeof(w->a[0]));
      lines(w->s, sizeof(w->s));
      lines(&w->pc, 64);
      lines(w->rstate, sizeof(w->rstate));
      if (w->matrix) {
        lines(w->mxWrite + kTrackV, (kTrackCount - kTrackV) * sizeof(w->mxWrite[0]));
        lines(w->mxRead + kTrackV, (kTrackCount - kTrackV) * sizeof(w->mxRead[0]));
      }
    }
  }
  // The LDS of its workgroups (each once: their first wave).
  for (const HugePtr<TWave> &tp : wavePool)
    if (!tp->g->waves.empty() && tp->g->waves[0] == tp.get())
      lines(tp->g->ctx.lds.data(), tp->g->ctx.lds.size());
}

void CUModel::start(unsigned cuIdx, uint64_t groups) {
  cu = cuIdx;
  numGroups = groups;
  mem.initCU(cmem, cu);
  nextGroup = cu;
  c = 0;
  // (no reallocation per dispatched wave: the resident limits)
  for (Simd &S : simd)
    S.waves.reserve(occ.wavesPerSimd);
  wavePool.reserve(size_t(occ.groups) * LN.numWaves);
  while (nextGroup < numGroups && dispatch(nextGroup, c))
    nextGroup += P.numCUs;
}

bool CUModel::runUntil(uint64_t limit) {
  while (resident && c < limit && !failed && !wantSerial) {
    unsigned s = unsigned(c % 4);
    Simd &S = simd[s];
    bool ended = false;
    // Run ahead: with no workgroup left to start on the CU, a SIMD whose
    // waves all execute SIMD-local instructions (VALU, MFMA, SALU,
    // branches, s_nop, s_waitcnt) depends on nothing the other SIMDs (or
    // CUs) do: it goes on turn by turn on its own (a wave alone on its
    // SIMD, in one loop: runAhead), with the same cycles as in the CU's
    // turn loop, also past `limit`.
    bool alone = nextGroup >= numGroups && batching;  // (an instruction trace:
                                                      // execution in issue order)
    S.next = kNever;  // barrier releases during this turn may lower it
    S.next = std::min(S.next, turn(s, c, ended, alone));
    for (uint64_t cs = c; alone && !ended && !failed && S.next != kNever && simdLocal(s);) {
      cs = turnAtOrAfter(s, std::max(S.next, cs + 1));
      S.next = kNever;
      S.next = std::min(S.next, turn(s, cs, ended, alone));
    }
    if (failed)
      return false;
    if (ended) {
      // Workgroups whose waves all ended leave; start the next ones.
      for (size_t i = 0; i < wavePool.size();) {
        Group *grp = wavePool[i]->g;
        if (grp->alive == 0) {
          finishGroup(grp);
          i = 0;
          continue;
        }
        ++i;
      }
      while (nextGroup < numGroups && dispatch(nextGroup, c + 1))
        nextGroup += P.numCUs;
    }
    if (!resident)
      break;
    uint64_t nc = kNever;
    for (unsigned k = 0; k < 4; ++k)
      if (simd[k].next != kNever)
        nc = std::min(nc, turnAtOrAfter(k, std::max(simd[k].next, c + 1)));
    if (nc == kNever) {
      wk.error = "kernel " + L.kernel->name +
                 ": timing model: no wave of CU " + std::to_string(cu) +
                 " can issue (internal error)";
      failed = true;
      return false;
    }
    c = nc;
  }
  return resident && !failed;
}

} // namespace detail

} // namespace aster::emu::timing
