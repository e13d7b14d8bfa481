"""NumPy references of integer probes, from the ops' definitions (the arith
dialect's ArithOps.td), for probes whose LLVM build cannot run here and to
check the others twice (the SDWA compares llc-22 selects for 8- and 16-bit
division fix-ups were outside aster's table until session 16).

Part of the coverage audit (aster.lowering.coverage: see its __init__).
Needs: a probe built by kernels.elementwise (operands %a, %b stored one
element per lane, vectors packed in i32 words, i1 / index as i32).
Gives: {result argument: the words the kernel stores}."""

import numpy as np

from .kernels import _bits, elem, lanes


def _trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


# op -> f(a, b, bits) on Python integers: signed operands for the s-ops,
# unsigned for the u-ops (ArithOps.td: divsi rounds toward zero, remsi takes
# the dividend's sign, ceildiv / floordiv round up / down).
_INT_BINARY = {
    "divsi": lambda a, b: _trunc_div(a, b),
    "remsi": lambda a, b: a - b * _trunc_div(a, b),
    "divui": lambda a, b: a // b,
    "remui": lambda a, b: a % b,
    "ceildivsi": lambda a, b: -((-a) // b),
    "ceildivui": lambda a, b: -((-a) // b),
    "floordivsi": lambda a, b: a // b,
    # math.ipowi (MathOps.td; upstream's convert-math-to-funcs definition for
    # b < 0: 1 for a == 1, +-1 for a == -1, else 0): wraps to the width
    "ipowi": lambda a, b: a ** b if b >= 0 else
    (1 if a == 1 else (-1 if b & 1 else 1) if a == -1 else 0),
}
_UNSIGNED = ("divui", "remui", "ceildivui")


def int_binary_ref(op, t):
    """The reference of `arith.{op} %a, %b : t` (op of _INT_BINARY), or None."""
    if op not in _INT_BINARY:
        return None
    e, n = elem(t), lanes(t)
    bits = _bits(e)
    packed = n and e not in ("i1", "index")
    count = 64 * (n or 1)

    def element_dtype():
        return np.dtype(f"i{bits // 8}") if packed else np.dtype(np.int32)

    def ref(a):
        dt = element_dtype()
        x, y = (np.asarray(v).view(dt)[:count] if packed else np.asarray(v)[:count] for v in a[:2])
        mask = (1 << bits) - 1
        out = []
        for p, q in zip(x.tolist(), y.tolist()):
            if op in _UNSIGNED:
                p, q = p & mask, q & mask
            else:   # the operand's own width (index: 32 bits)
                p = ((p & mask) ^ (1 << (bits - 1))) - (1 << (bits - 1))
                q = ((q & mask) ^ (1 << (bits - 1))) - (1 << (bits - 1))
            r = _INT_BINARY[op](p, q) & mask
            out.append(r - (1 << bits) if r >> (bits - 1) else r)
        store = np.zeros_like(np.asarray(a[2]).view(dt) if packed else np.asarray(a[2]))
        store[:count] = np.array(out, dtype=np.int64).astype(store.dtype)
        return {2: store.view(np.asarray(a[2]).dtype)}
    return ref


def _floats(v, e, count):
    """The first `count` elements of float type e of a stored operand."""
    from .kernels import _np
    return np.asarray(v).view(_np(e))[:count]


# ArithOps.td's predicates: o* are false when an operand is NaN, u* true.
_CMPF = {"oeq": np.equal, "ogt": np.greater, "oge": np.greater_equal, "olt": np.less,
         "ole": np.less_equal, "one": np.not_equal}


def cmpf_ref(pred, t):
    """The reference of `arith.cmpf pred, %a, %b : t` (the i1 results stored
    as i32 0 / 1, one per element)."""
    e, n = elem(t), lanes(t) or 1
    count = 64 * n

    def ref(a):
        x, y = (_floats(v, e, count).astype(np.float64) for v in a[:2])
        nan = np.isnan(x) | np.isnan(y)
        if pred in ("false", "true"):
            r = np.full(count, pred == "true")
        elif pred == "ord":
            r = ~nan
        elif pred == "uno":
            r = nan
        elif pred.startswith("o"):
            r = ~nan & _CMPF[pred](x, y)
        elif pred == "une":
            r = nan | (x != y)
        else:   # ueq, ugt, uge, ult, ule: unordered or the ordered compare
            r = nan | _CMPF["o" + pred[1:]](x, y)
        out = np.zeros_like(np.asarray(a[2]))
        out[:count] = r.astype(out.dtype)
        return {2: out}
    return ref


def remf_ref(t):
    """The reference of `arith.remf %a, %b : t`: fmod (ArithOps.td: the
    remainder with the dividend's sign, as C's fmod), exact in any
    precision, so NumPy's float64 fmod rounded to t is the value."""
    from .kernels import _np
    e, n = elem(t), lanes(t) or 1
    count = 64 * n

    def ref(a):
        x, y = (_floats(v, e, count).astype(np.float64) for v in a[:2])
        with np.errstate(all="ignore"):
            r = np.fmod(x, y).astype(_np(e))
        out = np.zeros_like(np.asarray(a[2]))
        out.view(_np(e))[:count] = r
        return {2: out}
    return ref


# NumPy's function and the ulp allowed for math probes without an LLVM
# build (convert-gpu-to-rocdl calls ROCm's ocml, not installed here, or
# LLVM 22 has no AMDGPU lowering of the f64 function). The bounds' sources:
#   f32 exp2 / log2 / rsqrt: v_exp_f32 / v_log_f32 / v_rsq_f32, 1 ulp (AMD
#     CDNA3 ISA, VOP1 transcendentals), against NumPy's float64 rounded to
#     f32 (0.5 ulp): 1 ulp apart at most. (LLVM builds them too since
#     aster.lowering.llvm gives it ocml's f32 bodies: LowerMath.cpp.)
#   f64 exp, exp2, log, log2, log1p, expm1 1 ulp, tanh 3 ulp: aster's own
#     (cc/lower/LowerMathF64.cpp), the maxima measured over 40 x 256 inputs
#     in tests/py/test_lower_math_f64.py (ULP_BOUND_F64).
#   f64 sinh, cosh, acosh 2^-51, atanh 2^-50, asinh 2^-34, powf 2^-43
#     relative (upstream's formulas on aster's f64 exp / log; the same
#     test's rtol): a relative error r is at most r 2^53 ulp: 4, 4, 4, 8,
#     2^19, 2^10.
# Where upstream's expansion (math-expand-ops, which LLVM's build of the
# f32 probes runs too and matches) and C99 / NumPy disagree on special
# values, the reference follows the expansion and says so: asinh(x) =
# log(x + sqrt(x^2 + 1)) is NaN at -inf (NumPy: -inf); powf(x, y) =
# exp(y log x) is NaN where y log x is (x < 0, 0^0, 1^inf, inf^0; NumPy:
# 1, -1, ... by C99's pow).
def _asinh(x):
    with np.errstate(all="ignore"):
        return np.where(np.isnan(x + np.sqrt(x * x + 1)), np.nan, np.arcsinh(x))


def _powf(x, y):
    with np.errstate(all="ignore"):
        return np.where(np.isnan(y * np.log(x)), np.nan, np.power(x, y))


MATH_NUMPY = {
    "exp": (np.exp, {"f64": 1}), "exp2": (np.exp2, {"f32": 1, "f64": 1}),
    "log": (np.log, {"f64": 1}), "log2": (np.log2, {"f32": 1, "f64": 1}),
    "log1p": (np.log1p, {"f64": 1}), "expm1": (np.expm1, {"f64": 1}),
    "tanh": (np.tanh, {"f64": 3}), "rsqrt": (lambda x: 1.0 / np.sqrt(x), {"f32": 1}),
    "sinh": (np.sinh, {"f64": 4}), "cosh": (np.cosh, {"f64": 4}),
    "acosh": (np.arccosh, {"f64": 4}), "atanh": (np.arctanh, {"f64": 8}),
    "asinh": (_asinh, {"f64": 2 ** 19}), "powf": (_powf, {"f64": 2 ** 10}),
}


# The float math of tests/py/test_lower_math_f64_trig.py / _gaps.py (bounds:
# the maxima measured there against NumPy / mpmath, plus the oracle's own
# error): f64 sin, cos, log10 1 ulp; tan 3; atan, atan2, asin, acos 2;
# cbrt 4 (NumPy's np.cbrt is itself up to 3 ulp off: 6.6e-96); erf 2 and
# erfc 6 against Python's math.erf / erfc (glibc's, within a few ulp: the
# test uses mpmath). bf16 exp2, log2, rsqrt: the f32 expansion rounded to
# bf16, within 1 ulp of bf16 of NumPy's float64.
def _vec(fn):
    return np.vectorize(fn, otypes=[np.float64])


MATH_NUMPY.update({
    "sin": (np.sin, {"f64": 1}), "cos": (np.cos, {"f64": 1}), "tan": (np.tan, {"f64": 3}),
    "atan": (np.arctan, {"f64": 2}), "atan2": (np.arctan2, {"f64": 2}),
    "asin": (np.arcsin, {"f64": 2}), "acos": (np.arccos, {"f64": 2}),
    "cbrt": (np.cbrt, {"f64": 4}), "log10": (np.log10, {"f64": 1}),
    "erf": (_vec(__import__("math").erf), {"f64": 2}),
    "erfc": (_vec(__import__("math").erfc), {"f64": 6}),
})
for _op in ("exp2", "log2", "rsqrt"):
    MATH_NUMPY[_op][1]["bf16"] = 1
# f16 log10 and sincos: computed in f32 and rounded (as LLVM promotes them;
# docs/lowering.md), 1 ulp of f16; f64 sincos: sin's and cos's bounds.
MATH_NUMPY["log10"][1]["f16"] = 1
MATH_NUMPY["sincos"] = ((np.sin, np.cos), {"f64": 1, "f16": 1})


def math_ref(op, t):
    """(reference, ulp) of `math.{op}` on t from MATH_NUMPY, or (None, 0)."""
    e = elem(t)
    if op not in MATH_NUMPY or e not in MATH_NUMPY[op][1]:
        return None, 0
    fn, bound = MATH_NUMPY[op]
    count = 64 * (lanes(t) or 1)
    nargs = 2 if op in ("powf", "atan2") else 1
    fns = fn if isinstance(fn, tuple) else (fn,)

    def ref(a):
        from .kernels import _np
        xs = [_floats(v, e, count).astype(np.float64) for v in a[:nargs]]
        got = {}
        for k, f in enumerate(fns):
            with np.errstate(all="ignore"):
                r = f(*xs).astype(_np(e))
            out = np.zeros_like(np.asarray(a[nargs + k]))
            out.view(_np(e))[:count] = r
            got[nargs + k] = out
        return got
    return ref, bound[e]


def fpclass_ref(op, t):
    """The reference of `math.{op} %a : t` for isinf / isnormal (LLVM does
    not build them: convert-gpu-to-rocdl leaves them), the i1 results
    stored as i32 0 / 1; normal means finite with |x| >= the type's
    smallest normal (2^-14 f16, 2^-126 bf16 / f32, 2^-1022 f64)."""
    e, n = elem(t), lanes(t) or 1
    count = 64 * n
    tiny = {"f16": 2.0 ** -14, "f64": 2.0 ** -1022}.get(e, 2.0 ** -126)

    def ref(a):
        x = _floats(a[0], e, count).astype(np.float64)
        r = np.isinf(x) if op == "isinf" else np.isfinite(x) & (np.abs(x) >= tiny)
        out = np.zeros_like(np.asarray(a[1]))
        out[:count] = r.astype(out.dtype)
        return {1: out}
    return ref


def cmpi_ref(pred, t):
    """The reference of `arith.cmpi pred, %a, %b : t` for vectors of packed
    integers (vector<4xi8>: LLVM's build uses SDWA compares), the i1 results stored as i32 0 / 1, one per element; s-predicates
    compare as signed, u-predicates as unsigned (ArithOps.td)."""
    e, n = elem(t), lanes(t) or 1
    bits, count = _bits(e), 64 * n
    cmp = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
           "gt": np.greater, "ge": np.greater_equal}

    def ref(a):
        dt = np.dtype(f"u{bits // 8}" if pred[0] == "u" else f"i{bits // 8}")
        x, y = (np.asarray(v).view(dt)[:count] for v in a[:2])
        r = cmp[pred if pred in ("eq", "ne") else pred[1:]](x, y)
        out = np.zeros_like(np.asarray(a[2]))
        out[:count] = r.astype(out.dtype)
        return {2: out}
    return ref


def float_minmax_ref(op, t):
    """The reference of `arith.minimumf` / `maximumf %a, %b : t`
    (ArithOps.td: IEEE 754-2019 minimum / maximum: NaN if either operand is
    NaN, -0 below +0)."""
    from .kernels import _np
    e, n = elem(t), lanes(t) or 1
    count = 64 * n

    def ref(a):
        x, y = (_floats(v, e, count).astype(np.float64) for v in a[:2])
        lo = op == "minimumf"
        with np.errstate(all="ignore"):
            pick = np.minimum(x, y) if lo else np.maximum(x, y)
            zeros = (x == y) & (np.signbit(x) != np.signbit(y))
            signed = np.where(np.signbit(x) == lo, x, y)
            r = np.where(np.isnan(x) | np.isnan(y), np.nan, np.where(zeros, signed, pick))
        out = np.zeros_like(np.asarray(a[2]))
        out.view(_np(e))[:count] = r.astype(_np(e))
        return {2: out}
    return ref


def clampf_ref(t):
    """The reference of `math.clampf %a to [%b, %c] : t`, computed in
    float64 and rounded to t. f64: maximum(minimum(a, c), b), NaN
    propagated (upstream's f64 lowering, llvm-project pull request 188776).
    f16 / f32 (LLVM's build: v_med3) and bf16 (through f32, LowerMathClass.cpp):
    the median of the three (what v_med3 computes; equal to the clamp when
    b <= c, which MathOps.td presumes). MLIR 22's op text reads
    maxf(minf(x, min), max), not a clamp: we follow the lowerings."""
    from .kernels import _np
    e, n = elem(t), lanes(t) or 1
    count = 64 * n

    def ref(a):
        x, lo, hi = (_floats(v, e, count).astype(np.float64) for v in a[:3])
        with np.errstate(all="ignore"):
            r = (np.maximum(np.minimum(x, hi), lo) if e == "f64"
                 else np.median(np.stack([x, lo, hi]), axis=0))
        out = np.zeros_like(np.asarray(a[3]))
        out.view(_np(e))[:count] = r.astype(_np(e))
        return {3: out}
    return ref
