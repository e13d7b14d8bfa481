// Vector ALU: VOP1, VOP2, VOP3, VOPC, VOP3P.
class VOP2<string mn, string ty = "b32", list<Mod> mods = []> : Inst<mn, "VOP2",
    [Opd<"vdst", "v", 1, ty>], [Opd<"src0", "vsil", 1, ty>, Opd<"src1", "vsi", 1, ty>],
    mods, CDNA3, ["VALU"]>;
def V_ADD_U32 : VOP2<"v_add_u32", "u32", [clamp]>;
def V_ADD_F32 : VOP2<"v_add_f32", "f32", FMods>;
def V_MUL_F32 : VOP2<"v_mul_f32", "f32", FMods>;

class VOP1<string mn, string dty = "b32", string sty = "b32"> : Inst<mn, "VOP1",
    [Opd<"vdst", "v", 1, dty>], [Opd<"src0", "vsil", 1, sty>], [], CDNA3, ["VALU"]>;
def V_MOV_B32 : VOP1<"v_mov_b32">;

def V_FMA_F32 : Inst<"v_fma_f32", "VOP3", [Opd<"vdst", "v", 1, "f32">],
    [Opd<"src0", "vsi", 1, "f32">, Opd<"src1", "vsi", 1, "f32">, Opd<"src2", "vsi", 1, "f32">],
    FMods, CDNA3, ["VALU"]>;

def V_CMP_EQ_U32 : Inst<"v_cmp_eq_u32", "VOPC", [Opd<"sdst", "s", 2, "b64">],
    [Opd<"src0", "vsil", 1, "u32">, Opd<"src1", "vsi", 1, "u32">], [], CDNA3, ["VALU"]>;

def V_PK_ADD_F16 : Inst<"v_pk_add_f16", "VOP3P", [Opd<"vdst", "v", 1, "v2f16">],
    [Opd<"src0", "vsi", 1, "v2f16">, Opd<"src1", "vsi", 1, "v2f16">],
    [op_sel2, op_sel_hi2, neg_lo2, neg_hi2, clamp], CDNA3, ["VALU"]>;
