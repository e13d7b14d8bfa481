// Scalar ALU with a 16-bit immediate (SOPK), printed in hex.

def S_MOVK_I32 : Inst<"s_movk_i32", "SOPK", [Opd<"sdst", "s">], [], [simm16],
    ALL, ["SALU"]> {
  let Doc = "sdst = sign-extended imm.";
}
// Read-modify-write forms: sdst is also the first operand.
def S_CMOVK_I32 : Inst<"s_cmovk_i32", "SOPK", [Opd<"sdst", "s">],
    [Tied<"sdst", "s">], [simm16], ALL, ["SALU"]> {
  let ImplicitUses = ["scc"];
  let Doc = "sdst = scc ? sign-extended imm : sdst.";
}
def S_ADDK_I32 : Inst<"s_addk_i32", "SOPK", [Opd<"sdst", "s">],
    [Tied<"sdst", "s">], [simm16], CDNA3, ["SALU"]> {
  let ImplicitDefs = ["scc"];
  let Doc = "sdst += sign-extended imm; scc = signed overflow.";
}
def S_MULK_I32 : Inst<"s_mulk_i32", "SOPK", [Opd<"sdst", "s">],
    [Tied<"sdst", "s">], [simm16], ALL, ["SALU"]> {
  let Doc = "sdst *= sign-extended imm.";
}
// scc = ssrc OP imm (sign-extended for _i32, zero-extended for _u32).
foreach op = ["eq", "lg", "gt", "ge", "lt", "le"] in
  foreach ty = ["i32", "u32"] in
    def S_CMPK_#op#_#ty : Inst<"s_cmpk_"#op#"_"#ty, "SOPK", [],
        [Opd<"ssrc", "s">], [simm16], CDNA3, ["SALU"]> {
      let ImplicitDefs = ["scc"];
    }

// Hardware registers: a bit field of one, named by hwreg(id, offset, size).
def S_GETREG_B32 : Inst<"s_getreg_b32", "SOPK", [Opd<"sdst", "s">], [], [hwreg], CDNA3,
    ["SALU"]> {
  let Doc = "sdst = the hwreg field, zero-extended.";
}
def S_SETREG_B32 : Inst<"s_setreg_b32", "SOPK", [], [Opd<"sdst", "s">], [hwreg], CDNA3,
    ["SALU", "SIDE_EFFECT"]> {
  let Doc = "The hwreg field = the low bits of the SGPR (written in the sdst field).";
}
def S_SETREG_IMM32_B32 : Inst<"s_setreg_imm32_b32", "SOPK", [], [Opd<"imm", "l">], [hwreg],
    CDNA3, ["SALU", "SIDE_EFFECT"]> {
  let Doc = "The hwreg field = the low bits of a 32-bit literal.";
}
