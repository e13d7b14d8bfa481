"""math.rsqrt of f16 / f64 and math.exp / exp2 / log / log2 of f64, in
lower_suite.py's Case form.

- CASES (built by aster and by LLVM, both checked against NumPy, the two
  bit for bit): rsqrt f16 / f64. convert-gpu-to-rocdl calls ROCm's
  __ocml_rsqrt_f16 / _f64 (not installed here): the oracle defines them as
  `fdiv 1.0, llvm.sqrt(x)` without fast-math flags
  (aster.lowering.llvm.OCML_AS_IR), which llc-22 selects as v_sqrt_f16 +
  v_rcp_f16 and as lowerFSQRTF64 + LowerFDIV64; aster lowers the same.
- NO_LLVM_CASES (aster only, against NumPy): f64 exp, exp2, log, log2,
  and tanh, log1p, expm1 (aster's own too: upstream's approximations of
  them are f32 only).
  LLVM 22 cannot build them (llc-22 -mcpu=gfx942: "no libcall available for
  fexp"; tests/py/test_lower_math_f64.py checks that it still cannot), so
  their oracle is NumPy's float64 with the ulp bounds that test states,
  over a sweep of 2^-1074 .. 2^1023 and the edge values (+-0, denormals,
  +-inf, NaN, the overflow and underflow thresholds).
"""
import numpy as np

from lower_suite import Case
from lower_suite_math import N, kernel

CASES = []
NO_LLVM_CASES = []


def _rsqrt_inputs(r):
    h = r.uniform(1e-3, 6e4, N).astype(np.float16)
    h[:8] = [0.0, -0.0, np.inf, -1.0, np.nan, 6e-8, 1.0, 4.0]
    d = np.abs(r.standard_normal(N)) * 10.0 ** r.integers(-300, 300, N)
    d[:9] = [0.0, -0.0, np.inf, -1.0, np.nan, 5e-324, 1e-310, 1.7976931348623157e308, 4.0]
    return [h, d, np.zeros(N, np.float16), np.zeros(N)]


def _rsqrt_expect(a):
    with np.errstate(divide="ignore", invalid="ignore"):
        return {2: (1.0 / np.sqrt(a[0].astype(np.float64))).astype(np.float16),
                3: 1.0 / np.sqrt(a[1])}


CASES.append(Case("math_rsqrt_f16_f64", "rsq", kernel(
    "rsq", [("h", "f16"), ("d", "f64")], [("oh", "f16"), ("od", "f64")], """
      %ohr = math.rsqrt %hv : f16
      %odr = math.rsqrt %dv : f64"""),
    (1, 1, 1), (N, 1, 1), _rsqrt_inputs, _rsqrt_expect, tol=2e-3, same_bits=True))


F64_OPS = ("exp", "exp2", "log", "log2")
REFERENCE = {"exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2}
# Edge inputs (each in both kernels' sweeps): exp overflows above
# 709.782712893384 (ln of the largest double), its results are denormal
# below -708.396418532264 and 0 below -745.1332191019412; exp2's at 1024,
# -1022 and -1075.
_EDGE_EXP = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 709.782712893384,
             709.7827128933841, 710.0, -708.396418532264, -708.4, -745.1332191019411,
             -745.1332191019412, -745.2, -746.0, 1e-300, -5e-324, 0.5 * np.log(2), 1e300,
             -1e300, 1023.9999999999999, 1024.0, -1022.0, -1022.5, -1074.0, -1075.0,
             -1074.5, 3.0, -0.25]
_EDGE_LOG = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 5e-324, 1e-310,
             2.2250738585072014e-308, 1.7976931348623157e308, 0.7071067811865475,
             0.7071067811865476, 1.4142135623730951, 1.0000000000000002, 0.9999999999999999,
             2.0, 0.5, 1e300, 1e-300, 3.0, 10.0, np.e]


def _f64_inputs(r):
    x = r.uniform(-760.0, 760.0, N)               # exp: the whole finite-result range
    x[:len(_EDGE_EXP)] = _EDGE_EXP
    x2 = r.uniform(-1100.0, 1100.0, N)            # exp2
    x2[:len(_EDGE_EXP)] = _EDGE_EXP
    y = 2.0 ** r.uniform(-1074.0, 1024.0, N)      # log, log2: denormals to the largest
    y[:len(_EDGE_LOG)] = _EDGE_LOG
    return [x, x2, y, *[np.zeros(N) for _ in F64_OPS]]


def f64_reference(a):
    """{op: NumPy's float64 result} of the f64 kernel's inputs."""
    with np.errstate(all="ignore"):
        return {"exp": np.exp(a[0]), "exp2": np.exp2(a[1]), "log": np.log(a[2]),
                "log2": np.log2(a[2])}


NO_LLVM_CASES.append(Case("math_exp_log_f64", "explog64", kernel(
    "explog64", [("x", "f64"), ("x2", "f64"), ("y", "f64")],
    [(f"o{o}", "f64") for o in F64_OPS], """
      %oexpr = math.exp %xv : f64
      %oexp2r = math.exp2 %x2v : f64
      %ologr = math.log %yv : f64
      %olog2r = math.log2 %yv : f64"""),
    (1, 1, 1), (N, 1, 1), _f64_inputs,
    lambda a: {3 + j: v for j, v in enumerate(f64_reference(a).values())}, tol=4e-16))


F64_MORE_OPS = ("tanh", "log1p", "expm1")


def _more_inputs(r):
    a = r.choice([-1.0, 1.0], N) * 10.0 ** r.uniform(-20.0, 3.0, N)   # tanh, expm1
    a[:14] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-300, 5e-324, -40.5, 40.5, 709.9, -745.0,
              0.5 * np.log(2), 22.5, -0.03]
    b = 10.0 ** r.uniform(-20.0, 300.0, N)                             # log1p
    b[::5] *= -1e-22                                                   # some in (-1, 0)
    b[:10] = [0.0, -0.0, -1.0, np.inf, -np.inf, np.nan, 5e-324, -0.9999999, 1e-17, -2.0]
    return [a, b, *[np.zeros(N) for _ in F64_MORE_OPS]]


def f64_more_reference(a):
    with np.errstate(all="ignore"):
        return {"tanh": np.tanh(a[0]), "log1p": np.log1p(a[1]), "expm1": np.expm1(a[0])}


NO_LLVM_CASES.append(Case("math_tanh_log1p_expm1_f64", "more64", kernel(
    "more64", [("a", "f64"), ("b", "f64")], [(f"o{o}", "f64") for o in F64_MORE_OPS], """
      %otanhr = math.tanh %av : f64
      %olog1pr = math.log1p %bv : f64
      %oexpm1r = math.expm1 %av : f64"""),
    (1, 1, 1), (N, 1, 1), _more_inputs,
    lambda a: {2 + j: v for j, v in enumerate(f64_more_reference(a).values())}, tol=1e-15))
