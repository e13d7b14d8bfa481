// DPP and SDWA forms of 32-bit VOP1/VOP2 instructions, and SDWA forms of the
// 32- and 16-bit VOPC compares (gfx9: a second dword after the 32-bit
// encoding). Both take VGPR sources only here.
//  - DPP: src0 is read from another lane (dpp_ctrl: quad_perm, row shifts
//    and rotates, wave shifts/rotates, row_mirror, row_half_mirror,
//    row_bcast:15/31, row_newbcast); row_mask/bank_mask select the rows and
//    banks written; bound_ctrl:1 reads 0 from an invalid or disabled lane.
//    Source negate/absolute value of the float forms are kept.
//  - SDWA: sources and destination are a byte or word of their registers
//    (src*_sel, dst_sel, dst_unused); integer sources may be sign-extended
//    (sext), float sources negated / absolute; clamp and omod are kept.
// Each form is the base row's record with the mnemonic suffixed, as LLVM
// spells it (v_mov_b32_dpp, v_or_b32_sdwa).

class VGPROnly<Opd o> {
  Opd r = !if(!empty(o.TiedTo), Opd<o.Name, "v", o.Width, o.Ty>,
              Tied<o.TiedTo, "v", o.Width, o.Ty>);
}
class KindIn<Mod m, list<string> kinds> {
  bit r = !foldl(0, kinds, acc, k, !or(acc, !eq(m.Kind, k)));
}
class NoGfx12<list<Target> t> {
  list<Target> r = !filter(x, t, !ne(x.Name, "gfx1201"));
}

class DPPOf<Inst b>
    : Inst<b.Mnemonic # "_dpp", "DPP", b.Dsts, !foreach(o, b.Srcs, VGPROnly<o>.r),
           !listconcat(!filter(m, b.Mods, KindIn<m, ["srcneg", "srcabs"]>.r), DppMods),
           NoGfx12<b.Targets>.r, b.Props> {
  let ImplicitUses = b.ImplicitUses;
  let ImplicitDefs = b.ImplicitDefs;
  let Doc = b.Mnemonic # " with src0 read through a DPP lane permutation.";
}

// `sels`: the select modifiers LLVM takes for the form (VOP2: dst, unused,
// src0, src1; VOP1: dst, unused, src0; fp8 conversions: src0 only).
class SDWAOf<Inst b, list<Mod> sels, bit withSext = 1>
    : Inst<b.Mnemonic # "_sdwa", "SDWA", b.Dsts, !foreach(o, b.Srcs, VGPROnly<o>.r),
           !listconcat(!filter(m, b.Mods, KindIn<m, ["flag", "omod"]>.r), sels,
                       !filter(m, b.Mods, KindIn<m, ["srcneg", "srcabs"]>.r),
                       !if(!and(withSext, !empty(!filter(m, b.Mods, KindIn<m, ["srcneg"]>.r))),
                           [sext], [])),
           NoGfx12<b.Targets>.r, b.Props> {
  let ImplicitUses = b.ImplicitUses;
  let ImplicitDefs = b.ImplicitDefs;
  let Doc = b.Mnemonic # " on selected bytes/words of its operands (SDWA).";
}

defvar DPPVOP1 = ["V_MOV_B32", "V_NOT_B32", "V_BFREV_B32", "V_FFBH_U32", "V_FFBL_B32",
                  "V_FFBH_I32", "V_CVT_f32_i32", "V_CVT_f32_u32", "V_CVT_i32_f32",
                  "V_CVT_u32_f32", "V_CVT_f16_f32", "V_CVT_f32_f16", "V_CVT_F32_UBYTE0",
                  "V_CVT_F32_UBYTE1", "V_CVT_F32_UBYTE2", "V_CVT_F32_UBYTE3",
                  "V_CVT_f16_i16", "V_CVT_f16_u16", "V_CVT_i16_f16", "V_CVT_u16_f16",
                  "V_CVT_flr_I32_F32", "V_CVT_rpi_I32_F32", "V_rcp_F32", "V_rsq_F32",
                  "V_sqrt_F32", "V_exp_F32", "V_log_F32", "V_sin_F32", "V_cos_F32",
                  "V_fract_f32", "V_floor_f32", "V_ceil_f32", "V_trunc_f32", "V_rndne_f32",
                  "V_frexp_mant_f32", "V_FREXP_EXP_I32_F32", "V_RCP_IFLAG_F32",
                  "V_rcp_F16", "V_rsq_F16", "V_sqrt_F16", "V_exp_F16", "V_log_F16",
                  "V_sin_F16", "V_cos_F16", "V_fract_f16", "V_floor_f16", "V_ceil_f16",
                  "V_trunc_f16", "V_rndne_f16", "V_frexp_mant_f16", "V_FREXP_EXP_I16_F16",
                  "V_CVT_NORM_i16_F16", "V_CVT_NORM_u16_F16", "V_SAT_PK_U8_I16",
                  "V_CVT_OFF_F32_I4"];
