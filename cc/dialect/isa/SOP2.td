// Scalar ALU with two sources (SOP2): sdst = op(ssrc0, ssrc1).
// Either source may be an SGPR, an inline constant or one 32-bit literal.

// W is the width of sdst and ssrc0 (1 or 2 registers); W1 that of ssrc1
// (shift amounts and bit-field specs stay 32-bit in the 64-bit forms).
class SOP2<string mn, int w = 1, int w1 = w, list<Target> t = CDNA3>
    : Inst<mn, "SOP2", [Opd<"sdst", "s", w, !if(!eq(w, 2), "b64", "b32")>],
           [Opd<"ssrc0", "sil", w, !if(!eq(w, 2), "b64", "b32")>,
            Opd<"ssrc1", "sil", w1, !if(!eq(w1, 2), "b64", "b32")>],
           [], t, ["SALU"]> {
  let ImplicitDefs = ["scc"];
}
// The same, but scc is left alone.
class SOP2NoScc<string mn, int w = 1, int w1 = w, list<Target> t = CDNA3>
    : SOP2<mn, w, w1, t> {
  let ImplicitDefs = [];
}

// Integer arithmetic: scc is the carry/borrow (unsigned) or overflow (signed).
def S_ADD_U32  : SOP2<"s_add_u32">;
def S_SUB_U32  : SOP2<"s_sub_u32">;
def S_ADD_I32  : SOP2<"s_add_i32">;
def S_SUB_I32  : SOP2<"s_sub_i32">;
def S_ADDC_U32 : SOP2<"s_addc_u32"> { let ImplicitUses = ["scc"]; let Doc = "sdst = ssrc0 + ssrc1 + scc; scc = carry out."; }
def S_SUBB_U32 : SOP2<"s_subb_u32"> { let ImplicitUses = ["scc"]; let Doc = "sdst = ssrc0 - ssrc1 - scc; scc = borrow out."; }
def S_ABSDIFF_I32 : SOP2<"s_absdiff_i32", 1, 1, ALL>;
def S_MUL_I32    : SOP2NoScc<"s_mul_i32", 1, 1, ALL>;
def S_MUL_HI_U32 : SOP2NoScc<"s_mul_hi_u32", 1, 1, ALL>;
def S_MUL_HI_I32 : SOP2NoScc<"s_mul_hi_i32", 1, 1, ALL>;
foreach n = [1, 2, 3, 4] in
  def S_LSHL#n#_ADD_U32 : SOP2<"s_lshl"#n#"_add_u32", 1, 1, ALL> {
    let Doc = "sdst = (ssrc0 << " # n # ") + ssrc1; scc = carry out.";
  }

// Min/max: scc = 1 when ssrc0 was selected.
foreach op = ["min", "max"] in
  foreach ty = ["i32", "u32"] in
    def S_#op#_#ty : SOP2<"s_"#op#"_"#ty, 1, 1, ALL>;

// Select by scc.
def S_CSELECT_B32 : SOP2NoScc<"s_cselect_b32", 1, 1, ALL> {
  let ImplicitUses = ["scc"];
  let Doc = "sdst = scc ? ssrc0 : ssrc1.";
}
def S_CSELECT_B64 : SOP2NoScc<"s_cselect_b64", 2, 2, ALL> {
  let ImplicitUses = ["scc"];
  let Doc = "sdst = scc ? ssrc0 : ssrc1.";
}

// Bitwise logic: scc = (result != 0).
foreach op = ["and", "or", "xor", "nand", "nor", "xnor"] in {
  def S_#op#_B32 : SOP2<"s_"#op#"_b32", 1, 1, ALL>;
  def S_#op#_B64 : SOP2<"s_"#op#"_b64", 2, 2, ALL>;
}
// gfx12 renames these (s_and_not1_*, s_or_not1_*).
foreach op = ["andn2", "orn2"] in {
  def S_#op#_B32 : SOP2<"s_"#op#"_b32">;
  def S_#op#_B64 : SOP2<"s_"#op#"_b64", 2, 2>;
}

// Shifts: scc = (result != 0); the amount is ssrc1[4:0] (ssrc1[5:0] for 64-bit).
foreach op = ["lshl", "lshr"] in {
  def S_#op#_B32 : SOP2<"s_"#op#"_b32", 1, 1, ALL>;
  def S_#op#_B64 : SOP2<"s_"#op#"_b64", 2, 1, ALL>;
}
def S_ASHR_I32 : SOP2<"s_ashr_i32", 1, 1, ALL>;
def S_ASHR_I64 : SOP2<"s_ashr_i64", 2, 1, ALL>;

// Bit fields. s_bfe: ssrc1[4:0] (or [5:0]) is the offset, ssrc1[22:16] the width.
def S_BFM_B32 : SOP2NoScc<"s_bfm_b32", 1, 1, ALL> { let Doc = "sdst = ((1 << ssrc0) - 1) << ssrc1."; }
def S_BFM_B64 : SOP2NoScc<"s_bfm_b64", 2, 1, ALL> {
  // Both operands are 32-bit; only the result is 64-bit.
  let Srcs = [Opd<"ssrc0", "sil">, Opd<"ssrc1", "sil">];
}
foreach ty = ["u32", "i32"] in
  def S_BFE_#ty : SOP2<"s_bfe_"#ty, 1, 1, ALL>;
foreach ty = ["u64", "i64"] in
  def S_BFE_#ty : SOP2<"s_bfe_"#ty, 2, 1, ALL>;

// 16-bit packing: sdst = {hi, lo} halves picked from the sources.
foreach sel = ["ll", "lh", "hh"] in
  def S_PACK_#sel#_B32_B16 : SOP2NoScc<"s_pack_"#sel#"_b32_b16", 1, 1, ALL>;
