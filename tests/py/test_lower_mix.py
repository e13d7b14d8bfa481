"""Mixing (issue 26 item 5): a lowered kernel calls amdgcn.funcs through
func.call, one hand-written in the same text and one from aster.nanokernels
(a library); the calls are amdgcn.call after aster.lower and inlined by
aster.compile. The oracle is NumPy (the example checks relu(2x - 1) and its
wave sum); errors name the declaration."""
import pytest

import aster
import lower_suite as S
from lower_testing import run_example


def test_example_runs_and_inlines():
    assert ("match NumPy; calls before compile: True; inlined: True"
            in run_example("lower_mixing.py"))


def test_call_of_an_unknown_function_is_an_error():
    text = S.module("""
    func.func private @nowhere(f32) -> f32
    gpu.func @k(%x: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xf32>
      %r = func.call @nowhere(%v) : (f32) -> f32
      memref.store %r, %x[%i] : memref<64xf32>
      gpu.return
    }""")
    with pytest.raises(aster.AsterError, match=r"<string>:4:\d+: error: 'func.func' op declares "
                                               r"@nowhere, which no amdgcn.module of the input"):
        aster.lower(text)


def test_libraries_must_be_modules():
    with pytest.raises(TypeError, match="libraries must be aster Modules"):
        aster.lower(S.CASES[0].mlir, libraries=["not a module"])
