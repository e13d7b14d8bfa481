// Vector ALU with two sources (VOP2): vdst = op(src0, src1). In the 32-bit
// encoding src1 must be a VGPR and only src0 may be a literal; an SGPR or
// inline constant in src1, or any modifier, selects VOP3 (_e64).

class VOP2<string mn, string ty, list<Target> t = CDNA3, list<Mod> mods = VMods<ty, [ty]>.r,
           int w = 1>
    : Inst<mn, "VOP2", [Opd<"vdst", "v", w, ty>],
           [Opd<"src0", !if(!or(!eq(w, 1), !eq(ty, "f64")), "vsil", "vsi"), w, ty>,
            Opd<"src1", "vsi", w, ty>],
           mods, t, ["VALU"]> {
  let ImplicitUses = ["exec"];
}
// Accumulating forms: vdst = op(src0, src1, vdst).
class VOP2Acc<string mn, string ty, string accty, list<Target> t = CDNA3,
              list<Mod> mods = VMods<accty, [ty]>.r, int w = 1>
    : VOP2<mn, accty, t, mods, w> {
  // A 64-bit float literal is the high half of the double (src0 of e32).
  let Srcs = [Opd<"src0", !if(!or(!eq(w, 1), !eq(ty, "f64")), "vsil", "vsi"), w, ty>,
              Opd<"src1", "vsi", w, ty>, Tied<"vdst", "v", w, accty>];
}

// f32 / f16 arithmetic (gfx12 renames min/max to v_min_num_*/v_max_num_*).
foreach ty = ["f32", "f16"] in {
  foreach op = ["add", "sub", "subrev", "mul"] in
    def V_#op#_#ty : VOP2<"v_"#op#"_"#ty, ty, ALL>;
  foreach op = ["min", "max"] in
    def V_#op#_#ty : VOP2<"v_"#op#"_"#ty, ty>;
}
def V_LDEXP_F16 : VOP2<"v_ldexp_f16", "f16", ALL> {
  let Srcs = [Opd<"src0", "vsil", 1, "f16">, Opd<"src1", "vsi", 1, "i32">];
}
def V_FMAC_F32 : VOP2Acc<"v_fmac_f32", "f32", "f32", ALL>;
def V_FMAC_F64 : VOP2Acc<"v_fmac_f64", "f64", "f64", CDNA3, VMods<"f64", ["f64"]>.r, 2>;
def V_PK_FMAC_F16 : VOP2Acc<"v_pk_fmac_f16", "v2f16", "v2f16", CDNA3, []>;
// f16 multiply-add into vdst's low half, rounded twice (the high half is kept).
def V_MAC_F16 : VOP2Acc<"v_mac_f16", "f16", "f16">;
// Dot products accumulating into vdst (the c suffix).
def V_DOT2C_F32_F16 : VOP2Acc<"v_dot2c_f32_f16", "v2f16", "f32", CDNA3, []>;
def V_DOT2C_I32_I16 : VOP2Acc<"v_dot2c_i32_i16", "v2i16", "i32", CDNA3, []>;
def V_DOT4C_I32_I8 : VOP2Acc<"v_dot4c_i32_i8", "b32", "i32", CDNA3, []>;
def V_DOT8C_I32_I4 : VOP2Acc<"v_dot8c_i32_i4", "b32", "i32", CDNA3, []>;
def V_DOT2C_F32_BF16 : VOP2Acc<"v_dot2c_f32_bf16", "v2bf16", "f32", CDNA4, []>;

// 32-bit integer arithmetic. gfx12 spells the adds v_add_nc_u32 etc.
foreach op = ["add", "sub", "subrev"] in
  def V_#op#_U32 : VOP2<"v_"#op#"_u32", "u32", CDNA3, [clamp]>;
foreach op = ["mul_i32_i24", "mul_hi_i32_i24"] in
  def V_#op : VOP2<"v_"#op, "i32", ALL, []>;
foreach op = ["mul_u32_u24", "mul_hi_u32_u24"] in
  def V_#op : VOP2<"v_"#op, "u32", ALL, []>;
