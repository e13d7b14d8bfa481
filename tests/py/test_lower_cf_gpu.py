"""amdgcn-lower's unstructured control flow (lower_suite_cf.py: mlir-opt's
cf output, a cf.switch with early returns, an irreducible loop), workgroup
reductions and dynamic shared memory (lower_suite_gpu.py), each against
NumPy and against LLVM's build of the same kernel (LLVM's structurizer for
the CFGs; upstream's AllReduceLowering for gpu.all_reduce), both run on the
emulator in strict mode."""
import re

import numpy as np
import pytest

import aster
import lower_suite as S
import lower_suite_cf as CF
import lower_suite_gpu as G

CASES = CF.CASES + G.CASES

from lower_testing import ours as _ours, numpy_tests

test_aster_lowering_matches_numpy, test_llvm_build_matches_numpy = numpy_tests(CASES)


def test_divergent_cfg_masks_exec():
    """The lifted divergent branches run under EXEC masks (as LLVM's
    structurizer makes them), not per-lane branches."""
    asm = _ours(next(c for c in CF.CASES if c.name == "cf_switch_exits")).asm
    assert "s_and_saveexec_b64" in asm and "s_cbranch_execz" in asm


def test_irreducible_loop_is_split_into_one_loop():
    """The loop entered at ^A or ^B is made reducible by cloning ^B for the
    entry into it (node splitting): one loop (one backward s_branch) whose
    body has ^A's n * 2 + 1 once and ^B's m + 3 once, plus the clone's
    m + 3 before it; no entry selector multiplexing the two bodies."""
    asm = _ours(next(c for c in CF.CASES if c.name == "cf_irreducible")).asm
    assert asm.count("s_branch") == 1
    assert len(re.findall(r"v_lshlrev_b32 v\d+, 1, v\d+", asm)) == 1
    assert len(re.findall(r"v_add_u32 v\d+, v\d+, 3\n", asm)) == 2


def test_all_reduce_without_known_size_reads_the_dispatch_packet():
    """No known_block_size: the block size from the dispatch packet, the
    waves' values combined in a loop (s_cbranch_scc1 back), and one code
    object serves two block sizes (the reduction's value changes with it)."""
    case = next(c for c in G.CASES if c.name == "all_reduce_f64_add_nosize")
    code = _ours(case)
    assert "s_cbranch_scc1" in code.asm and "ds_read_b64" in code.asm
    x = np.arange(256, dtype=np.float64)
    for block in (64, 256, 130):
        y = np.zeros(256)
        aster.launch(code, "ar", grid=1, block=block, args=[x, y])
        np.testing.assert_array_equal(y[:block], x[:block].sum())
        np.testing.assert_array_equal(y[block:], 0)


def test_all_reduce_uses_lds_and_one_barrier():
    asm = _ours(next(c for c in G.CASES if c.name == "all_reduce_add_4w")).asm
    assert asm.count("s_barrier") == 1
    assert "ds_write_b32" in asm and asm.count("ds_read_b32") == 4


def test_dynamic_lds_follows_static_lds():
    """The dynamic buffer starts after the static attribution (32 bytes,
    rounded to 16): a launch with too little dynamic LDS reads out of the
    workgroup's LDS, which strict mode reports."""
    case = next(c for c in G.CASES if c.name == "dynamic_shared_reverse")
    code = _ours(case)
    with pytest.raises(aster.EmulatorError, match="outside the workgroup's 96 bytes"):
        S.run(case, code, dynamic_lds=64)


def test_all_reduce_in_a_function_is_an_error():
    """A non-kernel function has no workgroup ids or LDS of its own."""
    text = S.module("""
    gpu.func @f(%v: i32) -> i32 {
      %r = gpu.all_reduce add %v uniform {} : (i32) -> i32
      gpu.return %r : i32
    }""")
    with pytest.raises(aster.AsterError, match=r"gpu\.all_reduce.*not in a function"):
        aster.lower(text)
