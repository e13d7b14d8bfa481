"""The bugs the coverage audit found, fixed: each kernel of
lower_suite_fixes.py built by aster and by LLVM (aster.lowering.llvm:
convert-gpu-to-rocdl + llc-22), both run on the emulator in strict mode,
each equal to NumPy, and equal to each other bit for bit (same_bits).
Why each was a bug and which definition is followed: lower_suite_fixes.py."""
import numpy as np
import pytest

import aster.lowering.llvm
import lower_suite as S
import lower_suite_fixes as F
from lower_testing import asm, numpy_tests, same_bits_test

test_aster_matches_numpy, test_llvm_build_matches_numpy = numpy_tests(F.CASES)
test_same_bits_as_llvm = same_bits_test(F.CASES)


def _case(name):
    return next(c for c in F.CASES if c.name == name)


def test_index_is_32_bits_in_both_builds():
    """aster's index is 32 bits (docs/lowering.md); the oracle builds the
    same kernel with index-bitwidth=32, so both compute one definition of
    divui / remui / shrui / index_castui of an index."""
    c = _case("index_unsigned_ops")
    assert aster.lowering.llvm.index_bits(c.mlir) == 32
    a = asm(F.CASES, "index_unsigned_ops")
    assert "v_rcp_iflag_f32" in a          # 32-bit unsigned division (LLVM's expansion)
    assert "v_lshrrev_b32" in a            # 32-bit shift right
    assert "v_lshrrev_b64" not in a and "v_mad_u64_u32" not in a


def test_a_64_bit_index_is_another_op():
    """LLVM's build of the same kernel with a 64-bit index (convert-gpu-to-
    rocdl's default) computes another function: on the lanes whose operand
    is negative (sign-extended by index_cast), divui of index is
    (2^64 - |a|) / b there, (2^32 - |a|) / b here; on the others the two
    agree. So the oracle must use aster's width (index_bits)."""
    c = _case("index_unsigned_ops")
    args, _ = S.run(c, aster.lowering.llvm.build(c.mlir, index=64)["kernels"])
    x = c.inputs(np.random.default_rng(0))
    want = c.expect(x)
    neg = x[0] < 0
    for k in (3, 4, 5, 6, 7):
        got = np.asarray(args[k])
        assert np.array_equal(got[~neg], want[k][~neg]), k
    assert not np.array_equal(np.asarray(args[3])[neg], want[3][neg])
    assert not np.array_equal(np.asarray(args[7])[neg], want[7][neg])