foreach op = ["min", "max"] in
  foreach ty = ["i32", "u32"] in
    def V_#op#_#ty : VOP2<"v_"#op#"_"#ty, ty, ALL, []>;

// Bitwise; shifts take the amount in src0 (the rev forms).
foreach op = ["and", "or", "xor", "xnor", "lshlrev", "lshrrev"] in
  def V_#op#_B32 : VOP2<"v_"#op#"_b32", "b32", ALL, []>;
def V_ASHRREV_I32 : VOP2<"v_ashrrev_i32", "i32", ALL, []>;

// 16-bit integer.
foreach op = ["add", "sub", "subrev"] in
  def V_#op#_U16 : VOP2<"v_"#op#"_u16", "u16", CDNA3, [clamp]>;
// (VOP3-only on gfx12, same syntax.)
def V_MUL_LO_U16 : VOP2<"v_mul_lo_u16", "u16", ALL, []>;
foreach op = ["lshlrev", "lshrrev"] in
  def V_#op#_B16 : VOP2<"v_"#op#"_b16", "b16", ALL, []>;
def V_ASHRREV_I16 : VOP2<"v_ashrrev_i16", "i16", ALL, []>;
foreach op = ["min", "max"] in
  foreach ty = ["i16", "u16"] in
    def V_#op#_#ty : VOP2<"v_"#op#"_"#ty, ty, ALL, []>;

// Carry chains (wave64: the carry is an SGPR pair, vcc in the 32-bit form).
class VOP2Carry<string mn, bit carryIn>
    : Inst<mn, "VOP2", [Opd<"vdst", "v", 1, "u32">, Opd<"sdst", "s", 2, "b64">],
           !listconcat([Opd<"src0", "vsil", 1, "u32">, Opd<"src1", "vsi", 1, "u32">],
                       !if(carryIn, [Opd<"src2", "s", 2, "b64">], [])),
           [clamp], CDNA3, ["VALU"]> {
  let ImplicitUses = ["exec"];
}
foreach op = ["add", "sub", "subrev"] in
  def V_#op#_CO_U32 : VOP2Carry<"v_"#op#"_co_u32", 0> {
    let Doc = "vdst = src0 " # !if(!eq(op, "add"), "+", "-") #
              " src1 (subrev: src1 - src0); sdst = per-lane carry/borrow out.";
  }
foreach op = ["addc", "subb", "subbrev"] in
  def V_#op#_CO_U32 : VOP2Carry<"v_"#op#"_co_u32", 1> {
    let Doc = "Like the _co_ form with carry/borrow in from src2.";
  }
def V_CNDMASK_B32 : Inst<"v_cndmask_b32", "VOP2", [Opd<"vdst", "v">],
    [Opd<"src0", "vsil">, Opd<"src1", "vsi">, Opd<"src2", "s", 2, "b64">],
    SrcMods, CDNA3, ["VALU"]> {
  let ImplicitUses = ["exec"];
  let Doc = "vdst = src2[lane] ? src1 : src0.";
}

// Multiply-add with a literal constant K (always a literal).
def V_FMAMK_F32 : Inst<"v_fmamk_f32", "VOP2", [Opd<"vdst", "v", 1, "f32">],
    [Opd<"src0", "vsil", 1, "f32">, Opd<"k", "l", 1, "f32">, Opd<"src1", "v", 1, "f32">],
    [], ALL, ["VALU"]> {
  let ImplicitUses = ["exec"];
  let Doc = "vdst = src0 * k + src1.";
}
def V_FMAAK_F32 : Inst<"v_fmaak_f32", "VOP2", [Opd<"vdst", "v", 1, "f32">],
    [Opd<"src0", "vsil", 1, "f32">, Opd<"src1", "v", 1, "f32">, Opd<"k", "l", 1, "f32">],
    [], ALL, ["VALU"]> {
  let ImplicitUses = ["exec"];
  let Doc = "vdst = src0 * src1 + k.";
}
