"""amdgcn-lower's i64 division, 64-bit conversions (lower_suite_arith64b.py)
and math breadth (lower_suite_math.py) against two oracles we did not
write: NumPy / Python integers, and LLVM's build of the same kernel
(aster.lowering.llvm: mlir-opt-22 with the same upstream math expansions,
convert-gpu-to-rocdl, llc-22), both run on the emulator in strict mode.
Where the kernel's values are defined by LLVM's selection or by upstream
MLIR's approximations, aster's outputs equal LLVM's bit for bit. The
approximations' accuracy is bounded in ulp against NumPy's float64 (ROCm's
ocml, which upstream would call instead, is not installed here)."""
import numpy as np
import pytest

import aster
import lower_suite as S
import lower_suite_arith64b as D
import lower_suite_math as MA
from lower_testing import compiled, ours as _ours, numpy_tests, same_bits_test

CASES = D.CASES + MA.CASES

test_aster_lowering_matches_numpy, test_llvm_build_matches_numpy = numpy_tests(CASES)
test_same_bits_as_llvm = same_bits_test(CASES)


def _ulps(got, want, dtype):
    """|got - want| in units of the last place of `want` rounded to dtype."""
    w = want.astype(dtype)
    spacing = np.spacing(np.abs(w)).astype(np.float64)
    return np.abs(got.astype(np.float64) - want) / spacing


# Upstream's approximations (f32) against NumPy / Python math in float64 on
# the suite's inputs: measured maxima 3.8 (tanh), 3.0 (erf), 1.4 (erfc),
# 37.6 (atan), 28.3 (atan2), 1.9 (asin), 1.0 (acos), 10.7 (cbrt), 1.4
# (log1p), 2.4 (expm1) ulp; the bounds below hold them there (upstream's
# atan polynomial is the least accurate; ocml, not installed, documents its
# own bounds). Their f16 forms (extended to f32, rounded back) are within
# half an ulp of f16 on these inputs: correctly rounded.
ULP_BOUND_F32 = {"tanh": 4, "erf": 3, "erfc": 2, "atan": 38, "atan2": 29, "asin": 2,
                 "acos": 2, "cbrt": 11, "log1p": 2, "expm1": 3}


@pytest.mark.parametrize("name,dtype", [("math_approx_f32", np.float32),
                                        ("math_approx_f16", np.float16)])
def test_approximations_accuracy_in_ulp(name, dtype):
    case = next(c for c in MA.CASES if c.name == name)
    out = S.run(case, _ours(case))[0]
    ref = MA.approx_reference(out)
    worst = {n: float(np.max(_ulps(out[3 + j], want, dtype)))
             for j, (n, want) in enumerate(ref.items())}
    for n, bound in ULP_BOUND_F32.items():
        assert worst[n] <= (bound if dtype == np.float32 else 0.5), (n, worst)


def test_f64_math_without_llvm_lowering_lowers():
    """LLVM 22 has no AMDGPU lowering of llvm.sin.f64 (llc-22 -mcpu=gfx942:
    "Cannot select: f64 = fsin") and upstream's approximations are f32 only:
    f64 sin and erf are aster's own (LowerMathF64Trig.cpp, LowerMathF64Erf.cpp;
    accuracy against NumPy / mpmath: test_lower_math_f64_trig.py)."""
    for op in ("math.sin", "math.erf"):
        text = S.module(f"""
    gpu.func @k(%x: memref<64xf64>) kernel {{
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xf64>
      %r = {op} %v : f64
      memref.store %r, %x[%i] : memref<64xf64>
      gpu.return
    }}""")
        assert "v_fma_f64" in compiled(text).asm
