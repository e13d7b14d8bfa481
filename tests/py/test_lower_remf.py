"""arith.remf (lower_suite_arith_remf.py) against two oracles we did not
write: NumPy's np.fmod and LLVM's build of the same kernel (its `frem`,
expanded by llc-22 into its fmod loop; aster.lowering.llvm.OCML_AS_IR), both
run on the emulator in strict mode; aster's outputs equal LLVM's bit for bit
(NaN results included)."""
import lower_suite_arith_remf as R
from lower_testing import asm, numpy_tests, same_bits_test

CASES = R.CASES

test_aster_lowering_matches_numpy, test_llvm_build_matches_numpy = numpy_tests(CASES)
test_same_bits_as_llvm = same_bits_test(CASES)


def test_remf_is_llvms_loop():
    """The f32 remainder is LLVM's frem expansion: frexp of both operands,
    a loop of 12-bit steps under EXEC (v_rndne_f32 quotient digit, fma
    remainder, v_ldexp_f32 by 12), the exponent of y restored."""
    text = asm(CASES, "remf_f32")
    for mn in ("v_frexp_mant_f32", "v_frexp_exp_i32_f32", "v_rndne_f32", "v_div_fixup_f32",
               "s_cbranch_execz", "v_bfi_b32"):
        assert mn in text, mn
    assert text.count("v_ldexp_f32") >= 5
