"""The amdgpu dialect's MX and sparse ops of issue 26 item 2, closed: every
kernel of lower_suite_amdgpu_mx.py built by aster (aster.lower) and by LLVM
(aster.lowering.llvm: mlir-opt-22 convert-gpu-to-rocdl, llc-22) for its
target, both run on the emulator in strict mode, each equal to NumPy /
ml_dtypes (the expectations and their sources: the suite's docstring). The
assembly checks name the instructions and selector bits llc-22 -mcpu=gfx950
/ gfx942 picks for the same ops."""
import numpy as np
import pytest

import aster
import aster.lowering.llvm
import lower_suite as S
import lower_suite_amdgpu_mx as X


def build(case, arch, llvm=False):
    if llvm:
        return aster.lowering.llvm.build(case.llvm_mlir or case.mlir, target=arch)["kernels"]
    return aster.compile(aster.lower(case.mlir, target=arch)["kernels"], aster.lowering.PIPELINE)


IDS = [c.name for c, _ in X.CASES]


@pytest.mark.parametrize("case,arch", X.CASES, ids=IDS)
def test_aster_matches_numpy(case, arch):
    args, r = S.run(case, build(case, arch))
    S.check(case, args)
    assert r.wave_instructions > 0


# LLVM's build of these uses an instruction aster's table (so the emulator)
# does not have: NumPy / ml_dtypes is their oracle (test_llvm_cast_build_
# needs_sdwa_compare keeps the reason checked).
NO_LLVM_RUN = {"narrow_float_casts_gfx942", "narrow_float_casts_gfx950"}


@pytest.mark.parametrize("case,arch", [ca for ca in X.CASES if ca[0].name not in NO_LLVM_RUN],
                         ids=[i for i in IDS if i not in NO_LLVM_RUN])
def test_llvm_build_matches_numpy(case, arch):
    args, _ = S.run(case, build(case, arch, llvm=True))
    S.check(case, args)


def test_llvm_cast_build_needs_sdwa_compare():
    """llc-22 compares a byte of the expanded casts by v_cmp_ne_u16_sdwa,
    which the instruction table lacks: LLVM's build of the cast kernels does not
    run on the emulator (when it does, move them back to the LLVM test)."""
    for name in sorted(NO_LLVM_RUN):
        case, arch = next((c, a) for c, a in X.CASES if c.name == name)
        with pytest.raises(aster.EmulatorError, match="v_cmp_ne_u16_sdwa"):
            S.run(case, build(case, arch, llvm=True))


def _asm(name):
    case, arch = next((c, a) for c, a in X.CASES if c.name == name)
    return build(case, arch).asm


def test_instructions_are_llvms():
    """The instructions and selectors llc-22 prints for the same kernels
    (read off aster.lowering.llvm.asm of each case)."""
    a = _asm("scaled_ext_packed_fp4")
    for s in ("v_cvt_scalef32_pk_f32_fp4", "v_cvt_scalef32_pk_f16_fp4",
              "v_cvt_scalef32_pk_bf16_fp4", "op_sel:[1,1,0]", "op_sel:[0,1,0]"):
        assert s in a, s
    a = _asm("packed_scaled_trunc_fp8")
    for s in ("v_cvt_scalef32_pk_fp8_f32", "v_cvt_scalef32_pk_fp8_f16", "v_cvt_scalef32_pk_fp8_bf16",
              "op_sel:[0,0,0,1]", "op_sel:[0,0,1]"):
        assert s in a, s
    a = _asm("packed_scaled_trunc_fp4")
    assert "v_cvt_scalef32_pk_fp4_f32" in a and "op_sel:[0,0,1,1]" in a
    a = _asm("scaled_mfma_16_bf6_fp4_ia3_ib1")
    assert "v_mfma_scale_f32_16x16x128_f8f6f4" in a
    for s in ("cbsz:3", "blgp:4", "op_sel:[1,1,0]", "op_sel_hi:[1,0,0]"):
        assert s in a, s
    assert "v_smfmac_f32_32x32x16_bf16" in _asm("sparse_mfma_gfx942_32x32x16_bf16_abid2")
    assert "abid:2" in _asm("sparse_mfma_gfx942_32x32x16_bf16_abid2")


def test_narrow_float_constants_are_bit_patterns():
    """arith.constant of f8E8M0FNU (2.0 = 0x80: ml_dtypes.float8_e8m0fnu) is
    the scale operand's immediate, as llc-22 materialises it (v_mov_b32 0x80)."""
    import ml_dtypes
    assert np.array(2.0, ml_dtypes.float8_e8m0fnu).view(np.uint8) == 0x80
    a = _asm("scaled_mfma_16_fp4_fp6_ia0_ib2_consta")
    assert "0x80" in a


def test_out_of_target_and_bad_index_are_located_errors():
    """The gfx950-only MX ops on gfx942 and an index past the packed word:
    an AsterError at the op naming why (no crash)."""
    def err(text, target):
        with pytest.raises(aster.AsterError) as e:
            aster.lower(text, target=target)
        return str(e.value)
    case = next(c for c, _ in X.CASES if c.name == "scaled_ext_packed_fp8")
    assert "'amdgpu.scaled_ext_packed' op" in err(case.mlir, "gfx942")
    case = next(c for c, _ in X.CASES if c.name.startswith("scaled_mfma_16_fp8_fp8"))
    assert "gfx950 instruction" in err(case.mlir, "gfx942")
    ext = next(c for c, _ in X.CASES if c.name == "scaled_ext_packed_fp8").mlir
    bad = ext.replace("%q[1], %sc", "%q[2], %sc", 1)
    assert "word 0 or 1" in err(bad, "gfx950")
    sp = next(c for c, _ in X.CASES if c.name.startswith("sparse_mfma_gfx950_16x16x64_f16")).mlir
    assert "not an instruction of gfx942" in err(sp, "gfx942")
