"""gfx950's stochastic-rounding conversions on the emulator: v_cvt_sr_f16_f32,
v_cvt_sr_bf16_f32 and the v_cvt_scalef32_sr_* forms (fp8/bf8 from f32/f16/
bf16, two fp4 values, 32 fp6/bf6 values).

The references here are written from the sources' text, not from the
emulator (cc/emulator/SemScaleCvtSR.cpp lists them): src1 is the random word
and a packed form rounds element i with v_prng_b32 applied i times (the
CDNA4 ISA document; v_prng_b32 is its LFSR `(x << 1) ^ (x[31] ? 197 : 0)`);
the random word's top bits are added just below the bits the format keeps
and the sum truncated (AMD's rocjitsu emulator and HIP's OCP software
fallback); the scaled forms round the float x / 2^k (k the scale's exponent
field - 127). Besides the bit-exact references, each result must be one of
the two ml_dtypes neighbours of the value (exact values unchanged), random
words of zero must truncate toward zero, and over all random words of the
used bits the mean of the results must be the value itself (what makes the
rounding unbiased). clang-22's builtins (hip950/sr_cvt.hip) check the
operand order and op_sel encodings of real compiler output."""
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import aster
from lanes import run_lanes
from test_emu_formats import sr_fp8_reference

pytestmark = pytest.mark.filterwarnings("ignore:(overflow|invalid value|divide) encountered")

HIP = Path(__file__).with_name("hip950") / "sr_cvt.hip"
SMALL = {"fp8": (ml_dtypes.float8_e4m3fn, 8), "bf8": (ml_dtypes.float8_e5m2, 8),
         "fp6": (ml_dtypes.float6_e2m3fn, 6), "bf6": (ml_dtypes.float6_e3m2fn, 6),
         "fp4": (ml_dtypes.float4_e2m1fn, 4)}
# exponent bits, mantissa bits of the 6- and 4-bit formats
SMALL_EM = {"fp6": (2, 3), "bf6": (3, 2), "fp4": (2, 1)}
WIDE = {"f32": (np.float32, np.uint32), "f16": (np.float16, np.uint16),
        "bf16": (ml_dtypes.bfloat16, np.uint16)}


def prng(x):
    """v_prng_b32 (CDNA4 ISA): one LFSR step."""
    x = np.asarray(x, np.uint32)
    return (x << np.uint32(1)) ^ np.where(x >> np.uint32(31) == 1, np.uint32(197), np.uint32(0))


def sr_small(x, r, fmt):
    """f32 bits -> fp6/bf6/fp4 code, stochastic (finite or infinite x):
    saturate beyond the largest value, zero below half the smallest
    subnormal, else keep the top mantissa bits and carry when the dropped
    bits plus the random word's top bits (as many as were dropped, aligned to
    them) reach one unit of the last kept bit."""
    eb, mb = SMALL_EM[fmt]
    bias, emax = 2 ** (eb - 1) - 1, 2 ** eb - 1
    x = np.asarray(x, np.uint32).astype(np.int64)
    r = np.asarray(r, np.uint32).astype(np.int64)
    sign = np.where(x >> 31 == 1, 1 << (eb + mb), 0)
    a = np.abs(x.astype(np.uint32).view(np.float32).astype(np.float64))
    vmax = (2 - 2.0 ** -mb) * 2.0 ** (emax - bias)
    e = ((x >> 23) & 0xFF) - 127 + bias
    frac = x & 0x7FFFFF
    # normal target exponent
    drop = 23 - mb
    m = frac >> drop
    carry = (frac & ((1 << drop) - 1)) + (r >> (9 + mb)) >= (1 << drop)
    m2 = m + carry
    e2 = e + (m2 >> mb)
    normal = np.where(e2 > emax, (1 << (eb + mb)) - 1, (e2 << mb) | (m2 & ((1 << mb) - 1)))
    # subnormal target
    shift = np.clip((23 - mb) + (1 - e), 0, 31)
    full = frac | 0x800000
    q = full >> shift
    sub = q + ((full & ((1 << shift) - 1)) + (r >> (32 - shift)) >= (1 << shift))
    code = np.where(e <= 0, sub, normal)
    code = np.where(a > vmax, (1 << (eb + mb)) - 1, code)
    code = np.where(a < 2.0 ** (-bias - mb), 0, code)
    return (sign | code).astype(np.uint32)


