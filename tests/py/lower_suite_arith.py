"""amdgcn-lower's arith/math breadth cases: i64, f64, f16, bf16, i16/i8 and
the trigonometric functions (issue 26 item 2), in lower_suite.py's Case
form (each built by aster and by LLVM, both checked against NumPy).

The kernels read and write 64-bit and 16-bit values through memrefs of i32
(an i64 / f64 is two i32 words, little-endian; a 16-bit value the low or
high half of a word), so that they exercise the arith of these types only:
the upstream ops that assemble and split the words (extui, shli, ori,
trunci, shrui, bitcast) are lowered by both builds.

Expected values: NumPy int64/float64/float16 arithmetic (wrap-around
integers, IEEE-754 correctly rounded float ops) and ml_dtypes.bfloat16 for
bf16 rounding; an f16 fma's exact value is the float64 fma of f16 inputs
(exact for these magnitudes: products of 11-bit significands and the sum
fit 53 bits), rounded once.
"""
import numpy as np

from lower_suite import Case, module

CASES = []

N = 256


def _load64(name, mem, n2, ty="i64"):
    """MLIR that reads element %i of `mem` (pairs of i32) as an i64 (or f64) %name."""
    s = f"""
      %{name}_lo = memref.load %{mem}[%i2] : memref<{n2}xi32>
      %{name}_hi = memref.load %{mem}[%i21] : memref<{n2}xi32>
      %{name}_l = arith.extui %{name}_lo : i32 to i64
      %{name}_h0 = arith.extui %{name}_hi : i32 to i64
      %{name}_h = arith.shli %{name}_h0, %c32_64 : i64
      %{name}_i = arith.ori %{name}_l, %{name}_h : i64"""
    if ty == "f64":
        s += f"\n      %{name} = arith.bitcast %{name}_i : i64 to f64"
    else:
        s += f"\n      %{name} = arith.addi %{name}_i, %c0_64 : i64"
    return s


def _store64(val, mem, n2, ty="i64"):
    s = ""
    v = val
    if ty == "f64":
        s += f"\n      %{val}_b = arith.bitcast %{val} : f64 to i64"
        v = f"{val}_b"
    return s + f"""
      %{val}_l = arith.trunci %{v} : i64 to i32
      %{val}_s = arith.shrui %{v}, %c32_64 : i64
      %{val}_h = arith.trunci %{val}_s : i64 to i32
      memref.store %{val}_l, %{mem}[%i2] : memref<{n2}xi32>
      memref.store %{val}_h, %{mem}[%i21] : memref<{n2}xi32>"""


_PROLOGUE = """
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %i2 = arith.muli %i, %c2 : index
      %i21 = arith.addi %i2, %c1 : index
      %c32_64 = arith.constant 32 : i64
      %c0_64 = arith.constant 0 : i64"""


# ---------------------------------------------------------------------------
# i64: add/sub/mul, logic, shifts, compares, select, min/max, casts, a
# uniform (scalar) i64 kernel argument.
# ---------------------------------------------------------------------------
_I64_OPS = ["add", "sub", "mul", "xor", "shl", "shrsi", "shrui", "maxsi", "minui", "sel"]


def _i64_inputs(r):
    a = r.integers(-2**63, 2**63, N, dtype=np.int64)
    b = r.integers(-2**63, 2**63, N, dtype=np.int64)
    a[:8] = [0, -1, 2**63 - 1, -2**63, 1, 2**32 - 1, 2**32, -2**32]
    b[:8] = [0, 1, 1, -1, -1, 1, 2**32 - 1, 5]
    b[8:64] = r.integers(-2**31, 2**31, 56)        # high dwords of 0 / -1
    outs = [np.zeros(2 * N, np.int32) for _ in _I64_OPS]
    return [a.view(np.int32), b.view(np.int32), np.int64(0x123456789), *outs]


def _i64_expect(args):
    a, b, k = args[0].view(np.int64), args[1].view(np.int64), np.int64(args[2])
    sh = (b & 63).astype(np.uint64)
    au = a.view(np.uint64)
    with np.errstate(over="ignore"):
        res = {
            "add": a + b + k, "sub": a - b, "mul": a * b, "xor": a ^ b,
            "shl": (au << sh).view(np.int64), "shrsi": a >> sh.astype(np.int64),
            "shrui": (au >> sh).view(np.int64), "maxsi": np.maximum(a, b),
            "minui": np.minimum(au, b.view(np.uint64)).view(np.int64),
            "sel": np.where(a < b, a, b - 1),
        }
    return {3 + j: res[o].view(np.int32) for j, o in enumerate(_I64_OPS)}


