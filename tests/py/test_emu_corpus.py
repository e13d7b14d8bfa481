"""The HIP oracle corpus: kernels in tests/emulator/hip compiled by clang-22
at test time, run on aster's emulator with `aster.launch`, and compared with
NumPy references written from each kernel source's meaning (not from the
emulator). The matrix-core kernels are in test_emu_mfma_hip.py."""
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import aster
from conftest import HIP_INCLUDE
from exact import fma

HIP = Path(HIP_INCLUDE)                        # tests/emulator/hip


@pytest.fixture(scope="module")
def hip(hip_hsaco):
    """hip("vadd") -> the hsaco of tests/emulator/hip/vadd.hip."""
    return lambda name: hip_hsaco(HIP / f"{name}.hip")


def bits_equal(got, want):
    """Exact comparison including the sign of zero (NaN patterns must match too)."""
    got, want = np.asarray(got), np.asarray(want)
    u = {2: np.uint16, 4: np.uint32, 8: np.uint64}[got.dtype.itemsize]
    bad = np.nonzero(got.view(u) != want.astype(got.dtype).view(u))[0]
    assert bad.size == 0, (f"{bad.size} mismatches, first at {bad[:5]}: got {got.ravel()[bad[:5]]}"
                           f", want {want.ravel()[bad[:5]]}")


def cdiv(a, b):
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def cmod(a, b):
    return a - b * cdiv(a, b)


def i32(x):
    """Wraps a Python int to int32."""
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x & 0x80000000 else x


def test_vadd(hip):
    n = 1000                                    # 4 blocks of 256 overshoot n
    rng = np.random.default_rng(1)
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    c = np.full(n, -1.0, np.float32)
    st = aster.launch(hip("vadd"), "vadd", (4, 1, 1), (256, 1, 1), [a, b, c, np.int32(n)])
    bits_equal(c, a + b)
    assert st.wave_instructions > 0


def test_divergent_branches_and_per_lane_trip_counts(hip):
    n = 1000
    x = np.random.default_rng(7).integers(-1000, 1000, n).astype(np.int32)
    out = np.zeros(n, np.int32)
    aster.launch(hip("divergence"), "divergent_loop", (8, 1, 1), (128, 1, 1), [x, out, np.int32(n)])
    # Each item loops i % 37 times; odd (x + k) adds x * k, even xors k << 3;
    # the loop breaks once acc exceeds 100000.
    xi = x.astype(np.int64)
    trips = np.arange(n) % 37
    acc = np.zeros(n, np.int64)
    live = np.ones(n, bool)
    for k in range(37):
        on = live & (k < trips)
        odd = ((xi + k) & 1) == 1
        acc = np.where(on & odd, acc + xi * k, np.where(on & ~odd, acc ^ (k << 3), acc))
        live &= ~(on & (acc > 100000))
    np.testing.assert_array_equal(out, acc)


def test_lds_tree_reduction_4_waves_barriers(hip):
    groups = 6
    x = np.random.default_rng(2).standard_normal(256 * groups).astype(np.float32)
    out = np.zeros(groups, np.float32)
    st = aster.launch(hip("lds_reduce"), "lds_reduce", (groups, 1, 1), (256, 1, 1), [x, out])
    assert st.waves == 4 * groups and st.lds > 0
    # The kernel's tree: buf[t] += buf[t + s] for s = 128, 64, ..., 1, in f32.
    buf = x.reshape(groups, 256).copy()
    s = 128
    while s:
        buf[:, :s] = buf[:, :s] + buf[:, s:2 * s]
        s //= 2
    bits_equal(out, buf[:, 0])


@pytest.mark.parametrize("threads", [1, 3])
def test_global_atomics(hip, threads):
    n = 1000
    x = np.random.default_rng(3).integers(0, 100000, n).astype(np.int32)
    hist, counter = np.zeros(16, np.int32), np.zeros(1, np.int32)
    slots, mx, fsum = np.zeros(n, np.int32), np.zeros(1, np.int32), np.zeros(1, np.float32)
    aster.launch(hip("atomics"), "atomics", (16, 1, 1), (64, 1, 1),
                 [x, hist, counter, slots, mx, fsum, np.int32(n)], threads=threads)
    np.testing.assert_array_equal(hist, np.bincount(x & 15, minlength=16))
    assert counter[0] == n
    np.testing.assert_array_equal(slots, np.ones(n, np.int32))   # every slot handed out once
    assert mx[0] == x.max()
    assert fsum[0] == float((x & 7).sum())                      # integers: exact in any order


