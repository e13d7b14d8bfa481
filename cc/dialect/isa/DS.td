// LDS (data share). addr is a VGPR byte address; offsets are in bytes
// (offset0/offset1 of the two-address forms are in elements, or 64 elements
// for st64). No GDS on gfx940+. gfx12 renames the reads/writes ds_load_*/
// ds_store_*, so those are gfx940/gfx950 only.

defvar DSAddr = Opd<"addr", "v">;
class DSInst<string mn, list<Opd> dsts, list<Opd> srcs, list<Mod> mods,
             list<string> props, list<Target> t = CDNA3>
    : Inst<mn, "DS", dsts, srcs, mods, t, !listconcat(["LDS", "LGKMCNT"], props)> {
  let ImplicitUses = ["exec"];
}

// Loads and stores: data in VGPRs or AGPRs (gfx90a+: the acc bit).
foreach s = [P<"b32", 1>, P<"b64", 2>, P<"b96", 3>, P<"b128", 4>] in {
  def DS_READ_#s.S : DSInst<"ds_read_"#s.S, [Opd<"vdst", "va", s.N>], [DSAddr],
      [DSOffset], ["MAYLOAD"]>;
  def DS_WRITE_#s.S : DSInst<"ds_write_"#s.S, [], [DSAddr, Opd<"data0", "va", s.N>],
      [DSOffset], ["MAYSTORE"]>;
}
foreach ty = ["u8", "i8", "u16", "i16"] in
  def DS_READ_#ty : DSInst<"ds_read_"#ty, [Opd<"vdst", "va">], [DSAddr], [DSOffset],
      ["MAYLOAD"]> {
    let Doc = "vdst = " # !if(!eq(!substr(ty, 0, 1), "i"), "sign", "zero") #
              "-extended " # !substr(ty, 1) # "-bit LDS value.";
  }
foreach b = ["b8", "b16"] in
  def DS_WRITE_#b : DSInst<"ds_write_"#b, [], [DSAddr, Opd<"data0", "va">], [DSOffset],
      ["MAYSTORE"]>;
// 16-bit reads into one half of vdst (the other half is kept: vdst is read
// too) and writes of a register's high half.
foreach s = ["u8_d16", "u8_d16_hi", "i8_d16", "i8_d16_hi", "u16_d16", "u16_d16_hi"] in
  def DS_READ_#s : DSInst<"ds_read_"#s, [Opd<"vdst", "va">], [DSAddr, Tied<"vdst", "va">],
      [DSOffset], ["MAYLOAD"]>;
foreach b = ["b8_d16_hi", "b16_d16_hi"] in
  def DS_WRITE_#b : DSInst<"ds_write_"#b, [], [DSAddr, Opd<"data0", "va">], [DSOffset],
      ["MAYSTORE"]>;
// No operation (LDS pipeline).
def DS_NOP : DSInst<"ds_nop", [], [], [], [], ALL>;
// Two addresses: addr + offset0 * size and addr + offset1 * size.
foreach s = [P<"b32", 1>, P<"b64", 2>] in
  foreach st = ["", "st64"] in {
    def DS_READ2#st#_#s.S : DSInst<"ds_read2"#st#"_"#s.S,
        [Opd<"vdst", "va", !mul(2, s.N)>], [DSAddr], [DSOffset0, DSOffset1], ["MAYLOAD"]>;
    def DS_WRITE2#st#_#s.S : DSInst<"ds_write2"#st#"_"#s.S, [],
        [DSAddr, Opd<"data0", "va", s.N>, Opd<"data1", "va", s.N>],
        [DSOffset0, DSOffset1], ["MAYSTORE"]>;
  }
// Reads at m0 + offset + 4 * lane id (no address operand).
def DS_READ_ADDTID_B32 : DSInst<"ds_read_addtid_b32", [Opd<"vdst", "v">], [], [DSOffset],
    ["MAYLOAD"]> {
  let ImplicitUses = ["exec", "m0"];
}

// Cross-lane permutes through the LDS crossbar (no LDS memory access).
def DS_BPERMUTE_B32 : DSInst<"ds_bpermute_b32", [Opd<"vdst", "v">],
    [DSAddr, Opd<"data0", "v">], [DSOffset], [], ALL> {
  let Doc = "vdst = data0 of lane (addr + offset) / 4 (pull).";
}
def DS_SWIZZLE_B32 : DSInst<"ds_swizzle_b32", [Opd<"vdst", "v">], [Opd<"data0", "v">],
    [SwizzleOffset], [], ALL> {
  let Doc = "vdst = data0 of another lane of the 32-lane half, by the pattern in offset.";
}
def DS_PERMUTE_B32 : DSInst<"ds_permute_b32", [Opd<"vdst", "v">],
    [DSAddr, Opd<"data0", "v">], [DSOffset], [], ALL> {
  let Doc = "Lane (addr + offset) / 4 of vdst receives data0 (push).";
}

// Atomics. Without _rtn nothing is returned.
class DSAtomic<string mn, int w, list<Target> t>
    : DSInst<mn, [], [DSAddr, Opd<"data0", "v", w>], [DSOffset],
             ["MAYLOAD", "MAYSTORE", "ATOMIC"], t>;
