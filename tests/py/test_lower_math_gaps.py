"""bf16 math, log10, math.sincos (lower_suite_math_gaps.py CASES) against
NumPy (+ ml_dtypes) and LLVM's build of the same kernel, bit for bit; bf16
rsqrt against NumPy only (ocml: no LLVM build). The f64 functions:
test_lower_math_f64_trig.py."""
import numpy as np

import lower_suite as S
import lower_suite_math_gaps as G
from lower_testing import asm, numpy_tests, ours, same_bits_test

test_aster_lowering_matches_numpy, test_llvm_build_matches_numpy = numpy_tests(G.CASES)
test_same_bits_as_llvm = same_bits_test(G.CASES)


def test_bf16_rsqrt_within_an_ulp_of_numpy():
    """v_rsq_f32 (1 ulp of f32) rounded to bf16: within 1 ulp of bf16 of
    NumPy's float64 1 / sqrt(x) rounded to bf16; 0 -> inf, negative -> NaN."""
    case = G.NO_LLVM_CASES[1]
    a = S.run(case, ours(case))[0]
    with np.errstate(all="ignore"):
        want = G._b(1.0 / np.sqrt(a[0].astype(np.float64))).astype(np.float64)
    got = a[1].astype(np.float64)
    fin = np.isfinite(want) & (want != 0)
    np.testing.assert_array_equal(got[~fin], want[~fin])
    spacing = np.abs(want[fin]) * 2.0 ** -7
    assert (np.abs(got[fin] - want[fin]) <= spacing).all()


def test_bf16_math_is_f32_math_rounded_once():
    """The bf16 ops are the f32 expansions with one rounding at the end
    (v_add3_u32 with 0x7fff, as llc-22 promotes llvm.exp.bf16), not the f32
    results of a separate extf / truncf pair per op."""
    text = asm(G.CASES, "math_bf16")
    assert text.count("v_add3_u32") == 7        # every op but absf
    assert "v_and_b32_e32" in text or "v_and_b32" in text
