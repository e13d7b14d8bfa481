// Vector ALU only encodable as VOP3 (three sources, or an SGPR destination).
// On gfx940 a VOP3 source is a VGPR, an SGPR or an inline constant, never a
// literal, and at most one SGPR (the constant bus) is read.

// Op with result type DTY, sources STYS (widths from the type: 64-bit types
// take register pairs).
class VOP3<string mn, string dty, list<string> stys, list<Target> t = CDNA3,
           list<Mod> mods = VMods<dty, stys>.r>
    : Inst<mn, "VOP3", [Opd<"vdst", "v", W<dty>.r, dty>],
           !foreach(i, !range(!size(stys)),
                    Opd<"src"#i, "vsi", W<stys[i]>.r, stys[i]>),
           mods, t, ["VALU"]> {
  let ImplicitUses = ["exec"];
}

// Float fused multiply-add and friends.
def V_FMA_F32 : VOP3<"v_fma_f32", "f32", ["f32", "f32", "f32"], ALL>;
def V_FMA_F64 : VOP3<"v_fma_f64", "f64", ["f64", "f64", "f64"], ALL>;
def V_FMA_F16 : VOP3<"v_fma_f16", "f16", ["f16", "f16", "f16"], ALL>;
foreach op = ["add", "mul"] in
  def V_#op#_F64 : VOP3<"v_"#op#"_f64", "f64", ["f64", "f64"], ALL>;
foreach op = ["min", "max"] in
  def V_#op#_F64 : VOP3<"v_"#op#"_f64", "f64", ["f64", "f64"]>;
def V_MUL_LEGACY_F32 : VOP3<"v_mul_legacy_f32", "f32", ["f32", "f32"]> {
  let Doc = "Multiply where 0 * anything (even inf/nan) is 0.";
}
def V_LDEXP_F64 : VOP3<"v_ldexp_f64", "f64", ["f64", "i32"], ALL>;
def V_LDEXP_F32 : VOP3<"v_ldexp_f32", "f32", ["f32", "i32"], ALL>;
foreach op = ["min3", "max3", "med3"] in {
  def V_#op#_F32 : VOP3<"v_"#op#"_f32", "f32", ["f32", "f32", "f32"]>;
  foreach ty = ["i32", "u32"] in
    def V_#op#_#ty : VOP3<"v_"#op#"_"#ty, ty, [ty, ty, ty], ALL>;
}
def V_DIV_FIXUP_F32 : VOP3<"v_div_fixup_f32", "f32", ["f32", "f32", "f32"], ALL>;
def V_DIV_FIXUP_F64 : VOP3<"v_div_fixup_f64", "f64", ["f64", "f64", "f64"], ALL>;
def V_DIV_FIXUP_F16 : VOP3<"v_div_fixup_f16", "f16", ["f16", "f16", "f16"], ALL>;
// Division helpers: div_scale writes vcc-like flags to sdst; div_fmas reads vcc.
foreach ty = ["f32", "f64"] in {
  def V_DIV_SCALE_#ty : VOP3<"v_div_scale_"#ty, ty, [ty, ty, ty]> {
    let Dsts = [Opd<"vdst", "v", W<ty>.r, ty>, Opd<"sdst", "s", 2, "b64">];
    let Mods = [clamp, omod];
  }
  def V_DIV_FMAS_#ty : VOP3<"v_div_fmas_"#ty, ty, [ty, ty, ty]> {
    let ImplicitUses = ["exec", "vcc"];
  }
}

// Integer multiply and multiply-add.
foreach op = ["mul_lo_u32", "mul_hi_u32"] in
  def V_#op : VOP3<"v_"#op, "u32", ["u32", "u32"], ALL, []>;
