//===- SemSOPP.cpp - program control: branches, waits, barriers, pc -------===//
#include "emulator/Semantics.h"

#include "dialect/ModSpelling.h"

#include "llvm/ADT/StringExtras.h"

namespace aster::emu {

namespace {

void s_nop(Wave &, const Inst &) {}

void s_endpgm(Wave &w, const Inst &) {
  w.status = WaveStatus::Ended;
  w.stop = true;
}

void s_branch(Wave &w, const Inst &in) { w.pc = in.target; }
void s_cbranch_scc0(Wave &w, const Inst &in) { if (!w.scc) w.pc = in.target; }
void s_cbranch_scc1(Wave &w, const Inst &in) { if (w.scc) w.pc = in.target; }
void s_cbranch_vccz(Wave &w, const Inst &in) { if (!w.vcc()) w.pc = in.target; }
void s_cbranch_vccnz(Wave &w, const Inst &in) { if (w.vcc()) w.pc = in.target; }
void s_cbranch_execz(Wave &w, const Inst &in) { if (!w.exec()) w.pc = in.target; }
void s_cbranch_execnz(Wave &w, const Inst &in) { if (w.exec()) w.pc = in.target; }

void s_barrier(Wave &w, const Inst &) {
  if (w.wg->numWaves <= 1)
    return;
  w.status = WaveStatus::Barrier;
  w.stop = true;
}

void s_waitcnt(Wave &w, const Inst &in) {
  if (w.vmIssued >= in.vmcnt)
    w.vmDone = std::max(w.vmDone, w.vmIssued - in.vmcnt);
  if (w.ldsIssued >= in.lgkmcnt)
    w.ldsDone = std::max(w.ldsDone, w.ldsIssued - in.lgkmcnt);
  if (in.lgkmcnt == 0)
    w.smDone = w.smIssued;
}

void s_trap(Wave &w, const Inst &in) {
  w.fail(in, "the kernel executed s_trap " + std::to_string(in.nsrc() ? in.src(0).imm : 0) +
                 " (a trap, e.g. __builtin_trap() or a failed assertion)");
}

uint64_t codeAddr(uint64_t pc) { return kImageBase + pc; }

bool jumpTo(Wave &w, const Inst &in, uint64_t addr) {
  int64_t idx = addr >= kImageBase ? w.L->prog->indexOf(addr - kImageBase) : -1;
  if (idx < 0) {
    w.fail(in, "jump to 0x" + llvm::utohexstr(addr) + ", which is not an instruction");
    return false;
  }
  w.pc = uint32_t(idx);
  return true;
}

void s_getpc_b64(Wave &w, const Inst &in) { sset64(w, in.dst(), codeAddr(in.pc + 4)); }
void s_setpc_b64(Wave &w, const Inst &in) { jumpTo(w, in, sget64(w, in.src(0))); }
void s_swappc_b64(Wave &w, const Inst &in) {
  uint64_t target = sget64(w, in.src(0));
  sset64(w, in.dst(), codeAddr(in.pc + 4));
  jumpTo(w, in, target);
}
void s_call_b64(Wave &w, const Inst &in) {
  sset64(w, in.dst(), codeAddr(in.pc + 4));
  w.pc = in.target;
}

// ---- hardware registers ----
enum HwReg { HW_MODE = 1, HW_STATUS = 2, HW_TRAPSTS = 3, HW_HW_ID = 4, HW_GPR_ALLOC = 5,
             HW_LDS_ALLOC = 6, HW_IB_STS = 7, HW_SH_MEM_BASES = 15, HW_XCC_ID = 20,
             HW_SHADER_CYCLES = 29 };

bool readHwreg(Wave &w, const Inst &in, unsigned id, uint32_t &v) {
  switch (id) {
  case HW_MODE: v = w.mode; return true;
  case HW_STATUS:
    v = uint32_t(w.scc) | uint32_t(w.exec() == 0) << 9 | uint32_t(w.vcc() == 0) << 10 |
        1u << 11 /* in workgroup */;
    return true;
  case HW_TRAPSTS: case HW_IB_STS: case HW_XCC_ID: v = 0; return true;
  case HW_HW_ID:
    v = (w.waveId & 15) | ((w.waveId >> 4) & 3) << 4 | uint32_t(w.wg->linearId & 15) << 8;
    return true;
  case HW_GPR_ALLOC: v = 0; return true;
  case HW_LDS_ALLOC: v = (w.L->ldsSize + 255) / 256 << 12; return true;
  case HW_SH_MEM_BASES:
    v = uint32_t(kPrivateAperture >> 48) | uint32_t(kSharedAperture >> 48) << 16;
    return true;
  case HW_SHADER_CYCLES: v = uint32_t(w.icount * 4); return true;
  default:
    w.fail(in, "reading hardware register " + std::to_string(id) + " is not emulated");
    return false;
  }
}

void s_getreg_b32(Wave &w, const Inst &in) {
  uint32_t imm = uint32_t(in.src(0).imm);
  unsigned id = imm & 63, off = (imm >> 6) & 31, size = ((imm >> 11) & 31) + 1;
  uint32_t v;
  if (!readHwreg(w, in, id, v))
    return;
  uint32_t mask = size >= 32 ? ~0u : (1u << size) - 1;
  sset(w, in.dst(), (v >> off) & mask);
}

void setreg(Wave &w, const Inst &in, uint32_t imm, uint32_t value) {
  unsigned id = imm & 63, off = (imm >> 6) & 31, size = ((imm >> 11) & 31) + 1;
  uint32_t mask = (size >= 32 ? ~0u : (1u << size) - 1) << off;
  if (id != HW_MODE) {
    w.fail(in, "writing hardware register " + std::to_string(id) + " is not emulated");
    return;
  }
  // Only the denormal and clamp/IEEE bits are accepted: the emulator keeps
  // denormals and rounds to nearest even. Bit 28 is VSKIP (s_setvskip).
  uint32_t nm = (w.mode & ~mask) | ((value << off) & mask);
  if (nm & 0xf) {
    w.fail(in, "setting a floating-point rounding mode other than round-to-nearest-even "
               "is not emulated");
    return;
  }
  w.mode = nm;
  w.vskip = (nm >> kModeVskipBit) & 1;
}
void s_setreg_b32(Wave &w, const Inst &in) {
  setreg(w, in, uint32_t(in.src(0).imm), sget(w, in.src(1)));
}
void s_setreg_imm32_b32(Wave &w, const Inst &in) {
  setreg(w, in, uint32_t(in.src(0).imm), uint32_t(in.src(1).imm));
}

/// s_setvskip ssrc0, ssrc1: VSKIP = ssrc0[ssrc1[4:0]] (MODE bit 28). While
/// it is set, vector instructions (VALU, MFMA, VMEM, DS) are not issued and
/// count on no memory counter (AMD CDNA3/CDNA4 ISA, S_SETVSKIP; the
/// interpreter skips them, Interp.cpp).
void s_setvskip(Wave &w, const Inst &in) {
  bool on = (sget(w, in.src(0)) >> (sget(w, in.src(1)) & 31)) & 1;
  w.vskip = on;
  w.mode = (w.mode & ~(1u << kModeVskipBit)) | uint32_t(on) << kModeVskipBit;
}

/// s_sendmsg / s_sendmsghalt: only MSG_INTERRUPT (a host interrupt with
/// m0[23:0] as payload) passes (sendMsgProblem refuses the rest when
/// decoding); it changes nothing in the wave. s_sendmsghalt then halts the
/// wave until the host resumes it, which no host does here: it is
/// SF_NOT_EMULATED (decoding reports it; the semantic only guards).
void s_sendmsg(Wave &, const Inst &) {}
void s_sendmsghalt(Wave &w, const Inst &in) {
  w.fail(in, "s_sendmsghalt " + ISA::formatSymbolic(ISA::ModKind::SendMsg,
                                                  unsigned(in.src(0).imm)) +
                 " halts the wave until the host resumes it (a debugger or trap "
                 "handler's message; no host resumes it in the emulator)");
}

/// s_setkill imm: imm[0] = 1 kills the wave (a debugging aid for the host's
/// kill command).
void s_setkill(Wave &w, const Inst &in) {
  if (in.src(0).imm & 1)
    w.fail(in, "the kernel executed s_setkill 1, which kills the wave");
}

} // namespace

std::string sendMsgProblem(unsigned imm) {
  unsigned msg = imm & 0xf;
  std::string name = ISA::formatSymbolic(ISA::ModKind::SendMsg, imm);
  switch (msg) {
  case 1: // MSG_INTERRUPT
    return "";
  case 2: case 3: case 7: case 8: case 9:
    return name + " is a graphics (geometry/pixel shader) message, not meaningful in a "
                  "compute kernel";
  case 4: case 5: case 6: case 15:
    return name + " is meant for trap handlers and context switching (it saves or halts "
                  "waves, stops wave launch, or talks to the system); not emulated";
  case 10:
    return name + " returns the queue's doorbell id in exec, which the emulator has no "
                  "value for";
  default:
    return name + " is not a gfx9 message (illegal)";
  }
}

void registerSOPP(SemTable &t) {
  auto add = [&](const char *n, SemFn f, ICls c = ICls::OTHER, uint16_t flags = 0,
                 uint8_t ndst = 0) { t.push_back({n, f, ndst, c, flags, tys(Ty::B32)}); };
  // Priority, sleep, caches, performance counters and thread trace change
  // nothing the emulator models.
  for (const char *n : {"s_nop", "s_setprio", "s_sleep", "s_icache_inv", "s_incperflevel",
                        "s_decperflevel", "s_ttracedata", "s_wakeup"})
    add(n, s_nop);
  add("s_setkill", s_setkill);
  add("s_endpgm", s_endpgm);
  t.push_back({"v_nop", s_nop, 0, ICls::VALU, 0, tys(Ty::B32)});
  add("s_branch", s_branch, ICls::BRANCH, SF_BRANCH);
  add("s_cbranch_scc0", s_cbranch_scc0, ICls::BRANCH, SF_BRANCH);
  add("s_cbranch_scc1", s_cbranch_scc1, ICls::BRANCH, SF_BRANCH);
  add("s_cbranch_vccz", s_cbranch_vccz, ICls::BRANCH, SF_BRANCH | SF_READS_VCC);
  add("s_cbranch_vccnz", s_cbranch_vccnz, ICls::BRANCH, SF_BRANCH | SF_READS_VCC);
  add("s_cbranch_execz", s_cbranch_execz, ICls::BRANCH, SF_BRANCH);
  add("s_cbranch_execnz", s_cbranch_execnz, ICls::BRANCH, SF_BRANCH);
  add("s_barrier", s_barrier);
  add("s_waitcnt", s_waitcnt);
  add("s_trap", s_trap);
  add("s_sendmsg", s_sendmsg, ICls::SALU, SF_READS_M0);
  add("s_sendmsghalt", s_sendmsghalt, ICls::SALU, SF_READS_M0 | SF_NOT_EMULATED);
  add("s_setvskip", s_setvskip, ICls::SALU);
  t.push_back({"s_getpc_b64", s_getpc_b64, 1, ICls::SALU, 0, tys(Ty::B64)});
  t.push_back({"s_setpc_b64", s_setpc_b64, 0, ICls::BRANCH, 0, tys(Ty::B64)});
  t.push_back({"s_swappc_b64", s_swappc_b64, 1, ICls::BRANCH, 0, tys(Ty::B64)});
  t.push_back({"s_call_b64", s_call_b64, 1, ICls::BRANCH, SF_BRANCH, tys(Ty::B32)});
  t.push_back({"s_getreg_b32", s_getreg_b32, 1, ICls::SALU, 0, tys(Ty::B32)});
  t.push_back({"s_setreg_b32", s_setreg_b32, 0, ICls::SALU, 0, tys(Ty::B32)});
  t.push_back({"s_setreg_imm32_b32", s_setreg_imm32_b32, 0, ICls::SALU, 0, tys(Ty::B32)});
}

} // namespace aster::emu
