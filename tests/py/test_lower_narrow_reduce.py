"""amdgcn-lower's reductions of 8- and 16-bit values (lower_suite_narrow_reduce.py:
gpu.all_reduce with op kinds and a region across 1-8 waves, partial waves,
without known_block_size, gpu.subgroup_reduce whole-wave and clustered),
each against NumPy and against LLVM's build of the same kernel (upstream's
AllReduceLowering with 16-bit shuffles; the serial form where that
lowering is wrong), both run on the emulator in strict mode."""
import re

import lower_suite_narrow_reduce as N
from lower_testing import asm, numpy_tests

test_aster_lowering_matches_numpy, test_llvm_build_matches_numpy = numpy_tests(N.CASES)


def test_f16_reduction_adds_in_f16():
    """The f16 sum's steps are v_add_f16 on the moved dwords (as LLVM's
    16-bit arith), not an f32 add: 6 butterfly steps + 7 wave slots."""
    a = asm(N.CASES, "all_reduce_f16_add_8w")
    assert len(re.findall(r"v_add_f16", a)) == 6 + 7
    assert "v_add_f32" not in a and "ds_swizzle_b32" in a


def test_signed_i8_min_sign_extends_before_comparing():
    """The dword's upper bits are unspecified: minsi of i8 compares the
    sign-extended low byte (v_bfe_i32 ..., 0, 8), as LLVM's promotion."""
    a = asm(N.CASES, "all_reduce_i8_minsi_partial")
    assert re.search(r"v_bfe_i32 v\d+, v\d+, 0, 8", a)