def _i64_mlir():
    n2 = 2 * N
    outs = ", ".join(f"%o_{o}: memref<{n2}xi32>" for o in _I64_OPS)
    body = _PROLOGUE + _load64("a", "pa", n2) + _load64("b", "pb", n2) + """
      %c63 = arith.constant 63 : i64
      %c1_64 = arith.constant 1 : i64
      %add0 = arith.addi %a, %b : i64
      %add = arith.addi %add0, %k : i64
      %sub = arith.subi %a, %b : i64
      %mul = arith.muli %a, %b : i64
      %xor = arith.xori %a, %b : i64
      %s = arith.andi %b, %c63 : i64
      %shl = arith.shli %a, %s : i64
      %shrsi = arith.shrsi %a, %s : i64
      %shrui = arith.shrui %a, %s : i64
      %maxsi = arith.maxsi %a, %b : i64
      %minui = arith.minui %a, %b : i64
      %lt = arith.cmpi slt, %a, %b : i64
      %bm1 = arith.subi %b, %c1_64 : i64
      %sel = arith.select %lt, %a, %bm1 : i64"""
    for o in _I64_OPS:
        body += _store64(o, f"o_{o}", n2)
    return module(f"""
    gpu.func @i64ops(%pa: memref<{n2}xi32>, %pb: memref<{n2}xi32>, %k: i64, {outs}) kernel
        attributes {{known_block_size = array<i32: {N}, 1, 1>}} {{{body}
      gpu.return
    }}""")


CASES.append(Case("i64_arith", "i64ops", _i64_mlir(), (1, 1, 1), (N, 1, 1),
                  _i64_inputs, _i64_expect, same_bits=True))