def sr_half(x, r, bf):
    """f32 bits -> f16/bf16 bits, stochastic (finite, not an f32 denormal for
    bf16): align the significand to the format's smallest normal exponent
    (bits shifted out are dropped), add the random word's bits [31:9+m],
    truncate; a carry raises the exponent; overflow gives infinity."""
    mb, bias = (7, 127) if bf else (10, 15)
    x = np.asarray(x, np.uint32).astype(np.int64)
    r = np.asarray(r, np.uint32).astype(np.int64)
    sign = (x >> 31) << 15
    a = x & 0x7FFFFFFF
    e = np.where(a >> 23 == 0, -126, (a >> 23) - 127)
    sig = (a & 0x7FFFFF) | np.where(a >> 23 == 0, 0, 0x800000)
    te = np.maximum(e, 1 - bias)                      # exponent of the kept bits
    align = te - e
    s = np.where(align < 32, sig >> np.minimum(align, 31), 0)
    q = (s + (r >> (9 + mb))) >> (23 - mb)           # units of the last kept bit
    val = q.astype(np.float64) * 2.0 ** (te - mb).astype(np.float64)
    dt = ml_dtypes.bfloat16 if bf else np.float16
    out = val.astype(np.float32).astype(dt).view(np.uint16).astype(np.int64)  # exact, or inf
    out = np.where(a == 0, 0, out)
    return (out | sign).astype(np.uint32)


def wide_of(w, x):
    """float64 values -> bits of wide format w (exact for the values used)."""
    dt, ut = WIDE[w]
    return np.asarray(x, np.float64).astype(np.float32).astype(dt).view(ut).astype(np.uint32)


def value_of(w, bits):
    dt, ut = WIDE[w]
    return np.asarray(bits).astype(ut).view(dt).astype(np.float64)


def inputs(fmt, w, rng, n):
    """Values of wide format w around the small format's range: its values,
    midpoints, random points between neighbours, tiny and huge magnitudes,
    zeros and infinities (no NaN)."""
    dt, bits = SMALL[fmt]
    vals = np.unique(np.arange(1 << bits, dtype=np.uint8).view(dt).astype(np.float64))
    vals = vals[np.isfinite(vals)]
    pos = vals[vals >= 0]
    lo = rng.choice(pos[:-1], n)
    hi = pos[np.searchsorted(pos, lo) + 1]
    x = lo + (hi - lo) * rng.choice([0, 0.5, 0.25, 0.75, 0.1], n)
    kind = rng.integers(0, 8, n)
    x = np.where(kind == 0, rng.choice(vals, n), x)
    x = np.where(kind == 1, 2.0 ** rng.uniform(-30, 20, n), x)
    x = np.where(kind == 2, rng.choice([0.0, -0.0, np.inf, -np.inf], n), x)
    x = x * rng.choice([-1, 1], n)
    return wide_of(w, x)


def scales(rng, n, lo=-4, hi=4):
    k = rng.integers(lo, hi + 1, n)
    junk = rng.integers(0, 1 << 23, n) | (rng.integers(0, 2, n) << 31)
    return (((k + 127) << 23) | junk).astype(np.uint32), k


def scaled_f32(w, x, k):
    """x / 2^k as f32 bits (the float the instruction rounds)."""
    return (value_of(w, x) / 2.0 ** k).astype(np.float32).view(np.uint32)


def reference(fmt, f32bits, r):
    if fmt in ("fp8", "bf8"):
        dt = SMALL[fmt][0]
        f = f32bits.view(np.float32)
        out = np.zeros(f32bits.size, np.uint32)
        fin = np.isfinite(f)
        out[fin] = sr_fp8_reference(f32bits[fin], r[fin], dt)
        # infinities: the non-saturating OCP results (ml_dtypes)
        out[~fin] = f[~fin].astype(dt).view(np.uint8)
        return out
    return sr_small(f32bits, r, fmt)


def words(rng, n):
    """Random words, with the special ones often: none, all ones, only the
    top bit, only bits below any read, just short of one unit."""
    r = rng.integers(0, 2 ** 32, n, dtype=np.uint64).astype(np.uint32)
    special = np.array([0, 0xFFFFFFFF, 0x80000000, 0x000001FF, 0xFFFFF000], np.uint32)
    pick = rng.integers(0, 3, n) == 0
    r[pick] = rng.choice(special, pick.sum())
    return r


def op(name):
    return getattr(aster.Kernel, name)


N = 64 * 32


