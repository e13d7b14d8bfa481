// Scalar compares (SOPC): scc = ssrc0 OP ssrc1.

class SOPC<string mn, int w = 1, int w1 = w, list<Target> t = ALL>
    : Inst<mn, "SOPC", [],
           [Opd<"ssrc0", "sil", w, !if(!eq(w, 2), "b64", "b32")>,
            Opd<"ssrc1", "sil", w1, !if(!eq(w1, 2), "b64", "b32")>],
           [], t, ["SALU"]> {
  let ImplicitDefs = ["scc"];
}

foreach op = ["eq", "lg", "gt", "ge", "lt", "le"] in
  foreach ty = ["i32", "u32"] in
    def S_CMP_#op#_#ty : SOPC<"s_cmp_"#op#"_"#ty>;
foreach op = ["eq", "lg"] in
  def S_CMP_#op#_U64 : SOPC<"s_cmp_"#op#"_u64", 2>;
// scc = bit ssrc1 of ssrc0 is 0 (bitcmp0) or 1 (bitcmp1).
foreach b = ["0", "1"] in {
  def S_BITCMP#b#_B32 : SOPC<"s_bitcmp"#b#"_b32">;
  def S_BITCMP#b#_B64 : SOPC<"s_bitcmp"#b#"_b64", 2, 1>;
}

// VGPR index mode on: m0[7:0] = ssrc0[7:0], m0[15:12] = the gpr_idx mode.
def S_SET_GPR_IDX_ON : Inst<"s_set_gpr_idx_on", "SOPC", [], [Opd<"ssrc0", "sil">], [gpr_idx],
    CDNA3, ["SALU", "SIDE_EFFECT"]> {
  let ImplicitDefs = ["m0"];
  let ImplicitUses = ["m0"];
}
// Vector skip: while set, VALU instructions are not executed.
def S_SETVSKIP : Inst<"s_setvskip", "SOPC", [], [Opd<"ssrc0", "sil">, Opd<"ssrc1", "sil">],
    [], CDNA3, ["SALU", "SIDE_EFFECT"]> {
  let Doc = "VSKIP = ssrc0[ssrc1[4:0]].";
}
