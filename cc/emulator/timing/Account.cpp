//===- Account.cpp - readiness, memory and the effects of an issue --------===//
//
// What one instruction does to its wave's timing state: when its sources
// and counters allow it to issue (computeHead, waitTime), what a memory
// instruction costs (memoryOp: LDS banks, vector memory lines), and the
// effects of its issue on units, registers, counters and the trace
// (account). The scheduling around it is in Model.cpp.
//
//===----------------------------------------------------------------------===//
#include "emulator/timing/CU.h"

#include "emulator/MemAccess.h"
#include "emulator/timing/Costs.h"

#include <algorithm>
#include <tuple>

namespace aster::emu::timing::detail {

uint64_t CUModel::waitTime(TWave &t, const Inst &in) {
  uint64_t when = 0;
  auto need = [](size_t outstanding, unsigned allowed) {
    return outstanding > allowed ? outstanding - allowed : 0;
  };
  if (size_t k = need(t.vm.size(), in.vmcnt)) {
    when = t.vm[k - 1];  // in order: the k-th oldest must be done
    t.waitOn = WaitOn(t.vmLevel[k - 1]);
  }
  size_t nl = t.lds.size() + t.smem.size();
  if (size_t k = need(nl, in.lgkmcnt)) {
    // The k-th earliest completion of the LDS and SMEM operations.
    uint64_t kth = 0;
    if (k == nl) {
      // All of them (lgkmcnt(0), the usual wait): the latest ([host]: no
      // copy, no selection).
      for (uint64_t x : t.lds)
        kth = std::max(kth, x);
      for (uint64_t x : t.smem)
        kth = std::max(kth, x);
    } else {
      // (a small set: no heap copy unless it is large)
      uint64_t small[64];
      std::vector<uint64_t> big;
      uint64_t *all = small;
      if (nl > 64) {
        big.resize(nl);
        all = big.data();
      }
      std::copy(t.lds.begin(), t.lds.end(), all);
      std::copy(t.smem.begin(), t.smem.end(), all + t.lds.size());
      std::nth_element(all, all + (k - 1), all + nl);
      kth = all[k - 1];
    }
    if (kth > when) {
      when = kth;
      t.waitOn = std::find(t.lds.begin(), t.lds.end(), when) != t.lds.end() ? WaitOn::LDS
                                                                            : WaitOn::SMEM;
    }
  }
  return when;
}

void CUModel::computeHeadSlow(TWave &t, uint32_t pc) {
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
      const RegTime &rt = t.regs[reg];
      uint64_t at = rt.fwdRange == key ? rt.fwd : rt.ready;
      if (at > h) {
        h = at;
        why = Stall::Dependency;
      }
    }
  }
  if (ti.ctl == CTL_WAITCNT) {
    // Drop what completed before the wave got here.
    auto drop = [&](auto &v) {
      size_t i = 0;
      while (i < v.size() && v[i] <= t.allowed)
        ++i;
      v.erase(v.begin(), v.begin() + i);
    };
    size_t vmBefore = t.vm.size();
    drop(t.vm);
    t.vmLevel.erase(t.vmLevel.begin(), t.vmLevel.begin() + (vmBefore - t.vm.size()));
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

uint64_t CUModel::memoryOp(TWave &t, const Inst &in, const InstInfo &ti, uint64_t c,
                           uint16_t &busy) {
  Wave &w = *t.w;
  uint64_t exec = w.exec();
  if (ti.addr == ADDR_DS) {
    uint32_t dw[64 * 8];
    unsigned dpl = std::max(1u, (ti.laneBytes + 3u) / 4u);
    unsigned per = std::min(8u, dpl * ti.accesses);
    const Opnd &a = in.nsrc() ? in.src(0) : in.op[0];
    static const uint32_t zero[64] = {};
    const uint32_t *base = a.kind == OpKind::V ? w.v[a.reg] : zero;
    std::unique_ptr<LdsMemo> &mp = ldsMemo[t.w->pc];
    if (!mp)
      mp = std::make_unique<LdsMemo>();
    LdsMemo &m = *mp;
    unsigned cyc, ideal;
    // First check (no dwords formed): the same EXEC, and every lane's address
    // moved by the same multiple of 4 bytes since the last time, all of them
    // below 2^24 (the dwords cannot wrap): every dword moved by the same
    // amount, so the banks rotate and the result is the last one.
    if (m.baseValid && m.baseExec == exec) {
      uint32_t delta = base[0] - m.base[0];
      uint32_t diff = delta & 3u, high = 0;
      for (unsigned l = 0; l < 64; ++l) {
        diff |= (base[l] - m.base[l]) ^ delta;
        high |= base[l] | m.base[l];
      }
      if (!diff && high < (1u << 24)) {
        cyc = std::max(m.cycles, 1u);
        R.ldsCycles += cyc;
        R.ldsIdealCycles += std::max(m.ideal, 1u);
        busy = uint16_t(std::min(cyc, 65535u));
        std::copy(base, base + 64, m.base);
        return c + cyc;
      }
    }
    m.baseExec = exec;
    std::copy(base, base + 64, m.base);
    // The dwords of each access: offset k of per, in lane order.
    for (unsigned k = 0; k < per; ++k) {
      unsigned x = k / dpl, d = k % dpl;
      uint32_t off = ti.accesses == 2 ? (x ? in.offset1 : in.offset0) * ti.stride2
                                      : uint32_t(in.offset);
      for (unsigned l = 0; l < 64; ++l)
        dw[l * per + k] = (base[l] + off) / 4 + d;
    }
    if (!ti.store && ti.laneBytes == 16 && ti.accesses == 1 && per == 4) {
      // ds_read_b128 serves its 64 lanes in phases of lanes that are not
      // consecutive. 32 banks (CDNA3): 8 phases of 8 lanes, 0-3 + 20-23,
      // 4-7 + 16-19, 8-11 + 28-31, 12-15 + 24-27, and the same +32 (AMD,
      // Composable Kernel docs, "Understanding AMD GPU LDS and Bank
      // Conflicts", Read Access Pattern; ds_write_b128's phases are lanes
      // 0-7, 8-15, ...). 64 banks (CDNA4): 4 phases of 16 lanes, 0-3 + 12-15
      // + 20-23 + 24-27, 4-7 + 8-11 + 16-19 + 28-31, and the same +32 (AMD
      // ROCm blog "FP8 GEMM Optimization on AMD CDNA4 Architecture", LDS
      // Access). Lanes are put in phase order (runs of 4), so that
      // ldsBankCycles' groups of banks / 4 consecutive lanes are the phases.
      static constexpr uint8_t kFirst32[8] = {0, 20, 4, 16, 8, 28, 12, 24};
      static constexpr uint8_t kFirst64[8] = {0, 12, 20, 24, 4, 8, 16, 28};
      const uint8_t *kFirst = P.ldsBanks == 64 ? kFirst64 : kFirst32;
      uint32_t ph[64 * 4];
      uint64_t pexec = 0;
      for (unsigned q = 0; q < 16; ++q)
        for (unsigned i = 0; i < 4; ++i) {
          unsigned from = (q >= 8 ? 32 : 0) + kFirst[q % 8] + i, to = q * 4 + i;
          std::copy(dw + from * 4, dw + from * 4 + 4, ph + to * 4);
          pexec |= (exec >> from & 1) << to;
        }
      std::copy(ph, ph + 64 * 4, dw);
      exec = pexec;
    }
    // The bank cycles depend only on the dwords' differences (a shift of
    // all of them by the same amount rotates the banks and keeps which are
    // equal): an instruction that runs again with the same lanes and
    // addresses moved together (the next loop iteration, another wave)
    // reuses the last result.
    unsigned cnt = 64 * per;
    uint32_t delta = dw[0] - m.dw[0];
    bool same = m.valid && m.exec == exec && m.per == per;
    for (unsigned i = 0; same && i < cnt; i += 64) {
      uint32_t diff = 0;
      for (unsigned k = 0; k < 64; ++k)
        diff |= (dw[i + k] - m.dw[i + k]) ^ delta;
      same = !diff;
    }
    if (same) {
      cyc = m.cycles;
      ideal = m.ideal;
    } else {
      std::tie(cyc, ideal) = ldsBankCycles(dw, per, exec, P.ldsBanks);
      m.valid = true;
      m.exec = exec;
      m.per = per;
      m.cycles = cyc;
      m.ideal = ideal;
      std::copy(dw, dw + cnt, m.dw);
    }
    m.baseValid = true;
    cyc = std::max(cyc, 1u);
    R.ldsCycles += cyc;
    R.ldsIdealCycles += std::max(ideal, 1u);
    busy = uint16_t(std::min(cyc, 65535u));
    return c + cyc;  // start/queue handled by the caller
  }
  // (only the active lanes' addresses are formed and read: no clearing)
  uint64_t *addr = laneAddr;
  bool ok = true;
  switch (ti.addr) {
  case ADDR_GLOBAL:
    vmemLaneAddrs(w, in, 'g', addr);
    w.formedFor = &in;  // (for its semantic, which executes next: issue)
    w.formedAddr = addr;
    break;
  case ADDR_FLAT: vmemLaneAddrs(w, in, 'f', addr); break;
  case ADDR_SCRATCH:
    std::fill(addr, addr + 64, 0);
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
    // All 64 lanes at consecutive addresses (lane l at addr[0] + l x bytes:
    // a vectorized loop's access): the lines are the run from the first
    // lane's to the last byte's, ascending (the same set as below; checked
    // in one pass the compiler vectorizes).
    // ([host] one loop over the lanes, an address compared with the one it
    // should be: the compiler makes it two lanes an SSE2 step, ~230 host
    // instructions; the earlier form, in blocks of 16 lanes with an exit
    // between them, ran lane by lane, ~400 a global load or store.)
    uint64_t dense = ~exec;
    if (!dense) {  // (exec: all lanes formed)
      uint64_t want = addr[0];
#pragma GCC unroll 4
      for (unsigned k = 0; k < 64; ++k) {
        dense |= addr[k] ^ want;
        want += bytes;
      }
    }
    if (!dense && addr[0] + 64ull * bytes > addr[0]) {
      for (uint64_t ln = addr[0] >> lineShift, e = (addr[0] + 64ull * bytes - 1) >> lineShift;
           ln <= e; ++ln)
        lines[n++] = ln;
      ok = false;  // (done)
    }
  }
  if (ok) {
    unsigned bytes = std::max<unsigned>(ti.laneBytes, 1);
    // Neighbouring lanes mostly share lines: a line equal to the one
    // before it is left out before sorting (the same set of lines).
    for (unsigned l = 0; l < 64; ++l)
      if (exec >> l & 1) {
        uint64_t first = addr[l] >> lineShift, last = (addr[l] + bytes - 1) >> lineShift;
        if (!n || lines[n - 1] != first)
          lines[n++] = first;
        if (last != first)
          lines[n++] = last;
      }
    std::sort(lines, lines + n);
    n = unsigned(std::unique(lines, lines + n) - lines);
  }
  unsigned pipe = 0;
  uint64_t before[4] = {R.memLines[0], R.memLines[1], R.memLines[2], R.memLines[3]};
  uint64_t done = mem.access(cmem, lines, n, ti.store, ti.atomic, c, pipe, R.memLines);
  busy = uint16_t(std::min(pipe, 65535u));
  t.memLevel = WaitOn::L1;  // the deepest level one of its lines came from
  for (unsigned lv = 0; lv < 4; ++lv)
    if (R.memLines[lv] != before[lv])
      t.memLevel = WaitOn(lv);
  return done;
}

uint64_t CUModel::scalarOp(TWave &t, const Inst &in, const InstInfo &ti, uint64_t c) {
  // The lines of the scalar cache the load reads (its address as the
  // semantic forms it, SemSMEM.cpp); a miss waits for the line from L2.
  Wave &w = *t.w;
  uint64_t base = ti.addr == ADDR_SMEM ? sget64(w, in.src(0)) : readRsrc(w, in.src(0)).base;
  int64_t off = int64_t(in.offset);
  if (in.nsrc() > 1) {
    const Opnd &o = in.src(1);
    off += o.kind == OpKind::Imm ? int64_t(int32_t(uint32_t(o.imm))) : int64_t(sget(w, o));
  }
  uint64_t a = (base + uint64_t(off)) & ~3ull;
  unsigned misses;
  uint64_t ready = std::max(c + P.smemLatency,
                            mem.scalarLoad(cmem, a, std::max<unsigned>(ti.laneBytes, 4), c, misses));
  R.scalarMisses += misses;
  return ready;
}

void CUModel::fetchLine(TWave &t, uint64_t line, uint64_t c) {
  t.fetchLine = line;
  // The line and the sequential prefetch's next lines (on their way, not
  // waited for).
  unsigned misses;
  uint64_t at = mem.fetchRun(cmem, line, P.icachePrefetchLines, c, misses);
  R.icacheMisses += misses;
  if (at > t.allowed) {
    t.allowed = at;
    t.allowedWhy = Stall::Fetch;
  }
}

bool CUModel::overBudgetFail(Wave &w, const Inst &in) {
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

void CUModel::account(TWave &t, uint64_t c, uint32_t idx, uint32_t nextPc, uint64_t stall,
                      Stall why, uint64_t done, uint16_t busy) {
  Simd &S = simd[t.simd];
  const Inst &in = prog[idx];
  const InstInfo &ti = info[idx];
  ++t.instructions;
  if (stall) {  // ([host]: their lines only when it stalled)
    t.stall[unsigned(why)] += stall;
    if (why == Stall::Waitcnt)
      t.waitedOn[unsigned(t.waitOn)] += stall;
  }
  t.allowed = c + 1;
  t.allowedWhy = Stall::None;
  bool writesRegs = true;
  switch (ti.unit) {
  case Unit::VALU:
  case Unit::TRANS:
  case Unit::MFMA: {
    IssueCost ic = issueCost(P, ti.unit, ti.passes);
    S.valuFree = c + ic.valuBusy;
    if (ti.unit == Unit::TRANS)
      S.transFree = c + ic.unitBusy;
    done = c + ic.latency;
    busy = uint16_t(ti.unit == Unit::VALU ? ic.valuBusy : ic.unitBusy);
    if (ti.unit != Unit::MFMA)
      break;
    uint64_t passes = ic.forward;
    S.mfmaFree = c + ic.unitBusy;
    for (unsigned i = 0; i < in.nwrites; ++i) {
      const RegRange &wr = in.writes[i];
      markRegsWritten(t, wr.first, wr.count);
      for (unsigned k = 0; k < wr.count; ++k) {
        t.regs[wr.first + k].fwd = c + passes;
        t.regs[wr.first + k].fwdRange = uint32_t(wr.first) << 8 | wr.count;
      }
    }
    break;
  }
  case Unit::SMEM:
    done = std::max(done, c + P.smemLatency);  // scalarOp's line, if it missed
    t.smem.push_back(done);
    writesRegs = false;
    break;
  case Unit::VMEM:
    done = std::max(done, t.vm.empty() ? 0 : t.vm.back());
    t.vm.push_back(done);
    t.vmLevel.push_back(uint8_t(t.memLevel));
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
    for (unsigned i = 0; i < in.nwrites; ++i) {
      markRegsWritten(t, in.writes[i].first, in.writes[i].count);
      for (unsigned k = 0; k < in.writes[i].count; ++k) {
        unsigned r = in.writes[i].first + k;
        t.regs[r].ready = done;
        if (ti.unit != Unit::MFMA)
          t.regs[r].fwdRange = 0;
      }
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
  if (ti.ctl != CTL_END && nextPc < progSize)
    fetchNext(t, nextPc, c + 1);
  drained = std::max(drained, done);
  R.unitBusy[unsigned(ti.unit)] += busy;
  R.unitCount[unsigned(ti.unit)]++;
  if (R.events.size() < eventRoom) {
    // (written in place: [host] no temporary copied in)
    Event &e = R.events.emplace_back();
    e.issue = c;
    e.dur = uint32_t(std::min<uint64_t>(done - c, ~0u));
    e.stall = uint32_t(std::min<uint64_t>(stall, ~0u));
    e.inst = idx;
    e.wave = t.rec;
    e.busy = busy;
    e.reason = uint8_t(why);
    e.unit = uint8_t(ti.unit);
  } else
    R.eventsTruncated = true;
  t.baseline = c + P.issuePeriod;
}

} // namespace aster::emu::timing::detail
