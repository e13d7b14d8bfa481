"""The amdgpu dialect gaps of issue 26 item 2, closed: every kernel of
lower_suite_amdgpu_gaps.py built by aster (aster.lower) and by LLVM
(aster.lowering.llvm: mlir-opt-22 convert-gpu-to-rocdl, llc-22) for its
target, both run on the emulator in strict mode, each equal to NumPy /
ml_dtypes (the expectations and their sources: the suite's docstring).
The assembly checks name the instructions llc-22 picks for the same ops."""
import numpy as np
import pytest

import aster
import aster.lowering.llvm
import lower_suite as S
import lower_suite_amdgpu_gaps as G


def build(case, arch, llvm=False):
    if llvm:
        return aster.lowering.llvm.build(case.mlir, target=arch)["kernels"]
    return aster.compile(aster.lower(case.mlir, target=arch)["kernels"], aster.lowering.PIPELINE)


IDS = [c.name for c, _ in G.CASES]


@pytest.mark.parametrize("case,arch", G.CASES, ids=IDS)
def test_aster_matches_numpy(case, arch):
    args, r = S.run(case, build(case, arch))
    S.check(case, args)
    assert r.wave_instructions > 0


@pytest.mark.parametrize("case,arch", G.CASES, ids=IDS)
def test_llvm_build_matches_numpy(case, arch):
    args, _ = S.run(case, build(case, arch, llvm=True))
    S.check(case, args)


def _asm(name):
    case, arch = next((c, a) for c, a in G.CASES if c.name == name)
    return build(case, arch).asm


def test_instructions_are_llvms():
    """The instructions llc-22 -mcpu=gfx942 / gfx950 selects for the same
    kernels (read off aster.lowering.llvm.asm of each case)."""
    a = _asm("mfma_f32_16x16x32_bf8_fp8_gfx942_blgp4")
    assert "v_mfma_f32_16x16x32_bf8_fp8" in a and "blgp:4" in a
    a = _asm("mfma_f64_16x16x4_f64_gfx942_neg5")
    assert "v_mfma_f64_16x16x4_f64" in a and "neg:[1,0,1]" in a
    a = _asm("mfma_f32_4x4x1_16b_f32_gfx942_cbsz4_abid9")
    assert "cbsz:4" in a and "abid:9" in a
    a = _asm("dpp_kinds")
    for ctrl in ("row_shl:1", "row_shr:3", "row_ror:5", "wave_shl:1", "wave_shr:1", "wave_rol:1",
                 "wave_ror:1", "row_mirror", "row_half_mirror", "row_bcast:15", "row_bcast:31",
                 "quad_perm:[1,0,3,3]", "bound_ctrl"):
        assert ctrl in a, ctrl
    a = _asm("fp8_conversions_fp8_gfx942")
    for mn in ("v_cvt_f32_fp8", "src0_sel:BYTE_3", "v_cvt_pk_f32_fp8", "v_cvt_pk_fp8_f32",
               "op_sel:[0,0,1]", "v_cvt_sr_fp8_f32", "op_sel:[0,0,0,1]"):
        assert mn in a, mn
    assert "buffer_load_ubyte" in _asm("raw_buffer_i8_x1")
    assert "buffer_store_short" in _asm("raw_buffer_f16_x1")
    assert "buffer_load_dwordx3" in _asm("raw_buffer_i32_x3")
    assert "global_load_lds_ushort" in _asm("gather_to_lds_f16")
    assert "v_permlane32_swap_b32" in _asm("permlane32_swap_i64")
    # fetch_inactive / bound_ctrl: the VOP3 form's modifiers, as llc-22 -mcpu=gfx950
    for name, mods in (("permlane16_swap_i64_fetch_inactive_bound_ctrl", "bound_ctrl:1 fi:1"),
                       ("permlane32_swap_i64_fetch_inactive", "fi:1")):
        case, arch = next((c, a) for c, a in G.CASES if c.name == name)
        theirs = [ln for ln in aster.lowering.llvm.asm(case.mlir, target=arch)["kernels"].splitlines()
                  if "_swap_b32" in ln]
        ours = [ln for ln in _asm(name).splitlines() if "_swap_b32" in ln]
        assert theirs and ours
        assert all(ln.split(";")[0].rstrip().endswith(mods) for ln in theirs + ours), (theirs, ours)


def test_out_of_target_ops_are_located_errors():
    """gfx950-only ops on gfx942, gfx942-only xf32 on gfx950 and the FNUZ
    formats on gfx950: an error at the op naming why (no crash)."""
    def err(text, target):
        with pytest.raises(aster.AsterError) as e:
            aster.lower(text, target=target)
        return str(e.value)
    case, _ = next((c, a) for c, a in G.CASES if c.name == "permlane16_swap_i64")
    assert "v_permlane16_swap_b32 is not an instruction of gfx942" in err(case.mlir, "gfx942")
    case, _ = next((c, a) for c, a in G.CASES if c.name == "mfma_f32_16x16x8_xf32_gfx942")
    assert "'amdgpu.mfma' op" in err(case.mlir, "gfx950")
    case, _ = next((c, a) for c, a in G.CASES if c.name == "fp8_conversions_fp8_gfx942")
    assert "gfx950 converts f8E4M3FN and f8E5M2" in err(case.mlir, "gfx950")
