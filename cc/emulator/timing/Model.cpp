//===- Model.cpp - CUs, SIMDs and waves, issued cycle by cycle ------------===//
//
// The timing model (parameters and their sources: Params.h):
//  * workgroup g runs on CU g mod numCUs; a CU keeps as many workgroups
//    resident as occupancy allows (waves per SIMD, VGPRs, SGPRs, LDS,
//    workgroups) and starts the next when one ends. CUs are simulated one
//    after another; they share only the L2/MALL/HBM bandwidth, divided
//    evenly among the CUs in use (Memory.h).
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
//    condition holds (vector
//    memory and LDS results return in order, SMEM in any order).
//  * units: VALU 4 cycles per wave64 instruction, transcendental unit 16;
//    one matrix core per SIMD, busy passes x 4 cycles per MFMA (the passes
//    are in the instruction table); LDS and vector memory per CU (Memory.h).
// Each instruction executes (the emulator's semantic) at its issue cycle, so
// s_memtime reads simulated time and branches follow real data.
//
//===----------------------------------------------------------------------===//
#include "emulator/timing/Model.h"

#include "emulator/MemAccess.h"
#include "emulator/timing/InstInfo.h"
#include "emulator/timing/Memory.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>

namespace aster::emu::timing {

namespace {

constexpr uint64_t kNever = ~0ull >> 2;

struct Group;

struct TWave {
  Wave *w = nullptr;
  Group *g = nullptr;
  unsigned simd = 0;
  uint32_t rec = 0;            ///< index of its WaveRecord
  uint64_t allowed = 0;        ///< earliest issue its previous instruction allows
  Stall allowedWhy = Stall::None;
  uint64_t head = 0;           ///< earliest issue of its next instruction
  Stall headWhy = Stall::None;
  Stall blockWhy = Stall::Arbitration;  ///< why a ready wave did not issue
  uint64_t baseline = 0;       ///< its next turn after the previous issue
  bool barrier = false, done = false;
  std::vector<uint64_t> ready;          ///< per tracked register: result available
  std::vector<uint64_t> fwd;            ///< MFMA results: available as the same
                                        ///< range's srcC (forwarding)
  std::vector<uint32_t> fwdRange;       ///< the MFMA destination range (first << 8 |
                                        ///< count) that fwd is for; 0: none
  uint64_t pendingUntil = 0;            ///< no result recorded in ready/fwd is later
  std::vector<uint64_t> vm, lds, smem;  ///< completion times of outstanding ops
};

struct Group {
  WorkgroupCtx ctx;
  std::vector<TWave *> waves;
  unsigned alive = 0, atBarrier = 0;
  uint64_t barrierLast = 0;
};

struct Simd {
  std::vector<TWave *> waves;  ///< oldest first
  unsigned active = 0;         ///< waves not ended
  uint64_t valuFree = 0, transFree = 0, mfmaFree = 0;
  uint64_t next = kNever;      ///< no wave can issue before this cycle
};

uint64_t turnAtOrAfter(unsigned simd, uint64_t t) { return t + ((simd + 4 - t % 4) % 4); }

/// Instructions whose timing depends only on their own wave and SIMD.
bool local(const InstInfo &ti) {
  switch (ti.unit) {
  case Unit::VALU: case Unit::TRANS: case Unit::MFMA: case Unit::SALU: case Unit::Branch:
    return true;
  case Unit::Internal:
    return ti.ctl == CTL_NOP || ti.ctl == CTL_WAITCNT || ti.ctl == CTL_SLEEP;
  default:
    return false;
  }
}

/// Occupancy: resident workgroups per CU and the per-SIMD wave limit.
struct Occupancy {
  unsigned groups = 0, wavesPerSimd = 0;
  std::string limit;
};

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

class CUModel {
public:
  CUModel(Launcher &LN, Worker &wk, const Params &P, Result &R, const Occupancy &occ,
          GlobalMemory &mem)
      : LN(LN), L(LN.L), wk(wk), P(P), R(R), occ(occ), mem(mem),
        prog(L.prog->insts.data()), info(classify(*L.prog)) {
    for (const InstInfo &ti : info)
      stopAhead.push_back(!local(ti));
    while ((2u << lineShift) <= P.lineBytes)
      ++lineShift;
  }