def V_MUL_HI_I32 : VOP3<"v_mul_hi_i32", "i32", ["i32", "i32"], ALL, []>;
def V_MAD_U32_U24 : VOP3<"v_mad_u32_u24", "u32", ["u32", "u32", "u32"], ALL, [clamp]>;
def V_MAD_I32_I24 : VOP3<"v_mad_i32_i24", "i32", ["i32", "i32", "i32"], ALL, [clamp]>;
def V_MAD_U32_U16 : VOP3<"v_mad_u32_u16", "u32", ["u16", "u16", "u32"], ALL, [clamp]>;
def V_MAD_I32_I16 : VOP3<"v_mad_i32_i16", "i32", ["i16", "i16", "i32"], ALL, []>;
// 16-bit multiply-add and three-way min/max/median (the result in the low
// half, the high half zeroed). The emulator does not saturate these (no
// clamp forms here).
foreach ty = ["u16", "i16"] in {
  def V_MAD_#ty : VOP3<"v_mad_"#ty, ty, [ty, ty, ty], ALL, []>;
  foreach op = ["min3", "max3", "med3"] in
    def V_#op#_#ty : VOP3<"v_"#op#"_"#ty, ty, [ty, ty, ty], ALL, []>;
}
// Signed 16-bit add/sub (clamp saturates).
foreach op = ["add", "sub"] in
  def V_#op#_I16 : VOP3<"v_"#op#"_i16", "i16", ["i16", "i16"], CDNA3, [clamp]>;
def V_MAD_F16 : VOP3<"v_mad_f16", "f16", ["f16", "f16", "f16"]> {
  let Doc = "vdst = src0 * src1 + src2, rounded after the multiply and after the add.";
}
foreach op = ["min3", "max3", "med3"] in
  def V_#op#_F16 : VOP3<"v_"#op#"_f16", "f16", ["f16", "f16", "f16"]>;
// Sums of absolute differences plus src2: per byte (sad_u8; sad_hi_u8 shifts
// the sum left 16; msad_u8 skips bytes of src1 that are 0), per low word, per
// dword; lerp_u8 averages bytes rounding by src2's bits.
foreach op = ["sad_u8", "sad_hi_u8", "sad_u16", "sad_u32", "msad_u8", "lerp_u8"] in
  def V_#op : VOP3<"v_"#op, "u32", ["u32", "u32", "u32"], ALL, []>;
def V_TRIG_PREOP_F64 : VOP3<"v_trig_preop_f64", "f64", ["f64", "u32"], ALL> {
  let Doc = "53 bits of 2/pi from bit src1[4:0] * 53, scaled for src0's exponent.";
}
foreach s = ["u64_u32", "i64_i32"] in
  def V_MAD_#s : VOP3<"v_mad_"#s, "u64", ["u32", "u32", "u64"], CDNA3, [clamp]> {
    let Dsts = [Opd<"vdst", "v", 2, "u64">, Opd<"sdst", "s", 2, "b64">];
    let Doc = "vdst = src0 * src1 + src2 (64-bit); sdst = per-lane carry out.";
  }
def V_LSHL_ADD_U64 : VOP3<"v_lshl_add_u64", "u64", ["u64", "u32", "u64"]> {
  let Doc = "vdst = (src0 << src1[2:0]) + src2.";
}

// Three-operand integer and bitwise.
foreach op = ["add3_u32", "lshl_add_u32", "add_lshl_u32", "xad_u32"] in
  def V_#op : VOP3<"v_"#op, "u32", ["u32", "u32", "u32"], ALL, []>;
foreach op = ["lshl_or_b32", "and_or_b32", "or3_b32", "bfi_b32", "perm_b32",
              "alignbit_b32", "alignbyte_b32"] in
  def V_#op : VOP3<"v_"#op, "b32", ["b32", "b32", "b32"], ALL, []>;
