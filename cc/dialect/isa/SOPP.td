// Program control (SOPP): no register operands.

def S_NOP : Inst<"s_nop", "SOPP", [], [], [nopcnt], ALL, ["SALU"]> {
  let Doc = "Wait imm+1 cycles (hazard padding).";
}
def S_ENDPGM : Inst<"s_endpgm", "SOPP", [], [], [], ALL, ["TERMINATOR", "SIDE_EFFECT"]>;
def S_WAITCNT : Inst<"s_waitcnt", "SOPP", [], [], [vmcnt, expcnt, lgkmcnt], CDNA3,
    ["WAITCNT", "SIDE_EFFECT"]> {
  let Doc = "Wait until each named counter is at most its value.";
}
def S_BARRIER : Inst<"s_barrier", "SOPP", [], [], [], CDNA3, ["BARRIER", "SIDE_EFFECT"]>;
def S_SETPRIO : Inst<"s_setprio", "SOPP", [], [], [prio], ALL, ["SALU", "SIDE_EFFECT"]>;
def S_SLEEP : Inst<"s_sleep", "SOPP", [], [], [sleep], ALL, ["SALU", "SIDE_EFFECT"]> {
  let Doc = "Sleep about 64*imm cycles.";
}
def S_TRAP : Inst<"s_trap", "SOPP", [], [], [trapid], ALL, ["SIDE_EFFECT"]>;
def S_ICACHE_INV : Inst<"s_icache_inv", "SOPP", [], [], [], ALL, ["SIDE_EFFECT"]>;
def S_WAKEUP : Inst<"s_wakeup", "SOPP", [], [], [], ALL, ["SIDE_EFFECT"]>;
// Performance counters and thread trace (no effect on the wave's state);
// s_ttracedata sends m0 to the trace stream.
foreach mn = ["s_incperflevel", "s_decperflevel"] in
  def : Inst<mn, "SOPP", [], [], [perfcnt], ALL, ["SIDE_EFFECT"]>;
def S_TTRACEDATA : Inst<"s_ttracedata", "SOPP", [], [], [], ALL, ["SIDE_EFFECT"]> {
  let ImplicitUses = ["m0"];
}
def S_SETKILL : Inst<"s_setkill", "SOPP", [], [], [killbit], ALL, ["SIDE_EFFECT"]> {
  let Doc = "Kill the wave when imm[0] is 1 (debugging the host's kill command).";
}

// Branches to a label. Conditional ones fall through to the next block.
def S_BRANCH : Inst<"s_branch", "SOPP", [], [], [], ALL, ["BRANCH", "TERMINATOR"]> {
  let Successors = 1;
}
class CBranch<string cond, string reads> : Inst<"s_cbranch_"#cond, "SOPP", [], [],
    [], ALL, ["BRANCH", "TERMINATOR"]> {
  let Successors = 2;
  let ImplicitUses = [reads];
}
def S_CBRANCH_SCC0 : CBranch<"scc0", "scc">;
def S_CBRANCH_SCC1 : CBranch<"scc1", "scc">;
def S_CBRANCH_VCCZ : CBranch<"vccz", "vcc">;
def S_CBRANCH_VCCNZ : CBranch<"vccnz", "vcc">;
def S_CBRANCH_EXECZ : CBranch<"execz", "exec">;
def S_CBRANCH_EXECNZ : CBranch<"execnz", "exec">;

// Messages to the host / SPI (m0 holds data for some messages).
foreach mn = ["s_sendmsg", "s_sendmsghalt"] in
  def : Inst<mn, "SOPP", [], [], [sendmsg], CDNA3, ["SIDE_EFFECT"]> {
    let ImplicitUses = ["m0"];
  }
// VGPR index mode off, and a new mode (gpr_idx) keeping the index.
def S_SET_GPR_IDX_OFF : Inst<"s_set_gpr_idx_off", "SOPP", [], [], [], CDNA3,
    ["SALU", "SIDE_EFFECT"]>;
def S_SET_GPR_IDX_MODE : Inst<"s_set_gpr_idx_mode", "SOPP", [], [], [gpr_idx], CDNA3,
    ["SALU", "SIDE_EFFECT"]> {
  let ImplicitDefs = ["m0"];
  let ImplicitUses = ["m0"];
}
