"""Issue 26's code quality against LLVM's build (lower_suite_perf.py, which
names its oracles): f32 exp2 / log2 / rsqrt as ocml's f32 bodies and LLVM's
lowering of them, and mului_extended / mulsi_extended as LLVM selects them.
Each case's aster build and LLVM's build run on the emulator in strict mode
and equal NumPy, and the two builds' outputs are the same bits."""
import numpy as np

import lower_suite as S
import lower_suite_arith_gaps as AG
import lower_suite_perf as P
from lower_testing import asm, numpy_tests, ours, same_bits_test, theirs

CASES = P.CASES

test_aster_lowering_matches_numpy, test_llvm_build_matches_numpy = numpy_tests(CASES)
test_same_bits_as_llvm = same_bits_test(CASES)


def test_exp2_log2_rsqrt_within_one_ulp_denormals_included():
    """Every result within 1 ulp of f32 (np.spacing: 2^-149 in the denormal
    range) of NumPy's float64 value, the bound the CDNA3 ISA guide gives for
    v_exp_f32 / v_log_f32 / v_rsq_f32, rsqrt within 2: the emulator's
    v_rsq_f32 rounds the square root and then its reciprocal (measured up to
    1.15 ulp here); specials (+-0, +-inf, NaN) exactly.
    The bare v_exp_f32 of x < -126 is exact on the emulator too, so
    test_same_bits_as_llvm is what tells the scaled form from it."""
    case = next(c for c in CASES if c.name == "math_exp2_log2_rsqrt_f32")
    args, _ = S.run(case, ours(case))
    x = args[0].astype(np.float64)
    u = np.repeat(args[1], P.B).astype(np.float64)
    with np.errstate(all="ignore"):
        refs = [np.exp2(x), np.log2(x), 1 / np.sqrt(x), np.exp2(u), np.log2(u), 1 / np.sqrt(u)]
    for k, want in enumerate(refs):
        got = args[2 + k].astype(np.float64)
        with np.errstate(over="ignore"):
            w32 = want.astype(np.float32)
        special = ~np.isfinite(w32) | (w32 == 0)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=f"output {k}")
        exact = special & ~np.isnan(want)
        np.testing.assert_array_equal(got[exact], w32[exact].astype(np.float64))
        fin = ~special
        ulp = np.spacing(np.abs(w32[fin])).astype(np.float64)
        bound = 2 if k % 3 == 2 else 1
        assert np.all(np.abs(got[fin] - want[fin]) <= bound * ulp), f"output {k}"
    # exp2 of -149 is the smallest denormal (not flushed to 0)
    i = int(np.where(args[0] == np.float32(-149.0))[0][0])
    assert args[2][i] == np.float32(2.0 ** -149)


def test_exp2_log2_rsqrt_instructions_are_llvms():
    """The scaled forms (LowerMath.cpp's header): exp2's v_add_f32 of 64 and
    v_ldexp_f32 by -64, log2's v_ldexp_f32 by 32 and v_sub_f32 of 32.0,
    rsqrt's 2^24 (0x4b800000) and 2^12 (0x45800000) around v_rsq_f32; the
    same number of each as LLVM's build."""
    case = next(c for c in CASES if c.name == "math_exp2_log2_rsqrt_f32")
    a = ours(case)
    mine, llvm = a.asm, __import__("aster").load_code_object(theirs(case)).disassemble("transc")
    for mn in ("v_exp_f32", "v_log_f32", "v_rsq_f32", "v_ldexp_f32"):
        assert mine.count(mn) == llvm.count(mn) == (4 if mn == "v_ldexp_f32" else 2), mn
    for lit in ("0x4b800000", "0x45800000", "0xc2fc0000"):
        assert lit in mine, lit


def test_mul_extended_i64_is_four_mads():
    """extended_i64 (lower_suite_arith_gaps.py): the 128-bit products as LLVM
    builds them, v_mad_u64_u32 per partial product (no 64-bit multiply of
    zero-extended halves); the uniform kernel uses SALU s_mul_hi_u32."""
    text = asm(AG.CASES, "extended_i64")
    assert text.count("v_mad_u64_u32") >= 4 * 4      # four 128-bit products
    assert "v_mul_hi_u32" in text or "v_mad_u64_u32" in text
    u = asm(CASES, "extended_uniform")
    body = u.split("s_endpgm")[0]
    for mn in ("s_mul_hi_u32", "s_mul_hi_i32", "s_addc_u32"):
        assert mn in body, mn
    assert "v_mad_u64_u32" not in body and "v_mul_hi" not in body


def test_mul_extended_i32_halves():
    """extended_i32: a high half alone is v_mul_hi_u32 / v_mul_hi_i32 (llc-22
    -mcpu=gfx942 on the same kernel), both halves one v_mad_u64_u32."""
    text = asm(AG.CASES, "extended_i32")
    for mn in ("v_mul_hi_i32", "v_mul_hi_u32", "v_mad_u64_u32"):
        assert mn in text, mn