def V_BFE_U32 : VOP3<"v_bfe_u32", "u32", ["u32", "u32", "u32"], ALL, []> {
  let Doc = "vdst = (src0 >> src1[4:0]) & ((1 << src2[4:0]) - 1).";
}
def V_BFE_I32 : VOP3<"v_bfe_i32", "i32", ["i32", "u32", "u32"], ALL, []>;
def V_BCNT_U32_B32 : VOP3<"v_bcnt_u32_b32", "u32", ["b32", "u32"], ALL, []> {
  let Doc = "vdst = popcount(src0) + src1.";
}
def V_BFM_B32 : VOP3<"v_bfm_b32", "b32", ["u32", "u32"], ALL, []>;
def V_MBCNT_LO_U32_B32 : VOP3<"v_mbcnt_lo_u32_b32", "u32", ["b32", "u32"], ALL, []> {
  let Doc = "vdst = popcount(src0 & lanes below this one, low 32) + src1.";
}
def V_MBCNT_HI_U32_B32 : VOP3<"v_mbcnt_hi_u32_b32", "u32", ["b32", "u32"], ALL, []> {
  let Doc = "vdst = popcount(src0 & lanes below this one, high 32) + src1.";
}
foreach op = ["lshlrev_b64", "lshrrev_b64"] in
  def V_#op : VOP3<"v_"#op, "b64", ["u32", "b64"], ALL, []>;
def V_ASHRREV_I64 : VOP3<"v_ashrrev_i64", "i64", ["u32", "i64"], ALL, []>;

// Packing conversions (two f32 into one 32-bit register, ...).
def V_CVT_PKRTZ_F16_F32 : VOP3<"v_cvt_pkrtz_f16_f32", "v2f16", ["f32", "f32"]> {
  let Mods = [clamp, neg, abs];
}
foreach ty = ["i16", "u16"] in
  def V_CVT_PKNORM_#ty#_F32 : VOP3<"v_cvt_pknorm_"#ty#"_f32", "b32", ["f32", "f32"]> {
    let Mods = [clamp, neg, abs];
  }
foreach ty = ["i16", "u16"] in
  def V_CVT_PKNORM_#ty#_F16 : VOP3<"v_cvt_pknorm_"#ty#"_f16", "b32", ["f16", "f16"]> {
    let Mods = SrcMods;
  }
def V_CVT_PK_U16_U32 : VOP3<"v_cvt_pk_u16_u32", "b32", ["u32", "u32"], ALL, []>;
def V_CVT_PK_I16_I32 : VOP3<"v_cvt_pk_i16_i32", "b32", ["i32", "i32"], ALL, []>;
def V_CVT_PK_U8_F32 : VOP3<"v_cvt_pk_u8_f32", "b32", ["f32", "u32", "u32"], ALL, []>;
// gfx940 fp8/bf8 (FNUZ); gfx12's same-named ones convert OCP fp8.
// The result goes to one word (op_sel[2]: the high one) or byte (op_sel[2:3])
// of vdst; the rest of vdst is kept.
foreach f = ["fp8", "bf8"] in {
  def V_CVT_PK_#f#_F32 : VOP3<"v_cvt_pk_"#f#"_f32", "b32", ["f32", "f32"], CDNA3,
                              !listconcat(SrcMods, [op_sel3])> {
    let Srcs = [Opd<"src0", "vsi", 1, "f32">, Opd<"src1", "vsi", 1, "f32">, Tied<"vdst", "v">];
  }
  def V_CVT_SR_#f#_F32 : VOP3<"v_cvt_sr_"#f#"_f32", "b32", ["f32", "u32"], CDNA3,
                              !listconcat(SrcMods, [op_sel4])> {
    let Srcs = [Opd<"src0", "vsi", 1, "f32">, Opd<"src1", "vsi", 1, "u32">, Tied<"vdst", "v">];
  }
}
// 32-bit signed add/sub (VOP3 only; clamp saturates).
foreach op = ["add", "sub"] in
  def V_#op#_I32 : VOP3<"v_"#op#"_i32", "i32", ["i32", "i32"], CDNA3, [clamp]>;
// Two f16 (each the low or, with op_sel, the high half of its source) into
// one register.
def V_PACK_B32_F16 : VOP3<"v_pack_b32_f16", "b32", ["f16", "f16"], ALL,
                          !listconcat(SrcMods, [op_sel3])>;