# ---------------------------------------------------------------------------
# i64 on the scalar unit: a uniform loop over i64 values (SALU add/mul with
# carries, s_lshl_b64), the result written by every lane.
# ---------------------------------------------------------------------------
CASES.append(Case("i64_uniform", "i64u", module("""
    gpu.func @i64u(%k: i64, %o: memref<128xi32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c0 = arith.constant 0 : index
      %c5 = arith.constant 5 : index
      %i2 = arith.muli %i, %c2 : index
      %i21 = arith.addi %i2, %c1 : index
      %c32_64 = arith.constant 32 : i64
      %m = arith.constant 6364136223846793005 : i64
      %inc = arith.constant 1442695040888963407 : i64
      %r = scf.for %j = %c0 to %c5 step %c1 iter_args(%x = %k) -> (i64) {
        %y = arith.muli %x, %m : i64
        %z = arith.addi %y, %inc : i64
        %c3 = arith.constant 3 : i64
        %w = arith.shli %z, %c3 : i64
        %v = arith.xori %w, %z : i64
        scf.yield %v : i64
      }
      %ii = arith.index_cast %i : index to i64
      %rr = arith.addi %r, %ii : i64
      %rl = arith.trunci %rr : i64 to i32
      %rs = arith.shrui %rr, %c32_64 : i64
      %rh = arith.trunci %rs : i64 to i32
      memref.store %rl, %o[%i2] : memref<128xi32>
      memref.store %rh, %o[%i21] : memref<128xi32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [np.int64(-0x0123456789abcdef), np.zeros(128, np.int32)],
    lambda a: {1: _lcg(a[0]).view(np.int32)}, same_bits=True))


def _lcg(k):
    x = np.uint64(np.int64(k).view(np.uint64))
    with np.errstate(over="ignore"):
        for _ in range(5):
            z = x * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
            x = (z << np.uint64(3)) ^ z
        return (x + np.arange(64, dtype=np.uint64)).view(np.int64)


# ---------------------------------------------------------------------------
# f64: add, sub, mul, div (LLVM's v_div_scale/fmas/fixup expansion), fma,
# max, a compare + select, extf / truncf with f32, sitofp / fptosi with i32.
# ---------------------------------------------------------------------------
_F64_OPS = ["add", "sub", "mul", "div", "fma", "max", "sel", "ext", "sitofp"]


def _f64_inputs(r):
    a = r.standard_normal(N) * 1e3
    b = r.standard_normal(N)
    a[:10] = [0.0, -0.0, np.inf, -np.inf, 1.0, 1e300, 1e-300, 3.0, 5e-324, -2.5]
    b[:10] = [0.0, 1.0, np.inf, 2.0, 3.0, 1e-300, 1e300, 0.0, 2.0, np.nan]
    f = r.standard_normal(N).astype(np.float32)
    n = r.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    outs = [np.zeros(2 * N, np.int32) for _ in _F64_OPS]
    return [a.view(np.int32), b.view(np.int32), f, n, np.zeros(N, np.float32),
            np.zeros(N, np.int32), *outs]


def _fma(x, y, z):
    """Exact fma of float64 arrays, rounded once (fractions)."""
    from fractions import Fraction
    out = np.empty_like(x)
    for j, (p, q, s) in enumerate(zip(x, y, z)):
        if not (np.isfinite(p) and np.isfinite(q) and np.isfinite(s)):
            out[j] = p * q + s
        else:
            exact = Fraction(p) * Fraction(q) + Fraction(s)
            # an exact zero takes IEEE-754's sign rule for sums (6.3)
            out[j] = float(exact) if exact else p * q + s
    return out


def _f64_expect(args):
    a, b = args[0].view(np.float64), args[1].view(np.float64)
    f, n = args[2], args[3]
    with np.errstate(all="ignore"):
        res = {
            "add": a + b, "sub": a - b, "mul": a * b, "div": a / b,
            "fma": _fma(a, b, a), "max": np.fmax(a, b),
            "sel": np.where(a > b, a, b * 2.0), "ext": f.astype(np.float64) * 3.0,
            "sitofp": n.astype(np.float64) + 0.5,
        }
        out = {6 + j: res[o].view(np.int32) for j, o in enumerate(_F64_OPS)}
        out[4] = (a * b).astype(np.float32)                # truncf
        # fptosi of a value in i32 range
        out[5] = np.trunc(np.where(np.isfinite(a), np.clip(a, -2e9, 2e9), 0)).astype(np.int32)
    return out


def _f64_mlir():
    n2 = 2 * N
    outs = ", ".join(f"%o_{o}: memref<{n2}xi32>" for o in _F64_OPS)
    body = _PROLOGUE + _load64("a", "pa", n2, "f64") + _load64("b", "pb", n2, "f64") + f"""
      %fv = memref.load %pf[%i] : memref<{N}xf32>
      %nv = memref.load %pn[%i] : memref<{N}xi32>
      %c3 = arith.constant 3.0 : f64
      %c2f = arith.constant 2.0 : f64
      %half = arith.constant 0.5 : f64
      %big = arith.constant 2.0e9 : f64
      %nbig = arith.constant -2.0e9 : f64
      %zero = arith.constant 0.0 : f64
      %add = arith.addf %a, %b : f64
      %sub = arith.subf %a, %b : f64
      %mul = arith.mulf %a, %b : f64
      %div = arith.divf %a, %b : f64
      %fma = math.fma %a, %b, %a : f64
      %max = arith.maxnumf %a, %b : f64
      %gt = arith.cmpf ogt, %a, %b : f64
      %b2 = arith.mulf %b, %c2f : f64
      %sel = arith.select %gt, %a, %b2 : f64
      %e0 = arith.extf %fv : f32 to f64
      %ext = arith.mulf %e0, %c3 : f64
      %s0 = arith.sitofp %nv : i32 to f64
      %sitofp = arith.addf %s0, %half : f64
      %t = arith.truncf %mul : f64 to f32
      memref.store %t, %ot[%i] : memref<{N}xf32>
      %fin = arith.cmpf one, %a, %a : f64
      %c0 = arith.cmpf ord, %a, %zero : f64
      %inf = arith.constant 0x7FF0000000000000 : f64
      %ab = math.absf %a : f64
      %isf = arith.cmpf olt, %ab, %inf : f64
      %cl0 = arith.minnumf %a, %big : f64
      %cl1 = arith.maxnumf %cl0, %nbig : f64
      %cl = arith.select %isf, %cl1, %zero : f64
      %ti = arith.fptosi %cl : f64 to i32
      memref.store %ti, %oi[%i] : memref<{N}xi32>"""
    for o in _F64_OPS:
        body += _store64(o, f"o_{o}", n2, "f64")
    return module(f"""
    gpu.func @f64ops(%pa: memref<{n2}xi32>, %pb: memref<{n2}xi32>, %pf: memref<{N}xf32>,
                     %pn: memref<{N}xi32>, %ot: memref<{N}xf32>, %oi: memref<{N}xi32>, {outs}) kernel
        attributes {{known_block_size = array<i32: {N}, 1, 1>}} {{{body}
      gpu.return
    }}""")


CASES.append(Case("f64_arith", "f64ops", _f64_mlir(), (1, 1, 1), (N, 1, 1),
                  _f64_inputs, _f64_expect, same_bits=True,
                  nan_any={4: np.float32, **{6 + j: np.float64 for j in range(len(_F64_OPS))}}))


# ---------------------------------------------------------------------------
# f16 and bf16: each input word holds an f16 (low half) and a bf16 (high
# half). f16 add/mul/div/fma/compare on the f16 VALU, bf16 add/mul in f32
# rounded back (LLVM's gfx942 sequence), extf/truncf with f32.
# ---------------------------------------------------------------------------
_H_OPS = ["hadd", "hmul", "hdiv", "hfma", "hsel", "hext", "htrunc", "badd", "bmul", "btrunc"]


def _bf16():
    import ml_dtypes
    return ml_dtypes.bfloat16


def _half_inputs(r):
    import ml_dtypes
    h = (r.standard_normal(N) * 8).astype(np.float16)
    bf = (r.standard_normal(N) * 8).astype(ml_dtypes.bfloat16)
    h[:6] = [0.0, -0.0, np.inf, np.nan, 65504.0, 6e-8]
    words = h.view(np.uint16).astype(np.uint32) | (bf.view(np.uint16).astype(np.uint32) << 16)
    h2 = (r.standard_normal(N) * 2).astype(np.float16)
    bf2 = (r.standard_normal(N) * 2).astype(ml_dtypes.bfloat16)
    words2 = h2.view(np.uint16).astype(np.uint32) | (bf2.view(np.uint16).astype(np.uint32) << 16)
    f = (r.standard_normal(N) * 100).astype(np.float32)
    # f32 -> bf16 ties (exact halves) and NaN with a payload
    f[:4] = np.array([0x3f808000, 0x3f818000, 0x7fa00001, 0xff800000], np.uint32).view(np.float32)
    outs = [np.zeros(N, np.int32) for _ in _H_OPS]
    return [words.view(np.int32), words2.view(np.int32), f, *outs]


def _half_expect(args):
    import ml_dtypes
    w, w2, f = args[0].view(np.uint32), args[1].view(np.uint32), args[2]
    h = (w & 0xffff).astype(np.uint16).view(np.float16)
    b = (w >> 16).astype(np.uint16).view(ml_dtypes.bfloat16)
    h2 = (w2 & 0xffff).astype(np.uint16).view(np.float16)
    b2 = (w2 >> 16).astype(np.uint16).view(ml_dtypes.bfloat16)
    f32 = np.float32
    with np.errstate(all="ignore"):
        res = {
            "hadd": h + h2, "hmul": h * h2, "hdiv": h / h2,
            "hfma": (h.astype(np.float64) * h2.astype(np.float64) + h2.astype(np.float64)).astype(np.float16),
            "hsel": np.where(h < h2, h, h2),
            "hext": h.astype(f32) * f32(3),
            "htrunc": f.astype(np.float16),
            "badd": (b.astype(f32) + b2.astype(f32)).astype(ml_dtypes.bfloat16),
            "bmul": (b.astype(f32) * b2.astype(f32)).astype(ml_dtypes.bfloat16),
            "btrunc": f.astype(ml_dtypes.bfloat16),
        }
    out = {}
    for j, o in enumerate(_H_OPS):
        v = res[o]
        out[3 + j] = v.view(np.int32) if v.dtype == f32 else v.view(np.uint16).astype(np.int32)
    return out


def _half_mlir():
    outs = ", ".join(f"%o_{o}: memref<{N}xi32>" for o in _H_OPS)
    def st16(v, ty, o):
        return f"""
      %{v}_i = arith.bitcast %{v} : {ty} to i16
      %{v}_w = arith.extui %{v}_i : i16 to i32
      memref.store %{v}_w, %o_{o}[%i] : memref<{N}xi32>"""
    body = f"""
      %i = gpu.thread_id x
      %c16 = arith.constant 16 : i32
      %w = memref.load %pw[%i] : memref<{N}xi32>
      %w2 = memref.load %pw2[%i] : memref<{N}xi32>
      %fv = memref.load %pf[%i] : memref<{N}xf32>
      %wl = arith.trunci %w : i32 to i16
      %h = arith.bitcast %wl : i16 to f16
      %ws = arith.shrui %w, %c16 : i32
      %wh = arith.trunci %ws : i32 to i16
      %b = arith.bitcast %wh : i16 to bf16
      %w2l = arith.trunci %w2 : i32 to i16
      %h2 = arith.bitcast %w2l : i16 to f16
      %w2s = arith.shrui %w2, %c16 : i32
      %w2h = arith.trunci %w2s : i32 to i16
      %b2 = arith.bitcast %w2h : i16 to bf16
      %hadd = arith.addf %h, %h2 : f16
      %hmul = arith.mulf %h, %h2 : f16
      %hdiv = arith.divf %h, %h2 : f16
      %hfma = math.fma %h, %h2, %h2 : f16
      %lt = arith.cmpf olt, %h, %h2 : f16
      %hsel = arith.select %lt, %h, %h2 : f16
      %he = arith.extf %h : f16 to f32
      %c3 = arith.constant 3.0 : f32
      %hext = arith.mulf %he, %c3 : f32
      memref.store %hext, %o_hext_f[%i] : memref<{N}xf32>
      %htrunc = arith.truncf %fv : f32 to f16
      %badd = arith.addf %b, %b2 : bf16
      %bmul = arith.mulf %b, %b2 : bf16
      %btrunc = arith.truncf %fv : f32 to bf16"""
    for o, ty in [("hadd", "f16"), ("hmul", "f16"), ("hdiv", "f16"), ("hfma", "f16"),
                  ("hsel", "f16"), ("htrunc", "f16"), ("badd", "bf16"), ("bmul", "bf16"),
                  ("btrunc", "bf16")]:
        body += st16(o, ty, o)
    outs = outs.replace(f"%o_hext: memref<{N}xi32>", f"%o_hext_f: memref<{N}xf32>")
    return module(f"""
    gpu.func @half(%pw: memref<{N}xi32>, %pw2: memref<{N}xi32>, %pf: memref<{N}xf32>, {outs}) kernel
        attributes {{known_block_size = array<i32: {N}, 1, 1>}} {{{body}
      gpu.return
    }}""")


def _half_inputs_f(r):
    a = _half_inputs(r)
    a[3 + _H_OPS.index("hext")] = np.zeros(N, np.float32)
    return a


def _half_expect_f(args):
    e = _half_expect(args)
    j = 3 + _H_OPS.index("hext")
    e[j] = e[j].view(np.float32)
    return e


CASES.append(Case("f16_bf16_arith", "half", _half_mlir(), (1, 1, 1), (N, 1, 1),
                  _half_inputs_f, _half_expect_f, same_bits=True,
                  nan_any={3 + j: (np.float32 if o == "hext" else
                                   np.float16 if o[0] == "h" else _bf16())
                           for j, o in enumerate(_H_OPS)}))


# ---------------------------------------------------------------------------
# i16 / i8: sign- and zero-extension, arithmetic shift, signed division and
# remainder, compares, min - the ops that read the bits above the type.
# ---------------------------------------------------------------------------
def _small_inputs(r):
    x = r.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    y = r.integers(-2**31, 2**31, N, dtype=np.int64).astype(np.int32)
    y[(y & 0xffff) == 0] += 1
    y[(y & 0xff) == 0] += 3
    return [x, y] + [np.zeros(N, np.int32) for _ in range(6)]


def _small_expect(a):
    x16, y16 = a[0].astype(np.int16), a[1].astype(np.int16)
    x8, y8 = a[0].astype(np.int8), a[1].astype(np.int8)
    with np.errstate(all="ignore"):
        q = (np.fix(x16.astype(np.float64) / y16)).astype(np.int64).astype(np.int16)
        rem = (x16.astype(np.int64) - q.astype(np.int64) * y16).astype(np.int16)
        return {2: (x16 >> (y16 & 15)).astype(np.int32),
                3: q.astype(np.int32), 4: rem.astype(np.int32),
                5: np.where(x16 < y16, 1, 0).astype(np.int32),
                6: np.minimum(x8, y8).astype(np.uint8).astype(np.int32),
                7: ((x8.astype(np.uint8) >> (y8.astype(np.uint8) & 7)).astype(np.int32))}


CASES.append(Case("i16_i8_arith", "small", module(f"""
    gpu.func @small(%px: memref<{N}xi32>, %py: memref<{N}xi32>, %o1: memref<{N}xi32>,
                    %o2: memref<{N}xi32>, %o3: memref<{N}xi32>, %o4: memref<{N}xi32>,
                    %o5: memref<{N}xi32>, %o6: memref<{N}xi32>) kernel
        attributes {{known_block_size = array<i32: {N}, 1, 1>}} {{
      %i = gpu.thread_id x
      %x = memref.load %px[%i] : memref<{N}xi32>
      %y = memref.load %py[%i] : memref<{N}xi32>
      %x16 = arith.trunci %x : i32 to i16
      %y16 = arith.trunci %y : i32 to i16
      %c15 = arith.constant 15 : i16
      %s = arith.andi %y16, %c15 : i16
      %sh = arith.shrsi %x16, %s : i16
      %r1 = arith.extsi %sh : i16 to i32
      memref.store %r1, %o1[%i] : memref<{N}xi32>
      %q = arith.divsi %x16, %y16 : i16
      %r2 = arith.extsi %q : i16 to i32
      memref.store %r2, %o2[%i] : memref<{N}xi32>
      %m = arith.remsi %x16, %y16 : i16
      %r3 = arith.extsi %m : i16 to i32
      memref.store %r3, %o3[%i] : memref<{N}xi32>
      %lt = arith.cmpi slt, %x16, %y16 : i16
      %r4 = arith.extui %lt : i1 to i32
      memref.store %r4, %o4[%i] : memref<{N}xi32>
      %x8 = arith.trunci %x : i32 to i8
      %y8 = arith.trunci %y : i32 to i8
      %mn = arith.minsi %x8, %y8 : i8
      %r5 = arith.extui %mn : i8 to i32
      memref.store %r5, %o5[%i] : memref<{N}xi32>
      %c7 = arith.constant 7 : i8
      %s8 = arith.andi %y8, %c7 : i8
      %u = arith.shrui %x8, %s8 : i8
      %r6 = arith.extui %u : i8 to i32
      memref.store %r6, %o6[%i] : memref<{N}xi32>
      gpu.return
    }}"""), (1, 1, 1), (N, 1, 1), _small_inputs, _small_expect, same_bits=True))


# ---------------------------------------------------------------------------
# math.sin / math.cos (f32): LLVM lowers llvm.sin/cos.f32 natively on AMDGPU
# (x * 1/(2 pi), v_sin_f32 / v_cos_f32); upstream's convert-gpu-to-rocdl
# calls ROCm's ocml instead (not installed), so LLVM's build calls LLVM's
# intrinsics in its place (aster.lowering.llvm.OCML_AS_INTRINSIC). Same bits as LLVM's; NumPy in
# float64 within the absolute error bound the test states.
# ---------------------------------------------------------------------------
_TRIG = """
    gpu.func @trig(%x: memref<256xf32>, %s: memref<256xf32>, %c: memref<256xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<256xf32>
      %a = SIN
      memref.store %a, %s[%i] : memref<256xf32>
      %b = COS
      memref.store %b, %c[%i] : memref<256xf32>
      gpu.return
    }"""


def _trig_inputs(r):
    x = (r.uniform(-20, 20, 256)).astype(np.float32)
    x[:4] = [0.0, -0.0, np.float32(np.pi), 1e-6]
    return [x, np.zeros(256, np.float32), np.zeros(256, np.float32)]


CASES.append(Case("math_sin_cos", "trig",
                  module(_TRIG.replace("SIN", "math.sin %v : f32").replace("COS", "math.cos %v : f32")),
                  (1, 1, 1), (256, 1, 1), _trig_inputs,
                  lambda a: {1: np.sin(a[0].astype(np.float64)).astype(np.float32),
                             2: np.cos(a[0].astype(np.float64)).astype(np.float32)},
                  tol=2e-5, same_bits=True))
