"""amdgcn-lower of linalg ops in kernels (upstream's linalg-to-loops inside
aster.lower, cc/lower/LowerLinalg.cpp) against two oracles we did not write:
NumPy's result and LLVM's build of the same source (mlir-opt-22
--convert-linalg-to-loops, convert-gpu-to-rocdl, llc-22). The matmul inputs
are small integers in f32, so every sum is exact and both builds must equal
NumPy and each other bit for bit. The kernels: lower_suite_linalg.py."""
import numpy as np
import pytest

import aster
import aster.lowering.llvm
import lower_suite as S
import lower_suite_linalg as G


def _compiled(text):
    return aster.compile(aster.lower(text)["kernels"], aster.lowering.PIPELINE)


@pytest.mark.parametrize("case", G.CASES, ids=lambda c: c.name)
def test_aster_and_llvm_match_numpy(case):
    ours, _ = S.run(case, _compiled(case.mlir))
    S.check(case, ours)
    theirs, _ = S.run(case, aster.lowering.llvm.build(case.mlir)["kernels"])
    S.check(case, theirs)
    for i in case.expect(case.inputs(np.random.default_rng(0))):
        np.testing.assert_array_equal(ours[i], theirs[i])


def test_matmul_is_a_loop_nest_without_linalg():
    """linalg.matmul becomes scf loops: the lowered kernel has a uniform K
    loop (s_cbranch_scc1) of v_fma/v_mul+v_add on loaded elements."""
    mods = aster.lower(next(c for c in G.CASES if c.name == "linalg_matmul_rows").mlir)
    text = mods["kernels"].mlir()
    assert "linalg" not in text and "affine" not in text
    assert "s_cbranch_scc1" in text and "global_load_dword" in text
