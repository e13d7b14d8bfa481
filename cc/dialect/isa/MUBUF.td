// Buffer instructions through a 128-bit resource descriptor (srsrc).
// Loads and stores take VGPRs or AGPRs as data (gfx90a+: the instruction's
// acc bit; AMD's hand-written kernels load MFMA operands straight into AGPRs). The
// address is base + soffset + offset + (offen: vaddr) / (idxen: vaddr *
// stride); vaddr is present exactly when offen or idxen is set.
// gfx12 renames these (buffer_load_b32, ...), so they are gfx940/gfx950 only.

defvar BVAddr = Opd<"vaddr", "v", 1, "b32", 1>;
defvar BRsrc = Opd<"srsrc", "s", 4, "b128">;
defvar BSOffset = Opd<"soffset", "si">;

class MUBUF<string mn, list<Opd> dsts, list<Opd> srcs, list<Mod> cpol,
            list<string> props, list<Target> t = CDNA3>
    : Inst<mn, "MUBUF", dsts, srcs, !listconcat(MubufAddr, cpol), t,
           !listconcat(["VMEM", "VMCNT"], props)> {
  let ImplicitUses = ["exec"];
}

foreach s = LoadSizes in
  def BUFFER_LOAD_#s.S : MUBUF<"buffer_load_"#s.S, [Opd<"vdata", "va", s.N>],
      [BVAddr, BRsrc, BSOffset], CPol, ["MAYLOAD"]>;
foreach s = StoreSizes in
  def BUFFER_STORE_#s.S : MUBUF<"buffer_store_"#s.S, [],
      [Opd<"vdata", "va", s.N>, BVAddr, BRsrc, BSOffset], CPol, ["MAYSTORE"]>;

// 16-bit loads into one half of vdata (the other half is kept: vdata is
// read too) and stores of a register's high half.
foreach s = D16Loads in
  def BUFFER_LOAD_#s : MUBUF<"buffer_load_"#s, [Opd<"vdata", "va">],
      [BVAddr, BRsrc, BSOffset, Tied<"vdata", "va">], CPol, ["MAYLOAD"]>;
foreach s = D16Stores in
  def BUFFER_STORE_#s : MUBUF<"buffer_store_"#s, [],
      [Opd<"vdata", "va">, BVAddr, BRsrc, BSOffset], CPol, ["MAYSTORE"]>;

// Atomics. The returning form (sc0) overwrites vdata with the pre-op value
// (for cmpswap, its low half), so vdata is read and written.
foreach a = [P<"add", 1>, P<"sub", 1>, P<"swap", 1>, P<"cmpswap", 2>,
             P<"smin", 1>, P<"umin", 1>, P<"smax", 1>, P<"umax", 1>,
             P<"and", 1>, P<"or", 1>, P<"xor", 1>, P<"inc", 1>, P<"dec", 1>,
             P<"add_x2", 2>, P<"cmpswap_x2", 4>, P<"add_f32", 1>,
             P<"pk_add_f16", 1>, P<"swap_x2", 2>, P<"sub_x2", 2>, P<"smin_x2", 2>,
             P<"umin_x2", 2>, P<"smax_x2", 2>, P<"umax_x2", 2>, P<"and_x2", 2>,
             P<"or_x2", 2>, P<"xor_x2", 2>, P<"inc_x2", 2>, P<"dec_x2", 2>,
             P<"add_f64", 2>, P<"min_f64", 2>, P<"max_f64", 2>,
             P<"pk_add_bf16", 1, CDNA4>] in {
  def BUFFER_ATOMIC_#a.S : MUBUF<"buffer_atomic_"#a.S, [],
      [Opd<"vdata", "v", a.N>, BVAddr, BRsrc, BSOffset], CPolNoRtn,
      ["MAYLOAD", "MAYSTORE", "ATOMIC"], a.T>;
  def BUFFER_ATOMIC_#a.S#_RTN : MUBUF<"buffer_atomic_"#a.S#"_rtn",
      [Opd<"vdata", "v", a.N>], [BVAddr, BRsrc, BSOffset, Tied<"vdata", "v", a.N>],
      CPolRtn, ["MAYLOAD", "MAYSTORE", "ATOMIC", "RETURNS"], a.T> {
    let AsmName = "buffer_atomic_"#a.S;
  }
}

// Cache maintenance: write back / invalidate the L2 (sc1) or the vector L1.
foreach mn = ["buffer_wbl2", "buffer_inv"] in
  def : Inst<mn, "MUBUF", [], [], [sc0, sc1], CDNA3, ["VMEM", "VMCNT", "SIDE_EFFECT"]>;

// Loads straight into LDS (`lds`): no VGPR result; lane l's data goes to LDS
// at m0 + offset + 4 * l (sub-dword data zero- or sign-extended to a dword).
// vaddr is the address operand as in the other loads.
def lds_fixed : Mod<"lds", "fixed">;
foreach s = [P<"ubyte", 1>, P<"sbyte", 1>, P<"ushort", 1>, P<"sshort", 1>,
             P<"dword", 1>, P<"dwordx3", 3, CDNA4>, P<"dwordx4", 4, CDNA4>] in
  def BUFFER_LOAD_#s.S#_LDS : MUBUF<"buffer_load_"#s.S#"_lds", [],
      [BVAddr, BRsrc, BSOffset], !listconcat(CPol, [lds_fixed]), ["MAYLOAD", "MAYSTORE", "LDS"],
      s.T> {
    let AsmName = "buffer_load_"#s.S;
    let ImplicitUses = ["exec", "m0"];
  }

// Scalar atomics on memory at sbase + soffset (s_atomic_*: a 64-bit address;
// s_buffer_atomic_*: a buffer resource). The returning forms (glc) overwrite
// sdata with the pre-op value (cmpswap: its low half).
def glc_rtn : Mod<"glc", "fixed">;
foreach a = [P<"swap", 1>, P<"cmpswap", 2>, P<"add", 1>, P<"sub", 1>, P<"smin", 1>,
             P<"umin", 1>, P<"smax", 1>, P<"umax", 1>, P<"and", 1>, P<"or", 1>,
             P<"xor", 1>, P<"inc", 1>, P<"dec", 1>] in
  foreach x = [P<"", 1>, P<"_x2", 2>] in
    foreach b = [P<"s_atomic_", 2>, P<"s_buffer_atomic_", 4>] in {
      defvar n = !mul(a.N, x.N);
      defvar mn = b.S # a.S # x.S;
      defvar base = Opd<"sbase", "s", b.N, !if(!eq(b.N, 2), "b64", "b128")>;
      def : Inst<mn, "SMEM", [], [Opd<"sdata", "s", n>, base, Opd<"soffset", "so">], [],
                 CDNA3, ["SMEM", "LGKMCNT", "MAYLOAD", "MAYSTORE", "ATOMIC"]>;
      def : Inst<mn # "_rtn", "SMEM", [Opd<"sdata", "s", n>],
                 [base, Opd<"soffset", "so">, Tied<"sdata", "s", n>], [glc_rtn], CDNA3,
                 ["SMEM", "LGKMCNT", "MAYLOAD", "MAYSTORE", "ATOMIC", "RETURNS"]> {
        let AsmName = mn;
      }
    }
