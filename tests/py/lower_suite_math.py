"""amdgcn-lower's math breadth (issue 26 item 2), in lower_suite.py's Case
form: each kernel built by aster and by LLVM, both checked against NumPy.

- f16 sqrt / exp / log / exp2 / log2 and f64 sqrt as LLVM's AMDGPU backend
  lowers llvm.sqrt/exp/log/exp2/log2.f16 and llvm.sqrt.f64 (convert-gpu-
  to-rocdl calls ROCm's ocml for the f16 exp / log ones: the oracle calls
  LLVM's intrinsics instead, aster.lowering.llvm.OCML_AS_INTRINSIC); the
  rounding ops (floor, ceil, trunc, roundeven of f32 / f64) and copysign.
- tanh, erf, erfc, atan, atan2, asin, acos, cbrt, log1p, expm1 (f32; f16 by
  extension to f32): upstream MLIR's polynomial approximations, which
  aster.lower applies and LLVM's oracle gets too (mlir-opt-22
  --test-math-polynomial-approximation, math-extend-to-supported-types).
- powf, sinh, cosh, tan, asinh, acosh, atanh, round (f32) and sin / cos /
  floor of f16: upstream's math-expand-ops (and extension), then the
  natively lowered exp / log / sqrt / sin / cos.
ROCm's ocml (what upstream calls for these otherwise) is not installed here.
Expected values: NumPy / Python math in float64, rounded to the kernel's
type, within the tolerance each case states (the functions are
approximations; tests/py/test_lower_math.py bounds their error in ulp).
"""
import math

import numpy as np

from lower_suite import Case, module

CASES = []

N = 256


def kernel(name, ins, outs, body, ty="f32"):
    """A kernel reading `ins` and writing `outs` (memref<N x ty> each) at the thread id."""
    params = ", ".join(f"%{p}: memref<{N}x{t}>" for p, t in ins + outs)
    loads = "".join(f"\n      %{p}v = memref.load %{p}[%i] : memref<{N}x{t}>" for p, t in ins)
    stores = "".join(f"\n      memref.store %{p}r, %{p}[%i] : memref<{N}x{t}>" for p, t in outs)
    return module(f"""
    gpu.func @{name}({params}) kernel
        attributes {{known_block_size = array<i32: {N}, 1, 1>}} {{
      %i = gpu.thread_id x{loads}{body}{stores}
      gpu.return
    }}""")


def _f64(fn):
    return np.vectorize(fn, otypes=[np.float64])


# ---------------------------------------------------------------------------
# f16 sqrt / exp / log / exp2 / log2 (LLVM's native f16 lowering).
# ---------------------------------------------------------------------------
_H_NATIVE = ["sqrt", "exp", "log", "exp2", "log2"]


def _h_inputs(r):
    x = r.uniform(0.01, 10.0, N).astype(np.float16)
    x[:4] = [1.0, 4.0, 0.5, 6.1e-5]
    return [x] + [np.zeros(N, np.float16) for _ in _H_NATIVE]


_NP = {"sqrt": np.sqrt, "exp": np.exp, "log": np.log, "exp2": np.exp2, "log2": np.log2}

CASES.append(Case("math_f16_native", "hnative", kernel(
    "hnative", [("x", "f16")], [(f"o{o}", "f16") for o in _H_NATIVE],
    "".join(f"\n      %o{o}r = math.{o} %xv : f16" for o in _H_NATIVE)),
    (1, 1, 1), (N, 1, 1), _h_inputs,
    lambda a: {1 + j: _NP[o](a[0].astype(np.float64)).astype(np.float16)
               for j, o in enumerate(_H_NATIVE)},
    tol=2e-3, same_bits=True))


# Two f16 operands extended to f32 for one reader (atan2, copysign): the
# extensions moved down to their first reader once each (aster.lower looped
# forever swapping them before 20:50 of session 13).
def _h2_inputs(r):
    x = r.uniform(-10.0, 10.0, N).astype(np.float16)
    y = r.uniform(-10.0, 10.0, N).astype(np.float16)
    x[:4], y[:4] = [0.0, -0.0, 1.0, -1.0], [-1.0, 2.0, -0.0, 0.0]
    return [x, y, np.zeros(N, np.float16), np.zeros(N, np.float16)]