  /// Runs the workgroups of CU `cu`; returns its last cycle, or kNever
  /// after a kernel fault (in wk.error).
  uint64_t run(unsigned cu, uint64_t numGroups);

private:
  Launcher &LN;
  LaunchCtx &L;
  Worker &wk;
  const Params &P;
  Result &R;
  const Occupancy &occ;
  GlobalMemory &mem;
  const Inst *prog;
  std::vector<InstInfo> info;
  std::vector<uint8_t> stopAhead;  ///< by index: not SIMD-local (ends a run-ahead)
  unsigned lineShift = 0;          ///< log2(P.lineBytes)
  Simd simd[4];
  std::vector<std::unique_ptr<TWave>> wavePool;    ///< resident waves
  std::vector<std::unique_ptr<TWave>> twavesFree;
  std::vector<std::unique_ptr<Wave>> wavesFree;
  std::vector<std::unique_ptr<Group>> groupsFree;
  unsigned cu = 0, resident = 0;
  uint32_t ldsUsed = 0;
  uint64_t drained = 0;  ///< the last completion (results, memory) so far
  uint64_t lastEnd = 0;
  uint64_t ldsFree = 0;  ///< the CU's LDS pipeline is busy until then
  uint64_t executed = 0; ///< wave-instructions of the launch so far (budget)
  bool failed = false;

