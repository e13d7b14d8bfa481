// Buffer instructions through a 128-bit resource descriptor (srsrc). The
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
  def BUFFER_LOAD_#s.S : MUBUF<"buffer_load_"#s.S, [Opd<"vdata", "v", s.N>],
      [BVAddr, BRsrc, BSOffset], CPol, ["MAYLOAD"]>;
foreach s = StoreSizes in
  def BUFFER_STORE_#s.S : MUBUF<"buffer_store_"#s.S, [],
      [Opd<"vdata", "v", s.N>, BVAddr, BRsrc, BSOffset], CPol, ["MAYSTORE"]>;

// Atomics. The returning form (sc0) overwrites vdata with the pre-op value
// (for cmpswap, its low half), so vdata is read and written.
foreach a = [P<"add", 1>, P<"sub", 1>, P<"swap", 1>, P<"cmpswap", 2>,
             P<"smin", 1>, P<"umin", 1>, P<"smax", 1>, P<"umax", 1>,
             P<"and", 1>, P<"or", 1>, P<"xor", 1>, P<"inc", 1>, P<"dec", 1>,
             P<"add_x2", 2>, P<"cmpswap_x2", 4>, P<"add_f32", 1>,
             P<"pk_add_f16", 1>] in {
  def BUFFER_ATOMIC_#a.S : MUBUF<"buffer_atomic_"#a.S, [],
      [Opd<"vdata", "v", a.N>, BVAddr, BRsrc, BSOffset], CPolNoRtn,
      ["MAYLOAD", "MAYSTORE", "ATOMIC"]>;
  def BUFFER_ATOMIC_#a.S#_RTN : MUBUF<"buffer_atomic_"#a.S#"_rtn",
      [Opd<"vdata", "v", a.N>], [BVAddr, BRsrc, BSOffset, Tied<"vdata", "v", a.N>],
      CPolRtn, ["MAYLOAD", "MAYSTORE", "ATOMIC", "RETURNS"]> {
    let AsmName = "buffer_atomic_"#a.S;
  }
}

// Cache maintenance: write back / invalidate the L2 (sc1) or the vector L1.
foreach mn = ["buffer_wbl2", "buffer_inv"] in
  def : Inst<mn, "MUBUF", [], [], [sc0, sc1], CDNA3, ["VMEM", "VMCNT", "SIDE_EFFECT"]>;
