"""Issue 26's arith gaps and integer / classification math, in lower_suite.py's
Case form: i1 arithmetic and compares (MLIR's i1: signed true is -1),
addui/mului/mulsi_extended, i64 <-> bf16 conversions, minimumf/maximumf of
f16/bf16/f64, remf of bf16, math.absi/ctlz/cttz/ctpop/ipowi, math.is*
classification, clampf, f64 copysign and round (cc/lower/LowerArithExpand.cpp,
LowerFloatMinMax.cpp, LowerMathInt.cpp, LowerMathClass.cpp).

Oracles we did not write:
- NumPy (Python integers for the 128-bit products, ml_dtypes.bfloat16 for
  bf16, np.isnan / isinf / isfinite, np.fmod, np.round's half-away rule from
  np.trunc), on divergent operands (per-lane loads) and uniform ones (kernel
  arguments), with the edge values of each type;
- LLVM's build of the same kernel (convert-gpu-to-rocdl + llc-22), bit for
  bit where it builds it (CASES). It does not build math.isinf / isnormal,
  clampf of f64 / bf16 (convert-gpu-to-rocdl leaves them), math.ipowi (the
  same: upstream outlines it only with convert-math-to-funcs, which runs on
  builtin.module, not on a gpu.module) or remf of bf16 (llc-22: "no libcall
  available for frem"): those are NUMPY_ONLY (remf of bf16 gets LLVM's
  build of its f32 form in CASES: the f32 remainder of two bf16 values is
  exact, so the same function).
Where sources disagree: sitofp i64 -> bf16 rounds twice in LLVM's build
(i64 -> f32 -> bf16: llc-22's sequence) where ml_dtypes' int64 -> bfloat16
rounds once; we follow LLVM (the NumPy oracle is int64 -> float32 ->
bfloat16, and the inputs include a value where the two differ). clampf: MLIR
22's op description says maxf(minf(x, min), max); convert-gpu-to-rocdl makes
it v_med3 (a clamp), and llvm-project PR 188776 lowers it as maximum(minimum(
x, max), min): we follow the two lowerings (a clamp; NaN x excluded from the
NumPy check, where med3 and minimum/maximum differ).
"""
import numpy as np

from lower_suite import Case, module

N = 128
CASES = []        # NumPy and LLVM's build (bit for bit)
NUMPY_ONLY = []   # NumPy only (LLVM does not build them: above)


_NARROW = ("i8", "i16", "f16", "bf16")


def _scalar(dt, v):
    """A uniform operand of dtype `dt`: a kernel argument, or for 8/16-bit
    types a one-element array (_kernel)."""
    return np.array([v], dt) if np.dtype(dt).itemsize < 4 else dt(v)


def _int(a):
    return int(np.asarray(a).reshape(-1)[0])


def _words(a):
    """bf16 values as the i32 words a bf16 output holds (low half)."""
    return np.asarray(a).view(np.uint16).astype(np.int32)


def _kernel(name, ins, outs, body, scalars=()):
    """A kernel of N lanes (2 waves, 2 workgroups of 64): each memref of
    `ins` loaded at the lane's index as %<name>, `scalars` kernel arguments
    (uniform), `body` computing the values that `outs` [(memref, type,
    ssa value)] store at the lane's index."""
    # kernel arguments are 32 / 64 bits: a narrow uniform operand is element
    # 0 of a memref<1xT> (a load at a constant index: uniform)
    args = [f"%{a}: memref<{N}x{t}>" for a, t in ins] + \
        [f"%{a}_s: memref<1x{t}>" if t in _NARROW else f"%{a}: {t}" for a, t in scalars] + \
        [f"%{a}: memref<{N}x{'i32' if t == 'bf16' else t}>" for a, t, _ in outs]
    loads = "".join(f"      %{a} = memref.load %{a}_m[%i] : memref<{N}x{t}>\n" for a, t in ins)
    loads += "".join(f"      %{a} = memref.load %{a}_s[%c0] : memref<1x{t}>\n"
                     for a, t in scalars if t in _NARROW)
    # a bf16 result is stored as the low half of an i32 word (lower_suite's
    # nan_any convention: a NaN matches any NaN; NumPy's assert_array_equal
    # does not see bf16 NaNs as equal)
    stores = ""
    for a, t, v in outs:
        if t == "bf16":
            n = v.lstrip("%")
            stores += (f"      %{n}_h = arith.bitcast {v} : bf16 to i16\n"
                       f"      %{n}_w = arith.extui %{n}_h : i16 to i32\n"
                       f"      memref.store %{n}_w, %{a}[%i] : memref<{N}xi32>\n")
        else:
            stores += f"      memref.store {v}, %{a}[%i] : memref<{N}x{t}>\n"
    sig = ", ".join(a.replace(":", "_m:", 1) if k < len(ins) else a for k, a in enumerate(args))
    return module(f"""
    gpu.func @{name}({sig}) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c64 = arith.constant 64 : index
      %c0 = arith.constant 0 : index
      %o0 = arith.muli %b, %c64 : index
      %i = arith.addi %o0, %t : index
{loads}{body}{stores}      gpu.return
    }}""")


