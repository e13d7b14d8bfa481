// Matrix fused multiply-add (VOP3P-MAI). Dst/C may be AGPRs or VGPRs.
class MFMA<string mn, int dw, int abw, string abty, string cty = "f32",
           list<Target> t = CDNA3> : Inst<mn, "MFMA",
    [Opd<"vdst", "av", dw, cty>],
    [Opd<"src0", "v", abw, abty>, Opd<"src1", "v", abw, abty>, Opd<"src2", "av", dw, cty>],
    [cbsz, abid, blgp], t, ["MFMA", "VALU"]>;
def V_MFMA_F32_16X16X16_F16 : MFMA<"v_mfma_f32_16x16x16_f16", 4, 2, "v2f16">;
def V_MFMA_F32_32X32X8_F16  : MFMA<"v_mfma_f32_32x32x8_f16", 16, 2, "v2f16">;