  bool dispatch(uint64_t g, uint64_t now);
  void finishGroup(Group *grp);
  void computeHead(TWave &t, uint32_t pc);
  uint64_t waitTime(TWave &t, const Inst &in);
  uint64_t unitFree(const Simd &S, const InstInfo &ti) const;
  /// Executes wave t's next instruction at cycle c and accounts for it.
  void issue(TWave &t, uint64_t c);
  /// Executes the wave's SIMD-local instructions in batches (see run()).
  void runAhead(TWave &t, unsigned s);
  /// The timing effects of instruction `idx` issued at c (`done`/`busy`:
  /// from the memory model for memory instructions).
  void account(TWave &t, uint64_t c, uint32_t idx, uint32_t nextPc, uint64_t stall,
               Stall why, uint64_t done, uint16_t busy);
  Stall stallBefore(const TWave &t, uint64_t c, uint64_t &stall) const;
  /// After executing: a kernel fault or an exhausted budget ends the launch.
  bool overBudget(Wave &w, const Inst &in);
  void releaseBarrier(Group &grp);
  uint64_t memoryOp(TWave &t, const Inst &in, const InstInfo &ti, uint64_t c,
                    uint16_t &busy);
};

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
  grp->waves.clear();
  grp->alive = n;
  grp->atBarrier = 0;
  grp->barrierLast = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (wavesFree.empty())
      wavesFree.push_back(std::make_unique<Wave>());
    Wave *w = wavesFree.back().release();
    wavesFree.pop_back();
    LN.initWave(*w, grp->ctx, wk, i);
    std::unique_ptr<TWave> tw;
    if (twavesFree.empty()) {
      tw = std::make_unique<TWave>();
      tw->ready.assign(kTrackCount, 0);
      tw->fwd.assign(kTrackCount, 0);
      tw->fwdRange.assign(kTrackCount, 0);
    } else {
      tw = std::move(twavesFree.back());
      twavesFree.pop_back();
      // Only the registers the kernel has can hold an earlier wave's times.
      auto clear = [&](auto &v) {
        std::fill(v.begin(), v.begin() + kTrackV, 0);
        std::fill(v.begin() + kTrackV, v.begin() + kTrackV + LN.vgprsToClear, 0);
        std::fill(v.begin() + kTrackA, v.begin() + kTrackA + LN.agprsToClear, 0);
      };
      clear(tw->ready);
      clear(tw->fwd);
      clear(tw->fwdRange);
      tw->vm.clear();
      tw->lds.clear();
      tw->smem.clear();
      tw->barrier = tw->done = false;
      tw->pendingUntil = 0;
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
    t.allowed = t.baseline = now + P.dispatchCycles;
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
    wavesFree.emplace_back(t->w);
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

uint64_t CUModel::waitTime(TWave &t, const Inst &in) {
  uint64_t when = 0;
  auto need = [](size_t outstanding, unsigned allowed) {
    return outstanding > allowed ? outstanding - allowed : 0;
  };
  if (size_t k = need(t.vm.size(), in.vmcnt))
    when = t.vm[k - 1];  // in order: the k-th oldest must be done
  size_t nl = t.lds.size() + t.smem.size();
  if (size_t k = need(nl, in.lgkmcnt)) {
    std::vector<uint64_t> all(t.lds);
    all.insert(all.end(), t.smem.begin(), t.smem.end());
    std::nth_element(all.begin(), all.begin() + (k - 1), all.end());
    when = std::max(when, all[k - 1]);
  }
  return when;
}

void CUModel::computeHead(TWave &t, uint32_t pc) {
  const Inst &in = prog[pc];
  const InstInfo &ti = info[pc];
  uint64_t h = t.allowed;
  Stall why = t.allowedWhy;
  for (unsigned r = 0; r < in.nreads && t.pendingUntil > t.allowed; ++r) {
    const RegRange &rr = in.reads[r];
    // An MFMA's srcC that is exactly an earlier MFMA's destination range
    // is forwarded; a partly overlapping one waits for the result.
    uint32_t key = int(r) == ti.srcC ? uint32_t(rr.first) << 8 | rr.count : ~0u;
    for (unsigned k = 0; k < rr.count; ++k) {
      unsigned reg = rr.first + k;
      uint64_t at = t.fwdRange[reg] == key ? t.fwd[reg] : t.ready[reg];
      if (at > h) {
        h = at;
        why = Stall::Dependency;
      }
    }
  }
  if (ti.ctl == CTL_WAITCNT) {
    // Drop what completed before the wave got here.
    auto drop = [&](std::vector<uint64_t> &v) {
      size_t i = 0;
      while (i < v.size() && v[i] <= t.allowed)
        ++i;
      v.erase(v.begin(), v.begin() + i);
    };
    drop(t.vm);
    drop(t.lds);
    t.smem.erase(std::remove_if(t.smem.begin(), t.smem.end(),
                                [&](uint64_t x) { return x <= t.allowed; }),
                 t.smem.end());
    uint64_t wt = waitTime(t, in);
    if (wt > h) {
      h = wt;
      why = Stall::Waitcnt;
    }
  }
  t.head = h;
  t.headWhy = why;
}

uint64_t CUModel::unitFree(const Simd &S, const InstInfo &ti) const {
  switch (ti.unit) {
  case Unit::VALU: return S.valuFree;
  case Unit::TRANS: return std::max(S.valuFree, S.transFree);
  case Unit::MFMA: return std::max(S.valuFree, S.mfmaFree);
  default: return 0;
  }
}

uint64_t CUModel::memoryOp(TWave &t, const Inst &in, const InstInfo &ti, uint64_t c,
                           uint16_t &busy) {
  Wave &w = *t.w;
  uint64_t exec = w.exec();
  if (ti.addr == ADDR_DS) {
    static thread_local uint32_t dw[64 * 8];
    unsigned dpl = std::max(1u, (ti.laneBytes + 3u) / 4u);
    unsigned per = std::min(8u, dpl * ti.accesses);
    const Opnd &a = in.nsrc() ? in.src(0) : in.op[0];
    static const uint32_t zero[64] = {};
    const uint32_t *base = a.kind == OpKind::V ? w.v[a.reg] : zero;
    // The dwords of each access: offset k of per, in lane order.
    for (unsigned k = 0; k < per; ++k) {
      unsigned x = k / dpl, d = k % dpl;
      uint32_t off = ti.accesses == 2 ? (x ? in.offset1 : in.offset0) * ti.stride2
                                      : uint32_t(in.offset);
      for (unsigned l = 0; l < 64; ++l)
        dw[l * per + k] = (base[l] + off) / 4 + d;
    }
    auto [cyc, ideal] = ldsBankCycles(dw, per, exec, P.ldsBanks);
    cyc = std::max(cyc, 1u);
    R.ldsCycles += cyc;
    R.ldsIdealCycles += std::max(ideal, 1u);
    busy = uint16_t(std::min(cyc, 65535u));
    return c + cyc;  // start/queue handled by the caller
  }
  uint64_t addr[64] = {};
  bool ok = true;
  switch (ti.addr) {
  case ADDR_GLOBAL: vmemLaneAddrs(w, in, 'g', addr); break;
  case ADDR_FLAT: vmemLaneAddrs(w, in, 'f', addr); break;
  case ADDR_SCRATCH:
    vmemLaneAddrs(w, in, 's', addr);
    for (unsigned l = 0; l < 64; ++l)  // per-lane private dwords interleave
      addr[l] = (1ull << 62) | ((addr[l] >> 2) * 64 + l) * 4;
    break;
  case ADDR_BUFFER: ok = bufferLaneAddrs(w, in, addr); break;
  default: ok = false;
  }
  uint64_t lines[128];
  unsigned n = 0;
  if (ok) {
    unsigned bytes = std::max<unsigned>(ti.laneBytes, 1);
    for (unsigned l = 0; l < 64; ++l)
      if (exec >> l & 1) {
        lines[n++] = addr[l] >> lineShift;
        uint64_t last = (addr[l] + bytes - 1) >> lineShift;
        if (last != lines[n - 1])
          lines[n++] = last;
      }
    std::sort(lines, lines + n);
    n = unsigned(std::unique(lines, lines + n) - lines);
  }
  unsigned pipe = mem.pipeCycles(n);
  busy = uint16_t(std::min(pipe, 65535u));
  return mem.access(lines, n, ti.store, c + pipe, R.memLines);
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

Stall CUModel::stallBefore(const TWave &t, uint64_t c, uint64_t &stall) const {
  stall = c > t.baseline ? c - t.baseline : 0;
  if (!stall)
    return Stall::None;
  uint64_t waitedForHead = t.head > t.baseline ? t.head - t.baseline : 0;
  return waitedForHead && waitedForHead >= c - std::max(t.head, t.baseline) ? t.headWhy
                                                                            : t.blockWhy;
}

bool CUModel::overBudget(Wave &w, const Inst &in) {
  if (w.status == WaveStatus::Error) {
    wk.error = w.error;
    failed = true;
  } else if (L.opts.instructionBudget && executed > L.opts.instructionBudget) {
    w.fail(in, "the instruction budget of " + std::to_string(L.opts.instructionBudget) +
                   " wave-instructions is exhausted (the kernel may not terminate; "
                   "raise LaunchOptions::instructionBudget if it is just long)");
    wk.error = w.error;
    failed = true;
  }
  return failed;
}

void CUModel::issue(TWave &t, uint64_t c) {
  Wave &w = *t.w;
  uint32_t idx = w.pc;
  const Inst &in = prog[idx];
  const InstInfo &ti = info[idx];
  uint64_t stall;
  Stall why = stallBefore(t, c, stall);
  // Memory: addresses are read before the instruction changes registers.
  uint16_t busy = 0;
  uint64_t done = c + P.saluLatency;
  if (ti.unit == Unit::VMEM || ti.unit == Unit::LDS)
    done = memoryOp(t, in, ti, c, busy);
  w.now = c;
  executed += runWave(w, 1);
  if (overBudget(w, in))
    return;
  account(t, c, idx, w.pc, stall, why, done, busy);
  Group &grp = *t.g;
  if (w.status == WaveStatus::Ended) {
    t.done = true;
    --simd[t.simd].active;
    R.waves[t.rec].end = c;
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
  Wave &w = *t.w;
  uint32_t log[256];
  while (!failed && local(info[w.pc])) {
    uint64_t n = runWaveLogged(w, 256, stopAhead.data(), log);
    executed += n;
    if (n == 0 || overBudget(w, prog[log[n - 1]]))
      return;
    for (uint64_t i = 0; i < n; ++i) {
      uint32_t next = i + 1 < n ? log[i + 1] : w.pc;
      uint64_t c = turnAtOrAfter(s, std::max(t.head, unitFree(S, info[log[i]])));
      uint64_t stall;
      Stall why = stallBefore(t, c, stall);
      account(t, c, log[i], next, stall, why, c + P.saluLatency, 0);
      computeHead(t, next);
    }
  }
}

void CUModel::account(TWave &t, uint64_t c, uint32_t idx, uint32_t nextPc, uint64_t stall,
                      Stall why, uint64_t done, uint16_t busy) {
  Simd &S = simd[t.simd];
  const Inst &in = prog[idx];
  const InstInfo &ti = info[idx];
  WaveRecord &rec = R.waves[t.rec];
  ++rec.instructions;
  rec.stall[unsigned(why)] += stall;
  t.allowed = c + 1;
  t.allowedWhy = Stall::None;
  bool writesRegs = true;
  switch (ti.unit) {
  case Unit::VALU:
    S.valuFree = c + P.valuCycles;
    done = c + P.valuLatency;
    busy = uint16_t(P.valuCycles);
    break;
  case Unit::TRANS:
    S.valuFree = c + P.valuCycles;
    S.transFree = c + P.transCycles;
    done = c + P.transLatency;
    busy = uint16_t(P.transCycles);
    break;
  case Unit::MFMA: {
    uint64_t passes = uint64_t(ti.passes) * P.mfmaPassCycles;
    S.valuFree = c + P.valuCycles;
    S.mfmaFree = c + passes;
    done = c + passes + P.mfmaWriteback;
    busy = uint16_t(passes);
    for (unsigned i = 0; i < in.nwrites; ++i) {
      const RegRange &wr = in.writes[i];
      for (unsigned k = 0; k < wr.count; ++k) {
        t.fwd[wr.first + k] = c + passes;
        t.fwdRange[wr.first + k] = uint32_t(wr.first) << 8 | wr.count;
      }
    }
    break;
  }
  case Unit::SMEM:
    done = c + P.smemLatency;
    t.smem.push_back(done);
    writesRegs = false;
    break;
  case Unit::VMEM:
    done = std::max(done, t.vm.empty() ? 0 : t.vm.back());
    t.vm.push_back(done);
    writesRegs = false;
    break;
  case Unit::LDS: {
    uint64_t start = std::max(c, ldsFree);
    ldsFree = start + busy;
    done = start + busy + P.ldsLatency;
    done = std::max(done, t.lds.empty() ? 0 : t.lds.back());
    t.lds.push_back(done);
    writesRegs = false;
    break;
  }
  case Unit::Branch:
    if (nextPc != in.next) {
      t.allowed = c + P.branchTakenCycles;
      t.allowedWhy = Stall::Branch;
    }
    break;
  default:
    break;
  }
  // Results ready within one issue period never delay the wave's next
  // instruction: their times are only recorded while a longer one (TRANS,
  // MFMA) may still be pending, to overwrite it.
  bool longResult = ti.unit == Unit::MFMA || done > c + P.issuePeriod;
  if (writesRegs && (longResult || t.pendingUntil > c)) {
    for (unsigned i = 0; i < in.nwrites; ++i)
      for (unsigned k = 0; k < in.writes[i].count; ++k) {
        unsigned r = in.writes[i].first + k;
        t.ready[r] = done;
        if (ti.unit != Unit::MFMA)
          t.fwdRange[r] = 0;
      }
    if (longResult)
      t.pendingUntil = std::max(t.pendingUntil, done);
  }
  if (ti.ctl == CTL_NOP) {
    t.allowed = c + uint64_t(P.issuePeriod) * ((in.nsrc() ? in.src(0).imm & 15 : 0) + 1);
    t.allowedWhy = Stall::Nop;
  } else if (ti.ctl == CTL_SLEEP) {
    t.allowed = c + uint64_t(P.sleepUnit) * (in.nsrc() ? in.src(0).imm & 127 : 0) + 1;
    t.allowedWhy = Stall::Nop;
  }
  drained = std::max(drained, done);
  R.unitBusy[unsigned(ti.unit)] += busy;
  R.unitCount[unsigned(ti.unit)]++;
  if (R.events.size() < L.opts.timingEvents)
    R.events.push_back(Event{c, uint32_t(std::min<uint64_t>(done - c, ~0u)),
                             uint32_t(std::min<uint64_t>(stall, ~0u)), idx, t.rec, busy,
                             uint8_t(why), uint8_t(ti.unit)});
  else
    R.eventsTruncated = true;
  t.baseline = c + P.issuePeriod;
}

uint64_t CUModel::run(unsigned cuIdx, uint64_t numGroups) {
  cu = cuIdx;
  mem.beginCU(cu);
  for (Simd &S : simd)
    S = Simd();
  ldsFree = 0;
  drained = lastEnd = 0;
  uint64_t nextGroup = cu;
  uint64_t c = 0;
  while (nextGroup < numGroups && dispatch(nextGroup, c))
    nextGroup += P.numCUs;
  while (resident) {
    unsigned s = unsigned(c % 4);
    Simd &S = simd[s];
    uint64_t minNext = kNever;
    S.next = kNever;  // barrier releases during this turn may lower it
    uint8_t slots = 0;
    bool ended = false;
    for (size_t i = 0; i < S.waves.size(); ++i) {
      TWave &t = *S.waves[i];
      if (t.done || t.barrier)
        continue;
      const InstInfo &ti = info[t.w->pc];
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
      // Run ahead: a wave alone on its SIMD, with no workgroup left to start
      // on the CU, issues its SIMD-local instructions (VALU, MFMA, SALU,
      // branches, s_nop, s_waitcnt) at once: they depend on nothing other
      // waves do, so their cycles are the same as in the turn-by-turn loop.
      if (!failed && !t.done && !t.barrier && S.active == 1 && nextGroup >= numGroups &&
          !L.opts.traceLimit)
        runAhead(t, s);
      if (failed)
        return kNever;
      if (t.done)
        ended = true;
      else if (!t.barrier)
        minNext = std::min(minNext, std::max(t.head, c + 4));
    }
    S.next = std::min(S.next, minNext);
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
      return kNever;
    }
    c = nc;
  }
  return std::max(lastEnd, drained);
}

} // namespace

llvm::Expected<std::shared_ptr<Result>> runTimed(Launcher &LN, Worker &wk,
                                                 const KernelInfo &k) {
  LaunchCtx &L = LN.L;
  Params P = Params::forProcessor(L.co->processor().str());
  L.realtimeDivisor = P.clockMHz / P.realtimeMHz;
  auto R = std::make_shared<Result>();
  R->clockMHz = P.clockMHz;
  R->text = L.prog->text;
  Occupancy occ = occupancy(P, k, LN.numWaves, L.ldsSize);
  if (!occ.groups)
    return llvm::createStringError(
        "launch of kernel " + k.name + ": a workgroup of " + llvm::Twine(LN.numWaves) +
        " waves does not fit on a CU with " + llvm::Twine(occ.wavesPerSimd) +
        " waves per SIMD (limited by " + occ.limit + ") for the timing model");
  R->groupsPerCU = occ.groups;
  R->wavesPerSimd = occ.wavesPerSimd;
  R->occupancyLimit = occ.limit;
  uint64_t groups = L.grid.count();
  unsigned cus = unsigned(std::min<uint64_t>(groups, P.numCUs));
  R->cusUsed = cus;
  R->events.reserve(std::min<size_t>(L.opts.timingEvents, 1 << 16));
  GlobalMemory mem(P, cus);
  CUModel model(LN, wk, P, *R, occ, mem);
  for (unsigned cu = 0; cu < cus; ++cu) {
    uint64_t end = model.run(cu, groups);
    if (end == kNever) {
      wk.errorGroup = 0;
      break;
    }
    R->cycles = std::max(R->cycles, end);
  }
  return R;
}

} // namespace aster::emu::timing
