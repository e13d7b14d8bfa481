// Global and flat memory. Global: without saddr, vaddr is a 64-bit address;
// with saddr, vaddr is a 32-bit offset from it. Flat addresses may point to
// LDS, so flat instructions count on both vmcnt and lgkmcnt.
// gfx12 renames these (global_load_b32, ...), so they are gfx940/gfx950 only.

defvar GVAddr = Opd<"vaddr", "v", 2, "b64", 0, 1>;
defvar GSAddr = Opd<"saddr", "s", 2, "b64", 1>;
defvar FAddr = Opd<"vaddr", "v", 2, "b64">;

class VMem<string mn, string enc, list<Opd> dsts, list<Opd> srcs, list<Mod> mods,
           list<string> props, list<Target> t = CDNA3>
    : Inst<mn, enc, dsts, srcs, mods, t,
           !listconcat(["VMEM", "VMCNT"], !if(!eq(enc, "FLAT"), ["LGKMCNT"], []), props)> {
  let ImplicitUses = ["exec"];
}

defvar LoadSizes = [P<"ubyte", 1>, P<"sbyte", 1>, P<"ushort", 1>, P<"sshort", 1>,
                    P<"dword", 1>, P<"dwordx2", 2>, P<"dwordx3", 3>, P<"dwordx4", 4>];
defvar StoreSizes = [P<"byte", 1>, P<"short", 1>, P<"dword", 1>, P<"dwordx2", 2>,
                     P<"dwordx3", 3>, P<"dwordx4", 4>];

foreach s = LoadSizes in {
  def GLOBAL_LOAD_#s.S : VMem<"global_load_"#s.S, "GLOBAL", [Opd<"vdst", "va", s.N>],
      [GVAddr, GSAddr], !listconcat([GlobalOffset], CPol), ["MAYLOAD"]>;
  def FLAT_LOAD_#s.S : VMem<"flat_load_"#s.S, "FLAT", [Opd<"vdst", "va", s.N>],
      [FAddr], !listconcat([FlatOffset], CPol), ["MAYLOAD"]>;
}
foreach s = StoreSizes in {
  def GLOBAL_STORE_#s.S : VMem<"global_store_"#s.S, "GLOBAL", [],
      [GVAddr, Opd<"vdata", "va", s.N>, GSAddr], !listconcat([GlobalOffset], CPol),
      ["MAYSTORE"]>;
  def FLAT_STORE_#s.S : VMem<"flat_store_"#s.S, "FLAT", [],
      [FAddr, Opd<"vdata", "va", s.N>], !listconcat([FlatOffset], CPol), ["MAYSTORE"]>;
}

// 16-bit loads into one half of vdst (d16: the low half, d16_hi: the high
// half; ubyte/sbyte zero/sign-extend a byte to 16 bits); the other half is
// kept, so the old vdst is read. Stores of a register's high half.
defvar D16Loads = ["ubyte_d16", "ubyte_d16_hi", "sbyte_d16", "sbyte_d16_hi",
                   "short_d16", "short_d16_hi"];
defvar D16Stores = ["byte_d16_hi", "short_d16_hi"];
foreach s = D16Loads in {
  def GLOBAL_LOAD_#s : VMem<"global_load_"#s, "GLOBAL", [Opd<"vdst", "v">],
      [GVAddr, GSAddr, Tied<"vdst", "v">], !listconcat([GlobalOffset], CPol), ["MAYLOAD"]>;
  def FLAT_LOAD_#s : VMem<"flat_load_"#s, "FLAT", [Opd<"vdst", "v">],
      [FAddr, Tied<"vdst", "v">], !listconcat([FlatOffset], CPol), ["MAYLOAD"]>;
}
foreach s = D16Stores in {
  def GLOBAL_STORE_#s : VMem<"global_store_"#s, "GLOBAL", [],
      [GVAddr, Opd<"vdata", "v">, GSAddr], !listconcat([GlobalOffset], CPol), ["MAYSTORE"]>;
  def FLAT_STORE_#s : VMem<"flat_store_"#s, "FLAT", [],
      [FAddr, Opd<"vdata", "v">], !listconcat([FlatOffset], CPol), ["MAYSTORE"]>;
}

// Scratch (private, per work-item) memory: address = vaddr (a 32-bit byte
// offset, `off` when absent) + saddr + offset within the work-item's private
// segment (architected flat scratch on gfx940/gfx950).
defvar SVAddr = Opd<"vaddr", "v", 1, "b32", 1>;
defvar SSAddr = Opd<"saddr", "s">;
foreach s = LoadSizes in
  def SCRATCH_LOAD_#s.S : VMem<"scratch_load_"#s.S, "GLOBAL", [Opd<"vdst", "va", s.N>],
      [SVAddr, SSAddr], !listconcat([GlobalOffset], CPol), ["MAYLOAD"]>;
foreach s = StoreSizes in
  def SCRATCH_STORE_#s.S : VMem<"scratch_store_"#s.S, "GLOBAL", [],
      [SVAddr, Opd<"vdata", "va", s.N>, SSAddr], !listconcat([GlobalOffset], CPol),
      ["MAYSTORE"]>;