# ---------------------------------------------------------------------------
# i1: every op on a divergent pair and on a (divergent, uniform) pair.
# ---------------------------------------------------------------------------
_I1_OPS = ["addi", "subi", "muli", "maxsi", "maxui", "minsi", "minui",
           "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge", "select"]


def _i1_body():
    lines = ["      %x = arith.trunci %a : i32 to i1\n", "      %y = arith.trunci %c : i32 to i1\n",
             "      %u = arith.trunci %s : i32 to i1\n"]
    for k, op in enumerate(_I1_OPS):
        for tag, rhs in (("d", "%y"), ("u", "%u")):
            if op == "select":
                e = f"arith.select %x, {rhs}, %y : i1"
            elif op in ("addi", "subi", "muli", "maxsi", "maxui", "minsi", "minui"):
                e = f"arith.{op} %x, {rhs} : i1"
            else:
                e = f"arith.cmpi {op}, %x, {rhs} : i1"
            lines.append(f"      %r{tag}{k} = {e}\n      %w{tag}{k} = arith.extui %r{tag}{k} : i1 to i32\n")
    # all results packed as bits of two words (divergent, uniform right operand)
    for tag in "du":
        acc = f"%w{tag}0"
        for k in range(1, len(_I1_OPS)):
            lines.append(f"      %sh{tag}{k} = arith.constant {k} : i32\n"
                         f"      %p{tag}{k} = arith.shli %w{tag}{k}, %sh{tag}{k} : i32\n"
                         f"      %q{tag}{k} = arith.ori {acc}, %p{tag}{k} : i32\n")
            acc = f"%q{tag}{k}"
        lines.append(f"      %res{tag} = arith.addi {acc}, %zero : i32\n")
    return "      %zero = arith.constant 0 : i32\n" + "".join(lines)


def _i1_ref(x, y):
    """MLIR's i1 semantics with Python integers: unsigned 0 / 1, signed 0 / -1."""
    sx, sy = -x, -y
    return {"addi": (x + y) & 1, "subi": (x - y) & 1, "muli": x & y, "maxsi": -max(sx, sy),
            "maxui": max(x, y), "minsi": -min(sx, sy), "minui": min(x, y), "slt": int(sx < sy),
            "sle": int(sx <= sy), "sgt": int(sx > sy), "sge": int(sx >= sy), "ult": int(x < y),
            "ule": int(x <= y), "ugt": int(x > y), "uge": int(x >= y)}


def _i1_inputs(r):
    a = r.integers(0, 2, N).astype(np.int32) | (r.integers(0, 2**20, N).astype(np.int32) << 1)
    c = r.integers(0, 2, N).astype(np.int32) * 3
    a[:4], c[:4] = [0, 1, 0, 1], [0, 0, 1, 1]
    return [a, c, np.int32(1), np.zeros(N, np.int32), np.zeros(N, np.int32)]


def _i1_expect(args):
    a, c, s = args[0] & 1, args[1] & 1, int(args[2]) & 1
    out = []
    for rhs in (c, np.full(N, s)):
        w = np.zeros(N, np.int32)
        for i in range(N):
            ref = _i1_ref(int(a[i]), int(rhs[i]))
            ref["select"] = int(rhs[i]) if a[i] else int(c[i])
            w[i] = sum(ref[o] << k for k, o in enumerate(_I1_OPS))
        out.append(w)
    return {3: out[0], 4: out[1]}


