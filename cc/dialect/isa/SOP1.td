// Scalar ALU with one source (SOP1): sdst = op(ssrc0).

class SOP1<string mn, int w = 1, int w0 = w, list<Target> t = ALL>
    : Inst<mn, "SOP1", [Opd<"sdst", "s", w, !if(!eq(w, 2), "b64", "b32")>],
           [Opd<"ssrc0", "sil", w0, !if(!eq(w0, 2), "b64", "b32")>],
           [], t, ["SALU"]>;
// scc = (result != 0).
class SOP1Scc<string mn, int w = 1, int w0 = w, list<Target> t = ALL>
    : SOP1<mn, w, w0, t> {
  let ImplicitDefs = ["scc"];
}

def S_MOV_B32 : SOP1<"s_mov_b32">;
def S_MOV_B64 : SOP1<"s_mov_b64", 2>;
// Conditional move: sdst is kept when scc is 0, so its old value is read.
class SCmov<string mn, int w, string ty> : SOP1<mn, w> {
  let Srcs = [Opd<"ssrc0", "sil", w, ty>, Tied<"sdst", "s", w, ty>];
  let ImplicitUses = ["scc"];
  let Doc = "sdst = scc ? ssrc0 : sdst.";
}
def S_CMOV_B32 : SCmov<"s_cmov_b32", 1, "b32">;
def S_CMOV_B64 : SCmov<"s_cmov_b64", 2, "b64">;
def S_NOT_B32 : SOP1Scc<"s_not_b32">;
def S_NOT_B64 : SOP1Scc<"s_not_b64", 2>;
def S_WQM_B32 : SOP1Scc<"s_wqm_b32">;
def S_WQM_B64 : SOP1Scc<"s_wqm_b64", 2>;
def S_BREV_B32 : SOP1<"s_brev_b32">;
def S_BREV_B64 : SOP1<"s_brev_b64", 2>;
def S_BCNT0_I32_B32 : SOP1Scc<"s_bcnt0_i32_b32">;
def S_BCNT0_I32_B64 : SOP1Scc<"s_bcnt0_i32_b64", 1, 2>;
def S_BCNT1_I32_B32 : SOP1Scc<"s_bcnt1_i32_b32">;
def S_BCNT1_I32_B64 : SOP1Scc<"s_bcnt1_i32_b64", 1, 2>;
// gfx12 renames the bit scans (s_ctz_i32_b32, s_clz_i32_u32, s_cls_i32).
def S_FF0_I32_B32 : SOP1<"s_ff0_i32_b32", 1, 1, CDNA3>;
def S_FF1_I32_B32 : SOP1<"s_ff1_i32_b32", 1, 1, CDNA3>;
def S_FF1_I32_B64 : SOP1<"s_ff1_i32_b64", 1, 2, CDNA3>;
def S_FLBIT_I32_B32 : SOP1<"s_flbit_i32_b32", 1, 1, CDNA3>;
def S_FLBIT_I32_B64 : SOP1<"s_flbit_i32_b64", 1, 2, CDNA3>;
def S_FLBIT_I32 : SOP1<"s_flbit_i32", 1, 1, CDNA3>;
def S_FF0_I32_B64 : SOP1<"s_ff0_i32_b64", 1, 2, CDNA3>;
def S_FLBIT_I32_I64 : SOP1<"s_flbit_i32_i64", 1, 2, CDNA3>;
def S_SEXT_I32_I8 : SOP1<"s_sext_i32_i8">;
def S_SEXT_I32_I16 : SOP1<"s_sext_i32_i16">;
def S_ABS_I32 : SOP1Scc<"s_abs_i32">;
def S_QUADMASK_B32 : SOP1Scc<"s_quadmask_b32">;
def S_QUADMASK_B64 : SOP1Scc<"s_quadmask_b64", 2>;
// Set/clear bit ssrc0[4:0] of sdst (read-modify-write).
foreach b = ["0", "1"] in
  def S_BITSET#b#_B32 : SOP1<"s_bitset"#b#"_b32"> {
    let Srcs = [Opd<"ssrc0", "sil">, Tied<"sdst", "s">];
  }
