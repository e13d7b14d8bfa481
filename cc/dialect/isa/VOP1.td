// Vector ALU with one source (VOP1): vdst = op(src0). Every vector
// instruction reads exec. src0 may be a VGPR, an SGPR, an inline constant or
// (32-bit operands) a literal. Modifiers (VMods) select the 64-bit VOP3
// encoding, which LLVM prints with an _e64 suffix.

class VOP1<string mn, string dty, string sty, int dw = 1, int sw = 1,
           list<Target> t = CDNA3, list<string> props = []>
    : Inst<mn, "VOP1", [Opd<"vdst", "v", dw, dty>],
           [Opd<"src0", !if(!or(!eq(sw, 1), !eq(sty, "f64")), "vsil", "vsi"), sw, sty>],
           VMods<dty, [sty]>.r, t, !listconcat(["VALU"], props)> {
  let ImplicitUses = ["exec"];
}
// Transcendental: issued to the separate TRANS unit on gfx940+.
class VTrans<string mn, string ty, int w = 1, list<Target> t = ALL>
    : VOP1<mn, ty, ty, w, w, t, ["TRANS"]>;

def V_MOV_B32 : VOP1<"v_mov_b32", "b32", "b32", 1, 1, ALL>;
def V_MOV_B64 : VOP1<"v_mov_b64", "b64", "b64", 2, 2>;
def V_READFIRSTLANE_B32 : VOP1<"v_readfirstlane_b32", "b32", "b32", 1, 1, ALL> {
  let Dsts = [Opd<"sdst", "s">];
  let Srcs = [Opd<"src0", "v">];
  let Doc = "sdst = src0 of the first active lane.";
}
def V_NOP : Inst<"v_nop", "VOP1", [], [], [], ALL, ["VALU"]>;
// Both registers are read and written.
def V_SWAP_B32 : Inst<"v_swap_b32", "VOP1", [Opd<"vdst", "v">, Opd<"vsrc", "v">],
    [Tied<"vdst", "v">, Tied<"vsrc", "v">], [], ALL, ["VALU"]> {
  let ImplicitUses = ["exec"];
  let Doc = "Exchanges vdst and vsrc.";
}
def V_ACCVGPR_MOV_B32 : VOP1<"v_accvgpr_mov_b32", "b32", "b32"> {
  let Dsts = [Opd<"vdst", "a">];
  let Srcs = [Opd<"src0", "a">];
}

// Bit operations.
def V_NOT_B32 : VOP1<"v_not_b32", "b32", "b32", 1, 1, ALL>;
def V_BFREV_B32 : VOP1<"v_bfrev_b32", "b32", "b32", 1, 1, ALL>;
// Bit scans (gfx12 renames them v_clz_i32_u32, v_ctz_i32_b32, v_cls_i32).
def V_FFBH_U32 : VOP1<"v_ffbh_u32", "u32", "u32">;
def V_FFBL_B32 : VOP1<"v_ffbl_b32", "b32", "b32">;
def V_FFBH_I32 : VOP1<"v_ffbh_i32", "i32", "i32">;

// Conversions: v_cvt_<dst>_<src>.
foreach c = [["f32", "i32"], ["f32", "u32"], ["i32", "f32"], ["u32", "f32"],
             ["f16", "f32"], ["f32", "f16"], ["f16", "u16"], ["f16", "i16"],
             ["u16", "f16"], ["i16", "f16"]] in
  def V_CVT_#c[0]#_#c[1] : VOP1<"v_cvt_"#c[0]#"_"#c[1], c[0], c[1], 1, 1, ALL>;
foreach c = ["rpi", "flr"] in
  def V_CVT_#c#_I32_F32 : VOP1<"v_cvt_"#c#"_i32_f32", "i32", "f32">;
def V_CVT_OFF_F32_I4 : VOP1<"v_cvt_off_f32_i4", "f32", "b32", 1, 1, ALL> {
  let Doc = "vdst = src0[3:0] as a signed 4-bit value / 16.";
}
foreach b = ["0", "1", "2", "3"] in
  def V_CVT_F32_UBYTE#b : VOP1<"v_cvt_f32_ubyte"#b, "f32", "b32", 1, 1, ALL> {
    let Doc = "vdst = (float) byte " # b # " of src0.";
  }
