"""The float math the coverage audit found unlowered (issue 26): bf16 math,
log10, math.sincos, and f64 sin / cos / tan / atan / atan2 / asin / acos /
cbrt / erf / erfc, in lower_suite.py's Case form.

- CASES (aster and LLVM's build, both against NumPy (+ ml_dtypes for bf16),
  the two bit for bit):
  * bf16 exp / log / log10 / sqrt / fma / absf: LLVM promotes each to f32,
    computes the f32 intrinsic's expansion and rounds back (llc-22
    -mcpu=gfx942 on llvm.*.bf16; convert-gpu-to-rocdl leaves math.exp / log
    of bf16 to the oracle's convert-math-to-llvm, extends log10 to ocml's
    __ocml_log10_f32, which is llvm.log10.f32: aster.lowering.llvm).
  * bf16 exp2 / log2: convert-gpu-to-rocdl calls ocml's __ocml_exp2_f32 /
    __ocml_log2_f32 (not installed); LLVM's source here is the same kernel
    calling llvm.exp2.bf16 / llvm.log2.bf16 (`llvm.call_intrinsic`; convert-gpu-to-rocdl
    would turn llvm.intr.exp2 into the ocml call), which llc-22 promotes
    to llvm.exp2 / log2.f32 (ocml's exp2F.cl is that builtin).
  * log10 of f16 and f32: ocml's __ocml_log10_f16 (log10H.cl, given to
    LLVM as IR: v_log_f32 of the f32 times log10(2)) and llvm.log10.f32
    (ocml's log10F.cl).
  * math.sincos of f16 / bf16 / f32: LLVM's source is the same kernel with
    math.sin and math.cos (convert-gpu-to-rocdl has no sincos without ocml's
    __ocml_sincos_*); the values must be sin's and cos's.
- NO_LLVM_CASES (aster against NumPy / mpmath only): bf16 rsqrt (ocml's
  __ocml_rsqrt_f32: no LLVM build here), f64 log10 / sin / cos / tan /
  atan / atan2 / asin / acos / cbrt / erf / erfc and sincos of f64: LLVM 22
  has no AMDGPU lowering of them (llc-22: "no libcall available";
  tests/py/test_lower_math_f64_trig.py checks it still has none), so their
  oracle is NumPy's float64 (mpmath at 120 bits for erf / erfc: NumPy has
  none, and SciPy's erfc is 202 ulp off at x = 16.8; and for cbrt: NumPy's
  is 3 ulp off at 6.6e-96) with the ulp bounds that test states.
"""
import numpy as np

from lower_suite import Case
from lower_suite_math import N, kernel

CASES = []
NO_LLVM_CASES = []


def _bf16():
    import ml_dtypes
    return ml_dtypes.bfloat16


def _b(a):
    with np.errstate(over="ignore"):
        return np.asarray(a, np.float64).astype(_bf16())


# ---------------------------------------------------------------------------
# bf16 math, bit for bit with LLVM's build.
# ---------------------------------------------------------------------------
_BF_OPS = ["exp", "log", "log10", "sqrt", "fma", "absf", "exp2", "log2"]
_BF_EDGE = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 1e-40, 3e38, -100.0, 88.0,
            -130.0, 2.0 ** -133, 0.5]