// Lane access: the lane select is an SGPR or an inline constant. Both
// ignore exec.
def V_READLANE_B32 : Inst<"v_readlane_b32", "VOP3", [Opd<"sdst", "s">],
    [Opd<"src0", "v">, Opd<"lane", "si", 1, "u32">], [], ALL, ["VALU"]> {
  let Doc = "sdst = src0 of lane `lane`.";
}
// Other lanes keep their value, so the old vdst is read.
def V_WRITELANE_B32 : Inst<"v_writelane_b32", "VOP3", [Opd<"vdst", "v">],
    [Opd<"src0", "si">, Opd<"lane", "si", 1, "u32">, Tied<"vdst", "v">],
    [], ALL, ["VALU"]> {
  let Doc = "vdst[lane] = src0; other lanes unchanged.";
}

// gfx950 additions.
def V_CVT_PK_F16_F32 : VOP3<"v_cvt_pk_f16_f32", "v2f16", ["f32", "f32"], CDNA4> {
  let Mods = [clamp, neg, abs];
}
def V_CVT_PK_BF16_F32 : VOP3<"v_cvt_pk_bf16_f32", "v2bf16", ["f32", "f32"], CDNA4> {
  let Mods = [clamp, neg, abs];
}
// op_sel[3]: the half of vdst written (the other is kept).
def V_CVT_SR_F16_F32 : VOP3<"v_cvt_sr_f16_f32", "f16", ["f32", "u32"], CDNA4,
                            !listconcat(SrcMods, [op_sel3])>;
def V_CVT_SR_BF16_F32 : VOP3<"v_cvt_sr_bf16_f32", "bf16", ["f32", "u32"], CDNA4,
                             !listconcat(SrcMods, [op_sel3])>;
foreach s = ["i8", "u8"] in
  def V_ASHR_PK_#s#_I32 : VOP3<"v_ashr_pk_"#s#"_i32", "b32", ["i32", "i32", "u32"],
      CDNA4, [op_sel4]>;   // op_sel[3]: the high half of vdst
foreach op = ["minimum3", "maximum3"] in
  def V_#op#_F32 : VOP3<"v_"#op#"_f32", "f32", ["f32", "f32", "f32"], [gfx950, gfx1201]>;
