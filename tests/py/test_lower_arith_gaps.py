"""Issue 26's arith gaps and integer / classification math
(lower_suite_arith_gaps.py, which names its oracles): each case's aster
build and LLVM's build run on the emulator in strict mode and equal NumPy,
and aster's outputs equal LLVM's bit for bit; the cases LLVM does not build
(isinf / isnormal, clampf of bf16 / f64, ipowi) against NumPy only."""
import numpy as np
import pytest

import lower_suite as S
import lower_suite_arith_gaps as G
from lower_testing import asm, numpy_tests, ours, same_bits_test

CASES = G.CASES

test_aster_lowering_matches_numpy, test_llvm_build_matches_numpy = numpy_tests(CASES)
test_same_bits_as_llvm = same_bits_test(CASES)


@pytest.mark.parametrize("case", G.NUMPY_ONLY, ids=lambda c: c.name)
def test_numpy_only_cases(case):
    args, r = S.run(case, ours(case))
    S.check(case, args)
    assert r.wave_instructions > 0


def test_counts_are_llvms_instructions():
    """ctlz / cttz / ctpop of i32 as llc-22 selects them on gfx942."""
    text = asm(CASES, "int_counts_i32")
    for mn in ("v_ffbh_u32", "v_ffbl_b32", "v_bcnt_u32_b32", "v_min_u32", "v_max_i32",
               "s_flbit_i32_b32", "s_ff1_i32_b32", "s_bcnt1_i32_b32"):
        assert mn in text, mn


def test_class_and_minimum_instructions():
    """math.isnan is v_cmp_class; minimumf f16 is v_min_f16 + v_cmp_o_f16 +
    the quiet NaN 0x7e00 (LLVM's expansion)."""
    assert "v_cmp_class_f64" in asm(CASES, "class_nan_finite_f64")
    text = asm(CASES, "minimum_maximum_f16")
    for mn in ("v_min_f16", "v_max_f16", "v_cmp_o_f16", "0x7e00"):
        assert mn in text, mn


def test_minimum_maximum_zero_signs_and_nan_bits():
    """-0 < +0 (assert_array_equal does not see zero signs) and the quiet NaN
    of each type (f16 0x7e00, bf16 0x7fc0, f64 0x7ff8000000000000: LLVM's)."""
    for t, nan_bits, ui in (("f16", 0x7e00, "u2"), ("bf16", 0x7fc0, "u2"),
                            ("f64", 0x7ff8000000000000, "u8")):
        case = next(c for c in CASES if c.name == f"minimum_maximum_{t}")
        args, _ = S.run(case, ours(case))
        if t == "bf16":   # i32 words holding the bf16 (lower_suite_arith_gaps._kernel)
            import ml_dtypes
            got = [np.asarray(args[k]).astype(np.uint16).view(ml_dtypes.bfloat16) for k in (2, 3)]
        else:
            got = [np.asarray(args[k]) for k in (2, 3)]
        mn, mx = (g.astype(np.float64) for g in got)
        assert np.signbit(mn[0]) and np.signbit(mn[1])          # min(+0, -0), min(-0, +0)
        assert not np.signbit(mx[0]) and not np.signbit(mx[1])
        bits = got[0].view(ui)
        assert bits[2] == nan_bits and bits[3] == nan_bits and bits[4] == nan_bits


def test_i8_vectors_pack_with_perm_and_llvm_compares_bytes_with_sdwa():
    """vector<4xi8> results are packed by v_perm_b32 (llc-22 -mcpu=gfx942
    packs a v2i16 so: v_perm_b32 with 0x5040100); an elementwise op reads
    the elements the previous op packed, so only the stored word is packed
    (3 v_perm_b32), no v_and_b32 + v_lshl_or_b32 per byte. LLVM's build of
    the byte compares uses VOPC SDWA (v_cmp_*_sdwa ... BYTE_k), which the
    emulator now runs (test_llvm_build_matches_numpy above)."""
    from lower_testing import theirs
    text = asm(CASES, "vector_i8")
    assert text.count("v_perm_b32") == 3 and "v_lshl_or_b32" not in text
    case = next(c for c in CASES if c.name == "vector_i8_cmp")
    llvm = __import__("aster").load_code_object(theirs(case)).disassemble(case.kernel)
    assert "_sdwa" in llvm and "v_cmp_" in llvm
