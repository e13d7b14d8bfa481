"""amdgcn-lower's errors: an op it cannot lower is an AsterError naming the
op and its line (never a crash); bad launch arguments name the argument."""
import numpy as np
import pytest

import aster
import lower_suite as S

HEAD = "module attributes {gpu.container_module} {\n  gpu.module @kernels {\n"
TAIL = "\n  }\n}\n"


def test_unsupported_op_is_located():
    # 8-bit floats are constants, bitcasts and casts only (an addf of them:
    # the op's error; remf of bf16, the example here before, lowers now).
    text = HEAD + """    gpu.func @k(%x: memref<64xi8>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xi8>
      %r = arith.bitcast %v : i8 to f8E5M2
      %e = arith.addf %r, %r : f8E5M2
      %b = arith.bitcast %e : f8E5M2 to i8
      memref.store %b, %x[%i] : memref<64xi8>
      gpu.return
    }""" + TAIL
    with pytest.raises(aster.AsterError, match=r"<string>:7:\d+: error: 'arith.addf' op "
                                               r"cannot be lowered to amdgcn"):
        aster.lower(text)


def test_unsupported_types_and_functions():
    f64 = HEAD + """    gpu.func @k(%x: memref<64xcomplex<f32>>) kernel {
      gpu.return
    }""" + TAIL
    with pytest.raises(aster.AsterError, match="memref elements must be f16, bf16, f32, f64, i8, i16, i32 or i64"):
        aster.lower(f64)
    # A non-kernel gpu.func is a function now, and so is a func.func with a
    # body (tests/py/test_lower_function.py); other ops of the gpu.module
    # are errors.
    device = HEAD + """    func.func @f() {
      return
    }""" + TAIL
    assert "amdgcn.func @f" in str(aster.lower(device)["kernels"])
    # A memref.global is lowered where a get_global uses it
    # (cc/lower/LowerMemrefGlobal.cpp): alone, it makes nothing.
    glob = HEAD + """    memref.global "private" @g : memref<4xf32>""" + TAIL
    assert "amdgcn.global" not in str(aster.lower(glob)["kernels"])


def test_bad_source_and_target():
    with pytest.raises(aster.AsterError, match="cannot parse|expected"):
        aster.lower("module { gpu.module @m { gpu.func @k( } }")
    with pytest.raises(aster.AsterError, match="unknown target 'gfx000'"):
        aster.lower(S.CASES[0].mlir, target="gfx000")
    with pytest.raises(TypeError):
        aster.lower(42)


def test_signature_checks_arrays():
    sig = aster.lower(S.CASES[0].mlir)["kernels"].signatures["add"]
    ok = np.zeros(1024, np.float32)
    with pytest.raises(TypeError, match=r"argument 1 \(memref<1024xf32>\) needs dtype float32, got float64"):
        sig.args(ok, np.zeros(1024), ok)
    with pytest.raises(ValueError, match=r"does not accept an array of shape \(512,\)"):
        sig.args(ok, np.zeros(512, np.float32), ok)
    with pytest.raises(TypeError, match="takes 3 arguments"):
        sig.args(ok, ok)
    with pytest.raises(TypeError, match="needs a NumPy array"):
        sig.args(ok, [0.0] * 1024, ok)