CASES.append(Case("math_f16_two_operands", "h2", kernel(
    "h2", [("x", "f16"), ("y", "f16")], [("a", "f16"), ("c", "f16")], """
      %ar = math.atan2 %xv, %yv : f16
      %cr = math.copysign %xv, %yv : f16"""),
    (1, 1, 1), (N, 1, 1), _h2_inputs,
    lambda a: {2: np.arctan2(a[0].astype(np.float64), a[1].astype(np.float64)).astype(np.float16),
               3: np.copysign(a[0], a[1])},
    tol=2e-3, same_bits=True))


# ---------------------------------------------------------------------------
# f64 sqrt (LLVM's lowerFSQRTF64) and the rounding / sign ops (exact).
# ---------------------------------------------------------------------------
def _round_inputs(r):
    x = r.standard_normal(N) * 10.0 ** r.integers(-300, 300, N)
    x[:8] = [0.0, -0.0, np.inf, 2.0, 1e-310, 5e-324, 1.7976931348623157e308, 0.25]
    xs = np.abs(x)
    f = (r.standard_normal(N) * 100).astype(np.float32)
    f[:6] = [0.5, -0.5, 1.5, 2.5, -2.5, -0.0]
    g = r.standard_normal(N).astype(np.float32)
    d = r.standard_normal(N) * 1e3
    d[:4] = [0.5, 1.5, -2.5, -0.0]
    return [xs, f, g, d, np.zeros(N), *[np.zeros(N, np.float32) for _ in range(5)],
            *[np.zeros(N) for _ in range(4)]]


def _round_expect(a):
    xs, f, g, d = a[0], a[1], a[2], a[3]
    return {4: np.sqrt(xs), 5: np.floor(f), 6: np.ceil(f), 7: np.trunc(f), 8: np.rint(f),
            9: np.copysign(f, g), 10: np.floor(d), 11: np.ceil(d), 12: np.trunc(d),
            13: np.rint(d)}


CASES.append(Case("math_sqrt64_rounding", "rnd", kernel(
    "rnd", [("x", "f64"), ("f", "f32"), ("g", "f32"), ("d", "f64")],
    [("sq", "f64"), ("fl", "f32"), ("ce", "f32"), ("tr", "f32"), ("re", "f32"), ("cs", "f32"),
     ("dfl", "f64"), ("dce", "f64"), ("dtr", "f64"), ("dre", "f64")], """
      %sqr = math.sqrt %xv : f64
      %flr = math.floor %fv : f32
      %cer = math.ceil %fv : f32
      %trr = math.trunc %fv : f32
      %rer = math.roundeven %fv : f32
      %csr = math.copysign %fv, %gv : f32
      %dflr = math.floor %dv : f64
      %dcer = math.ceil %dv : f64
      %dtrr = math.trunc %dv : f64
      %drer = math.roundeven %dv : f64"""),
    (1, 1, 1), (N, 1, 1), _round_inputs, _round_expect, same_bits=True))


# ---------------------------------------------------------------------------
# Upstream's polynomial approximations (f32).
# ---------------------------------------------------------------------------
_APPROX = ["tanh", "erf", "erfc", "atan", "atan2", "asin", "acos", "cbrt", "log1p", "expm1"]
_REF = {"tanh": np.tanh, "erf": _f64(math.erf), "erfc": _f64(math.erfc), "atan": np.arctan,
        "asin": np.arcsin, "acos": np.arccos, "cbrt": np.cbrt, "log1p": np.log1p,
        "expm1": np.expm1}


def _approx_inputs(r):
    u = r.uniform(-0.99, 0.99, N).astype(np.float32)     # asin, acos, log1p
    u[:3] = [0.0, 0.5, -0.5]
    w = (r.standard_normal(N) * 3).astype(np.float32)    # the others
    w[:5] = [0.0, 1.0, -1.0, 8.0, 1e-3]
    v = (r.standard_normal(N) * 3).astype(np.float32)    # atan2's x
    return [u, w, v] + [np.zeros(N, np.float32) for _ in _APPROX]


def approx_reference(a):
    """{function: float64 reference values} of the approximation kernels' inputs."""
    u, w, v = (x.astype(np.float64) for x in a[:3])
    out = {}
    for o in _APPROX:
        if o == "atan2":
            out[o] = np.arctan2(w, v)
        else:
            out[o] = _REF[o](u if o in ("asin", "acos", "log1p") else w)
    return out


