"""Kernels of issue 26's code-quality work against LLVM's build (docs/lowering.md,
"The arith-gap kernels in the bench"), in lower_suite.py's Case form:

- math_exp2_log2_rsqrt_f32: math.exp2 / log2 / rsqrt of f32 on divergent
  operands (per-lane loads) and uniform ones (one value per workgroup), with
  the edge values: +-0, +-inf, NaN, denormals, the smallest normal, huge
  values, exp2's denormal results (x in [-150, -126)) and overflow. Upstream's
  convert-gpu-to-rocdl calls ROCm's ocml for all three (with or without
  fastmath flags); aster.lowering.llvm gives LLVM's build ocml's f32 bodies
  (exp2F.cl: llvm.exp2.f32, logF_base.h: llvm.log2.f32's bits, rsqrtF.cl: the
  scaled llvm.amdgcn.rsq.f32; cc/lower/LowerMath.cpp's header cites them).
- extended_uniform: mului_extended / mulsi_extended of uniform i32 and i64
  operands (kernel arguments and SALU results of them: the SALU forms,
  s_mul_i32 / s_mul_hi_u32 columns with the carries through SCC);
  extended_vector: of vector<2xi64> and vector<4xi32> (one
  scalar op per element). The divergent and mixed i32 / i64 cases are
  lower_suite_arith_gaps.py's extended_i32 / extended_i64.

Oracles we did not write: NumPy (float64 exp2 / log2 / 1 / sqrt rounded to
f32: tests/py/test_lower_perf.py bounds each result at 1 ulp of f32, the CDNA3
ISA's bound for v_exp_f32 / v_log_f32 / v_rsq_f32, denormal results included;
Python integers for the 64 x 64 -> 128-bit products) and LLVM's build of the
same kernel, bit for bit (same_bits).
"""
import numpy as np

from lower_suite import Case, module

G, B = 16, 64          # workgroups, lanes per workgroup
N = G * B
CASES = []


# ---------------------------------------------------------------------------
# f32 exp2 / log2 / rsqrt
# ---------------------------------------------------------------------------
_FEDGE = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, 2.0, 0.5, -1.0, 1e-45, 2.0 ** -149,
          2.0 ** -140, 1.5 * 2.0 ** -130, 2.0 ** -126, 2.0 ** -126 * (1 - 2.0 ** -23),
          -1e-40, 3e38, 3.4028235e38, 1e30, 1e-30, -126.0, -126.5, -127.0, -130.3, -149.0,
          -149.5, -150.0, -160.0, 127.9, 128.0, 200.0, -200.0, 64.0, -64.5, -125.99, 1e-38]


