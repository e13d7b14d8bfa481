//===- Interp.cpp - the wave run loop and strict-mode checks --------------===//
#include "emulator/Semantics.h"
#include "emulator/Wave.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace aster::emu {

std::string describeInst(const LaunchCtx &L, const Inst &in) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "pc " << llvm::format_hex(in.pc, 0) << ": "
     << (in.index < L.prog->text.size() ? L.prog->text[in.index] : std::string("?"));
  return s;
}

std::string Wave::where() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "wave " << waveId << " of workgroup (" << wg->id[0] << "," << wg->id[1] << ","
     << wg->id[2] << ")";
  return s;
}

static void failWith(Wave &w, const Inst &in, const std::string &msg,
                     const std::string &lane) {
  if (w.status == WaveStatus::Error)
    return;
  w.error = "kernel " + w.L->kernel->name + ": " + msg + "\n  at " + describeInst(*w.L, in) +
            "\n  in " + w.where() + lane;
  w.status = WaveStatus::Error;
  w.stop = true;
}

void Wave::fail(const Inst &in, const std::string &msg) { failWith(*this, in, msg, ""); }

void Wave::failLane(const Inst &in, unsigned lane, const std::string &msg) {
  uint64_t t = uint64_t(waveId) * 64 + lane;
  uint64_t bx = L->block.x, by = L->block.y;
  failWith(*this, in, msg,
           ", lane " + std::to_string(lane) + " (work-item (" + std::to_string(t % bx) + "," +
               std::to_string(t / bx % by) + "," + std::to_string(t / (bx * by)) + "))");
}

void Wave::warn(const Inst &in, const std::string &msg) {
  if (!warnings || warnings->size() >= L->opts.maxWarnings)
    return;
  warnings->push_back("kernel " + L->kernel->name + ": " + msg + " at " +
                      describeInst(*L, in) + " in " + where());
}

static std::string regName(unsigned t) {
  if (t < kTrackV) {
    switch (t) {
    case SR_VCC: return "vcc_lo";
    case SR_VCC + 1: return "vcc_hi";
    case SR_M0: return "m0";
    case SR_EXEC: return "exec_lo";
    case SR_EXEC + 1: return "exec_hi";
    case SR_FLAT_SCRATCH: return "flat_scratch_lo";
    case SR_FLAT_SCRATCH + 1: return "flat_scratch_hi";
    default:
      if (t >= SR_TTMP0 && t < SR_M0)
        return "ttmp" + std::to_string(t - SR_TTMP0);
      return "s" + std::to_string(t);
    }
  }
  if (t < kTrackA)
    return "v" + std::to_string(t - kTrackV);
  return "a" + std::to_string(t - kTrackA);
}

/// Whether the load that left register `t` pending has completed.
static bool pendingDone(const Wave &w, unsigned t, MemKind k) {
  uint32_t seq = w.pendSeq[t];
  switch (k) {
  case MemKind::VM: return seq <= w.vmDone;
  case MemKind::LDS: return seq <= w.ldsDone;
  case MemKind::SMEM: return seq <= w.smDone;
  default: return true;
  }
}

static MemKind pendingKind(const Wave &w, unsigned t) {
  return w.L->prog->insts[w.pendInst[t]].mem;
}

static std::string waitHint(const Wave &w, unsigned t) {
  MemKind k = pendingKind(w, t);
  uint32_t seq = w.pendSeq[t];
  switch (k) {
  case MemKind::VM: return "s_waitcnt vmcnt(" + std::to_string(w.vmIssued - seq) + ")";
  case MemKind::LDS:
    return "s_waitcnt lgkmcnt(" + std::to_string(w.ldsIssued - seq) + ")";
  default: return "s_waitcnt lgkmcnt(0) (scalar loads return out of order)";
  }
}

/// Slow path of the read check for one source range; false if the wave
/// failed. A range counts as uninitialized only when none of its registers
/// was written: compilers legitimately feed 64-bit operations with an
/// undefined high half when only the low half of the result is used.
static bool checkReadRange(Wave &w, const Inst &in, const RegRange &r) {
  unsigned uninit = 0;
  for (unsigned k = 0; k < r.count; ++k) {
    unsigned t = r.first + k;
    uint8_t st = w.rstate[t];
    if (st & RS_PENDING) {
      if (!pendingDone(w, t, pendingKind(w, t))) {
        const Inst &ld = w.L->prog->insts[w.pendInst[t]];
        w.fail(in, "strict mode: reads " + regName(t) + " before the load that writes it (" +
                       describeInst(*w.L, ld) + ") is known to have completed; needs " +
                       waitHint(w, t));
        return false;
      }
      w.rstate[t] = st & ~RS_PENDING;
    }
    if (st & RS_UNINIT)
      ++uninit;
  }
  if (uninit == 0 || uninit < r.count)
    return true;
  switch (w.L->opts.uninitialized) {
  case UninitPolicy::Error:
    w.fail(in, "reads " + regName(r.first) + (r.count > 1 ? " (and the rest of its range)" : "") +
                   ", which nothing has written");
    return false;
  case UninitPolicy::Warn:
    w.warn(in, "read of never-written register " + regName(r.first));
    break;
  case UninitPolicy::Ignore:
    break;
  }
  for (unsigned k = 0; k < r.count; ++k)
    w.rstate[r.first + k] &= ~RS_UNINIT;
  return true;
}