def _approx_body(ty):
    s = ""
    for o in _APPROX:
        arg = "%uv" if o in ("asin", "acos", "log1p") else "%wv"
        if o == "atan2":
            s += f"\n      %o{o}r = math.atan2 %wv, %vv : {ty}"
        else:
            s += f"\n      %o{o}r = math.{o} {arg} : {ty}"
    return s


CASES.append(Case("math_approx_f32", "approx", kernel(
    "approx", [("u", "f32"), ("w", "f32"), ("v", "f32")], [(f"o{o}", "f32") for o in _APPROX],
    _approx_body("f32")), (1, 1, 1), (N, 1, 1), _approx_inputs,
    lambda a: {3 + j: r.astype(np.float32) for j, r in enumerate(approx_reference(a).values())},
    tol=1e-4, same_bits=True))


def _approx_inputs_h(r):
    return [x.astype(np.float16) for x in _approx_inputs(r)]


CASES.append(Case("math_approx_f16", "approxh", kernel(
    "approxh", [("u", "f16"), ("w", "f16"), ("v", "f16")], [(f"o{o}", "f16") for o in _APPROX],
    _approx_body("f16")), (1, 1, 1), (N, 1, 1), _approx_inputs_h,
    lambda a: {3 + j: r.astype(np.float16) for j, r in enumerate(approx_reference(a).values())},
    tol=2e-3, same_bits=True))


# ---------------------------------------------------------------------------
# Upstream's math-expand-ops (f32), and f16 sin / cos / floor by extension.
# ---------------------------------------------------------------------------
_EXP_OPS = ["powf", "sinh", "cosh", "tan", "asinh", "acosh", "atanh", "round", "hsin", "hcos",
            "hfloor"]


def _expand_inputs(r):
    p = r.uniform(0.1, 4.0, N).astype(np.float32)          # powf base
    q = r.uniform(-3.0, 3.0, N).astype(np.float32)         # powf exponent; sinh ...
    q[:4] = [0.0, 1.0, -1.0, 0.5]
    big = r.uniform(1.0, 20.0, N).astype(np.float32)       # acosh
    t = r.uniform(-0.95, 0.95, N).astype(np.float32)       # atanh, tan
    h = (r.standard_normal(N) * 4).astype(np.float16)
    outs = [np.zeros(N, np.float32) for _ in range(8)] + [np.zeros(N, np.float16) for _ in range(3)]
    return [p, q, big, t, h] + outs


def expand_reference(a):
    p, q, big, t = (x.astype(np.float64) for x in a[:4])
    h = a[4].astype(np.float64)
    return {"powf": np.power(p, q), "sinh": np.sinh(q), "cosh": np.cosh(q), "tan": np.tan(t),
            "asinh": np.arcsinh(q), "acosh": np.arccosh(big), "atanh": np.arctanh(t),
            "round": np.where(q >= 0, np.floor(q + 0.5), np.ceil(q - 0.5)),
            "hsin": np.sin(h), "hcos": np.cos(h), "hfloor": np.floor(h)}


CASES.append(Case("math_expand", "expand", kernel(
    "expand", [("p", "f32"), ("q", "f32"), ("big", "f32"), ("t", "f32"), ("h", "f16")],
    [(f"o{o}", "f16" if o[0] == "h" else "f32") for o in _EXP_OPS], """
      %opowfr = math.powf %pv, %qv : f32
      %osinhr = math.sinh %qv : f32
      %ocoshr = math.cosh %qv : f32
      %otanr = math.tan %tv : f32
      %oasinhr = math.asinh %qv : f32
      %oacoshr = math.acosh %bigv : f32
      %oatanhr = math.atanh %tv : f32
      %oroundr = math.round %qv : f32
      %ohsinr = math.sin %hv : f16
      %ohcosr = math.cos %hv : f16
      %ohfloorr = math.floor %hv : f16"""),
    (1, 1, 1), (N, 1, 1), _expand_inputs,
    lambda a: {5 + j: r.astype(np.float16 if o[0] == "h" else np.float32)
               for j, (o, r) in enumerate(expand_reference(a).items())},
    tol=2e-3, same_bits=True))
