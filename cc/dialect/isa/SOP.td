// Scalar ALU and program-control instructions (SOP1/SOP2/SOPK/SOPC/SOPP).

class SOP2<string mn, int w = 1, string ty = "b32"> : Inst<mn, "SOP2",
    [Opd<"sdst", "s", w, ty>], [Opd<"ssrc0", "sil", w, ty>, Opd<"ssrc1", "sil", w, ty>],
    [], CDNA3, ["SALU"]> {
  let ImplicitDefs = ["scc"];
}
def S_ADD_U32 : SOP2<"s_add_u32">;
def S_MUL_I32 : SOP2<"s_mul_i32"> { let ImplicitDefs = []; }

class SOP1<string mn, int w = 1, string ty = "b32"> : Inst<mn, "SOP1",
    [Opd<"sdst", "s", w, ty>], [Opd<"ssrc0", "sil", w, ty>], [], CDNA3, ["SALU"]>;
def S_MOV_B32 : SOP1<"s_mov_b32">;
def S_MOV_B64 : SOP1<"s_mov_b64", 2, "b64">;

def S_MOVK_I32 : Inst<"s_movk_i32", "SOPK", [Opd<"sdst", "s">], [], [simm16], CDNA3, ["SALU"]>;

def S_CMP_EQ_U32 : Inst<"s_cmp_eq_u32", "SOPC", [],
    [Opd<"ssrc0", "sil">, Opd<"ssrc1", "sil">], [], CDNA3, ["SALU"]> {
  let ImplicitDefs = ["scc"];
}

def S_NOP : Inst<"s_nop", "SOPP", [], [], [nopcnt], ALL, ["SALU"]>;
def S_ENDPGM : Inst<"s_endpgm", "SOPP", [], [], [], ALL, ["TERMINATOR", "SIDE_EFFECT"]>;
def S_WAITCNT : Inst<"s_waitcnt", "SOPP", [], [], [vmcnt, expcnt, lgkmcnt], CDNA3, ["WAITCNT", "SIDE_EFFECT"]>;
def S_BARRIER : Inst<"s_barrier", "SOPP", [], [], [], CDNA3, ["BARRIER", "SIDE_EFFECT"]>;
def S_BRANCH : Inst<"s_branch", "SOPP", [], [], [], CDNA3, ["BRANCH", "TERMINATOR"]> {
  let Successors = 1;
}
def S_CBRANCH_SCC1 : Inst<"s_cbranch_scc1", "SOPP", [], [], [], CDNA3,
    ["BRANCH", "TERMINATOR"]> {
  let Successors = 2;
  let ImplicitUses = ["scc"];
}