def V_BITOP3_B32 : VOP3<"v_bitop3_b32", "b32", ["b32", "b32", "b32"], CDNA4, [bitop3]> {
  let Doc = "vdst = bitop3 truth table applied bitwise to (src0, src1, src2).";
}
// Scaled conversions between f32/f16/bf16 and the OCP fp8/bf8/fp6/bf6/fp4
// formats; the last source (before the stochastic-rounding seed of the sr_
// forms: the last but one... as LLVM orders them) is the f32 scale. op_sel
// picks the byte/word of a packed source or of vdst; forms that write part
// of vdst keep the rest (vdst is also read).
class ScaleCvt<string n, int dw, list<int> sw, bit part, int osl> {
  string N = n;
  int D = dw;
  list<int> S = sw;
  bit Part = part;
  int OpSel = osl;   // entries of op_sel (0: none)
}
foreach c = [ScaleCvt<"f16_fp8", 1, [1, 1], 1, 3>, ScaleCvt<"f16_bf8", 1, [1, 1], 1, 3>,
             ScaleCvt<"f32_fp8", 1, [1, 1], 0, 3>, ScaleCvt<"f32_bf8", 1, [1, 1], 0, 3>,
             ScaleCvt<"pk_fp8_f32", 1, [1, 1, 1], 1, 4>,
             ScaleCvt<"pk_bf8_f32", 1, [1, 1, 1], 1, 4>,
             ScaleCvt<"sr_fp8_f32", 1, [1, 1, 1], 1, 4>,
             ScaleCvt<"sr_bf8_f32", 1, [1, 1, 1], 1, 4>,
             ScaleCvt<"pk_f32_fp8", 2, [1, 1], 0, 3>, ScaleCvt<"pk_f32_bf8", 2, [1, 1], 0, 3>,
             ScaleCvt<"pk_fp8_f16", 1, [1, 1], 1, 3>, ScaleCvt<"pk_fp8_bf16", 1, [1, 1], 1, 3>,
             ScaleCvt<"pk_bf8_f16", 1, [1, 1], 1, 3>, ScaleCvt<"pk_bf8_bf16", 1, [1, 1], 1, 3>,
             ScaleCvt<"pk_f16_fp8", 1, [1, 1], 0, 3>, ScaleCvt<"pk_f16_bf8", 1, [1, 1], 0, 3>,
             ScaleCvt<"pk_bf16_fp8", 1, [1, 1], 0, 3>, ScaleCvt<"pk_bf16_bf8", 1, [1, 1], 0, 3>,
             ScaleCvt<"pk_f32_fp4", 2, [1, 1], 0, 3>,
             ScaleCvt<"pk_fp4_f32", 1, [1, 1, 1], 1, 4>,
             ScaleCvt<"pk_f16_fp4", 1, [1, 1], 0, 3>, ScaleCvt<"pk_bf16_fp4", 1, [1, 1], 0, 3>,
             ScaleCvt<"pk_fp4_f16", 1, [1, 1], 1, 4>, ScaleCvt<"pk_fp4_bf16", 1, [1, 1], 1, 4>,
             ScaleCvt<"sr_pk_fp4_f32", 1, [2, 1, 1], 1, 4>,
             ScaleCvt<"sr_pk_fp4_f16", 1, [1, 1, 1], 1, 4>,
             ScaleCvt<"sr_pk_fp4_bf16", 1, [1, 1, 1], 1, 4>,
             ScaleCvt<"sr_fp8_f16", 1, [1, 1, 1], 1, 4>, ScaleCvt<"sr_fp8_bf16", 1, [1, 1, 1], 1, 4>,
             ScaleCvt<"sr_bf8_f16", 1, [1, 1, 1], 1, 4>, ScaleCvt<"sr_bf8_bf16", 1, [1, 1, 1], 1, 4>,
             ScaleCvt<"pk32_f32_fp6", 32, [6, 1], 0, 0>, ScaleCvt<"pk32_f32_bf6", 32, [6, 1], 0, 0>,
             ScaleCvt<"pk32_f16_fp6", 16, [6, 1], 0, 0>, ScaleCvt<"pk32_f16_bf6", 16, [6, 1], 0, 0>,
             ScaleCvt<"pk32_bf16_fp6", 16, [6, 1], 0, 0>,
             ScaleCvt<"pk32_bf16_bf6", 16, [6, 1], 0, 0>,
             ScaleCvt<"2xpk16_fp6_f32", 6, [16, 16, 1], 0, 0>,
             ScaleCvt<"2xpk16_bf6_f32", 6, [16, 16, 1], 0, 0>,
             ScaleCvt<"pk32_fp6_f16", 6, [16, 1], 0, 0>, ScaleCvt<"pk32_bf6_f16", 6, [16, 1], 0, 0>,
             ScaleCvt<"pk32_fp6_bf16", 6, [16, 1], 0, 0>,
             ScaleCvt<"pk32_bf6_bf16", 6, [16, 1], 0, 0>,
             ScaleCvt<"sr_pk32_fp6_f32", 6, [32, 1, 1], 0, 0>,
             ScaleCvt<"sr_pk32_bf6_f32", 6, [32, 1, 1], 0, 0>,
             ScaleCvt<"sr_pk32_fp6_f16", 6, [16, 1, 1], 0, 0>,
             ScaleCvt<"sr_pk32_bf6_f16", 6, [16, 1, 1], 0, 0>,
             ScaleCvt<"sr_pk32_fp6_bf16", 6, [16, 1, 1], 0, 0>,
             ScaleCvt<"sr_pk32_bf6_bf16", 6, [16, 1, 1], 0, 0>] in
  def V_CVT_SCALEF32_#c.N : Inst<"v_cvt_scalef32_"#c.N, "VOP3", [Opd<"vdst", "v", c.D>],
      !listconcat(!foreach(i, !range(!size(c.S)),
                           Opd<"src"#i, !if(!eq(c.S[i], 1), "vsi", "v"),
                               c.S[i]>),
                  !if(c.Part, [Tied<"vdst", "v">], [])),
      !if(!eq(c.OpSel, 3), [op_sel3], !if(!eq(c.OpSel, 4), [op_sel4], [])), CDNA4, ["VALU"]> {
    let ImplicitUses = ["exec"];
  }