CASES.append(Case("i1_arith_cmp", "i1_arith_cmp", _kernel(
    "i1_arith_cmp", [("a", "i32"), ("c", "i32")], [("od", "i32", "%resd"), ("ou", "i32", "%resu")],
    _i1_body(), scalars=[("s", "i32")]), (2, 1, 1), (64, 1, 1), _i1_inputs, _i1_expect,
    same_bits=True))


# ---------------------------------------------------------------------------
# *_extended of i16, i32, i64 (divergent x, a uniform y for i32).
# ---------------------------------------------------------------------------
_EDGE = {16: [0, 1, -1, 2**15 - 1, -2**15, 255, -256],
         32: [0, 1, -1, 2**31 - 1, -2**31, 65535, -65536],
         64: [0, 1, -1, 2**63 - 1, -2**63, 2**32 - 1, -2**32, 2**32]}
_NPI = {16: np.int16, 32: np.int32, 64: np.int64}


def _ext_inputs(w):
    def make(r):
        dt = _NPI[w]
        x = r.integers(-2**(w - 1), 2**(w - 1), N, dtype=np.int64).astype(dt) if w < 64 else \
            r.integers(-2**63, 2**63 - 1, N, dtype=np.int64)
        y = r.integers(-2**(w - 1), 2**(w - 1), N, dtype=np.int64).astype(dt) if w < 64 else \
            r.integers(-2**63, 2**63 - 1, N, dtype=np.int64)
        e = _EDGE[w]
        for k, (p, q) in enumerate([(p, q) for p in e for q in e][:N]):
            x[k], y[k] = p, q
        return [x, y, _scalar(dt, -3), *[np.zeros(N, dt) for _ in range(7)]]
    return make


def _ext_expect(w):
    def expect(args):
        m = (1 << w) - 1
        xs, ys = [int(v) for v in args[0]], [int(v) for v in args[1]]
        s = _int(args[2])

        def wrap(v):
            v &= m
            return v - (1 << w) if v >> (w - 1) else v
        cols = [[] for _ in range(7)]
        for x, y in zip(xs, ys):
            su = (x & m) + (y & m)
            cols[0].append(wrap(su))
            cols[1].append(su >> w)
            pu, ps = (x & m) * (y & m), x * y
            cols[2].append(wrap(pu))
            cols[3].append(wrap(pu >> w))
            cols[4].append(wrap(ps >> w))
            cols[5].append(wrap((x * s) >> w))
            cols[6].append(wrap(((x & m) * (s & m)) >> w))
        return {3 + k: np.array(c, dtype=np.int64).astype(_NPI[w]) for k, c in enumerate(cols)}
    return expect


for _w in (16, 32, 64):
    _t = f"i{_w}"
    _body = f"""      %s0, %cy = arith.addui_extended %x, %y : {_t}, i1
      %cw = arith.extui %cy : i1 to {_t}
      %lo, %hu = arith.mului_extended %x, %y : {_t}
      %ls, %hs = arith.mulsi_extended %x, %y : {_t}
      %lsu, %hsu = arith.mulsi_extended %x, %s : {_t}
      %luu, %huu = arith.mului_extended %x, %s : {_t}
"""
    CASES.append(Case(f"extended_i{_w}", "extended", _kernel(
        "extended", [("x", _t), ("y", _t)],
        [("o_sum", _t, "%s0"), ("o_carry", _t, "%cw"), ("o_lo", _t, "%lo"), ("o_hu", _t, "%hu"),
         ("o_hs", _t, "%hs"), ("o_hsu", _t, "%hsu"), ("o_huu", _t, "%huu")],
        _body, scalars=[("s", _t)]), (2, 1, 1), (64, 1, 1), _ext_inputs(_w), _ext_expect(_w),
        same_bits=True))


# ---------------------------------------------------------------------------
# math.ctlz / cttz / ctpop / absi of i8, i16, i32, i64 (divergent and uniform).
# ---------------------------------------------------------------------------
def _count_ref(v, w):
    u = v & ((1 << w) - 1)
    lz = w - u.bit_length()
    tz = (u & -u).bit_length() - 1 if u else w
    ab = abs(v) & ((1 << w) - 1)
    ab = ab - (1 << w) if ab >> (w - 1) else ab      # absi(INT_MIN) = INT_MIN
    return lz, tz, bin(u).count("1"), ab


