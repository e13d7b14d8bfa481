// gfx1201-only forms: gfx12 spellings of the basics (aster's gfx1201 target
// is wave32). Waits use gfx12's separate counters.

// gfx12 prints an SGPR offset with an explicit `offset:`; only the
// immediate offset is modelled.
foreach s = [P<"b32", 1>, P<"b64", 2>, P<"b128", 4>] in
  def S_LOAD_#s.S : SLoad<"s_load_"#s.S, s.N, 2, [gfx1201]> {
    let Srcs = [Opd<"sbase", "s", 2, "b64">, Opd<"offset", "o">];
    let Mods = [];
  }

foreach s = [P<"b32", 1>, P<"b64", 2>, P<"b96", 3>, P<"b128", 4>] in {
  def GLOBAL_LOAD_#s.S : VMem<"global_load_"#s.S, "GLOBAL", [Opd<"vdst", "v", s.N>],
      [GVAddr, GSAddr], [Gfx12Offset], ["MAYLOAD"], [gfx1201]>;
  def GLOBAL_STORE_#s.S : VMem<"global_store_"#s.S, "GLOBAL", [],
      [GVAddr, Opd<"vdata", "v", s.N>, GSAddr], [Gfx12Offset], ["MAYSTORE"], [gfx1201]>;
  def DS_LOAD_#s.S : DSInst<"ds_load_"#s.S, [Opd<"vdst", "v", s.N>], [DSAddr],
      [DSOffset], ["MAYLOAD"], [gfx1201]>;
  def DS_STORE_#s.S : DSInst<"ds_store_"#s.S, [], [DSAddr, Opd<"data0", "v", s.N>],
      [DSOffset], ["MAYSTORE"], [gfx1201]>;
}

foreach op = ["add", "sub", "subrev"] in
  def V_#op#_NC_U32 : VOP2<"v_"#op#"_nc_u32", "u32", [gfx1201], [clamp]>;
foreach op = ["add", "sub"] in
  def S_#op#_CO_U32 : SOP2<"s_"#op#"_co_u32", 1, 1, [gfx1201]>;
def S_AND_SAVEEXEC_B32 : SOP1<"s_and_saveexec_b32", 1, 1, [gfx1201]> {
  let ImplicitDefs = ["exec", "scc"];
  let ImplicitUses = ["exec"];
}

// Wait until the counter is at most imm.
def waitimm : Mod<"imm", "hex16", 6, 0, 63>;
foreach c = ["loadcnt", "storecnt", "kmcnt", "dscnt"] in
  def S_WAIT_#c : Inst<"s_wait_"#c, "SOPP", [], [], [waitimm], [gfx1201],
      ["WAITCNT", "SIDE_EFFECT"]>;