foreach s = D16Loads in {
  def SCRATCH_LOAD_#s : VMem<"scratch_load_"#s, "GLOBAL", [Opd<"vdst", "v">],
      [SVAddr, SSAddr, Tied<"vdst", "v">], !listconcat([GlobalOffset], CPol), ["MAYLOAD"]>;
  def SCRATCH_LOAD_#s#_NOSADDR : VMem<"scratch_load_"#s#"_nosaddr", "GLOBAL",
      [Opd<"vdst", "v">], [SVAddr, Tied<"vdst", "v">],
      !listconcat([off_saddr, GlobalOffset], CPol), ["MAYLOAD"]> {
    let AsmName = "scratch_load_"#s;
  }
}
foreach s = D16Stores in {
  def SCRATCH_STORE_#s : VMem<"scratch_store_"#s, "GLOBAL", [],
      [SVAddr, Opd<"vdata", "v">, SSAddr], !listconcat([GlobalOffset], CPol), ["MAYSTORE"]>;
  def SCRATCH_STORE_#s#_NOSADDR : VMem<"scratch_store_"#s#"_nosaddr", "GLOBAL", [],
      [SVAddr, Opd<"vdata", "v">], !listconcat([off_saddr, GlobalOffset], CPol), ["MAYSTORE"]> {
    let AsmName = "scratch_store_"#s;
  }
}

// The same without saddr (`scratch_load_dword v1, v2, off`,
// `scratch_store_dword off, v1, off offset:16`): address = vaddr (or 0) +
// offset.
foreach s = LoadSizes in
  def SCRATCH_LOAD_#s.S#_NOSADDR : VMem<"scratch_load_"#s.S#"_nosaddr", "GLOBAL",
      [Opd<"vdst", "va", s.N>], [SVAddr], !listconcat([off_saddr, GlobalOffset], CPol),
      ["MAYLOAD"]> {
    let AsmName = "scratch_load_"#s.S;
  }
foreach s = StoreSizes in
  def SCRATCH_STORE_#s.S#_NOSADDR : VMem<"scratch_store_"#s.S#"_nosaddr", "GLOBAL", [],
      [SVAddr, Opd<"vdata", "va", s.N>], !listconcat([off_saddr, GlobalOffset], CPol),
      ["MAYSTORE"]> {
    let AsmName = "scratch_store_"#s.S;
  }

// Loads straight into LDS at m0 + lane offset (no VGPR result).
foreach s = [P<"ubyte", 1>, P<"sbyte", 1>, P<"ushort", 1>, P<"sshort", 1>,
             P<"dword", 1>, P<"dwordx3", 3, CDNA4>, P<"dwordx4", 4, CDNA4>] in
  def GLOBAL_LOAD_LDS_#s.S : VMem<"global_load_lds_"#s.S, "GLOBAL", [],
      [GVAddr, GSAddr], !listconcat([GlobalOffset], CPol), ["MAYLOAD", "MAYSTORE", "LDS"],
      !if(!eq(s.N, 1), CDNA3, s.T)> {
    let ImplicitUses = ["exec", "m0"];
    let Doc = "Loads " # s.S # " per lane into LDS at m0 + 4 * lane (+ offset).";
  }

// Atomics. The returning forms (sc0 set) write the pre-op memory value to
// vdst; they are separate records, printed with LLVM's mnemonic plus sc0.
// N is the data width (cmpswap: the new value then the compare value).
class GAtomic<string op, int n, bit rtn>
    : VMem<"global_atomic_"#op#!if(rtn, "_rtn", ""), "GLOBAL",
           !if(rtn, [Opd<"vdst", "v", !if(!eq(!find(op, "cmpswap"), 0), !div(n, 2), n)>], []),
           [GVAddr, Opd<"vdata", "v", n>, GSAddr],
           !listconcat([GlobalOffset], !if(rtn, CPolRtn, CPolNoRtn)),
           !listconcat(["MAYLOAD", "MAYSTORE", "ATOMIC"], !if(rtn, ["RETURNS"], []))> {
  let AsmName = !if(rtn, "global_atomic_"#op, "");
}
class FAtomic<string op, int n, bit rtn>
    : VMem<"flat_atomic_"#op#!if(rtn, "_rtn", ""), "FLAT",
           !if(rtn, [Opd<"vdst", "v", !if(!eq(!find(op, "cmpswap"), 0), !div(n, 2), n)>], []),
           [FAddr, Opd<"vdata", "v", n>],
           !listconcat([FlatOffset], !if(rtn, CPolRtn, CPolNoRtn)),
           !listconcat(["MAYLOAD", "MAYSTORE", "ATOMIC"], !if(rtn, ["RETURNS"], []))> {
  let AsmName = !if(rtn, "flat_atomic_"#op, "");
}
defvar Atomics = [P<"add", 1>, P<"sub", 1>, P<"swap", 1>, P<"cmpswap", 2>,
                  P<"smin", 1>, P<"umin", 1>, P<"smax", 1>, P<"umax", 1>,
                  P<"and", 1>, P<"or", 1>, P<"xor", 1>, P<"inc", 1>, P<"dec", 1>,
                  P<"add_x2", 2>, P<"cmpswap_x2", 4>, P<"add_f32", 1>,
                  P<"pk_add_f16", 1>, P<"pk_add_bf16", 1>, P<"add_f64", 2>,
                  P<"min_f64", 2>, P<"max_f64", 2>, P<"sub_x2", 2>, P<"swap_x2", 2>,
                  P<"smin_x2", 2>, P<"umin_x2", 2>, P<"smax_x2", 2>, P<"umax_x2", 2>,
                  P<"and_x2", 2>, P<"or_x2", 2>, P<"xor_x2", 2>, P<"inc_x2", 2>,
                  P<"dec_x2", 2>];
foreach a = Atomics in {
  def GLOBAL_ATOMIC_#a.S : GAtomic<a.S, a.N, 0>;
  def GLOBAL_ATOMIC_#a.S#_RTN : GAtomic<a.S, a.N, 1>;
}
foreach a = Atomics in {
  def FLAT_ATOMIC_#a.S : FAtomic<a.S, a.N, 0>;
  def FLAT_ATOMIC_#a.S#_RTN : FAtomic<a.S, a.N, 1>;
}
