"""amdgcn-lower's i64 division and the conversions of 64-bit values (issue
26 item 2), in lower_suite.py's Case form (each built by aster and by LLVM,
both checked against NumPy / Python integers).

i64 values travel as pairs of i32 words (lower_suite_arith.py's helpers).
Expected values: Python's exact integers (division truncated toward zero
for divsi / remsi, toward +-inf for ceildivsi / floordivsi as arith
defines them), NumPy's int64 <-> float32 / float16 casts (correctly
rounded), NumPy's float64 -> float16 cast (correctly rounded), and for
float64 -> bfloat16 an exact rounding computed here (ml_dtypes rounds
float64 -> bfloat16 through float32, twice: 1 + 2^-8 + 2^-30 becomes 1.0
there, 1 + 2^-7 correctly rounded, which is what LLVM's build gives).
"""
import numpy as np

from lower_suite import Case, module
from lower_suite_arith import _PROLOGUE, _load64, _store64

CASES = []

N = 256
M64 = (1 << 64) - 1

# ---------------------------------------------------------------------------
# i64 division and remainder, divergent operands (each lane its own).
# ---------------------------------------------------------------------------
_DIV_OPS = ["divui", "remui", "divsi", "remsi", "ceildivsi", "floordivsi", "ceildivui"]


def _div_inputs(r):
    a = r.integers(-2**63, 2**63, N, dtype=np.int64)
    b = r.integers(-2**63, 2**63, N, dtype=np.int64)
    edge = [0, 1, -1, 2**63 - 1, -2**63 + 1, 2**32, 2**32 - 1, 12345678901234567,
            -(2**40) - 17, 7, 2**63 - 1, -5]
    a[:12] = edge
    b[:12] = [1, 1, 3, -1, 2**32 + 1, 2**32, 2**31, -10, 2**40, 2**63 - 1, 2**32 - 1, 2]
    b[12:64] = r.integers(1, 2**31, 52)                       # high dword 0
    a[64:96] = r.integers(0, 2**32, 32)                       # both high dwords 0
    b[64:96] = r.integers(1, 2**20, 32)
    b[96:128] = r.integers(-2**20, 2**20, 32) | 1             # small, either sign
    b[b == 0] = 3
    outs = [np.zeros(2 * N, np.int32) for _ in _DIV_OPS]
    return [a.view(np.int32), b.view(np.int32), *outs]