defvar DPPVOP2 = ["V_add_f32", "V_sub_f32", "V_subrev_f32", "V_mul_f32", "V_min_f32",
                  "V_max_f32", "V_add_f16", "V_sub_f16", "V_subrev_f16", "V_mul_f16",
                  "V_min_f16", "V_max_f16", "V_LDEXP_F16", "V_add_U32", "V_sub_U32",
                  "V_subrev_U32", "V_add_U16", "V_sub_U16", "V_subrev_U16", "V_MUL_LO_U16",
                  "V_min_i32", "V_max_i32", "V_min_u32", "V_max_u32", "V_min_i16",
                  "V_max_i16", "V_min_u16", "V_max_u16", "V_and_B32", "V_or_B32",
                  "V_xor_B32", "V_lshlrev_B32", "V_lshrrev_B32", "V_ASHRREV_I32",
                  "V_lshlrev_B16", "V_lshrrev_B16", "V_ASHRREV_I16", "V_mul_i32_i24",
                  "V_mul_hi_i32_i24", "V_mul_u32_u24", "V_mul_hi_u32_u24", "V_FMAC_F32"];

foreach n = DPPVOP1 in
  def : DPPOf<!cast<Inst>(n)>;
foreach n = DPPVOP2 in
  def : DPPOf<!cast<Inst>(n)>;
foreach n = DPPVOP1 in
  def : SDWAOf<!cast<Inst>(n), [dst_sel, dst_unused, src0_sel]>;
foreach n = !filter(x, DPPVOP2, !ne(x, "V_FMAC_F32")) in
  def : SDWAOf<!cast<Inst>(n), [dst_sel, dst_unused, src0_sel, src1_sel]>;
// v_cndmask_b32: its condition stays an SGPR-pair operand, which must be vcc
// in the SDWA encoding (llvm-mc-22 rejects any other pair; the verifier says
// so); llc-22 selects it for selects of 16-bit halves, e.g.
// `v_cndmask_b32_sdwa v1, v2, v3, vcc dst_sel:WORD_1 ... src1_sel:WORD_1`.
def V_CNDMASK_B32_sdwa : SDWAOf<V_CNDMASK_B32, [dst_sel, dst_unused, src0_sel, src1_sel]> {
  let Srcs = [Opd<"src0", "v">, Opd<"src1", "v">, Opd<"src2", "s", 2, "b64">];
}
foreach n = ["V_CVT_F32_fp8", "V_CVT_F32_bf8", "V_CVT_PK_F32_fp8", "V_CVT_PK_F32_bf8"] in
  def : SDWAOf<!cast<Inst>(n), [src0_sel], 0>;

// VOPC SDWA (gfx9's SDWA9 VOPC word: the compare's lane mask goes to vcc or,
// through the SD/SDST fields of the second dword, to any SGPR pair). Only
// src0_sel and src1_sel (no dst_sel / dst_unused: the result is a mask) and
// no clamp; integer sources may be sign-extended (sext), float sources
// negated / absolute, v_cmp_class's src0 too. Unlike the VOP1/VOP2 forms
// here, each source may also be an SGPR or an inline constant (gfx9 SDWA's
// S0/S1 bits; at most one SGPR, no literal): llc-22 selects
// `v_cmp_class_f16_sdwa s[0:1], v6, s3 src0_sel:WORD_1 src1_sel:DWORD`.
// The 64-bit compares have no SDWA form. What llvm-mc-22 -mcpu=gfx942/gfx950 accepts, e.g.
// `v_cmp_lt_i16_sdwa s[2:3], sext(v0), v1 src0_sel:BYTE_1 src1_sel:WORD_0`,
// and rejects (`v_cmp_lt_f32_sdwa vcc, v0, v1 clamp ...`,
// `v_cmp_lt_i64_sdwa ...`: "sdwa variant of this instruction is not
// supported"); tests/py/test_conformance.py checks every form.
def sdwa_neg0 : Mod<"neg", "srcneg", 1, 0, 1>;   // v_cmp_class: src0 only
def sdwa_abs0 : Mod<"abs", "srcabs", 1, 0, 1>;
class SDWACmpOf<Inst b, list<Mod> srcMods>
    : Inst<b.Mnemonic # "_sdwa", "SDWA", b.Dsts,
           !foreach(o, b.Srcs, Opd<o.Name, "vsi", o.Width, o.Ty>),
           !listconcat([src0_sel, src1_sel], srcMods), NoGfx12<b.Targets>.r, b.Props> {
  let ImplicitUses = b.ImplicitUses;
  let ImplicitDefs = b.ImplicitDefs;
  let Doc = b.Mnemonic # " on selected bytes/words of its sources (SDWA).";
}
foreach x = ["cmp", "cmpx"] in {
  foreach ty = ["i32", "u32", "i16", "u16"] in
    foreach op = IntCmps in
      def : SDWACmpOf<!cast<Inst>("V_" # x # "_" # op # "_" # ty), [sext]>;
  foreach ty = ["f32", "f16"] in {
    foreach op = FloatCmps in
      def : SDWACmpOf<!cast<Inst>("V_" # x # "_" # op # "_" # ty), [neg, abs]>;
    def : SDWACmpOf<!cast<Inst>("V_" # x # "_CLASS_" # ty), [sdwa_neg0, sdwa_abs0]>;
  }
}