def _count_inputs(w):
    def make(r):
        dt = {8: np.int8, **_NPI}[w]
        x = r.integers(-2**(w - 1), 2**(w - 1) - 1, N, dtype=np.int64).astype(dt)
        sh = r.integers(0, w, N // 4)
        x[N // 2:N // 2 + N // 4] = (np.int64(1) << sh).astype(dt)   # one bit set
        x[:6] = [0, 1, -1, 2**(w - 1) - 1, -2**(w - 1), 2**(w - 2)]
        return [x, _scalar(dt, 0), _scalar(dt, -2**(w - 1)), *[np.zeros(N, dt) for _ in range(8)]]
    return make


def _count_expect(w):
    def expect(args):
        dt = args[0].dtype
        out = {}
        for k in range(4):
            col = [_count_ref(int(v), w)[k] for v in args[0]]
            out[3 + k] = np.array(col, np.int64).astype(dt)
        for k, s in enumerate((_int(args[1]), _int(args[2]))):
            ref = _count_ref(s, w)
            # the uniform operands: ctlz, cttz, ctpop, absi of 0 and INT_MIN
            out[7 + 2 * k] = np.full(N, ref[0] + ref[1], np.int64).astype(dt)
            out[8 + 2 * k] = np.full(N, (ref[2] + ref[3]) & ((1 << w) - 1), np.uint64).astype(dt)
        return out
    return expect


for _w in (8, 16, 32, 64):
    _t = f"i{_w}"
    _body = "".join(f"      %{o}d = math.{o} %x : {_t}\n" for o in ("ctlz", "cttz", "ctpop", "absi"))
    for _k, _s in enumerate(("z", "m")):
        _body += "".join(f"      %{o}{_s} = math.{o} %{_s} : {_t}\n"
                         for o in ("ctlz", "cttz", "ctpop", "absi"))
        _body += (f"      %lt{_s} = arith.addi %ctlz{_s}, %cttz{_s} : {_t}\n"
                  f"      %pa{_s} = arith.addi %ctpop{_s}, %absi{_s} : {_t}\n")
    CASES.append(Case(f"int_counts_i{_w}", "counts", _kernel(
        "counts", [("x", _t)],
        [("o_lz", _t, "%ctlzd"), ("o_tz", _t, "%cttzd"), ("o_pop", _t, "%ctpopd"),
         ("o_abs", _t, "%absid"), ("o_z1", _t, "%ltz"), ("o_z2", _t, "%paz"),
         ("o_m1", _t, "%ltm"), ("o_m2", _t, "%pam")],
        _body, scalars=[("z", _t), ("m", _t)]), (2, 1, 1), (64, 1, 1), _count_inputs(_w),
        _count_expect(_w), same_bits=True))


# ---------------------------------------------------------------------------
# minimumf / maximumf of f16, bf16, f64: NaN either side, -0 < +0.
# ---------------------------------------------------------------------------
def _np_float(t):
    if t == "bf16":
        import ml_dtypes
        return ml_dtypes.bfloat16
    return {"f16": np.float16, "f32": np.float32, "f64": np.float64}[t]


_FEDGE = [(0.0, -0.0), (-0.0, 0.0), (np.nan, 1.0), (1.0, np.nan), (np.nan, np.nan), (np.inf, 2.0),
          (-np.inf, 2.0), (3.0, 3.0), (-1.5, 1.5), (1e-7, -1e-7)]


def _minmax_inputs(t):
    def make(r):
        dt = _np_float(t)
        x = (r.standard_normal(N) * 4).astype(dt)
        y = (r.standard_normal(N) * 4).astype(dt)
        for k, (p, q) in enumerate(_FEDGE):
            x[k], y[k] = p, q
        out = np.zeros(N, np.int32) if t == "bf16" else np.zeros(N, dt)
        return [x, y, out, out.copy()]
    return make


def _ieee_minmax(x, y, mn):
    """IEEE-754 minimum / maximum: NaN if either is NaN, -0 < +0."""
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    pick_x = (x64 < y64) if mn else (x64 > y64)
    both0 = (x64 == 0) & (y64 == 0)
    neg_x = np.signbit(x64)
    pick_x = np.where(both0, neg_x if mn else ~neg_x, pick_x)
    r = np.where(pick_x, x, y).astype(x.dtype)
    r[np.isnan(x64) | np.isnan(y64)] = np.nan
    return r


def _minmax_expect(t):
    def expect(args):
        r = {2: _ieee_minmax(args[0], args[1], True), 3: _ieee_minmax(args[0], args[1], False)}
        return {k: _words(v) for k, v in r.items()} if t == "bf16" else r
    return expect


for _t in ("f16", "bf16", "f64"):
    _body = (f"      %mn = arith.minimumf %x, %y : {_t}\n"
             f"      %mx = arith.maximumf %x, %y : {_t}\n")
    CASES.append(Case(f"minimum_maximum_{_t}", "minmax", _kernel(
        "minmax", [("x", _t), ("y", _t)], [("o_mn", _t, "%mn"), ("o_mx", _t, "%mx")], _body),
        (2, 1, 1), (64, 1, 1), _minmax_inputs(_t), _minmax_expect(_t), same_bits=True,
        nan_any={2: _np_float(_t), 3: _np_float(_t)} if _t == "bf16" else {}))


# ---------------------------------------------------------------------------
# i64 <-> bf16 and remf of bf16.
# ---------------------------------------------------------------------------
def _conv_inputs(r):
    import ml_dtypes
    x = r.integers(-2**62, 2**62, N, dtype=np.int64) >> r.integers(0, 62, N)
    # 2^40 + 2^32 + 1: bf16-rounding it once gives 2^40 + 2^33 (above the tie),
    # through f32 (2^40 + 2^32, a tie) gives 2^40 (even): LLVM's double rounding
    x[:8] = [0, 1, -1, 2**63 - 1, -2**63, 2**40 + 2**32 + 1, 255, -257]
    f = (r.standard_normal(N) * 1e6).astype(ml_dtypes.bfloat16)
    f[:6] = [0.0, -0.0, 1.5, -2.5, 1e18, -1e18]
    g = np.abs(f.astype(np.float32)).astype(ml_dtypes.bfloat16)    # fptoui: f >= 0
    return [x, f, g, np.zeros(N, np.int32), np.zeros(N, np.int32),
            np.zeros(N, np.int64), np.zeros(N, np.int64)]


def _conv_expect(args):
    import ml_dtypes
    x, f, g = args[0], args[1], args[2]
    return {3: _words(x.astype(np.float32).astype(ml_dtypes.bfloat16)),
            4: _words(x.view(np.uint64).astype(np.float32).astype(ml_dtypes.bfloat16)),
            5: np.trunc(f.astype(np.float64)).astype(np.int64),
            6: np.trunc(g.astype(np.float64)).astype(np.uint64).view(np.int64)}


CASES.append(Case("i64_bf16_convert", "conv", _kernel(
    "conv", [("x", "i64"), ("f", "bf16"), ("g", "bf16")],
    [("o_si", "bf16", "%si"), ("o_ui", "bf16", "%ui"), ("o_fs", "i64", "%fs"),
     ("o_fu", "i64", "%fu")],
    """      %si = arith.sitofp %x : i64 to bf16
      %ui = arith.uitofp %x : i64 to bf16
      %fs = arith.fptosi %f : bf16 to i64
      %fu = arith.fptoui %g : bf16 to i64
"""), (2, 1, 1), (64, 1, 1), _conv_inputs, _conv_expect, same_bits=True))


def _remf_inputs(r):
    import ml_dtypes
    bf = ml_dtypes.bfloat16
    x = (r.standard_normal(N) * 1e3).astype(bf)
    y = (r.standard_normal(N) * 3).astype(bf)
    for k, (p, q) in enumerate([(5.5, 2.0), (-5.5, 2.0), (1.0, 0.0), (np.inf, 1.0), (2.0, np.inf),
                                (np.nan, 1.0), (1e30, 3.0), (-0.0, 1.0)]):
        x[k], y[k] = p, q
    return [x, y, np.zeros(N, np.int32)]


def _remf_expect(args):
    import ml_dtypes
    with np.errstate(invalid="ignore"):
        return {2: _words(np.fmod(args[0].astype(np.float32), args[1].astype(np.float32))
                          .astype(ml_dtypes.bfloat16))}


_REMF_BF16 = """      %r = arith.remf %x, %y : bf16
"""
_REMF_F32 = """      %xf = arith.extf %x : bf16 to f32
      %yf = arith.extf %y : bf16 to f32
      %rf = arith.remf %xf, %yf : f32
      %r = arith.truncf %rf : f32 to bf16
"""
# LLVM's build of remf bf16 fails (llc-22: "no libcall available for frem");
# its build of the f32 form is the oracle (the same function: exact).
CASES.append(Case("remf_bf16", "remb", _kernel(
    "remb", [("x", "bf16"), ("y", "bf16")], [("o", "bf16", "%r")], _REMF_BF16),
    (2, 1, 1), (64, 1, 1), _remf_inputs, _remf_expect, same_bits=True,
    llvm_mlir=_kernel("remb", [("x", "bf16"), ("y", "bf16")], [("o", "bf16", "%r")], _REMF_F32),
    nan_any={2: _np_float("bf16")}))


# ---------------------------------------------------------------------------
# Classification (isnan / isfinite: LLVM builds them; isinf / isnormal: NumPy
# only), of f16, bf16, f32, f64, with every class of value.
# ---------------------------------------------------------------------------
def _class_values(t):
    dt = _np_float(t)
    fi = np.finfo(np.float32 if t == "bf16" else dt)
    tiny = float(fi.tiny) if t != "bf16" else 1.1754944e-38
    vals = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, -np.nan, tiny, -tiny, tiny / 4,
            -tiny / 4, float(fi.max) if t != "bf16" else 3.3e38, 1e-300 if t == "f64" else 0.0]
    return np.array(vals, np.float64).astype(dt)


def _class_inputs(t):
    def make(r):
        dt = _np_float(t)
        x = (r.standard_normal(N) * 3).astype(dt)
        v = _class_values(t)
        x[:len(v)] = v
        return [x, *[np.zeros(N, np.int32) for _ in range(2)]]
    return make


def _isnormal(x):
    a = np.abs(x.astype(np.float64))
    tiny = {np.dtype(np.float16): 2.0**-14, np.dtype(np.float64): 2.0**-1022}.get(
        np.dtype(x.dtype), 2.0**-126)
    return np.isfinite(a) & (a >= tiny)


def _class_expect(which):
    def expect(args):
        x = args[0].astype(np.float64)
        if which == "nan_finite":
            return {1: np.isnan(x).astype(np.int32), 2: np.isfinite(x).astype(np.int32)}
        return {1: np.isinf(x).astype(np.int32), 2: _isnormal(args[0]).astype(np.int32)}
    return expect


for _t in ("f16", "bf16", "f32", "f64"):
    for _which, (_p, _q) in (("nan_finite", ("isnan", "isfinite")), ("inf_normal", ("isinf", "isnormal"))):
        _body = (f"      %p = math.{_p} %x : {_t}\n      %q = math.{_q} %x : {_t}\n"
                 "      %pw = arith.extui %p : i1 to i32\n      %qw = arith.extui %q : i1 to i32\n")
        (CASES if _which == "nan_finite" else NUMPY_ONLY).append(Case(
            f"class_{_which}_{_t}", "cls", _kernel(
                "cls", [("x", _t)], [("o_p", "i32", "%pw"), ("o_q", "i32", "%qw")], _body),
            (2, 1, 1), (64, 1, 1), _class_inputs(_t), _class_expect(_which),
            same_bits=_which == "nan_finite"))


# ---------------------------------------------------------------------------
# clampf: f32 / f16 (v_med3, LLVM builds it), bf16 / f64 (NumPy only).
# ---------------------------------------------------------------------------
def _clamp_inputs(t):
    def make(r):
        dt = _np_float(t)
        x = (r.standard_normal(N) * 4).astype(dt)
        lo = (-np.abs(r.standard_normal(N))).astype(dt)
        hi = np.abs(r.standard_normal(N)).astype(dt)
        x[:6] = [np.inf, -np.inf, 0.0, -0.0, 1e4, -1e4]
        return [x, lo, hi, np.zeros(N, np.int32) if t == "bf16" else np.zeros(N, dt)]
    return make


def _clamp_expect(args):
    x, lo, hi = (a.astype(np.float64) for a in args[:3])
    r = np.minimum(np.maximum(x, lo), hi).astype(args[0].dtype)
    return {3: _words(r) if args[0].dtype.itemsize == 2 and args[0].dtype != np.float16 else r}


for _t in ("f32", "f16", "bf16", "f64"):
    (CASES if _t in ("f32", "f16") else NUMPY_ONLY).append(Case(
        f"clampf_{_t}", "clampf", _kernel(
            "clampf", [("x", _t), ("lo", _t), ("hi", _t)], [("o", _t, "%r")],
            f"      %r = math.clampf %x to [%lo, %hi] : {_t}\n"),
        (2, 1, 1), (64, 1, 1), _clamp_inputs(_t), _clamp_expect, same_bits=_t in ("f32", "f16")))


# ---------------------------------------------------------------------------
# f64 copysign and round (LLVM: v_bfi_b32 on the high dword; lowerFROUND).
# ---------------------------------------------------------------------------
def _f64_inputs(r):
    x = r.standard_normal(N) * 10
    x[:12] = [0.5, -0.5, 1.5, -1.5, 2.5, -0.49999999999999994, 0.0, -0.0, np.inf, -np.inf,
              4503599627370497.0, -0.2]
    y = r.standard_normal(N)
    y[:4] = [-0.0, 0.0, -np.inf, np.nan]
    return [x, y, np.zeros(N), np.zeros(N)]


def _f64_expect(args):
    x, y = args[0], args[1]
    t = np.trunc(x)
    with np.errstate(invalid="ignore"):       # inf - inf: NaN, not >= 0.5
        rnd = t + np.copysign(np.where(np.abs(x - t) >= 0.5, 1.0, 0.0), x)
    return {2: np.copysign(x, y), 3: rnd}


CASES.append(Case("f64_copysign_round", "f64cr", _kernel(
    "f64cr", [("x", "f64"), ("y", "f64")], [("o_c", "f64", "%c"), ("o_r", "f64", "%rr")],
    "      %c = math.copysign %x, %y : f64\n      %rr = math.round %x : f64\n"),
    (2, 1, 1), (64, 1, 1), _f64_inputs, _f64_expect, same_bits=True))


# ---------------------------------------------------------------------------
# math.ipowi (upstream's definition; NumPy only: above), i8 / i32 / i64.
# ---------------------------------------------------------------------------
def _ipowi_inputs(w):
    def make(r):
        dt = {8: np.int8, **_NPI}[w]
        a = r.integers(-6, 7, N).astype(dt)
        e = r.integers(-3, 45, N).astype(dt)
        a[:8] = [1, -1, -1, 2, 3, -2, 7, 0]
        e[:8] = [-5, -3, -4, 0, w, w - 1, 1, 5]
        a[a == 0] = np.where(e[a == 0] < 0, 5, 0).astype(dt)    # 0 ** negative: undefined
        return [a, e, _scalar(dt, 3), np.zeros(N, dt), np.zeros(N, dt)]
    return make


def _ipowi_ref(a, e, w):
    if e == 0:
        return 1
    if e < 0:
        return 1 if a == 1 else ((-1 if e & 1 else 1) if a == -1 else 0)
    v = pow(a, e, 1 << w) if a >= 0 else pow(a % (1 << w), e, 1 << w)
    return v - (1 << w) if v >> (w - 1) else v


def _ipowi_expect(w):
    def expect(args):
        dt = args[0].dtype
        s = _int(args[2])
        return {3: np.array([_ipowi_ref(int(a), int(e), w) for a, e in zip(args[0], args[1])],
                            np.int64).astype(dt),
                4: np.array([_ipowi_ref(s, int(e), w) for e in args[1]], np.int64).astype(dt)}
    return expect


for _w in (8, 32, 64):
    _t = f"i{_w}"
    NUMPY_ONLY.append(Case(f"ipowi_i{_w}", "ipowi", _kernel(
        "ipowi", [("a", _t), ("e", _t)], [("o", _t, "%r"), ("ou", _t, "%ru")],
        f"      %r = math.ipowi %a, %e : {_t}\n      %ru = math.ipowi %s, %e : {_t}\n",
        scalars=[("s", _t)]), (2, 1, 1), (64, 1, 1), _ipowi_inputs(_w), _ipowi_expect(_w)))


# ---------------------------------------------------------------------------
# vector<4xi8> elementwise (four bytes of a word per lane; a uniform vector).
# Compares are in vector_i8_cmp below (LLVM's build of them uses SDWA
# compares, v_cmp_lt_i16_sdwa ..., table rows since session 16).
# ---------------------------------------------------------------------------
_V8 = """      %w1 = vector.broadcast %x : i32 to vector<1xi32>
      %v = vector.bitcast %w1 : vector<1xi32> to vector<4xi8>
      %u1 = vector.broadcast %s : i32 to vector<1xi32>
      %u = vector.bitcast %u1 : vector<1xi32> to vector<4xi8>
      %a = arith.addi %v, %u : vector<4xi8>
      %m = arith.muli %a, %v : vector<4xi8>
      %mx = arith.maxsi %m, %v : vector<4xi8>
      %mn = arith.minui %mx, %u : vector<4xi8>
      %c3 = arith.constant dense<3> : vector<4xi8>
      %sh = arith.shrsi %m, %c3 : vector<4xi8>
      %sel = arith.ori %mn, %sh : vector<4xi8>
      %xo = arith.xori %sel, %a : vector<4xi8>
      %r1 = vector.bitcast %xo : vector<4xi8> to vector<1xi32>
      %r = vector.extract %r1[0] : i32 from vector<1xi32>
"""


def _v8_inputs(r):
    x = r.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    x[:3] = [0, -1, 0x7f80ff01]
    return [x, np.int32(0x05fb7f80), np.zeros(N, np.int32)]


def _v8_expect(args):
    v = args[0].view(np.int8).reshape(N, 4)
    u = np.frombuffer(np.int32(args[1]).tobytes(), np.int8)
    a = v + u
    m = a * v
    mx = np.maximum(m, v)
    mn = np.minimum(mx.view(np.uint8), u.view(np.uint8)).view(np.int8)
    sh = m >> 3
    sel = mn | sh
    return {2: (sel ^ a).astype(np.int8).reshape(-1).view(np.int32)}


CASES.append(Case("vector_i8", "v8", _kernel(
    "v8", [("x", "i32")], [("o", "i32", "%r")], _V8, scalars=[("s", "i32")]),
    (2, 1, 1), (64, 1, 1), _v8_inputs, _v8_expect, same_bits=True))

# vector<4xi8> compares and selects: llc-22 -mcpu=gfx942 compares bytes with
# v_cmp_*_i16_sdwa / v_cmp_*_u16_sdwa (src*_sel:BYTE_k, sext).
_V8C = """      %w1 = vector.broadcast %x : i32 to vector<1xi32>
      %v = vector.bitcast %w1 : vector<1xi32> to vector<4xi8>
      %u1 = vector.broadcast %s : i32 to vector<1xi32>
      %u = vector.bitcast %u1 : vector<1xi32> to vector<4xi8>
      %lt = arith.cmpi slt, %v, %u : vector<4xi8>
      %mn = arith.select %lt, %v, %u : vector<4xi1>, vector<4xi8>
      %ug = arith.cmpi ugt, %v, %u : vector<4xi8>
      %d = arith.subi %v, %u : vector<4xi8>
      %xo = arith.select %ug, %d, %mn : vector<4xi1>, vector<4xi8>
      %r1 = vector.bitcast %xo : vector<4xi8> to vector<1xi32>
      %r = vector.extract %r1[0] : i32 from vector<1xi32>
"""


def _v8c_expect(args):
    v = args[0].view(np.int8).reshape(N, 4)
    u = np.frombuffer(np.int32(args[1]).tobytes(), np.int8)
    d = (v.astype(np.int16) - u).astype(np.int8)
    r = np.where(v.view(np.uint8) > u.view(np.uint8), d, np.minimum(v, u))
    return {2: r.astype(np.int8).reshape(-1).view(np.int32)}


CASES.append(Case("vector_i8_cmp", "v8c", _kernel(
    "v8c", [("x", "i32")], [("o", "i32", "%r")], _V8C, scalars=[("s", "i32")]),
    (2, 1, 1), (64, 1, 1), _v8_inputs, _v8c_expect, same_bits=True))
