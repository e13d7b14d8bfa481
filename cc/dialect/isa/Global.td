// Global memory (FLAT global segment). Without saddr, vaddr is a 64-bit
// address; with saddr, vaddr is a 32-bit offset from it.
defvar GVAddr = Opd<"vaddr", "v", 2, "b64", 0, 1>;
defvar GSAddr = Opd<"saddr", "s", 2, "b64", 1>;
class GLoad<string mn, int w> : Inst<mn, "GLOBAL", [Opd<"vdst", "v", w>],
    [GVAddr, GSAddr],
    [GlobalOffset, sc0, nt, sc1], CDNA3, ["VMEM", "MAYLOAD", "VMCNT"]>;
def GLOBAL_LOAD_DWORD   : GLoad<"global_load_dword", 1>;
def GLOBAL_LOAD_DWORDX4 : GLoad<"global_load_dwordx4", 4>;
class GStore<string mn, int w> : Inst<mn, "GLOBAL", [],
    [GVAddr, Opd<"vdata", "v", w>, GSAddr],
    [GlobalOffset, sc0, nt, sc1], CDNA3, ["VMEM", "MAYSTORE", "VMCNT"]>;
def GLOBAL_STORE_DWORD : GStore<"global_store_dword", 1>;