def _bf_inputs(r):
    sign = r.choice([-1.0, 1.0], N)
    x = sign * 10.0 ** r.uniform(-3, 3, N)
    x[::4] = r.uniform(-140, 100, N // 4)   # exp / exp2 range incl. denormal results
    x[:len(_BF_EDGE)] = _BF_EDGE
    y = 10.0 ** r.uniform(-40, 38, N)         # log*: denormals to the largest
    y[:len(_BF_EDGE)] = _BF_EDGE
    return [_b(x), _b(y), *[np.zeros(N, _bf16()) for _ in _BF_OPS]]


def _bf_reference(a):
    """{op: float64 result} of the bf16 kernel's inputs (before rounding)."""
    x, y = a[0].astype(np.float64), a[1].astype(np.float64)
    with np.errstate(all="ignore"):
        return {"exp": np.exp(x), "log": np.log(y), "log10": np.log10(y), "sqrt": np.sqrt(y),
                "fma": (x.astype(np.float32) * y.astype(np.float32) + x.astype(np.float32)
                        ).astype(np.float64),
                "absf": np.abs(x), "exp2": np.exp2(x), "log2": np.log2(y)}


def _bf_expect(a):
    return {2 + j: _b(v) for j, v in enumerate(_bf_reference(a).values())}


def _bf_mlir(llvm):
    ops = {"exp": "%xv", "log": "%yv", "log10": "%yv", "sqrt": "%yv", "fma": "%xv, %yv, %xv",
           "absf": "%xv", "exp2": "%xv", "log2": "%yv"}
    body = ""
    for o, args in ops.items():
        if llvm and o in ("exp2", "log2"):
            body += f"\n      %o{o}r = llvm.call_intrinsic \"llvm.{o}.bf16\"({args}) : (bf16) -> bf16"
        else:
            body += f"\n      %o{o}r = math.{o} {args} : bf16"
    return kernel("bf", [("x", "bf16"), ("y", "bf16")], [(f"o{o}", "bf16") for o in _BF_OPS],
                  body)


CASES.append(Case("math_bf16", "bf", _bf_mlir(False), (1, 1, 1), (N, 1, 1), _bf_inputs,
                  _bf_expect, tol=8e-3, llvm_mlir=_bf_mlir(True), same_bits=True))


# ---------------------------------------------------------------------------
# log10 of f16 / f32 (LLVM: ocml's log10H.cl as IR, llvm.log10.f32); sincos of
# f16 / bf16 / f32 (LLVM: the same kernel with math.sin and math.cos). Two
# kernels: the oracle extends every f16 math op of a module to f32 once one
# needs it (math-extend-to-supported-types), f16 sin would take log10 along.
# ---------------------------------------------------------------------------
def _l10_inputs(r):
    h = (10.0 ** r.uniform(-7, 4.8, N)).astype(np.float16)
    h[:6] = [0.0, np.inf, -1.0, np.nan, 6e-8, 1.0]
    f = (10.0 ** r.uniform(-44, 38, N)).astype(np.float32)
    f[:7] = [0.0, -0.0, np.inf, -1.0, np.nan, 1e-45, 10.0]
    return [h, f, np.zeros(N, np.float16), np.zeros(N, np.float32)]


def _l10_expect(a):
    with np.errstate(all="ignore"):
        h, f = (v.astype(np.float64) for v in a[:2])
        return {2: np.log10(h).astype(np.float16), 3: np.log10(f).astype(np.float32)}


CASES.append(Case("math_log10", "l10", kernel(
    "l10", [("h", "f16"), ("f", "f32")], [("olh", "f16"), ("olf", "f32")],
    "\n      %olhr = math.log10 %hv : f16\n      %olfr = math.log10 %fv : f32"),
    (1, 1, 1), (N, 1, 1), _l10_inputs, _l10_expect, tol=2e-3, same_bits=True))


def _sc_inputs(r):
    s = r.uniform(-20, 20, N).astype(np.float32)
    s[:3] = [0.0, -0.0, 1e-30]
    return [s, s.astype(np.float16), _b(s),
            *[np.zeros(N, t) for t in (np.float32, np.float32, np.float16, np.float16)],
            np.zeros(N, _bf16()), np.zeros(N, _bf16())]


def _sc_expect(a):
    s, sh, sb = (v.astype(np.float64) for v in a[:3])
    return {3: np.sin(s), 4: np.cos(s), 5: np.sin(sh), 6: np.cos(sh), 7: np.sin(sb), 8: np.cos(sb)}


def _sc_mlir(llvm):
    def sc(v, t, o):
        if llvm:
            return (f"\n      %o{o}sr = math.sin {v} : {t}\n      %o{o}cr = math.cos {v} : {t}")
        return f"\n      %o{o}sr, %o{o}cr = math.sincos {v} : {t}"
    body = sc("%sv", "f32", "f") + sc("%shv", "f16", "h") + sc("%sbv", "bf16", "b")
    return kernel("sc", [("s", "f32"), ("sh", "f16"), ("sb", "bf16")],
                  [("ofs", "f32"), ("ofc", "f32"), ("ohs", "f16"), ("ohc", "f16"), ("obs", "bf16"),
                   ("obc", "bf16")], body)


# tol: sin / cos f32 are v_sin / v_cos_f32 (absolute error below 2^-15 for
# |x| <= 20: docs/lowering.md), rounded to f16 / bf16.
CASES.append(Case("math_sincos", "sc", _sc_mlir(False), (1, 1, 1), (N, 1, 1), _sc_inputs,
                  _sc_expect, tol=8e-3, llvm_mlir=_sc_mlir(True), same_bits=True))


# ---------------------------------------------------------------------------
# f64: aster's own (no LLVM build), against NumPy / mpmath.
# ---------------------------------------------------------------------------
F64_OPS = ("sin", "cos", "tan", "atan", "atan2", "asin", "acos", "cbrt", "erf", "erfc", "log10",
           "sincos_s", "sincos_c")
def _f64_inputs(r):
    sign = r.choice([-1.0, 1.0], N)
    t = sign * 10.0 ** r.uniform(-20, 15, N)             # sin / cos / tan to 1e15
    t[::4] = sign[::4] * 10.0 ** r.uniform(15, 308, N // 4)   # Payne-Hanek's range
    t[:14] = [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -1e-310, 1e-300, np.pi / 2, np.pi,
              2.0 ** 50, 2.0 ** 50 + 2, 1e300, 1.7976931348623157e308]
    a = sign * 10.0 ** r.uniform(-310, 308, N)            # atan, cbrt, atan2's y
    a[:10] = [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 1.0, -1.0, 2.4142135623730951]
    b = r.choice([-1.0, 1.0], N) * 10.0 ** r.uniform(-310, 308, N)   # atan2's x
    b[:10] = [0.0, -0.0, np.inf, -np.inf, 1.0, 0.0, -0.0, np.nan, -1.0, 1.0]
    # atan2 quadrants and signed zeros: every pair of (+-0, +-1, +-inf)
    vals = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf]
    pairs = [(p, q) for p in vals for q in vals]
    a[10:10 + len(pairs)] = [p for p, _ in pairs]
    b[10:10 + len(pairs)] = [q for _, q in pairs]
    u = sign * r.uniform(0, 1, N)                          # asin / acos
    u[:12] = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.0000000000000002, np.nan, 1e-300,
              0.9999999999999999, -0.9999999999999999, 5e-324]
    e = sign * 10.0 ** r.uniform(-20, 1.6, N)              # erf / erfc: to +-40
    e[:14] = [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, 0.5, 0.84, -0.84, 6.0, 26.6, 27.2,
              27.4, -30.0]
    y = 2.0 ** r.uniform(-1074.0, 1024.0, N)               # log10
    y[:10] = [0.0, -0.0, np.inf, -1.0, np.nan, 5e-324, 1.0, 10.0, 1e22, 1e-300]
    return [t, a, b, u, e, y, *[np.zeros(N) for _ in F64_OPS]]