@pytest.mark.parametrize("fmt", ["fp8", "bf8"])
@pytest.mark.parametrize("w", ["f32", "f16", "bf16"])
@pytest.mark.parametrize("byte", [0, 3])
def test_scalef32_sr_one_value(fmt, w, byte):
    rng = np.random.default_rng(len(fmt) + 3 * len(w) + byte)
    x = inputs(fmt, w, rng, N)
    r, (sc, k) = words(rng, N), scales(rng, N)
    old = rng.integers(0, 2 ** 32, N, dtype=np.uint64).astype(np.uint32)
    got = run_lanes(lambda kk, g: op(f"v_cvt_scalef32_sr_{fmt}_{w}")(
        kk, g[3], g[0], g[1], g[2], op_sel=[0, 0, byte & 1, byte >> 1]), [x, r, sc], 1, old)[:, 0]
    sh = np.uint32(8 * byte)
    np.testing.assert_array_equal(got & ~(np.uint32(0xFF) << sh), old & ~(np.uint32(0xFF) << sh))
    code = (got >> sh) & np.uint32(0xFF)
    want = reference(fmt, scaled_f32(w, x, k), r)
    dt = SMALL[fmt][0]
    nan = np.isnan(want.astype(np.uint8).view(dt).astype(np.float32))
    assert np.isnan(code[nan].astype(np.uint8).view(dt).astype(np.float32)).all()
    bad = np.nonzero((code != want) & ~nan)[0]
    assert bad.size == 0, [f"x={x[i]:#x} r={r[i]:#x} k={k[i]}: {code[i]:#x} want {want[i]:#x}"
                           for i in bad[:6]]


@pytest.mark.parametrize("w", ["f32", "f16", "bf16"])
def test_scalef32_sr_pk_fp4(w):
    """Two values (a register pair for f32, the halves of src0 otherwise)
    into byte op_sel[3:2]; the second rounded with prng(src1)."""
    rng = np.random.default_rng(5 + len(w))
    x0, x1 = inputs("fp4", w, rng, N), inputs("fp4", w, rng, N)
    r, (sc, k) = words(rng, N), scales(rng, N)
    old = rng.integers(0, 2 ** 32, N, dtype=np.uint64).astype(np.uint32)
    name = f"v_cvt_scalef32_sr_pk_fp4_{w}"
    if w == "f32":
        src = np.stack([x0, x1], 1)
    else:
        src = x0 | x1 << np.uint32(16)
    got = run_lanes(lambda kk, g: op(name)(kk, g[3], g[0], g[1], g[2], op_sel=[0, 0, 1, 0]),
                    [src, r, sc], 1, old)[:, 0]
    np.testing.assert_array_equal(got & np.uint32(0xFFFF00FF), old & np.uint32(0xFFFF00FF))
    byte = (got >> np.uint32(8)) & np.uint32(0xFF)
    np.testing.assert_array_equal(byte & np.uint32(15), reference("fp4", scaled_f32(w, x0, k), r))
    np.testing.assert_array_equal(byte >> np.uint32(4),
                                  reference("fp4", scaled_f32(w, x1, k), prng(r)))


@pytest.mark.parametrize("fmt", ["fp6", "bf6"])
@pytest.mark.parametrize("w", ["f32", "f16", "bf16"])
def test_scalef32_sr_pk32(fmt, w):
    """32 values of the src0 tuple into six registers, element i rounded
    with prng applied i times to src1."""
    n = 64 * 4
    rng = np.random.default_rng(len(fmt) * 7 + len(w))
    x = inputs(fmt, w, rng, 32 * n).reshape(n, 32)
    r, (sc, k) = words(rng, n), scales(rng, n)
    name = f"v_cvt_scalef32_sr_pk32_{fmt}_{w}"
    src = x if w == "f32" else x[:, 0::2] | x[:, 1::2] << np.uint32(16)
    got = run_lanes(lambda kk, g: op(name)(kk, g[3], g[0], g[1], g[2]), [src, r, sc], 6)
    bits = np.unpackbits(got.view(np.uint8).reshape(n, 24), axis=1, bitorder="little")
    codes = (bits.reshape(n, 32, 6) * (1 << np.arange(6))).sum(2).astype(np.uint32)
    seeds = [r]
    for _ in range(31):
        seeds.append(prng(seeds[-1]))
    for i in range(32):
        np.testing.assert_array_equal(codes[:, i], reference(fmt, scaled_f32(w, x[:, i], k),
                                                             seeds[i]), err_msg=f"element {i}")


