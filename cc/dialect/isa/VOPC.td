// Vector compares (VOPC): sdst[lane] = src0 OP src1 for each active lane,
// 0 for inactive ones. The 32-bit encoding writes vcc; any other SGPR pair
// selects VOP3. The v_cmpx forms also write the result to exec.
// Wave64 only: gfx1201 (wave32 in aster) writes a single SGPR.

class VOPC<string mn, string ty, bit x = 0>
    : Inst<mn, "VOPC", [Opd<"sdst", "s", 2, "b64">],
           [Opd<"src0", !if(!eq(W<ty>.r, 1), "vsil", "vsi"), W<ty>.r, ty>,
            Opd<"src1", "vsi", W<ty>.r, ty>],
           !if(IsFloat<ty>.r, [clamp, neg, abs], []), CDNA3, ["VALU"]> {
  let ImplicitUses = ["exec"];
  let ImplicitDefs = !if(x, ["exec"], []);
}

// Integer compares (f: always 0, t: always 1).
defvar IntCmps = ["f", "eq", "ne", "lt", "le", "gt", "ge", "t"];
// Float compares: o/u are ordered/unordered, n* are the negations (true on
// NaN); f is always 0, tru always 1.
defvar FloatCmps = ["f", "eq", "lg", "lt", "le", "gt", "ge", "o", "u",
                    "neq", "nlg", "nlt", "nle", "ngt", "nge", "tru"];
// v_cmp_* writes sdst; v_cmpx_* writes exec too.
foreach x = [P<"cmp", 0>, P<"cmpx", 1>] in {
  foreach ty = ["i32", "u32", "i64", "u64", "i16", "u16"] in
    foreach op = IntCmps in
      def V_#x.S#_#op#_#ty : VOPC<"v_"#x.S#"_"#op#"_"#ty, ty, x.N>;
  foreach ty = ["f32", "f64", "f16"] in {
    foreach op = FloatCmps in
      def V_#x.S#_#op#_#ty : VOPC<"v_"#x.S#"_"#op#"_"#ty, ty, x.N>;
    // src1 is a mask of IEEE classes (signaling nan, quiet nan, -inf, ...).
    def V_#x.S#_CLASS_#ty : VOPC<"v_"#x.S#"_class_"#ty, ty, x.N> {
      let Srcs = [Opd<"src0", !if(!eq(W<ty>.r, 1), "vsil", "vsi"), W<ty>.r, ty>,
                  Opd<"src1", "vsi", 1, "u32">];
      let Mods = SrcMods;
      let Doc = "sdst[lane] = src0 is in one of the classes set in src1.";
    }
  }
}