@pytest.mark.parametrize("threads", [1, 4])
def test_transpose_through_lds_2d_grid(hip, threads):
    rows, cols = 45, 70                        # not multiples of the 16x16 tile
    x = np.random.default_rng(4).standard_normal((rows, cols)).astype(np.float32)
    out = np.zeros((cols, rows), np.float32)
    aster.launch(hip("transpose"), "transpose", ((cols + 15) // 16, (rows + 15) // 16, 1),
                 (16, 16, 1), [x, out, np.int32(rows), np.int32(cols)], threads=threads)
    np.testing.assert_array_equal(out, x.T)


@pytest.mark.parametrize("version", [4, 5, 6])
def test_3d_grid_of_3d_blocks(hip_hsaco, version):
    """Code object v4 reads the workgroup size from the dispatch packet,
    v5/v6 from the hidden kernel arguments."""
    code = hip_hsaco(HIP / "grid3d.hip", flags=(f"-mcode-object-version={version}",))
    g, b = (3, 2, 2), (8, 4, 3)
    nx, ny, nz = (g[i] * b[i] for i in range(3))
    out = np.full((nz, ny, nx, 4), -1, np.int32)
    aster.launch(code, "grid3d", g, b, [out, np.int32(g[0]), np.int32(g[1])])
    z, y, x = np.meshgrid(np.arange(nz), np.arange(ny), np.arange(nx), indexing="ij")
    flat_tid = ((z % b[2]) * b[1] + y % b[1]) * b[0] + x % b[0]
    np.testing.assert_array_equal(out, np.stack([x, y, z, flat_tid], axis=-1))


def test_kernarg_scalars_of_several_types(hip):
    p = (np.arange(64, dtype=np.int32) * 3 - 50)
    out = np.zeros(64, np.float64)
    c, s, i, l = np.int8(-7), np.int16(-1234), np.int32(98765), np.int64(-123456789012)
    f, d, u8 = np.float32(3.5), np.float64(-0.125), np.uint8(200)
    aster.launch(hip("kernargs"), "kernargs", (1, 1, 1), (64, 1, 1), [out, c, s, i, l, f, d, u8, p])
    want = (float(c) + float(s) * 2 + float(i) * 3 + float(l) * 4 + float(f) * 5 + float(d) * 6
            + float(u8) * 7 + p.astype(np.float64) * 8)
    np.testing.assert_array_equal(out, want)


def test_wave_ops(hip):
    groups = 2
    x = np.random.default_rng(11).integers(-300, 700, 64 * groups).astype(np.int32)
    out = np.zeros((groups, 64, 8), np.int32)
    aster.launch(hip("waveops"), "waveops", (groups, 1, 1), (64, 1, 1), [x, out])
    t = np.arange(64)
    for g in range(groups):
        v = x[64 * g:64 * (g + 1)].astype(np.int64)
        odd = sum(int(v[k] & 1) << k for k in range(64))
        want = np.zeros((64, 8), np.int64)
        want[:, 0] = v[(t + 5) & 63]                       # ds_bpermute from lane t + 5
        want[:, 1] = v[0]                                  # readfirstlane
        want[:, 2] = v[17]                                 # readlane 17
        want[:, 3] = t                                     # mbcnt of all lanes below
        want[:, 4] = [i32(odd >> (k & 32)) for k in range(64)]     # ballot of odd values
        want[:, 5] = np.where(t % 16 == 0, -1, v[t - 1])   # row_shr:1 keeps old (-1) at row start
        want[:, 6] = v.sum()                               # butterfly sum over the wave
        want[:, 7] = v[t ^ 1]                              # swizzle: lane ^ 1
        np.testing.assert_array_equal(out[g], want, err_msg=f"workgroup {g}")


def test_scratch_array(hip):
    n = 128
    idx = np.random.default_rng(5).integers(0, 1000, n).astype(np.int32)
    out = np.zeros(n, np.int32)
    aster.launch(hip("scratch"), "scratch_array", (2, 1, 1), (64, 1, 1), [idx, out, np.int32(n)])
    want = []
    for i in range(n):
        local = [k * i + 1 for k in range(200)]
        for k in range(16):
            local[idx[(i + k) % n] % 200] += k
        want.append(sum(local[idx[(i * 3 + k) % n] % 200] for k in range(8)))
    np.testing.assert_array_equal(out, want)


def test_buffer_resource_bounds(hip):
    x = np.arange(64, dtype=np.int32) * 7 - 3
    out = np.full(64, -5, np.int32)
    records = 40 * 4                              # bytes in range: elements 0..39
    aster.launch(hip("buffer"), "buffer_ops", (1, 1, 1), (64, 1, 1), [x, out, np.int32(records)])
    # Out-of-range buffer loads return 0 and stores are dropped.
    np.testing.assert_array_equal(out, np.where(np.arange(64) < 40, x * 2 + 1, -5))


def _collatz_steps(x):
    n = 0
    while x != 1 and n < 1000:
        x = 3 * x + 1 if x & 1 else cdiv(x, 2)
        n += 1
    return n


def _pick(v):
    return [v * 3, v ^ 0x55, v - 100, i32(v << 2), -v, cdiv(v, 3), cmod(v, 7), 42][v & 7]


def test_calls_switch_and_stack(hip):
    n = 200
    x = np.random.default_rng(17).integers(-20000, 80000, n).astype(np.int32)
    coef = np.array([0.5, -1.25, 2.0, 0.75, -0.125], np.float32)
    out_i, out_f = np.zeros(2 * n, np.int32), np.zeros(n, np.float32)
    aster.launch(hip("calls"), "calls", ((n + 63) // 64, 1, 1), (64, 1, 1),
                 [x, coef, out_i, out_f, np.int32(n)])
    want_i = np.zeros(2 * n, np.int64)
    for i, v in enumerate(x.tolist()):
        want_i[2 * i] = _collatz_steps(cmod(v, 1000) + 1)
        want_i[2 * i + 1] = _pick(v)
    np.testing.assert_array_equal(out_i, want_i)
    xs = (np.arange(n) % 10).astype(np.float32) * np.float32(0.1)
    poly = np.zeros(n, np.float64)
    for c in coef[::-1].astype(np.float64):                # Horner, may be fused on the GPU
        poly = poly * xs + c
    np.testing.assert_allclose(out_f, poly, rtol=1e-6, atol=1e-7)


def test_softmax_rows(hip):
    rows = 3
    x = np.random.default_rng(18).uniform(-5, 5, 64 * rows).astype(np.float32)
    y = np.zeros_like(x)
    aster.launch(hip("calls"), "softmax64", (rows, 1, 1), (64, 1, 1), [x, y])
    r = x.reshape(rows, 64).astype(np.float64)
    e = np.exp(r - r.max(axis=1, keepdims=True))
    np.testing.assert_allclose(y.reshape(rows, 64), e / e.sum(axis=1, keepdims=True), rtol=1e-5,
                               atol=1e-7)


def test_sdwa_dpp_dot_and_64bit_atomics(hip):
    x = np.random.default_rng(23).integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    out = np.zeros((64, 8), np.int32)
    dsum, maxbits, fmax = np.zeros(1, np.float64), np.zeros(1, np.uint64), np.zeros(1, np.float32)
    aster.launch(hip("misc"), "misc", (1, 1, 1), (64, 1, 1), [x, out, dsum, maxbits, fmax])
    v = [int(a) for a in x]
    sb = lambda u, k: ((u >> (8 * k)) & 0xFF) - (256 if (u >> (8 * k)) & 0x80 else 0)  # noqa: E731
    ub = lambda u, k: (u >> (8 * k)) & 0xFF  # noqa: E731
    want = np.zeros((64, 8), np.int64)
    for t in range(64):
        u, row = v[t], t // 16
        want[t, 0] = ub(u, 1) + sb(u, 2)
        want[t, 1] = i32(5 + sum(sb(u, k) * sb(v[63 - t], k) for k in range(4)))
        want[t, 2] = math.trunc(2.0 * (u & 15) - ((u >> 4) & 15) + 0.5)
        # row_bcast:15 with row mask 0xa: rows 1 and 3 get the last lane of
        # the row before, rows 0 and 2 keep the old value 0.
        want[t, 3] = i32(v[15]) if row == 1 else i32(v[47]) if row == 3 else 0
        want[t, 4] = i32(v[16 * row + 15 - t % 16])                               # row_mirror
        s16 = (u >> 3) & 0xFFFF
        want[t, 5] = ((u * 3) & 0xFFFF) + (s16 - 0x10000 if s16 & 0x8000 else s16)
        want[t, 6] = i32(7 + sum(ub(u, k) * ub(v[t ^ 1], k) for k in range(4)))
        want[t, 7] = i32(v[63])
    np.testing.assert_array_equal(out, want)
    assert dsum[0] == float(sum(u & 255 for u in v))
    assert int(maxbits[0]) == max((u << 32) | t for t, u in enumerate(v))
    assert fmax[0] == max(np.float32(u % 1000) * np.float32(0.5) for u in v)


def test_device_globals_and_relocations(hip):
    code = hip("globals")
    for _ in range(2):                         # globals start from their initial values each launch
        out, out2 = np.zeros(128, np.float32), np.zeros(128, np.int32)
        aster.launch(code, "globals", (1, 1, 1), (128, 1, 1), [out, out2])
        t = np.arange(128)
        np.testing.assert_array_equal(out, (t % 8 + 1) + 128.0)   # table + counter of 128 items
        np.testing.assert_array_equal(out2, 10 * (t % 3 + 1))      # pointer table a0, a1, a2


def test_f32_math(hip):
    n = 256
    rng = np.random.default_rng(21)
    a = rng.uniform(-50, 50, n).astype(np.float32)
    b = (rng.uniform(0.25, 20, n) * rng.choice([-1, 1], n)).astype(np.float32)
    a[0], a[1], b[2], a[3] = 0.0, -0.0, 1e-3, 1e6
    out = np.zeros((n, 16), np.float32)
    aster.launch(hip("f32_math"), "f32_math", (n // 64, 1, 1), (64, 1, 1), [a, b, out, np.int32(n)])
    f = np.float32
    want = np.zeros((n, 16), np.float32)
    with np.errstate(all="ignore"):
        want[:, 0] = a / b
        want[:, 1] = np.sqrt(np.abs(a))
        want[:, 2] = fma(a, b, np.float32(1.5), np.float32)   # fmaf: one rounding
        want[:, 3] = np.fmin(a, b)
        want[:, 4] = np.fmax(a, b)
        want[:, 5] = np.floor(a)
        want[:, 6] = np.ceil(b)
        want[:, 7] = np.trunc(a * f(7)).astype(np.int32).astype(np.float32)
        want[:, 8] = np.trunc(a * f(3.3))
        want[:, 9] = np.rint(b * f(2.5))
        want[:, 10] = np.trunc(np.abs(a * f(100))).astype(np.uint32).astype(np.float32)
        want[:, 11] = np.copysign(a, b)
        want[:, 12] = np.ldexp(a, [cmod(int(y), 8) for y in b])
    bits_equal(out[:, :13], want[:, :13])
    # The hardware approximations (rcp, exp2, log2): within 2.5e-7 relative.
    approx = np.stack([1 / b.astype(np.float64), np.exp2((b * f(0.1)).astype(np.float64)),
                       np.log2((np.abs(a) + f(1)).astype(np.float64))], axis=1)
    np.testing.assert_allclose(out[:, 13:], approx, rtol=2.5e-7, atol=1e-30)


def test_int_math(hip):
    n = 256
    rng = np.random.default_rng(9)
    a = (rng.integers(0, 2**31, n) * rng.choice([-1, 1], n)).astype(np.int32)
    b = np.where(np.arange(n) % 5 == 0, rng.integers(-50, 50, n),
                 rng.integers(-2**31, 2**31, n)).astype(np.int32)
    a[0], b[0], b[1] = -2**31, -1, 0
    out = np.zeros((n, 16), np.int32)
    aster.launch(hip("int_math"), "int_math", (n // 64, 1, 1), (64, 1, 1), [a, b, out, np.int32(n)])
    M = 0xFFFFFFFF
    want = np.zeros((n, 16), np.int64)
    for i, (x, y) in enumerate(zip(a.tolist(), b.tolist())):
        ux, uy = x & M, y & M
        lx, ly = x * 123457, y - 99
        p64 = (lx * ly) & (2**64 - 1)
        p64 -= (1 << 64) if p64 >> 63 else 0
        want[i] = [
            (i32(cdiv(x, y)) if y else 0), (0 if y in (0, -1) else cmod(x, y)),
            (i32(ux // uy) if uy else 0), (i32(ux % uy) if uy else 0),
            (x * y) >> 32, i32((ux * uy) >> 32),
            i32(ux << (y & 31)), x >> (y & 31), i32(ux >> (uy & 31)),
            bin(ux).count("1"), 32 - ux.bit_length(),
            min(x, y), i32(max(ux, uy)),
            i32(p64 >> 7), (i32(cdiv(lx, ly)) if ly else 0),
            i32(int(f"{ux:032b}"[::-1], 2) ^ ((x * y) & M)),
        ]
    np.testing.assert_array_equal(out, want)


def test_f16_math(hip):
    n = 256
    rng = np.random.default_rng(4)
    h = np.float16
    a = rng.uniform(-30, 30, n).astype(h)
    b = (rng.uniform(0.5, 8, n) * rng.choice([-1, 1], n)).astype(h)
    c = rng.uniform(-100, 100, n).astype(h)
    out, fout = np.zeros((n, 12), h), np.zeros((n, 2), np.float32)
    aster.launch(hip("f16_math"), "f16_math", (n // 64, 1, 1), (64, 1, 1),
                 [a, b, c, out, fout, np.int32(n)])
    # f16 +,-,*: the exact result rounded once (numpy's f32 intermediate
    # holds f16 products exactly and, with 24 >= 2*11+2 bits, sums round once).
    x, y, z = (v.astype(np.float64) for v in (a, b, c))
    want = np.zeros((n, 12), h)
    want[:, 0] = a + b
    want[:, 1] = a * b
    want[:, 2] = a - c
    want[:, 3] = (x * y + z).astype(h)                    # fma: exact in f64 for these ranges
    want[:, 4] = np.where(a > b, a, b)
    want[:, 5] = (a.astype(np.float32) * np.float32(0.3)).astype(h)
    want[:, 6] = np.trunc(b * h(10)).astype(np.int32).astype(h)
    want[:, 7] = a * b + b                                # packed p * q + q, rounded per step
    want[:, 8] = b * c + c
    want[:, 9] = a + b
    want[:, 10] = b + c
    want[:, 11] = np.trunc(np.abs(c)).astype(np.uint16).astype(h)
    fused = want.copy()                                   # ... or fused (one rounding)
    fused[:, 7] = (x * y + y).astype(h)
    fused[:, 8] = (y * z + z).astype(h)
    o16 = out.view(np.uint16)
    ok = (o16 == want.view(np.uint16)) | (o16 == fused.view(np.uint16))
    bad = np.argwhere(~ok)
    assert bad.size == 0, f"f16 mismatches at (item, output) {bad[:5].tolist()}"
    bits_equal(fout[:, 0], a.astype(np.float32) * b.astype(np.float32))
    np.testing.assert_allclose(fout[:, 1], (x / y).astype(h).astype(np.float32), rtol=1e-3)


def test_f64_math(hip):
    n = 128
    rng = np.random.default_rng(8)
    a = rng.uniform(-1000, 1000, n) / 7.0
    b = rng.uniform(0.01, 50, n) * rng.choice([-1, 1], n) / 3.0
    out = np.zeros((n, 10), np.float64)
    aster.launch(hip("f64_math"), "f64_math", (n // 64, 1, 1), (64, 1, 1), [a, b, out, np.int32(n)])
    want = np.stack([
        a * b + a,
        [float(Fraction(x) * Fraction(y) - 1) for x, y in zip(a, b)],   # fma: one rounding
        a / b, np.sqrt(np.abs(b)), np.fmin(a, b), np.floor(a),
        np.trunc(b * 3.0).astype(np.int32).astype(np.float64),
        (a * 1.1).astype(np.float32).astype(np.float64), np.ceil(b), a - b], axis=1)
    # x * y + x may be contracted to an fma (one rounding) or not (two).
    fused = np.array([float(Fraction(x) * Fraction(y) + Fraction(x)) for x, y in zip(a, b)])
    assert ((out[:, 0] == want[:, 0]) | (out[:, 0] == fused)).all()
    bits_equal(out[:, 1:], want[:, 1:])

