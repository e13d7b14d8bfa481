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

// Integer compares.
foreach ty = ["i32", "u32", "i64", "u64", "i16", "u16"] in
  foreach op = ["eq", "ne", "lt", "le", "gt", "ge"] in
    def V_CMP_#op#_#ty : VOPC<"v_cmp_"#op#"_"#ty, ty>;
// Float compares: o/u are ordered/unordered, n* are the negations (true on NaN).
foreach ty = ["f32", "f64", "f16"] in
  foreach op = ["eq", "lg", "lt", "le", "gt", "ge", "o", "u",
                "neq", "nlg", "nlt", "nle", "ngt", "nge"] in
    def V_CMP_#op#_#ty : VOPC<"v_cmp_"#op#"_"#ty, ty>;
// src1 is a mask of IEEE classes (signaling nan, quiet nan, -inf, ...).
foreach ty = ["f32", "f64", "f16"] in
  def V_CMP_CLASS_#ty : VOPC<"v_cmp_class_"#ty, ty> {
    let Srcs = [Opd<"src0", !if(!eq(W<ty>.r, 1), "vsil", "vsi"), W<ty>.r, ty>,
                Opd<"src1", "vsi", 1, "u32">];
    let Mods = SrcMods;
    let Doc = "sdst[lane] = src0 is in one of the classes set in src1.";
  }
// Compares that also write exec.
foreach ty = ["i32", "u32"] in
  foreach op = ["eq", "ne", "lt", "le", "gt", "ge"] in
    def V_CMPX_#op#_#ty : VOPC<"v_cmpx_"#op#"_"#ty, ty, 1>;
foreach op = ["eq", "lt", "le", "gt", "ge", "neq"] in
  def V_CMPX_#op#_F32 : VOPC<"v_cmpx_"#op#"_f32", "f32", 1>;
