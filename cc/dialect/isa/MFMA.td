// Matrix fused multiply-add (VOP3P-MAI): vdst = src0 x src1 + src2 over the
// wave. vdst and src2 are both AGPRs or both VGPRs (the verifier checks);
// src0/src1 may be either; src2 may also be an inline constant (0 clears).
// Dw is the result width, ABw the width of each of src0/src1. P is the
// number of passes (4 cycles each) the matrix core needs: AMD's matrix
// instruction calculator cycles / 4 for gfx942 (gfx950-only instructions:
// LLVM's gfx950 scheduling model; the f8f6f4 forms: below); see Inst.Passes
// in Schema.td.

class MFMA<string mn, int p, int dw, int abw, string abty, string cty = "f32",
           list<Target> t = CDNA3, list<Mod> mods = MfmaMods>
    : Inst<mn, "MFMA", [Opd<"vdst", "av", dw, cty>],
           [Opd<"src0", "av", abw, abty>, Opd<"src1", "av", abw, abty>,
            Opd<"src2", "avi", dw, cty>],
           mods, t, ["MFMA", "VALU"]> {
  let ImplicitUses = ["exec"];
  let Passes = p;
}

// Shapes MxNxK, with the block count (_Nb) for the multi-block forms.
// f32 inputs.
def : MFMA<"v_mfma_f32_32x32x1_2b_f32", 16, 32, 1, "f32">;
def : MFMA<"v_mfma_f32_16x16x1_4b_f32", 8, 16, 1, "f32">;
def : MFMA<"v_mfma_f32_4x4x1_16b_f32", 2, 4, 1, "f32">;
def : MFMA<"v_mfma_f32_32x32x2_f32", 16, 16, 1, "f32">;
def : MFMA<"v_mfma_f32_16x16x4_f32", 8, 4, 1, "f32">;
// f16 and bf16 inputs (LLVM's canonical bf16 names are those of the gfx90a
// "_1k" instructions: v_mfma_f32_32x32x8bf16_1k prints v_mfma_f32_32x32x8_bf16).
foreach ty = ["f16", "bf16"] in {
  defvar vt = !if(!eq(ty, "f16"), "v2f16", "v2bf16");
  def : MFMA<"v_mfma_f32_32x32x4_2b_"#ty, 16, 32, 2, vt>;
  def : MFMA<"v_mfma_f32_16x16x4_4b_"#ty, 8, 16, 2, vt>;
  def : MFMA<"v_mfma_f32_4x4x4_16b_"#ty, 2, 4, 2, vt>;
  def : MFMA<"v_mfma_f32_32x32x8_"#ty, 8, 16, 2, vt>;
  def : MFMA<"v_mfma_f32_16x16x16_"#ty, 4, 4, 2, vt>;
}
// i8 inputs, i32 results.
def : MFMA<"v_mfma_i32_32x32x4_2b_i8", 16, 32, 1, "b32", "i32">;
def : MFMA<"v_mfma_i32_16x16x4_4b_i8", 8, 16, 1, "b32", "i32">;
def : MFMA<"v_mfma_i32_4x4x4_16b_i8", 2, 4, 1, "b32", "i32">;
def : MFMA<"v_mfma_i32_32x32x16_i8", 8, 16, 2, "b64", "i32">;
def : MFMA<"v_mfma_i32_16x16x32_i8", 4, 4, 2, "b64", "i32">;
// fp8/bf8 inputs (gfx940 FNUZ formats), one per A/B format pair.
foreach a = ["fp8", "bf8"] in
  foreach b = ["fp8", "bf8"] in {
    def : MFMA<"v_mfma_f32_16x16x32_"#a#"_"#b, 4, 4, 2, "b64">;
    def : MFMA<"v_mfma_f32_32x32x16_"#a#"_"#b, 8, 16, 2, "b64">;
  }
// xf32 (reduced-precision f32), gfx940 only.
def : MFMA<"v_mfma_f32_16x16x8_xf32", 4, 4, 2, "v2f32", "f32", [gfx942]>;
def : MFMA<"v_mfma_f32_32x32x4_xf32", 8, 16, 2, "v2f32", "f32", [gfx942]>;
// f64: the blgp field negates the sources instead.
def : MFMA<"v_mfma_f64_16x16x4_f64", 8, 8, 2, "f64", "f64", CDNA3, [cbsz, abid, mfma_neg]>;
def : MFMA<"v_mfma_f64_4x4x4_4b_f64", 4, 2, 2, "f64", "f64", CDNA3, [cbsz, abid, mfma_neg]>;