static bool checkWrite(Wave &w, const Inst &in, unsigned t) {
  if (!(w.rstate[t] & RS_PENDING) || pendingDone(w, t, pendingKind(w, t)))
    return true;
  if (in.mem != MemKind::None)  // load after load: results return in order
    return true;
  const Inst &ld = w.L->prog->insts[w.pendInst[t]];
  w.fail(in, "strict mode: overwrites " + regName(t) + " while the load that writes it (" +
                 describeInst(*w.L, ld) + ") may still be outstanding; needs " +
                 waitHint(w, t));
  return false;
}

template <bool Strict, bool Trace, bool Log = false>
static uint64_t run(Wave &w, uint64_t slice, const uint8_t *stopAt = nullptr,
                    uint32_t *log = nullptr) {
  const Inst *prog = w.L->prog->insts.data();
  uint64_t n = 0;
  while (n < slice) {
    if constexpr (Log) {
      if (stopAt[w.pc])
        break;
      log[n] = w.pc;
    }
    const Inst *inp = &prog[w.pc];
    if (__builtin_expect(w.gprIdxOn | w.vskip, 0)) {
      // VSKIP: vector instructions are not issued (no effect, no counters;
      // the timing model's log does not get them). Every loop has a branch,
      // which is not skipped, so the slice still ends.
      if (w.vskip && (inp->cls == ICls::VALU || inp->cls == ICls::MFMA ||
                      inp->cls == ICls::VMEM || inp->cls == ICls::LDS)) {
        w.pc = inp->next;
        if constexpr (!Log)
          ++n;
        continue;
      }
      if (w.gprIdxOn)
        inp = &gprIndexed(w, *inp);
    }
    const Inst &in = *inp;
    if constexpr (Trace) {
      if (w.trace->size() < w.L->opts.traceLimit)
        w.trace->push_back("wg (" + std::to_string(w.wg->id[0]) + "," +
                           std::to_string(w.wg->id[1]) + "," + std::to_string(w.wg->id[2]) +
                           ") wave " + std::to_string(w.waveId) + " " + describeInst(*w.L, in));
    }
    if constexpr (Strict) {
      bool ok = true;
      for (unsigned i = 0; i < in.nreads && ok; ++i) {
        const RegRange &r = in.reads[i];
        uint8_t any = 0;
        for (unsigned k = 0; k < r.count; ++k)
          any |= w.rstate[r.first + k];
        if (any && !checkReadRange(w, in, r))
          ok = false;
      }
      for (unsigned i = 0; i < in.nwrites && ok; ++i) {
        const RegRange &r = in.writes[i];
        for (unsigned k = 0; k < r.count; ++k)
          if ((w.rstate[r.first + k] & RS_PENDING) && !checkWrite(w, in, r.first + k)) {
            ok = false;
            break;
          }
      }
      if (!ok)
        break;
    }
    if (w.matrix)
      matrixSync(w, in);
    w.pc = in.next;
    in.fn(w, in);
    ++n;
    w.clsCount[unsigned(in.cls)]++;
    if constexpr (Strict) {
      uint32_t seq = 0;
      switch (in.cls) {
      case ICls::VMEM: seq = ++w.vmIssued; break;
      case ICls::LDS: seq = ++w.ldsIssued; break;
      case ICls::SMEM: seq = ++w.smIssued; break;
      default: break;
      }
      for (unsigned i = 0; i < in.nwrites; ++i) {
        const RegRange &r = in.writes[i];
        for (unsigned k = 0; k < r.count; ++k) {
          unsigned t = r.first + k;
          if (in.mem != MemKind::None) {
            w.rstate[t] = RS_PENDING;
            w.pendSeq[t] = seq;
            w.pendInst[t] = in.index;
          } else {
            w.rstate[t] = 0;
          }
        }
      }
    }
    if (w.stop)
      break;
  }
  w.icount += n;
  // A wave that ended or failed: its registers may be reused.
  if (w.matrix && (w.status == WaveStatus::Ended || w.status == WaveStatus::Error))
    w.matrix->waitFor(w.mxLast);
  return n;
}

uint64_t runWave(Wave &w, uint64_t slice) {
  w.stop = false;
  if (w.trace && w.trace->size() < w.L->opts.traceLimit)
    return w.L->opts.strict ? run<true, true>(w, slice) : run<false, true>(w, slice);
  return w.L->opts.strict ? run<true, false>(w, slice) : run<false, false>(w, slice);
}

uint64_t runWaveLogged(Wave &w, uint64_t slice, const uint8_t *stopAt, uint32_t *log) {
  w.stop = false;
  return w.L->opts.strict ? run<true, false, true>(w, slice, stopAt, log)
                          : run<false, false, true>(w, slice, stopAt, log);
}

void execProblem(Wave &w, const Inst &in) {
  const std::string &p = w.L->prog->problems[in.index];
  w.fail(in, "cannot execute this instruction: " +
                 (p.empty() ? std::string("unsupported") : p));
}

} // namespace aster::emu
