// Buffer instructions through a 128-bit resource descriptor.
class BLoad<string mn, int w> : Inst<mn, "MUBUF", [Opd<"vdata", "v", w>],
    [Opd<"vaddr", "v", 1, "b32", 1>, Opd<"srsrc", "s", 4, "b128">, Opd<"soffset", "si">],
    [offen, idxen, MubufOffset, sc0, nt, sc1], CDNA3, ["VMEM", "MAYLOAD", "VMCNT"]>;
def BUFFER_LOAD_DWORD : BLoad<"buffer_load_dword", 1>;