// gfx950: twice the K for f16/bf16/i8, and the f8f6f4 family.
foreach ty = ["f16", "bf16"] in {
  defvar vt = !if(!eq(ty, "f16"), "v2f16", "v2bf16");
  def : MFMA<"v_mfma_f32_16x16x32_"#ty, 4, 4, 4, vt, "f32", CDNA4>;
  def : MFMA<"v_mfma_f32_32x32x16_"#ty, 8, 16, 4, vt, "f32", CDNA4>;
}
def : MFMA<"v_mfma_i32_16x16x64_i8", 4, 4, 4, "b128", "i32", CDNA4>;
def : MFMA<"v_mfma_i32_32x32x32_i8", 8, 16, 4, "b128", "i32", CDNA4>;
// f8f6f4 (plain and scaled: src3/src4 hold the per-lane E8M0 scales of A
// and B); the A/B widths follow their formats (cbsz/blgp): 8 registers for
// fp8/bf8, 6 for fp6/bf6, 4 for fp4. The 8-register form keeps the plain
// name, the others add _a<width>_b<width>.
// Passes by format: 16x16x128 takes 8 passes when A or B is fp8/bf8 and 4
// otherwise (fp6, fp4); 32x32x64 16 and 8. Sources: AMD's ROCm blog "Matrix
// Core Programming on AMD CDNA3 and CDNA4 architecture" (2025, section 3's
// MFMA table: 16x16x128 "16 or 32" cycles, 32x32x64 "32 or 64", "Larger
// cycle count if either matrix A or B is FP8"), AMD's MI355X peaks
// (data sheet and CDNA4 white paper: 5.0 PFLOP/s dense FP8, 10 FP6 and 10
// FP4 on 256 CUs x 4 SIMDs at 2400 MHz: 65536 flops of 16x16x128 in 32
// cycles with FP8, 16 with FP6/FP4), and LLVM's gfx950 scheduling model
// (SISchedule.td: "If either matrix format is f8, the instruction takes 2x
// as many cycles", PredIsF8_MFMA_SCALE), which llc-22's hazard recognizer
// follows (more wait states after an FP8 form) but llvm-mca-22 does not (it
// cannot evaluate the operand predicate and gives every format the fast
// count). tests/py/test_timing_f8f6f4.py checks both.
foreach s = [P<"16x16x128", 4>, P<"32x32x64", 16>] in
  foreach wa = [8, 6, 4] in
    foreach wb = [8, 6, 4] in {
      defvar sfx = !if(!and(!eq(wa, 8), !eq(wb, 8)), "", "_a"#wa#"_b"#wb);
      defvar f8 = !or(!eq(wa, 8), !eq(wb, 8));
      defvar p = !mul(!if(!eq(s.N, 4), 4, 8), !if(f8, 2, 1));
      defvar ab = [Opd<"src0", "av", wa, !if(!eq(wa, 8), "b256", "b32")>,
                   Opd<"src1", "av", wb, !if(!eq(wb, 8), "b256", "b32")>,
                   Opd<"src2", "avi", s.N, "f32">];
      def : MFMA<"v_mfma_f32_"#s.S#"_f8f6f4"#sfx, p, s.N, 8, "b256", "f32", CDNA4,
                 F8F6F4Mods<wa, wb>.r> {
        let AsmName = "v_mfma_f32_"#s.S#"_f8f6f4";
        let Srcs = ab;
      }
      def : MFMA<"v_mfma_scale_f32_"#s.S#"_f8f6f4"#sfx, p, s.N, 8, "b256", "f32", CDNA4,
                 !listconcat([op_sel_mx, op_sel_hi_mx], F8F6F4Mods<wa, wb>.r)> {
        let AsmName = "v_mfma_scale_f32_"#s.S#"_f8f6f4";
        let Srcs = !listconcat(ab, [Opd<"scale_a", "v">, Opd<"scale_b", "v">]);
      }
    }

// Sparse (SMFMAC): vdst += A(sparse, src0) x B(src1); src2 holds the sparsity
// index. vdst is also the accumulator input.
class SMFMAC<string mn, int dw, int aw, int bw, string cty = "f32", list<Target> t = CDNA3>
    : Inst<mn, "MFMA", [Opd<"vdst", "av", dw, cty>],
           [Opd<"src0", "av", aw, "b32">, Opd<"src1", "av", bw, "b32">,
            Opd<"src2", "v">, Tied<"vdst", "av", dw, cty>],
           [cbsz, abid], t, ["MFMA", "VALU"]> {
  let ImplicitUses = ["exec"];
  // 16x16 shapes 4 passes, 32x32 shapes 8 (calculator; LLVM's gfx940/gfx950 models).
  let Passes = !if(!eq(dw, 4), 4, 8);
}
foreach ty = ["f16", "bf16"] in {
  def : SMFMAC<"v_smfmac_f32_16x16x32_"#ty, 4, 2, 4>;
  def : SMFMAC<"v_smfmac_f32_32x32x16_"#ty, 16, 2, 4>;
  def : SMFMAC<"v_smfmac_f32_16x16x64_"#ty, 4, 4, 8, "f32", CDNA4>;
  def : SMFMAC<"v_smfmac_f32_32x32x32_"#ty, 16, 4, 8, "f32", CDNA4>;
}
def : SMFMAC<"v_smfmac_i32_16x16x64_i8", 4, 2, 4, "i32">;
def : SMFMAC<"v_smfmac_i32_32x32x32_i8", 16, 2, 4, "i32">;
// fp8/bf8 inputs (gfx942 FNUZ; gfx950 reads them as the OCP formats).
foreach fa = ["fp8", "bf8"] in
  foreach fb = ["fp8", "bf8"] in {
    def : SMFMAC<"v_smfmac_f32_16x16x64_"#fa#"_"#fb, 4, 2, 4>;
    def : SMFMAC<"v_smfmac_f32_32x32x32_"#fa#"_"#fb, 16, 2, 4>;
  }
def : SMFMAC<"v_smfmac_i32_16x16x128_i8", 4, 4, 8, "i32", CDNA4>;
def : SMFMAC<"v_smfmac_i32_32x32x64_i8", 16, 4, 8, "i32", CDNA4>;
// gfx950's 8-bit float sparse MFMAs with doubled K (OCP fp8/bf8).
foreach fa = ["fp8", "bf8"] in
  foreach fb = ["fp8", "bf8"] in {
    def : SMFMAC<"v_smfmac_f32_16x16x128_"#fa#"_"#fb, 4, 4, 8, "f32", CDNA4>;
    def : SMFMAC<"v_smfmac_f32_32x32x64_"#fa#"_"#fb, 16, 4, 8, "f32", CDNA4>;
  }