def _mp(fn, v):
    """fn (an mpmath function) at v, rounded to float64; erf / erfc saturate
    past |v| = 30 (mpmath's own series give up on huge arguments)."""
    import mpmath
    if np.isnan(v):
        return np.nan
    with mpmath.workprec(120):
        return float(fn(mpmath.mpf(max(min(v, 30.0), -30.0))))


def _mp_cbrt(v):
    """cbrt at 120 bits, rounded to float64 (NumPy's np.cbrt is 3 ulp off at
    6.597514748570502e-96: 1.8755419824446418e-32 where the exact cube root
    rounds to ...426e-32; we follow mpmath)."""
    import mpmath
    if not np.isfinite(v) or v == 0:
        return v
    with mpmath.workprec(120):
        return float(np.sign(v)) * float(mpmath.cbrt(mpmath.mpf(abs(v))))


def f64_reference(a):
    """{op: the float64 oracle's result} of the f64 kernel's inputs."""
    import mpmath
    t, x, y, u, e, l10 = a[:6]
    with np.errstate(all="ignore"):
        sin, cos, tan = np.sin(t), np.cos(t), np.tan(t)
        return {"sin": sin, "cos": cos, "tan": tan, "atan": np.arctan(x),
                "atan2": np.arctan2(x, y), "asin": np.arcsin(u), "acos": np.arccos(u),
                "cbrt": np.array([_mp_cbrt(v) for v in x]), "erf": np.array([_mp(mpmath.erf, v) for v in e]),
                "erfc": np.array([_mp(mpmath.erfc, v) for v in e]), "log10": np.log10(l10),
                "sincos_s": sin, "sincos_c": cos}


NO_LLVM_CASES.append(Case("math_f64_trig", "trig64", kernel(
    "trig64", [("t", "f64"), ("x", "f64"), ("y", "f64"), ("u", "f64"), ("e", "f64"), ("l", "f64")],
    [(f"o{o}", "f64") for o in F64_OPS], """
      %osinr = math.sin %tv : f64
      %ocosr = math.cos %tv : f64
      %otanr = math.tan %tv : f64
      %oatanr = math.atan %xv : f64
      %oatan2r = math.atan2 %xv, %yv : f64
      %oasinr = math.asin %uv : f64
      %oacosr = math.acos %uv : f64
      %ocbrtr = math.cbrt %xv : f64
      %oerfr = math.erf %ev : f64
      %oerfcr = math.erfc %ev : f64
      %olog10r = math.log10 %lv : f64
      %osincos_sr, %osincos_cr = math.sincos %tv : f64"""),
    (1, 1, 1), (N, 1, 1), _f64_inputs,
    lambda a: {6 + j: v for j, v in enumerate(f64_reference(a).values())}, tol=1e-14))


# bf16 rsqrt: v_rsq_f32 of the f32, rounded (no LLVM build: ocml).
def _rsq_inputs(r):
    y = 10.0 ** r.uniform(-40, 38, N)
    y[:8] = [0.0, -0.0, np.inf, -1.0, np.nan, 1e-40, 4.0, 1.0]
    return [_b(y), np.zeros(N, _bf16())]


NO_LLVM_CASES.append(Case("math_bf16_rsqrt", "rsqb", kernel(
    "rsqb", [("y", "bf16")], [("o", "bf16")], "\n      %or = math.rsqrt %yv : bf16"),
    (1, 1, 1), (N, 1, 1), _rsq_inputs,
    lambda a: {1: _b(1.0 / np.sqrt(a[0].astype(np.float64)))}, tol=8e-3))