@pytest.mark.parametrize("bf", [False, True])
@pytest.mark.parametrize("hi", [0, 1])
def test_cvt_sr_f16_bf16(bf, hi):
    rng = np.random.default_rng(2 * bf + hi)
    dt = ml_dtypes.bfloat16 if bf else np.float16
    pats = np.arange(1 << 16, dtype=np.uint16).view(dt).astype(np.float64)
    pats = np.unique(pats[np.isfinite(pats)])
    lo = rng.choice(pats[:-1], N)
    hi_v = pats[np.searchsorted(pats, lo) + 1]
    x = lo + (hi_v - lo) * rng.uniform(0, 1, N)
    kind = rng.integers(0, 6, N)
    x = np.where(kind == 0, lo, x)
    x = np.where(kind == 1, rng.choice([0.0, -0.0, np.inf, -np.inf, 1e-42 if not bf else 0.0,
                                        70000.0 if not bf else 3e38], N), x)
    if bf:   # f32 denormals into bf16 are refused (test_nan_sources_are_refused)
        x = np.where(np.abs(x) < 2.0 ** -126, 2.0 ** -120, x)
    xb = np.asarray(x, np.float32).view(np.uint32)
    r = words(rng, N)
    old = rng.integers(0, 2 ** 32, N, dtype=np.uint64).astype(np.uint32)
    name = "v_cvt_sr_bf16_f32" if bf else "v_cvt_sr_f16_f32"
    got = run_lanes(lambda kk, g: op(name)(kk, g[2], g[0], g[1], op_sel=[0, 0, hi]),
                    [xb, r], 1, old)[:, 0]
    sh = np.uint32(16 * hi)
    np.testing.assert_array_equal(got & ~(np.uint32(0xFFFF) << sh),
                                  old & ~(np.uint32(0xFFFF) << sh))
    half = (got >> sh) & np.uint32(0xFFFF)
    want = sr_half(xb, r, bf)
    bad = np.nonzero(half != want)[0]
    assert bad.size == 0, [f"x={xb[i]:#x} r={r[i]:#x}: {half[i]:#x} want {want[i]:#x}"
                           for i in bad[:6]]
    # One of the two neighbours (ml_dtypes' values); exact values unchanged.
    f = xb.view(np.float32).astype(np.float64)
    g = half.astype(np.uint16).view(dt).astype(np.float64)
    fin = np.isfinite(f) & (np.abs(f) <= float(ml_dtypes.finfo(dt).max))
    table = np.unique(np.arange(1 << 16, dtype=np.uint16).view(dt).astype(np.float64))
    table = table[np.isfinite(table)]
    ff = f[fin]
    lo_n = table[np.clip(np.searchsorted(table, ff, "right") - 1, 0, table.size - 1)]
    hi_n = table[np.clip(np.searchsorted(table, ff, "left"), 0, table.size - 1)]
    assert ((g[fin] == lo_n) | (g[fin] == hi_n)).all()
    exact = lo_n == ff
    assert (g[fin][exact] == ff[exact]).all()


@pytest.mark.parametrize("fmt", ["fp4", "fp6", "bf6", "fp8", "bf8"])
def test_mean_over_all_random_words_is_the_value(fmt):
    """Stochastic rounding is unbiased: for values inside the normal range,
    over every random word of the bits the instruction reads (stepped so
    every combination of the top bits appears equally), the mean result is
    the value, to the resolution of those bits. Zero random bits truncate."""
    dt, _ = SMALL[fmt]
    vals = np.unique(np.arange(1 << SMALL[fmt][1], dtype=np.uint8).view(dt).astype(np.float64))
    vals = vals[np.isfinite(vals) & (vals > 0)]
    vals = vals[vals >= float(ml_dtypes.finfo(dt).smallest_normal)]
    rng = np.random.default_rng(len(fmt))
    lo = rng.choice(vals[:-1], 4)
    nxt = vals[np.searchsorted(vals, lo) + 1]
    x = (lo + (nxt - lo) * np.array([0.3, 0.5, 0.8125, 0.0625])).astype(np.float32)
    steps = 256
    r = (np.arange(steps, dtype=np.uint64) << np.uint64(24)).astype(np.uint32)  # top 8 bits
    xs = np.repeat(x.view(np.uint32), steps)
    rs = np.tile(r, x.size)
    one = np.full(xs.size, 127 << 23, np.uint32)                  # scale 1
    n = xs.size
    if fmt in ("fp4",):
        got = run_lanes(lambda kk, g: op("v_cvt_scalef32_sr_pk_fp4_f32")(
            kk, g[3], g[0], g[1], g[2]), [np.stack([xs, xs], 1), rs, one], 1)[:, 0] & 15
    elif fmt in ("fp6", "bf6"):
        got = run_lanes(lambda kk, g: op(f"v_cvt_scalef32_sr_pk32_{fmt}_f32")(
            kk, g[3], g[0], g[1], g[2]), [np.repeat(xs[:, None], 32, 1), rs, one], 6)[:, 0] & 63
    else:
        got = run_lanes(lambda kk, g: op(f"v_cvt_scalef32_sr_{fmt}_f32")(
            kk, g[3], g[0], g[1], g[2]), [xs, rs, one], 1)[:, 0] & 255
    bits = SMALL[fmt][1]
    vals_got = (got & np.uint32((1 << bits) - 1)).astype(np.uint8).view(dt) \
        .astype(np.float64).reshape(x.size, steps)
    mean = vals_got.mean(1)
    ulp = nxt - lo
    assert np.all(np.abs(mean - x.astype(np.float64)) <= ulp / steps), (mean, x)
    assert np.all(vals_got[:, 0] == lo)      # random word 0: truncation
    assert n % 64 == 0


