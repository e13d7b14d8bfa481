// Scalar memory loads.
class SLoad<string mn, int w> : Inst<mn, "SMEM", [Opd<"sdst", "s", w>],
    [Opd<"sbase", "s", 2, "b64">, Opd<"soffset", "sil">], [sc0, nt], CDNA3,
    ["SMEM", "MAYLOAD", "LGKMCNT"]>;
def S_LOAD_DWORD    : SLoad<"s_load_dword", 1>;
def S_LOAD_DWORDX2  : SLoad<"s_load_dwordx2", 2>;
def S_LOAD_DWORDX4  : SLoad<"s_load_dwordx4", 4>;
