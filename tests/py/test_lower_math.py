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
import aster.lowering.llvm
import lower_suite as S
import lower_suite_arith64b as D
import lower_suite_math as MA

CASES = D.CASES + MA.CASES


def _ours(case):
    return aster.compile(aster.lower(case.mlir)["kernels"], aster.lowering.PIPELINE)


def _theirs(case):
    return aster.lowering.llvm.build(case.llvm_mlir or case.mlir)["kernels"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_aster_lowering_matches_numpy(case):
    args, r = S.run(case, _ours(case))
    S.check(case, args)
    assert r.wave_instructions > 0


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_llvm_build_matches_numpy(case):
    """The oracle itself gives NumPy's result (so a disagreement is aster's)."""
    args, _ = S.run(case, _theirs(case))
    S.check(case, args)


@pytest.mark.parametrize("case", [c for c in CASES if c.same_bits], ids=lambda c: c.name)
def test_same_bits_as_llvm(case):
    ours = S.run(case, _ours(case))[0]
    theirs = S.run(case, _theirs(case))[0]
    for i in case.expect(case.inputs(np.random.default_rng(0))):
        a, b = np.asarray(ours[i]), np.asarray(theirs[i])
        np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8), err_msg=f"argument {i}")


def _ulps(got, want, dtype):
    """|got - want| in units of the last place of `want` rounded to dtype."""
    w = want.astype(dtype)
    spacing = np.spacing(np.abs(w)).astype(np.float64)
    return np.abs(got.astype(np.float64) - want) / spacing


# Measured maxima of upstream's approximations on these inputs (f32), with
# NumPy / Python math in float64 as the reference; the bound is what the
# test holds them to.
ULP_BOUND_F32 = {"tanh": 4, "erf": 4, "erfc": 64, "atan": 4, "atan2": 4, "asin": 4,
                 "acos": 4, "cbrt": 4, "log1p": 4, "expm1": 4}


def test_approximations_accuracy_in_ulp():
    case = next(c for c in MA.CASES if c.name == "math_approx_f32")
    out = S.run(case, _ours(case))[0]
    ref = MA.approx_reference(out)
    worst = {}
    for j, (name, want) in enumerate(ref.items()):
        worst[name] = float(np.max(_ulps(out[3 + j], want, np.float32)))
    for name, bound in ULP_BOUND_F32.items():
        assert worst[name] <= bound, (name, worst)


def test_f64_math_without_llvm_lowering_is_an_error():
    """LLVM 22 has no AMDGPU lowering of llvm.exp.f64 (llc-22: "no libcall
    available for fexp") and upstream's approximations are f32 only: errors
    naming the op and its location."""
    for op in ("math.exp", "math.tanh"):
        text = S.module(f"""
    gpu.func @k(%x: memref<64xf64>) kernel {{
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xf64>
      %r = {op} %v : f64
      memref.store %r, %x[%i] : memref<64xf64>
      gpu.return
    }}""")
        with pytest.raises(aster.AsterError, match=op.replace(".", r"\.")):
            aster.lower(text)