class DSAtomicRtn<string mn, int w, list<Target> t>
    : DSInst<mn, [Opd<"vdst", "v", w>], [DSAddr, Opd<"data0", "v", w>], [DSOffset],
             ["MAYLOAD", "MAYSTORE", "ATOMIC", "RETURNS"], t>;
foreach a = [P<"add_u32", 1, ALL>, P<"sub_u32", 1, ALL>, P<"rsub_u32", 1, ALL>,
             P<"inc_u32", 1, ALL>, P<"dec_u32", 1, ALL>, P<"min_i32", 1, ALL>,
             P<"max_i32", 1, ALL>, P<"min_u32", 1, ALL>, P<"max_u32", 1, ALL>,
             P<"and_b32", 1, ALL>, P<"or_b32", 1, ALL>, P<"xor_b32", 1, ALL>,
             P<"add_f32", 1, ALL>, P<"min_f32", 1>, P<"max_f32", 1>,
             P<"pk_add_f16", 1, ALL>, P<"pk_add_bf16", 1, ALL>,
             P<"add_u64", 2, ALL>, P<"min_u64", 2, ALL>, P<"max_u64", 2, ALL>,
             P<"add_f64", 2>, P<"sub_u64", 2, ALL>, P<"rsub_u64", 2, ALL>,
             P<"inc_u64", 2, ALL>, P<"dec_u64", 2, ALL>, P<"min_i64", 2, ALL>,
             P<"max_i64", 2, ALL>, P<"and_b64", 2, ALL>, P<"or_b64", 2, ALL>,
             P<"xor_b64", 2, ALL>, P<"min_f64", 2>, P<"max_f64", 2>] in {
  defvar op = !substr(a.S, 0, !find(a.S, "_", !if(!eq(!substr(a.S, 0, 3), "pk_"), 3, 0)));
  defvar ty = !substr(a.S, !add(!size(op), 1));
  def DS_#a.S : DSAtomic<"ds_"#a.S, a.N, a.T>;
  def DS_#op#_RTN_#ty : DSAtomicRtn<"ds_"#op#"_rtn_"#ty, a.N, a.T>;
}
// Exchange and compare-exchange (always return the old value).
def DS_WRXCHG_RTN_B32 : DSAtomicRtn<"ds_wrxchg_rtn_b32", 1, CDNA3>;
def DS_WRXCHG_RTN_B64 : DSAtomicRtn<"ds_wrxchg_rtn_b64", 2, CDNA3>;
// Two data operands: compare-store (if mem == data0 then mem = data1) and
// masked or (mem = (mem & ~data0) | data1).
foreach a = [P<"cmpst_b32", 1>, P<"cmpst_f32", 1>, P<"cmpst_b64", 2>, P<"cmpst_f64", 2>,
             P<"mskor_b32", 1, ALL>, P<"mskor_b64", 2, ALL>] in {
  defvar op = !substr(a.S, 0, !find(a.S, "_"));
  defvar ty = !substr(a.S, !add(!size(op), 1));
  defvar doc = !if(!eq(op, "cmpst"), "If mem == data0 then mem = data1",
                   "mem = (mem & ~data0) | data1");
  def DS_#a.S : DSInst<"ds_"#a.S, [],
      [DSAddr, Opd<"data0", "v", a.N>, Opd<"data1", "v", a.N>], [DSOffset],
      ["MAYLOAD", "MAYSTORE", "ATOMIC"], a.T> {
    let Doc = doc # ".";
  }
  def DS_#op#_RTN_#ty : DSInst<"ds_"#op#"_rtn_"#ty, [Opd<"vdst", "v", a.N>],
      [DSAddr, Opd<"data0", "v", a.N>, Opd<"data1", "v", a.N>], [DSOffset],
      ["MAYLOAD", "MAYSTORE", "ATOMIC", "RETURNS"], a.T> {
    let Doc = doc # "; vdst = old mem.";
  }
}
// Two exchanges at two addresses (as read2/write2): vdst = the old values.
foreach s = [P<"b32", 1>, P<"b64", 2>] in
  foreach st = ["", "st64"] in
    def DS_WRXCHG2#st#_RTN_#s.S : DSInst<"ds_wrxchg2"#st#"_rtn_"#s.S,
        [Opd<"vdst", "v", !mul(2, s.N)>],
        [DSAddr, Opd<"data0", "v", s.N>, Opd<"data1", "v", s.N>], [DSOffset0, DSOffset1],
        ["MAYLOAD", "MAYSTORE", "ATOMIC", "RETURNS"]>;

// gfx950: transposing loads for MFMA operand layouts.
foreach s = [P<"b64_tr_b4", 2>, P<"b64_tr_b8", 2>, P<"b64_tr_b16", 2>, P<"b96_tr_b6", 3>] in
  def DS_READ_#s.S : DSInst<"ds_read_"#s.S, [Opd<"vdst", "va", s.N>], [DSAddr],
      [DSOffset], ["MAYLOAD"], CDNA4>;