foreach b = ["0", "1"] in
  def S_BITSET#b#_B64 : SOP1<"s_bitset"#b#"_b64", 2, 1> {
    let Srcs = [Opd<"ssrc0", "sil">, Tied<"sdst", "s", 2, "b64">];
  }
// Each bit of ssrc0 twice: sdst[2i] = sdst[2i+1] = ssrc0[i].
def S_BITREPLICATE_B64_B32 : SOP1<"s_bitreplicate_b64_b32", 2, 1>;

// Program counter.
def S_GETPC_B64 : Inst<"s_getpc_b64", "SOP1", [Opd<"sdst", "s", 2, "b64">], [],
    [], ALL, ["SALU"]> {
  let Doc = "sdst = address of the next instruction.";
}
def S_SWAPPC_B64 : Inst<"s_swappc_b64", "SOP1", [Opd<"sdst", "s", 2, "b64">],
    [Opd<"ssrc0", "s", 2, "b64">], [], ALL, ["SALU", "BRANCH"]> {
  let Doc = "Call: sdst = address of the next instruction; jump to ssrc0.";
}
def S_SETPC_B64 : Inst<"s_setpc_b64", "SOP1", [], [Opd<"ssrc0", "s", 2, "b64">],
    [], ALL, ["SALU", "BRANCH", "TERMINATOR"]> {
  let Doc = "Indirect jump to ssrc0.";
}

// Relative SGPR moves: the SGPR index is offset by m0.
foreach w = [P<"b32", 1>, P<"b64", 2>] in {
  def S_MOVRELS_#w.S : SOP1<"s_movrels_"#w.S, w.N, w.N> {
    let Srcs = [Opd<"ssrc0", "s", w.N, !if(!eq(w.N, 2), "b64", "b32")>];
    let ImplicitUses = ["m0"];
    let Doc = "sdst = SGPR[ssrc0 + m0].";
  }
  def S_MOVRELD_#w.S : SOP1<"s_movreld_"#w.S, w.N, w.N> {
    let Srcs = [Opd<"ssrc0", "si", w.N, !if(!eq(w.N, 2), "b64", "b32")>];
    let ImplicitUses = ["m0"];
    let Doc = "SGPR[sdst + m0] = ssrc0.";
  }
}
// VGPR index mode (gfx9): while on, the VGPR operands selected by the mode
// (gpr_idx: SRC0, SRC1, SRC2, DST) of VALU instructions are offset by
// m0[7:0]; m0[15:12] holds the mode.
def S_SET_GPR_IDX_IDX : Inst<"s_set_gpr_idx_idx", "SOP1", [], [Opd<"ssrc0", "sil">], [],
    CDNA3, ["SALU", "SIDE_EFFECT"]> {
  let ImplicitDefs = ["m0"];
  let ImplicitUses = ["m0"];
  let Doc = "m0[7:0] = ssrc0[7:0] (the VGPR index).";
}

// exec-mask updates (wave64): sdst = exec; exec = op(ssrc0, exec); scc = (exec != 0).
// gfx1201 is wave32 in aster and has the _b32 forms instead.
class SaveExec<string mn> : SOP1<mn, 2, 2, CDNA3> {
  let ImplicitDefs = ["exec", "scc"];
  let ImplicitUses = ["exec"];
}
foreach op = ["and", "or", "xor", "andn2", "orn2", "nand", "nor", "xnor",
              "andn1", "orn1"] in
  def S_#op#_SAVEEXEC_B64 : SaveExec<"s_"#op#"_saveexec_b64">;
// exec = op(ssrc0, exec); sdst = the new exec.
foreach op = ["andn1", "andn2"] in
  def S_#op#_WREXEC_B64 : SaveExec<"s_"#op#"_wrexec_b64">;