def _tdiv(x, y):
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def _div_expect(args):
    a, b = args[0].view(np.int64), args[1].view(np.int64)
    res = {o: [] for o in _DIV_OPS}
    for x, y in zip(a.tolist(), b.tolist()):
        xu, yu = x & M64, y & M64
        q = _tdiv(x, y)
        res["divui"].append(xu // yu)
        res["remui"].append(xu % yu)
        res["divsi"].append(q)
        res["remsi"].append(x - q * y)
        res["ceildivsi"].append(-((-x) // y))
        res["floordivsi"].append(x // y)
        res["ceildivui"].append(-((-xu) // yu))
    return {2 + j: np.array([v & M64 for v in res[o]], np.uint64).view(np.int32)
            for j, o in enumerate(_DIV_OPS)}


def _div_mlir():
    n2 = 2 * N
    outs = ", ".join(f"%o_{o}: memref<{n2}xi32>" for o in _DIV_OPS)
    body = _PROLOGUE + _load64("a", "pa", n2) + _load64("b", "pb", n2)
    for o in _DIV_OPS:
        body += f"\n      %{o} = arith.{o} %a, %b : i64"
    for o in _DIV_OPS:
        body += _store64(o, f"o_{o}", n2)
    return module(f"""
    gpu.func @div64(%pa: memref<{n2}xi32>, %pb: memref<{n2}xi32>, {outs}) kernel
        attributes {{known_block_size = array<i32: {N}, 1, 1>}} {{{body}
      gpu.return
    }}""")


CASES.append(Case("i64_divrem", "div64", _div_mlir(), (1, 1, 1), (N, 1, 1),
                  _div_inputs, _div_expect, same_bits=True))


# ---------------------------------------------------------------------------
# i64 division of uniform operands (kernel arguments), then a divergent
# dividend over a uniform divisor.
# ---------------------------------------------------------------------------
def _udiv_expect(args):
    k, d = int(args[0]), int(args[1])
    lanes = np.arange(64)
    q = _tdiv(k, d)
    out1 = np.array([q & M64, (k - q * d) & M64] * 64, np.uint64)
    out2 = np.array([((k + int(t) * 0x100000000003) & M64) // (d & M64) for t in lanes], np.uint64)
    return {2: out1.view(np.int32), 3: out2.view(np.int32)}


CASES.append(Case("i64_divrem_uniform", "div64u", module("""
    gpu.func @div64u(%k: i64, %d: i64, %o: memref<256xi32>, %o2: memref<128xi32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c32_64 = arith.constant 32 : i64
      %q = arith.divsi %k, %d : i64
      %r = arith.remsi %k, %d : i64
      %i4 = arith.muli %i, %c4 : index
      %i41 = arith.addi %i4, %c1 : index
      %i42 = arith.addi %i4, %c2 : index
      %c3 = arith.constant 3 : index
      %i43 = arith.addi %i4, %c3 : index
      %ql = arith.trunci %q : i64 to i32
      %qs = arith.shrui %q, %c32_64 : i64
      %qh = arith.trunci %qs : i64 to i32
      %rl = arith.trunci %r : i64 to i32
      %rs = arith.shrui %r, %c32_64 : i64
      %rh = arith.trunci %rs : i64 to i32
      memref.store %ql, %o[%i4] : memref<256xi32>
      memref.store %qh, %o[%i41] : memref<256xi32>
      memref.store %rl, %o[%i42] : memref<256xi32>
      memref.store %rh, %o[%i43] : memref<256xi32>
      %ii = arith.index_cast %i : index to i64
      %step = arith.constant 17592186044419 : i64
      %off = arith.muli %ii, %step : i64
      %n = arith.addi %k, %off : i64
      %u = arith.divui %n, %d : i64
      %i2 = arith.muli %i, %c2 : index
      %i21 = arith.addi %i2, %c1 : index
      %ul = arith.trunci %u : i64 to i32
      %us = arith.shrui %u, %c32_64 : i64
      %uh = arith.trunci %us : i64 to i32
      memref.store %ul, %o2[%i2] : memref<128xi32>
      memref.store %uh, %o2[%i21] : memref<128xi32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [np.int64(-0x0123456789abcdef), np.int64(0x1234567), np.zeros(256, np.int32),
               np.zeros(128, np.int32)],
    _udiv_expect, same_bits=True))


# ---------------------------------------------------------------------------
# Conversions: i64 <-> f32, i64 -> f16, f16 -> i64, f64 -> i64,
# f64 -> f16 / bf16.
# ---------------------------------------------------------------------------
_CVT64_OUTS = ["sitofp", "uitofp", "fptosi", "fptoui", "d2si", "d2ui", "hsi"]


def _cvt_inputs(r):
    a = r.integers(-2**63, 2**63, N, dtype=np.int64)
    a[:10] = [0, 1, -1, 2**63 - 1, -2**63, 2**24 + 1, (1 << 40) + (1 << 16) + 1,
              -((1 << 40) + (1 << 16) + 1), 2**53 + 1, 2**32 - 1]
    a[10:40] >>= r.integers(0, 63, 30)
    f = (r.standard_normal(N) * 10.0 ** r.integers(0, 18, N)).astype(np.float32)
    f[:6] = [0.0, -0.0, 1.5, -1.5, 2.0**62, -(2.0**63)]
    fu = np.abs(f)
    fu[6:8] = [2.0**63, 1.8e19]
    d = r.standard_normal(N) * 10.0 ** r.integers(0, 18, N)
    d[:5] = [0.0, -0.0, 2.0**62 + 2048, -(2.0**63), -0.75]
    du = np.abs(d)
    du[5] = 1.8e19
    x = r.standard_normal(N) * 10.0 ** r.integers(-9, 6, N)   # f64 -> f16 / bf16
    x[:14] = [0.0, -0.0, np.inf, -np.inf, np.nan, 65504.0, 65520.0, 1e6, 6e-8, 2.9802322387695312e-08,
              1 + 2.0**-11 + 2.0**-40, 1 + 2.0**-8 + 2.0**-30, -3e-45, 1e-310]
    h = (r.standard_normal(N) * 1000).astype(np.float16)
    return [a.view(np.int32), f, fu, d.view(np.int32), du.view(np.int32), x.view(np.int32), h,
            np.zeros(N, np.float32), np.zeros(N, np.float32),
            *[np.zeros(2 * N, np.int32) for _ in range(5)],
            np.zeros(N, np.float16), np.zeros(N, np.float16), np.zeros(N, np.int16)]


def _bf16_exact(x):
    """Correctly rounded float64 -> bfloat16 bits (round to nearest even)."""
    import math
    out = np.empty(len(x), np.uint16)
    for j, v in enumerate(x.tolist()):
        sign = 0x8000 if math.copysign(1.0, v) < 0 else 0
        if math.isnan(v):
            out[j] = 0x7fc0 | sign
            continue
        a = abs(v)
        if a == 0 or math.isinf(a):
            out[j] = sign | (0x7f80 if a else 0)
            continue
        e = math.frexp(a)[1]                 # a in [2^(e-1), 2^e)
        q = max(e - 8, -133)                 # quantum: 8 significant bits, subnormals at 2^-133
        r = float(np.rint(math.ldexp(a, -q)))
        y = math.ldexp(r, q)
        if y >= 2.0**128:
            out[j] = sign | 0x7f80
            continue
        out[j] = (np.array([y], np.float32).view(np.uint32)[0] >> 16) | sign
    return out


def _cvt_expect(args):
    a = args[0].view(np.int64)
    f, fu = args[1], args[2]
    d, du = args[3].view(np.float64), args[4].view(np.float64)
    x, h = args[5].view(np.float64), args[6]
    with np.errstate(all="ignore"):
        return {
            7: a.astype(np.float32), 8: a.view(np.uint64).astype(np.float32),
            9: np.trunc(f).astype(np.int64).view(np.int32),
            10: np.array([int(v) for v in fu.tolist()], np.uint64).view(np.int32),
            11: np.trunc(d).astype(np.int64).view(np.int32),
            12: np.array([int(v) for v in du.tolist()], np.uint64).view(np.int32),
            13: np.trunc(h.astype(np.float32)).astype(np.int64).view(np.int32),
            14: a.astype(np.float32).astype(np.float16),
            15: x.astype(np.float16), 16: _bf16_exact(x).view(np.int16),
        }


def _cvt_mlir():
    n2 = 2 * N
    body = _PROLOGUE + _load64("a", "pa", n2) + _load64("d", "pd", n2, "f64") \
        + _load64("du", "pdu", n2, "f64") + _load64("x", "px", n2, "f64") + f"""
      %f = memref.load %pf[%i] : memref<{N}xf32>
      %fu = memref.load %pfu[%i] : memref<{N}xf32>
      %h = memref.load %ph[%i] : memref<{N}xf16>
      %sitofp = arith.sitofp %a : i64 to f32
      %uitofp = arith.uitofp %a : i64 to f32
      memref.store %sitofp, %os[%i] : memref<{N}xf32>
      memref.store %uitofp, %ou[%i] : memref<{N}xf32>
      %fptosi = arith.fptosi %f : f32 to i64
      %fptoui = arith.fptoui %fu : f32 to i64
      %d2si = arith.fptosi %d : f64 to i64
      %d2ui = arith.fptoui %du : f64 to i64
      %hsi = arith.fptosi %h : f16 to i64
      %ah = arith.sitofp %a : i64 to f16
      memref.store %ah, %oah[%i] : memref<{N}xf16>
      %xh = arith.truncf %x : f64 to f16
      memref.store %xh, %oxh[%i] : memref<{N}xf16>
      %xb = arith.truncf %x : f64 to bf16
      %xbi = arith.bitcast %xb : bf16 to i16
      memref.store %xbi, %oxb[%i] : memref<{N}xi16>"""
    for o in ["fptosi", "fptoui", "d2si", "d2ui", "hsi"]:
        body += _store64(o, f"o_{o}", n2)
    outs = ", ".join(f"%o_{o}: memref<{n2}xi32>" for o in ["fptosi", "fptoui", "d2si", "d2ui", "hsi"])
    return module(f"""
    gpu.func @cvt64(%pa: memref<{n2}xi32>, %pf: memref<{N}xf32>, %pfu: memref<{N}xf32>,
                    %pd: memref<{n2}xi32>, %pdu: memref<{n2}xi32>, %px: memref<{n2}xi32>,
                    %ph: memref<{N}xf16>, %os: memref<{N}xf32>, %ou: memref<{N}xf32>, {outs},
                    %oah: memref<{N}xf16>, %oxh: memref<{N}xf16>, %oxb: memref<{N}xi16>) kernel
        attributes {{known_block_size = array<i32: {N}, 1, 1>}} {{{body}
      gpu.return
    }}""")


CASES.append(Case("i64_f64_convert", "cvt64", _cvt_mlir(), (1, 1, 1), (N, 1, 1),
                  _cvt_inputs, _cvt_expect, same_bits=True))
