// Packed math (VOP3P): two 16-bit (or, on gfx940, 32-bit) lanes per
// operand. op_sel/op_sel_hi pick the half of each source feeding the low/high
// result; neg_lo/neg_hi negate them. Sources: VGPR, SGPR or inline constant.

class VOP3P<string mn, string ty, int n, list<Mod> mods, list<Target> t = ALL,
            string dty = ty>
    : Inst<mn, "VOP3P", [Opd<"vdst", "v", W<dty>.r, dty>],
           !foreach(i, !range(n), Opd<"src"#i, "vsi", W<ty>.r, ty>),
           mods, t, ["VALU"]> {
  let ImplicitUses = ["exec"];
}

// f16 pairs (gfx12 renames min/max to v_pk_min_num_f16/v_pk_max_num_f16).
foreach op = ["add", "mul"] in
  def V_PK_#op#_F16 : VOP3P<"v_pk_"#op#"_f16", "v2f16", 2, PkMods2>;
def V_PK_FMA_F16 : VOP3P<"v_pk_fma_f16", "v2f16", 3, PkMods3>;
foreach op = ["min", "max"] in
  def V_PK_#op#_F16 : VOP3P<"v_pk_"#op#"_f16", "v2f16", 2, PkMods2, CDNA3>;

// 16-bit integer pairs.
foreach op = ["add_u16", "add_i16", "sub_u16", "sub_i16", "mul_lo_u16",
              "max_i16", "max_u16", "min_i16", "min_u16"] in
  def V_PK_#op : VOP3P<"v_pk_"#op, "v2i16", 2, PkIntMods2>;
foreach op = ["lshlrev_b16", "lshrrev_b16", "ashrrev_i16"] in
  def V_PK_#op : VOP3P<"v_pk_"#op, "v2i16", 2, PkIntMods2>;
foreach op = ["mad_u16", "mad_i16"] in
  def V_PK_#op : VOP3P<"v_pk_"#op, "v2i16", 3, PkIntMods3>;

// f32 pairs in register pairs (gfx90a+).
foreach op = ["add", "mul"] in
  def V_PK_#op#_F32 : VOP3P<"v_pk_"#op#"_f32", "v2f32", 2, PkMods2, CDNA3>;
def V_PK_FMA_F32 : VOP3P<"v_pk_fma_f32", "v2f32", 3, PkMods3, CDNA3>;
def V_PK_MOV_B32 : VOP3P<"v_pk_mov_b32", "v2f32", 2, [op_sel2], CDNA3> {
  let Doc = "vdst.lo = src0[op_sel[0]], vdst.hi = src1[op_sel[1]] (32-bit halves).";
}

// Dot products: vdst = sum of the element products of src0, src1 + src2.
def V_DOT2_F32_F16 : VOP3P<"v_dot2_f32_f16", "v2f16", 3, [neg_lo3, neg_hi3, clamp], ALL, "f32"> {
  let Srcs = [Opd<"src0", "vsi", 1, "v2f16">, Opd<"src1", "vsi", 1, "v2f16">,
              Opd<"src2", "vsi", 1, "f32">];
}
// gfx12 keeps the unsigned 8/4-bit ones (signed: v_dot4_i32_iu8, ...).
foreach s = [["dot2_i32_i16", "v2i16", "i32", "0"], ["dot2_u32_u16", "v2u16", "u32", "0"],
             ["dot4_i32_i8", "b32", "i32", "0"], ["dot4_u32_u8", "b32", "u32", "1"],
             ["dot8_i32_i4", "b32", "i32", "0"], ["dot8_u32_u4", "b32", "u32", "1"]] in
  def V_#s[0] : VOP3P<"v_"#s[0], s[1], 3, [clamp], !if(!eq(s[3], "1"), ALL, CDNA3), s[2]> {
    let Srcs = [Opd<"src0", "vsi", 1, s[1]>, Opd<"src1", "vsi", 1, s[1]>,
                Opd<"src2", "vsi", 1, s[2]>];
  }

// Mixed precision: each source is f32 or (op_sel_hi) an f16 half.
// neg/abs apply to each source (f32 or f16).
defvar MixMods = [neg, abs, op_sel3, op_sel_hi3, clamp];
def V_FMA_MIX_F32 : VOP3P<"v_fma_mix_f32", "f32", 3, MixMods, ALL> {
  let Doc = "vdst = src0 * src1 + src2 where op_sel_hi marks f16 sources.";
}
// The f16 result goes to the low (mixlo) or high (mixhi) half of vdst; the
// other half is kept.
foreach h = ["lo", "hi"] in
  def V_FMA_MIX#h#_F16 : VOP3P<"v_fma_mix"#h#"_f16", "f32", 3, MixMods, ALL, "f16"> {
    let Srcs = [Opd<"src0", "vsi", 1, "f32">, Opd<"src1", "vsi", 1, "f32">,
                Opd<"src2", "vsi", 1, "f32">, Tied<"vdst", "v", 1, "f16">];
  }

// Accumulation registers (AGPRs) to and from VGPRs.
def V_ACCVGPR_READ_B32 : Inst<"v_accvgpr_read_b32", "VOP3P", [Opd<"vdst", "v">],
    [Opd<"src0", "a">], [], CDNA3, ["VALU"]> {
  let ImplicitUses = ["exec"];
}
def V_ACCVGPR_WRITE_B32 : Inst<"v_accvgpr_write_b32", "VOP3P", [Opd<"vdst", "a">],
    [Opd<"src0", "vsi">], [], CDNA3, ["VALU"]> {
  let ImplicitUses = ["exec"];
}

// gfx950 additions.
def V_DOT2_F32_BF16 : VOP3P<"v_dot2_f32_bf16", "v2bf16", 3, [neg_lo3, neg_hi3, clamp],
                            [gfx950, gfx1201],
                            "f32"> {
  let Srcs = [Opd<"src0", "vsi", 1, "v2bf16">, Opd<"src1", "vsi", 1, "v2bf16">,
              Opd<"src2", "vsi", 1, "f32">];
}
foreach op = ["minimum3", "maximum3"] in
  def V_PK_#op#_F16 : VOP3P<"v_pk_"#op#"_f16", "v2f16", 3, PkMods3, CDNA4>;
