"""amdgcn-lower's i64, f64, f16, bf16, i16/i8 arith and math.sin/cos
(lower_suite_arith.py) against two oracles we did not write: NumPy
(int64/float64/float16 arithmetic, ml_dtypes.bfloat16 rounding) and LLVM's
build of the same kernel (aster.lowering.llvm: mlir-opt-22
convert-gpu-to-rocdl, llc-22), both run on the emulator in strict mode.
Where LLVM's selection defines the bits (f64 division's
v_div_scale/fmas/fixup, the bf16 rounding sequence, v_sin/v_cos_f32 of
x / (2 pi)), aster's outputs equal LLVM's bit for bit, NaN payloads too."""
import numpy as np
import pytest

import aster
import lower_suite as S
import lower_suite_arith as A

from lower_testing import ours as _ours, numpy_tests, same_bits_test

test_aster_lowering_matches_numpy, test_llvm_build_matches_numpy = numpy_tests(A.CASES)
test_same_bits_as_llvm = same_bits_test(A.CASES)


def test_sin_cos_accuracy():
    """v_sin/v_cos_f32 of x / (2 pi) against NumPy's float64 sin/cos: the
    absolute error stays below 2^-15 for |x| <= 20 (the f32 rounding of
    x / (2 pi) alone is up to 2^-20 turns here, times 2 pi)."""
    case = next(c for c in A.CASES if c.name == "math_sin_cos")
    out = S.run(case, _ours(case))[0]
    x = out[0].astype(np.float64)
    assert np.max(np.abs(out[1] - np.sin(x))) < 2.0**-15
    assert np.max(np.abs(out[2] - np.cos(x))) < 2.0**-15


def test_i64_uniform_values_use_the_scalar_unit():
    """A uniform i64 loop-carried value is an SGPR pair computed by SALU
    (carry chains s_add_u32/s_addc_u32, s_mul_hi_u32, s_lshl_b64), as LLVM
    selects for uniform i64 arithmetic."""
    asm = _ours(next(c for c in A.CASES if c.name == "i64_uniform")).asm
    for mn in ("s_addc_u32", "s_mul_hi_u32", "s_lshl_b64"):
        assert mn in asm


def test_divergent_i64_uses_64bit_valu():
    asm = _ours(next(c for c in A.CASES if c.name == "i64_arith")).asm
    for mn in ("v_lshl_add_u64", "v_mad_u64_u32", "v_subb_co_u32", "v_ashrrev_i64",
               "v_cmp_lt_i64"):
        assert mn in asm


def test_f8_arithmetic_is_an_error_naming_the_op():
    """Arithmetic on 8-bit floats is not lowered: an error naming the op
    (bitcasts and casts of them lower since session 15:
    test_lower_amdgpu_mx.py; remf of bf16, the example here before that,
    lowers too: test_lower_arith_gaps.py)."""
    text = S.module("""
    gpu.func @k(%x: memref<64xi8>) kernel {
      %i = gpu.thread_id x
      %a = memref.load %x[%i] : memref<64xi8>
      %r = arith.bitcast %a : i8 to f8E5M2
      %s = arith.addf %r, %r : f8E5M2
      %t = arith.bitcast %s : f8E5M2 to i8
      memref.store %t, %x[%i] : memref<64xi8>
      gpu.return
    }""")
    with pytest.raises(aster.AsterError, match=r"arith\.addf"):
        aster.lower(text)
