// Scalar memory (SMEM). The offset operand is an SGPR (or m0) or a 21-bit
// signed byte offset encoded in the instruction (printed in hex).

defvar SOffset = Opd<"soffset", "so">;

// Loads from a 64-bit address (s_load) or through a buffer resource (s_buffer_load).
class SLoad<string mn, int w, int basew, list<Target> t = CDNA3>
    : Inst<mn, "SMEM", [Opd<"sdst", "s", w>],
           [Opd<"sbase", "s", basew, !if(!eq(basew, 2), "b64", "b128")>, SOffset],
           [glc], t, ["SMEM", "MAYLOAD", "LGKMCNT"]>;
def S_LOAD_DWORD : SLoad<"s_load_dword", 1, 2>;
def S_BUFFER_LOAD_DWORD : SLoad<"s_buffer_load_dword", 1, 4>;
foreach w = [2, 4, 8, 16] in {
  def S_LOAD_DWORDX#w : SLoad<"s_load_dwordx"#w, w, 2>;
  def S_BUFFER_LOAD_DWORDX#w : SLoad<"s_buffer_load_dwordx"#w, w, 4>;
}

class SStore<string mn, int w, int basew>
    : Inst<mn, "SMEM", [],
           [Opd<"sdata", "s", w>,
            Opd<"sbase", "s", basew, !if(!eq(basew, 2), "b64", "b128")>, SOffset],
           [glc], CDNA3, ["SMEM", "MAYSTORE", "LGKMCNT"]>;
def S_STORE_DWORD : SStore<"s_store_dword", 1, 2>;
def S_STORE_DWORDX2 : SStore<"s_store_dwordx2", 2, 2>;
def S_STORE_DWORDX4 : SStore<"s_store_dwordx4", 4, 2>;
def S_BUFFER_STORE_DWORD : SStore<"s_buffer_store_dword", 1, 4>;
def S_BUFFER_STORE_DWORDX2 : SStore<"s_buffer_store_dwordx2", 2, 4>;
def S_BUFFER_STORE_DWORDX4 : SStore<"s_buffer_store_dwordx4", 4, 4>;

// Counters: 64-bit clock (s_memtime) and constant-rate clock (s_memrealtime).
foreach mn = ["s_memtime", "s_memrealtime"] in
  def : Inst<mn, "SMEM", [Opd<"sdst", "s", 2, "b64">], [], [], CDNA3,
      ["SMEM", "LGKMCNT", "SIDE_EFFECT"]>;
// Scalar data cache maintenance.
def : Inst<"s_dcache_inv", "SMEM", [], [], [], ALL, ["SMEM", "LGKMCNT", "SIDE_EFFECT"]>;
def : Inst<"s_dcache_wb", "SMEM", [], [], [], CDNA3, ["SMEM", "LGKMCNT", "SIDE_EFFECT"]>;
// The same for volatile lines only.
foreach mn = ["s_dcache_inv_vol", "s_dcache_wb_vol"] in
  def : Inst<mn, "SMEM", [], [], [], CDNA3, ["SMEM", "LGKMCNT", "SIDE_EFFECT"]>;