@pytest.fixture(scope="module")
def clang_code(hip_hsaco):
    return hip_hsaco(HIP, arch="gfx950")


def test_clang_builtins(clang_code):
    n = 256
    rng = np.random.default_rng(9)
    x = (rng.uniform(-8, 8, n) * 2.0 ** rng.integers(-3, 4, n)).astype(np.float32)
    r = words(rng, n)
    sc, k = scales(rng, n, -2, 2)
    out = np.zeros(4 * n, np.uint32)
    o6 = np.zeros(8 * n, np.uint32)       # a 6-vector of uint takes 32 bytes
    aster.launch(clang_code, "sr_cvt", grid=n // 64, block=64,
                 args=[x, r, sc.view(np.float32), out, o6])
    out = out.reshape(n, 4)
    xb = x.view(np.uint32)
    np.testing.assert_array_equal(out[:, 0] >> np.uint32(16), sr_half(xb, r, True))
    np.testing.assert_array_equal(out[:, 0] & np.uint32(0xFFFF), 0)
    np.testing.assert_array_equal(out[:, 1] & np.uint32(0xFFFF), sr_half(xb, r, False))
    s32 = scaled_f32("f32", xb, k)
    np.testing.assert_array_equal((out[:, 2] >> np.uint32(16)) & np.uint32(0xFF),
                                  reference("fp8", s32, r))
    np.testing.assert_array_equal(out[:, 2] & np.uint32(0xFF00FFFF), 0x5A005A5A)
    neg = scaled_f32("f32", (-x).view(np.uint32), k)
    fp4 = (out[:, 3] >> np.uint32(8)) & np.uint32(0xFF)
    np.testing.assert_array_equal(fp4 & np.uint32(15), reference("fp4", s32, r))
    np.testing.assert_array_equal(fp4 >> np.uint32(4), reference("fp4", neg, prng(r)))
    got6 = np.ascontiguousarray(o6.reshape(n, 8)[:, :6])
    bits = np.unpackbits(got6.view(np.uint8).reshape(n, 24), axis=1, bitorder="little")
    codes = (bits.reshape(n, 32, 6) * (1 << np.arange(6))).sum(2).astype(np.uint32)
    seed = r
    for i in range(32):
        xi = (x * np.float32(i + 1)).view(np.uint32)
        np.testing.assert_array_equal(codes[:, i], reference("fp6", scaled_f32("f32", xi, k),
                                                             seed), err_msg=f"element {i}")
        seed = prng(seed)


@pytest.mark.parametrize("name,x,match", [
    ("v_cvt_sr_f16_f32", 0x7FC00000, "NaN"),
    ("v_cvt_sr_bf16_f32", 0x7FC00000, "NaN"),
    ("v_cvt_sr_bf16_f32", 0x00000001, "denormal"),
    ("v_cvt_scalef32_sr_pk_fp4_f16", 0x7E007E00, "NaN"),
    ("v_cvt_scalef32_sr_pk32_fp6_f16", 0x7E007E00, "NaN")])
def test_undefined_sources_are_refused(name, x, match):
    """What the sources do not define (a NaN's payload in f16/bf16, NaN into
    formats without one, an f32 denormal into bf16) stops the launch with a
    message naming it rather than inventing a result."""
    zeros, one = np.zeros(64, np.uint32), np.full(64, 127 << 23, np.uint32)
    x = np.full(64, x, np.uint32)
    with pytest.raises(aster.EmulatorError, match=match):
        if name.startswith("v_cvt_sr_"):
            run_lanes(lambda kk, g: op(name)(kk, g[2], g[0], g[1]), [x, zeros], 1)
        elif "pk32" in name:
            run_lanes(lambda kk, g: op(name)(kk, g[3], g[0], g[1], g[2]),
                      [np.repeat(x[:, None], 16, 1), zeros, one], 6)
        else:
            run_lanes(lambda kk, g: op(name)(kk, g[3], g[0], g[1], g[2]), [x, zeros, one], 1)
