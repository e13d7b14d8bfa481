"""amdgcn-lower's linalg on tensors in kernels (lower_suite_tensors.py:
elementwise generic into a new buffer, fill + matmul tiles, an in-place
generic and a linalg.reduce, a loop carrying a tensor, vector transfers
on tensors), each against NumPy and against LLVM's build
after the same upstream bufferization (one-shot-bufferize), both run on the
emulator in strict mode; errors name the op and its location."""
import pytest

import aster
import lower_suite as S
import lower_suite_tensors as T
from lower_testing import asm, numpy_tests

test_aster_lowering_matches_numpy, test_llvm_build_matches_numpy = numpy_tests(T.CASES)


def test_new_buffers_are_private_and_in_place_ones_are_not():
    """A tensor.empty's buffer is scratch (an alloca of 4 floats: 16
    private bytes) copied out to y's row by loops; the in-place generic
    writes y's row directly: the only private bytes of that kernel are the
    reduce's tensor<f32> (4)."""
    rows = asm(T.CASES, "tensor_generic_rows")
    assert "scratch_store_dword" in rows and "global_store_dword" in rows
    assert ".amdhsa_private_segment_fixed_size 16\n" in rows
    inplace = asm(T.CASES, "tensor_inplace_reduce")
    assert ".amdhsa_private_segment_fixed_size 4\n" in inplace


@pytest.mark.parametrize("body, error", [
    # upstream's analysis refuses a to_tensor without `restrict`: its error at
    # the op, then ours at the gpu.module
    ("""%t = bufferization.to_tensor %x : memref<4xf32> to tensor<4xf32>
      %v = tensor.extract %t[%c0] : tensor<4xf32>
      memref.store %v, %x[%c0] : memref<4xf32>""",
     r"<string>:\d+:\d+: error: 'bufferization.to_tensor' op to_tensor ops without `restrict` "
     r"are not supported by One-Shot Analysis"),
])  # constant tensors lower now: tests/py/lower_suite_mem_more.py
def test_tensor_errors_are_located(body, error):
    text = S.module(f"""
    gpu.func @k(%x: memref<4xf32>) kernel {{
      %c0 = arith.constant 0 : index
      {body}
      gpu.return
    }}""")
    with pytest.raises(aster.AsterError, match=error):
        aster.lower(text)
    # The input is left as it was: lowering it again gives the same error.
    with pytest.raises(aster.AsterError, match=error):
        aster.lower(text)


def test_tensor_kernel_argument_is_an_error():
    text = S.module("""
    gpu.func @k(%x: tensor<4xf32>, %y: memref<4xf32>) kernel {
      gpu.return
    }""")
    with pytest.raises(aster.AsterError, match=r"<string>:\d+:\d+: error: 'gpu.func' op argument "
                                               r"0 of type 'tensor<4xf32>' cannot be lowered"):
        aster.lower(text)