def _f_inputs(r):
    x = np.concatenate([r.uniform(-160.0, 130.0, N // 2),
                        np.exp2(r.uniform(-149.0, 127.0, N - N // 2))]).astype(np.float32)
    x[:len(_FEDGE)] = _FEDGE
    u = np.array(_FEDGE[:G], np.float32)
    return [x, u] + [np.zeros(N, np.float32) for _ in range(6)]


def _f_ref(x):
    """NumPy's float64 exp2, log2, 1 / sqrt of the f32 `x`, rounded to f32."""
    x = x.astype(np.float64)
    with np.errstate(all="ignore"):
        return [np.exp2(x).astype(np.float32), np.log2(x).astype(np.float32),
                (1.0 / np.sqrt(x)).astype(np.float32)]


def _f_expect(a):
    x, u = a[0], np.repeat(a[1], B)
    return {2 + k: v for k, v in enumerate(_f_ref(x) + _f_ref(u))}


_F_OPS = ("exp2", "log2", "rsqrt")
CASES.append(Case("math_exp2_log2_rsqrt_f32", "transc", module(f"""
    gpu.func @transc(%x: memref<{N}xf32>, %u: memref<{G}xf32>,
                     %de: memref<{N}xf32>, %dl: memref<{N}xf32>, %dr: memref<{N}xf32>,
                     %ue: memref<{N}xf32>, %ul: memref<{N}xf32>, %ur: memref<{N}xf32>) kernel
        attributes {{known_block_size = array<i32: {B}, 1, 1>}} {{
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %cb = arith.constant {B} : index
      %o = arith.muli %b, %cb : index
      %i = arith.addi %o, %t : index
      %xv = memref.load %x[%i] : memref<{N}xf32>
      %uv = memref.load %u[%b] : memref<{G}xf32>
""" + "".join(f"""      %r{p}{o[0]} = math.{o} %{p}v : f32
      memref.store %r{p}{o[0]}, %{'d' if p == 'x' else 'u'}{o[0]}[%i] : memref<{N}xf32>
""" for p in "xu" for o in _F_OPS) + """      gpu.return
    }"""), (G, 1, 1), (B, 1, 1), _f_inputs, _f_expect, tol=2.4e-7, same_bits=True))


# ---------------------------------------------------------------------------
# mului_extended / mulsi_extended: uniform i32 / i64, vectors.
# ---------------------------------------------------------------------------
_E64 = [0, 1, -1, 2**63 - 1, -2**63, 2**32 - 1, -2**32, 2**32, 3, -3, 0x123456789abcdef,
        -0x7edcba9876543210, 2**62 + 12345, -2**31, 2**31, 0xfffffffe]
_E32 = [0, 1, -1, 2**31 - 1, -2**31, 65535, -65536, 7, -7, 0x12345678, -0x7654321, 2**30,
        46341, -46341, 3, 0x7ffffffe]


def _wrap(v, w):
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


def _products(x, y, w):
    """(low, unsigned high, signed high) of the 2w-bit products, as signed w-bit ints."""
    m = (1 << w) - 1
    return (_wrap(x * y, w), _wrap(((x & m) * (y & m)) >> w, w), _wrap((x * y) >> w, w))


# Uniform operands are kernel arguments (SGPRs): p, q and the pairs the
# kernel derives from them with SALU ops, (p, q), (p, p), (q, q), (~p, q).
_P64, _Q64 = -2**63 + 1, -2
_P32, _Q32 = -2**31 + 1, -2


def _u_pairs(p, q, w):
    m = (1 << w) - 1
    return [(p, q), (p, p), (q, q), (_wrap(~p & m, w), q)]


def _u_inputs(r):
    return [np.int64(_P64), np.int64(_Q64), np.int32(_P32), np.int32(_Q32)] + \
        [np.zeros(4 * B, np.int64) for _ in range(3)] + [np.zeros(4 * B, np.int32) for _ in range(3)]


def _u_expect(a):
    out = {}
    for base, w in ((4, 64), (7, 32)):
        p, q = (int(a[0]), int(a[1])) if w == 64 else (int(a[2]), int(a[3]))
        cols = list(zip(*[_products(x, y, w) for x, y in _u_pairs(p, q, w)]))
        dt = np.int64 if w == 64 else np.int32
        for k in range(3):
            out[base + k] = np.repeat(np.array(cols[k], dt), B)
    return out


def _u_body(t, a, c, outs):
    """The four pairs of uniform `a`, `c` (type t): each pair's lo / unsigned
    hi / signed hi stored at [j * B + lane] of the three `outs`."""
    lines = [f"      %{a}n = arith.xori %{a}, %{a}m1 : {t}\n"]
    for j, (u, v) in enumerate(((a, c), (a, a), (c, c), (a + "n", c))):
        lines.append(f"      %{a}l{j}, %{a}h{j} = arith.mului_extended %{u}, %{v} : {t}\n"
                     f"      %{a}x{j}, %{a}s{j} = arith.mulsi_extended %{u}, %{v} : {t}\n"
                     f"      %{a}i{j} = arith.addi %t, %c{j * B} : index\n")
        for o, r in zip(outs, (f"%{a}l{j}", f"%{a}h{j}", f"%{a}s{j}")):
            lines.append(f"      memref.store {r}, %{o}[%{a}i{j}] : memref<{4 * B}x{t}>\n")
    return "".join(lines)


CASES.append(Case("extended_uniform", "extu", module(f"""
    gpu.func @extu(%p: i64, %q: i64, %a: i32, %c: i32, %lo: memref<{4 * B}xi64>,
                   %hu: memref<{4 * B}xi64>, %hs: memref<{4 * B}xi64>, %lo32: memref<{4 * B}xi32>,
                   %hu32: memref<{4 * B}xi32>, %hs32: memref<{4 * B}xi32>) kernel
        attributes {{known_block_size = array<i32: {B}, 1, 1>}} {{
      %t = gpu.thread_id x
      %pm1 = arith.constant -1 : i64
      %am1 = arith.constant -1 : i32
""" + "".join(f"      %c{j * B} = arith.constant {j * B} : index\n" for j in range(4))
    + _u_body("i64", "p", "q", ("lo", "hu", "hs")) + _u_body("i32", "a", "c", ("lo32", "hu32", "hs32"))
    + """      gpu.return
    }"""), (1, 1, 1), (B, 1, 1), _u_inputs, _u_expect, same_bits=True))


def _v_inputs(r):
    x = r.integers(-2**63, 2**63 - 1, 2 * N, dtype=np.int64)
    y = r.integers(-2**63, 2**63 - 1, 2 * N, dtype=np.int64)
    e = np.array(_E64, np.int64)
    x[:16], y[:16] = e, e[::-1]
    a = r.integers(-2**31, 2**31, 4 * N, dtype=np.int64).astype(np.int32)
    c = r.integers(-2**31, 2**31, 4 * N, dtype=np.int64).astype(np.int32)
    a[:16], c[:16] = np.array(_E32, np.int32), np.array(_E32[::-1], np.int32)
    return [x, y, a, c, np.zeros(2 * N, np.int64), np.zeros(2 * N, np.int64),
            np.zeros(4 * N, np.int32), np.zeros(4 * N, np.int32)]


def _v_expect(a):
    hu = [_products(int(p), int(q), 64)[1] for p, q in zip(a[0], a[1])]
    hs = [_products(int(p), int(q), 64)[2] for p, q in zip(a[0], a[1])]
    lo32 = [_products(int(p), int(q), 32)[0] for p, q in zip(a[2], a[3])]
    hs32 = [_products(int(p), int(q), 32)[2] for p, q in zip(a[2], a[3])]
    return {4: np.array(hu, np.int64), 5: np.array(hs, np.int64),
            6: np.array(lo32, np.int32), 7: np.array(hs32, np.int32)}


CASES.append(Case("extended_vector", "extv", module(f"""
    gpu.func @extv(%x: memref<{2 * N}xi64>, %y: memref<{2 * N}xi64>, %a: memref<{4 * N}xi32>,
                   %c: memref<{4 * N}xi32>, %hu: memref<{2 * N}xi64>, %hs: memref<{2 * N}xi64>,
                   %lo32: memref<{4 * N}xi32>, %hs32: memref<{4 * N}xi32>) kernel
        attributes {{known_block_size = array<i32: {B}, 1, 1>}} {{
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %cb = arith.constant {B} : index
      %o = arith.muli %b, %cb : index
      %i = arith.addi %o, %t : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %i2 = arith.muli %i, %c2 : index
      %i4 = arith.muli %i, %c4 : index
      %xv = vector.load %x[%i2] : memref<{2 * N}xi64>, vector<2xi64>
      %yv = vector.load %y[%i2] : memref<{2 * N}xi64>, vector<2xi64>
      %av = vector.load %a[%i4] : memref<{4 * N}xi32>, vector<4xi32>
      %cv = vector.load %c[%i4] : memref<{4 * N}xi32>, vector<4xi32>
      %l, %h = arith.mului_extended %xv, %yv : vector<2xi64>
      %l2, %h2 = arith.mulsi_extended %xv, %yv : vector<2xi64>
      %l3, %h3 = arith.mulsi_extended %av, %cv : vector<4xi32>
      vector.store %h, %hu[%i2] : memref<{2 * N}xi64>, vector<2xi64>
      vector.store %h2, %hs[%i2] : memref<{2 * N}xi64>, vector<2xi64>
      vector.store %l3, %lo32[%i4] : memref<{4 * N}xi32>, vector<4xi32>
      vector.store %h3, %hs32[%i4] : memref<{4 * N}xi32>, vector<4xi32>
      gpu.return
    }}"""), (G, 1, 1), (B, 1, 1), _v_inputs, _v_expect, same_bits=True))