foreach ty = ["i32", "u32"] in {
  def V_CVT_F64_#ty : VOP1<"v_cvt_f64_"#ty, "f64", ty, 2, 1, ALL>;
  def V_CVT_#ty#_F64 : VOP1<"v_cvt_"#ty#"_f64", ty, "f64", 1, 2, ALL>;
}
def V_CVT_F32_F64 : VOP1<"v_cvt_f32_f64", "f32", "f64", 1, 2, ALL>;
def V_CVT_F64_F32 : VOP1<"v_cvt_f64_f32", "f64", "f32", 2, 1, ALL>;
foreach ty = ["i16", "u16"] in
  def V_CVT_NORM_#ty#_F16 : VOP1<"v_cvt_norm_"#ty#"_f16", ty, "f16", 1, 1, ALL>;
def V_SAT_PK_U8_I16 : VOP1<"v_sat_pk_u8_i16", "b32", "b32", 1, 1, ALL>;
// gfx940 fp8/bf8 (the FNUZ formats; gfx12's same-named ones convert OCP fp8).
foreach f = ["fp8", "bf8"] in {
  def V_CVT_F32_#f : VOP1<"v_cvt_f32_"#f, "f32", "b32">;
  def V_CVT_PK_F32_#f : VOP1<"v_cvt_pk_f32_"#f, "f32", "b32", 2, 1>;
}

// Rounding and decomposition.
foreach ty = ["f16", "f32", "f64"] in {
  defvar w = !if(!eq(ty, "f64"), 2, 1);
  foreach op = ["fract", "trunc", "ceil", "rndne", "floor", "frexp_mant"] in
    def V_#op#_#ty : VOP1<"v_"#op#"_"#ty, ty, ty, w, w, ALL>;
}
def V_FREXP_EXP_I32_F32 : VOP1<"v_frexp_exp_i32_f32", "i32", "f32", 1, 1, ALL>;
def V_FREXP_EXP_I32_F64 : VOP1<"v_frexp_exp_i32_f64", "i32", "f64", 1, 2, ALL>;
def V_FREXP_EXP_I16_F16 : VOP1<"v_frexp_exp_i16_f16", "i16", "f16", 1, 1, ALL>;

// Transcendentals.
foreach op = ["exp", "log", "rcp", "rsq", "sqrt", "sin", "cos"] in {
  def V_#op#_F32 : VTrans<"v_"#op#"_f32", "f32">;
  def V_#op#_F16 : VTrans<"v_"#op#"_f16", "f16">;
}
def V_RCP_IFLAG_F32 : VTrans<"v_rcp_iflag_f32", "f32">;
foreach op = ["exp_legacy", "log_legacy"] in
  def V_#op#_F32 : VTrans<"v_"#op#"_f32", "f32", 1, CDNA3>;
foreach op = ["rcp", "rsq", "sqrt"] in
  def V_#op#_F64 : VTrans<"v_"#op#"_f64", "f64", 2>;

// gfx950 additions.
def V_PRNG_B32 : VOP1<"v_prng_b32", "b32", "b32", 1, 1, CDNA4> {
  let Doc = "Pseudo-random number from the seed in src0.";
}
def V_CVT_F32_BF16 : VOP1<"v_cvt_f32_bf16", "f32", "bf16", 1, 1, CDNA4>;
// Swap lanes between two VGPRs (both are read and written). bound_ctrl /
// fi exist only in the VOP3 encoding (op_sel bits 12 / 11; llvm-mc-22
// -mcpu=gfx950 encodes `v_permlane16_swap_b32 v0, v1 bound_ctrl:1 fi:1` as
// v_permlane16_swap_b32_e64, what llc-22 selects for
// llvm.amdgcn.permlane16.swap(.., fi=1, bound_ctrl=1)); LLVM's modifier
// syntax (AMDGPUModifierSyntax: fi, bound_ctrl) gives their meaning for a
// source lane that is inactive: fi:1 reads it anyway, bound_ctrl:1 writes 0.
def permlane_fi : Mod<"fi", "int", 1, 0, 1>;
foreach n = ["16", "32"] in
  def V_PERMLANE#n#_SWAP_B32 : Inst<"v_permlane"#n#"_swap_b32", "VOP1",
      [Opd<"vdst", "v">, Opd<"vsrc", "v">], [Tied<"vdst", "v">, Tied<"vsrc", "v">],
      [bound_ctrl, permlane_fi], CDNA4, ["VALU"]> {
    let ImplicitUses = ["exec"];
  }
