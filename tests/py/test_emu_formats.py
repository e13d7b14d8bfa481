"""Number formats through real gfx942 conversion instructions on the
emulator, against ml_dtypes / NumPy: every f16, bf16, fp8 and bf8 bit pattern
to f32, and f32 to each narrow format for every representable narrow value,
the f32 neighbours of every rounding midpoint, a sample of every f32 exponent
and the specials (zeros, denormals, infinities, NaNs).

gfx942's 8-bit floats are the FNUZ formats (E4M3FNUZ for fp8, E5M2FNUZ for
bf8: no infinities, no negative zero, 0x80 is the only NaN; "gfx940/gfx941/
gfx942: FNUZ FP8 yes, OCP FP8 no", HIP documentation, "FP8 numbers",
rocm.docs.amd.com/projects/HIP/en/docs-6.2.0/reference/fp8_numbers.html),
which ml_dtypes implements as float8_e4m3fnuz / float8_e5m2fnuz. Rounding
is to nearest even (the default MODE.round). Out-of-range values, infinities
and NaNs are expected to convert as ml_dtypes converts them (to NaN, 0x80):
the sources at hand state no other rule for the unclamped instruction, and
the instruction table has no clamp for v_cvt_pk_fp8_f32, so saturation is not
tested here. gfx942 has no bf16 conversion instruction (v_cvt_pk_bf16_f32 and
v_cvt_f32_bf16 are gfx950's), so bf16 goes through integer VALU code the way
compilers emit it.

gfx950 (CDNA4) code gives the same fp8/bf8 instructions the OCP formats
(float8_e4m3fn / float8_e5m2 in ml_dtypes; "gfx950 uses OCP f8 (E4M3 bias 7,
IEEE inf/NaN, max normal 448) while gfx942 uses FNUZ", ROCm/rocm-libraries
pull request 9113; the formats are those of the OCP 8-bit floating point
specification 1.0). Without clamp the conversions are expected to be the
OCP specification's non-saturating ones, which ml_dtypes implements: E4M3
overflow and infinity give NaN (S.1111.111), E5M2 overflow gives infinity,
zero and underflow keep their sign (AMD's own emulator, rocjitsu, returns the
signed E4M3 NaN for non-saturating overflow and infinity: ROCm/rocm-systems
pull request 8800). The fp8/bf8 tests run once per processor."""
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import aster
from aster import s, v, vcc
from conftest import HIP_INCLUDE
from exact import fma

U32 = aster.ptr(np.uint32)
# Converting NaN, infinity and out-of-range values is the point here.
pytestmark = pytest.mark.filterwarnings("ignore:(overflow|invalid value) encountered")

E4M3, E5M2, BF16 = ml_dtypes.float8_e4m3fnuz, ml_dtypes.float8_e5m2fnuz, ml_dtypes.bfloat16
# The fp8 and bf8 formats of each processor's fp8/bf8 instructions.
FP8_FORMATS = {"gfx942": (E4M3, E5M2), "gfx950": (ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2)}


def fp8_cases(fp8_mnemonic, bf8_mnemonic):
    """(arch, mnemonic, dtype) for the fp8 and bf8 forms on every processor."""
    return [pytest.param(arch, mn, dt, id=f"{arch}-{mn}")
            for arch, (e4m3, e5m2) in FP8_FORMATS.items()
            for mn, dt in ((fp8_mnemonic, e4m3), (bf8_mnemonic, e5m2))]


def convert(emit, x, r=None, arch="gfx942"):
    """y[i] = f(x[i], r[i]) for every item, by a kernel built with aster's
    builder for `arch`: `emit(k)` writes the instructions computing v[3] from
    v[2] (and v[4] = r[i]). Returns y (uint32)."""
    n = x.size
    m = aster.Module(arch)
    k = m.kernel("cvt", args=[("x", U32), ("r", U32), ("y", U32), ("n", np.int32)],
                 block=(256, 1, 1))
    for i, name in enumerate(("x", "r", "y", "n")):
        k.load_arg(name, s[4 + 2 * i:6 + 2 * i] if name != "n" else s[10])
    k.s_mul_i32(s[11], k.workgroup_id("x"), 256)
    k.v_add_u32(v[1], s[11], k.workitem_id("x"))
    k.s_waitcnt(lgkmcnt=0)
    k.v_cmp_gt_u32(vcc, s[10], v[1])
    k.s_and_saveexec_b64(s[12:14], vcc)
    k.v_lshlrev_b32(v[1], 2, v[1])
    k.global_load_dword(v[2], v[1], s[4:6])
    k.global_load_dword(v[4], v[1], s[6:8])
    k.v_mov_b32(v[3], 0x5A5A5A5A)            # bits a partial write must keep
    k.s_waitcnt(vmcnt=0)
    emit(k)
    k.global_store_dword(v[1], v[3], s[8:10])
    k.s_endpgm()
    x = np.ascontiguousarray(x).view(np.uint32)
    r = np.zeros_like(x) if r is None else np.ascontiguousarray(r, np.uint32)
    y = np.zeros_like(x)
    aster.launch(m.hsaco(), "cvt", ((n + 255) // 256, 1, 1), (256, 1, 1), [x, r, y, np.int32(n)])
    return y


def narrow_patterns(bits):
    return np.arange(1 << bits, dtype=np.uint32)


def f32_inputs(dtype):
    """f32 bit patterns hitting every output pattern and rounding boundary of
    `dtype`: every finite value, its f32 neighbours, every midpoint between
    neighbours and the f32 values either side of it (both signs), a sample of
    every f32 exponent, and the specials."""
    nbits = 8 * np.dtype(dtype).itemsize
    pats = narrow_patterns(nbits).astype({8: np.uint8, 16: np.uint16}[nbits]).view(dtype)
    vals = np.unique(np.abs(pats.astype(np.float64)))
    vals = vals[np.isfinite(vals)]
    # Midpoints, including the one above the largest finite value (the
    # overflow threshold: one more ulp of the narrow format).
    top = vals[-1] + (vals[-1] - vals[-2])
    mids = (np.append(vals, top)[1:] + vals) / 2
    parts = []
    for f in (vals.astype(np.float32), mids.astype(np.float32)):
        u = f.view(np.uint32)
        parts += [u, u + np.uint32(1), u - np.uint32(1)]
    rng = np.random.default_rng(0)
    parts.append(((np.arange(256, dtype=np.uint32) << 23)[:, None]
                  | rng.integers(0, 1 << 23, (256, 64), dtype=np.uint32)).ravel())
    mags = np.concatenate(parts) & np.uint32(0x7FFFFFFF)
    specials = np.array([0, 1, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0x7F800000, 0x7FC00000,
                         0x7F800001, 0x7FFFFFFF], np.uint32)
    mags = np.unique(np.concatenate([mags, specials]))
    return np.concatenate([mags, mags | np.uint32(0x80000000)])


def check_narrow(got, x_bits, dtype):
    """got: narrow bit patterns for f32 inputs x_bits; compared with ml_dtypes
    (NaN inputs must give a NaN, any payload)."""
    x = x_bits.view(np.float32)
    ubits = {1: np.uint8, 2: np.uint16}[np.dtype(dtype).itemsize]
    want = x.astype(dtype).view(ubits)
    got = got.astype(ubits)
    nan_in = np.isnan(x)
    assert np.isnan(got[nan_in].view(dtype).astype(np.float32)).all(), "NaN must stay NaN"
    bad = np.nonzero((got != want) & ~nan_in)[0]
    assert bad.size == 0, (f"{bad.size} of {x.size} differ; first: "
                           + ", ".join(f"{x_bits[i]:#010x} -> {got[i]:#x} (want {want[i]:#x})"
                                       for i in bad[:6]))


def check_wide(got, narrow_bits, dtype):
    """got: f32 bits for every narrow pattern, vs ml_dtypes (NaN -> any NaN)."""
    ubits = {1: np.uint8, 2: np.uint16}[np.dtype(dtype).itemsize]
    want = narrow_bits.astype(ubits).view(dtype).astype(np.float32)
    g = got.view(np.float32)
    nan = np.isnan(want)
    assert np.isnan(g[nan]).all()
    bad = np.nonzero((got != want.view(np.uint32)) & ~nan)[0]
    assert bad.size == 0, ", ".join(f"{narrow_bits[i]:#x} -> {got[i]:#010x} "
                                    f"(want {want.view(np.uint32)[i]:#010x})" for i in bad[:6])


# ---- narrow -> f32, exhaustive ----

def test_v_cvt_f32_f16_all_65536():
    h = narrow_patterns(16)
    check_wide(convert(lambda k: k.v_cvt_f32_f16(v[3], v[2]), h), h, np.float16)


@pytest.mark.parametrize("arch,mnemonic,dtype", fp8_cases("v_cvt_f32_fp8", "v_cvt_f32_bf8"))
def test_v_cvt_f32_fp8_bf8_all_256(arch, mnemonic, dtype):
    b = narrow_patterns(8)
    check_wide(convert(lambda k: getattr(k, mnemonic)(v[3], v[2]), b, arch=arch), b, dtype)


@pytest.mark.parametrize("arch,mnemonic,dtype",
                         fp8_cases("v_cvt_pk_f32_fp8", "v_cvt_pk_f32_bf8"))
def test_v_cvt_pk_f32_fp8_bf8_all_256_in_both_bytes(arch, mnemonic, dtype):
    """Packed form: bytes 0 and 1 of the source to two f32 results."""
    b = narrow_patterns(8)
    x = b | (b[::-1] << 8)                       # byte 1 holds 255 - byte 0
    def emit(half):
        def body(k):
            getattr(k, mnemonic)(v[6:8], v[2])
            k.v_mov_b32(v[3], v[6 + half])
        return body
    lo, hi = convert(emit(0), x, arch=arch), convert(emit(1), x, arch=arch)
    check_wide(lo, b, dtype)
    check_wide(hi, b[::-1].copy(), dtype)


def test_bf16_to_f32_all_65536():
    h = narrow_patterns(16)                      # bf16 is the high half of an f32
    check_wide(convert(lambda k: k.v_lshlrev_b32(v[3], 16, v[2]), h), h, BF16)


# ---- f32 -> narrow ----

def test_v_cvt_f16_f32():
    x = f32_inputs(np.float16)
    got = convert(lambda k: k.v_cvt_f16_f32(v[3], v[2]), x) & np.uint32(0xFFFF)
    check_narrow(got, x, np.float16)


def rtz_f16(x):
    """IEEE round-toward-zero f32 -> f16 (NaN -> NaN, overflow -> largest finite)."""
    f = x.view(np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        h = f.astype(np.float16)
        away = np.isfinite(f) & (np.abs(h.astype(np.float32)) > np.abs(f))
        h[away] = np.nextafter(h[away], np.float16(0))
    return h.view(np.uint16)


def test_v_cvt_pkrtz_f16_f32():
    x = f32_inputs(np.float16)
    got = convert(lambda k: k.v_cvt_pkrtz_f16_f32(v[3], v[2], 1.0), x)
    want = rtz_f16(x)
    nan = np.isnan(x.view(np.float32))
    lo = (got & np.uint32(0xFFFF)).astype(np.uint16)
    assert np.isnan(lo[nan].view(np.float16)).all()
    bad = np.nonzero((lo != want) & ~nan)[0]
    assert bad.size == 0, [f"{x[i]:#010x} -> {lo[i]:#06x} (want {want[i]:#06x})" for i in bad[:6]]
    assert (got >> np.uint32(16) == 0x3C00).all()          # src1 = 1.0 in the high half


@pytest.mark.parametrize("arch,mnemonic,dtype",
                         fp8_cases("v_cvt_pk_fp8_f32", "v_cvt_pk_bf8_f32"))
def test_v_cvt_pk_fp8_bf8_f32(arch, mnemonic, dtype):
    x = f32_inputs(dtype)
    got = convert(lambda k: getattr(k, mnemonic)(v[3], v[2], 1.0), x, arch=arch)
    check_narrow(got & np.uint32(0xFF), x, dtype)
    one = np.float32(1).astype(dtype).view(np.uint8)
    assert (((got >> np.uint32(8)) & np.uint32(0xFF)) == one).all()   # src1 = 1.0 in byte 1
    assert (got >> np.uint32(16) == 0x5A5A).all()         # word 1 of vdst is kept


@pytest.mark.parametrize("arch,mnemonic,dtype",
                         fp8_cases("v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32"))
def test_v_cvt_sr_fp8_bf8_f32_rounds_to_a_neighbour(arch, mnemonic, dtype):
    """Stochastic rounding: the result is one of the two representable values
    around x (exact values stay exact), whatever the random bits."""
    x = f32_inputs(dtype)
    f = x.view(np.float32)
    x = x[np.isfinite(f) & (np.abs(f) <= float(ml_dtypes.finfo(dtype).max))]
    f = x.view(np.float32)
    r = np.random.default_rng(1).integers(0, 2**32, x.size, dtype=np.uint64).astype(np.uint32)
    got = (convert(lambda k: getattr(k, mnemonic)(v[3], v[2], v[4]), x, r, arch=arch)
           & np.uint32(0xFF)).astype(np.uint8).view(dtype).astype(np.float64)
    vals = np.unique(narrow_patterns(8).astype(np.uint8).view(dtype).astype(np.float64))
    vals = vals[np.isfinite(vals)]
    hi = vals[np.clip(np.searchsorted(vals, f, side="left"), 0, vals.size - 1)]
    lo = vals[np.clip(np.searchsorted(vals, f, side="right") - 1, 0, vals.size - 1)]
    ok = (got == lo) | (got == hi)
    assert ok.all(), [(float(f[i]), float(got[i]), float(lo[i]), float(hi[i]))
                      for i in np.nonzero(~ok)[0][:6]]
    exact = lo == f
    assert (got[exact] == f[exact]).all()
    # Both neighbours occur: the rounding really is stochastic.
    inexact = ~exact
    assert (got[inexact] == lo[inexact]).any() and (got[inexact] == hi[inexact]).any()


def sr_fp8_reference(x, r, dtype):
    """v_cvt_sr_fp8_f32 / _bf8_f32 of finite f32 bits x with random words r,
    as AMD's rocjitsu emulator defines it (f32_to_binary_float_sr): the
    random word's bits [31:9+m] (the CDNA4 ISA's S1[31:12] for fp8, S1[31:11]
    for bf8) are added to the 24-bit significand just below the m mantissa
    bits the format keeps, after aligning the significand to the format's
    smallest normal exponent (bits shifted out are dropped), then truncated
    (a carry raises the exponent). Beyond the largest finite value: the
    non-saturating result (ml_dtypes' overflow conversion)."""
    fi = ml_dtypes.finfo(dtype)
    mb, emin = int(fi.nmant), int(fi.minexp)
    a = (x & np.uint32(0x7FFFFFFF)).astype(np.int64)
    e32 = (a >> 23) - 127
    mant = (a & 0x7FFFFF) | 0x800000
    te = np.maximum(e32, emin)
    align = te - e32
    m = np.where(align < 32, mant >> np.minimum(align, 31), 0)
    m = np.where(a >> 23 == 0, 0, m)                   # f32 denormals: far below
    q = (m + (r.astype(np.int64) >> (9 + mb))) >> (23 - mb)
    val = q.astype(np.float64) * np.exp2((te - mb).astype(np.float64))
    val = np.where(x >> np.uint32(31) == 1, -val, val)
    return val.astype(np.float32).astype(dtype).view(np.uint8)


@pytest.mark.parametrize("arch,mnemonic,dtype",
                         fp8_cases("v_cvt_sr_fp8_f32", "v_cvt_sr_bf8_f32"))
def test_v_cvt_sr_fp8_bf8_f32_exact_bits(arch, mnemonic, dtype):
    """Every result bit for chosen random words: none, all ones, only the top
    bit (half an ulp), only the low 12 bits (below what the instruction
    reads: truncation), the top bits just short of one ulp, and random words;
    over every rounding boundary of the format, underflow and overflow."""
    x = f32_inputs(dtype)
    f = x.view(np.float32)
    x = x[np.isfinite(f) & (np.abs(f) <= 2 * float(ml_dtypes.finfo(dtype).max))]
    words = [0, 0xFFFFFFFF, 0x80000000, 0x00000FFF, 0xFFFFF000, 0x7FFFFFFF]
    xs = np.tile(x, len(words) + 1)
    r = np.concatenate([np.full(x.size, w, np.uint32) for w in words] + [
        np.random.default_rng(7).integers(0, 2**32, x.size, dtype=np.uint64).astype(np.uint32)])
    got = (convert(lambda k: getattr(k, mnemonic)(v[3], v[2], v[4]), xs, r, arch=arch)
           & np.uint32(0xFF)).astype(np.uint8)
    want = sr_fp8_reference(xs, r, dtype)
    nan = np.isnan(want.view(dtype).astype(np.float32))
    assert np.isnan(got[nan].view(dtype).astype(np.float32)).all()
    bad = np.nonzero((got != want) & ~nan)[0]
    assert bad.size == 0, [f"x={xs[i]:#010x} r={r[i]:#010x}: {got[i]:#04x} (want {want[i]:#04x})"
                           for i in bad[:6]]


def test_f32_to_bf16_round_to_nearest_even_sequence():
    """f32 -> bf16 as compilers emit it for gfx942 (no conversion instruction):
    add 0x7fff plus the kept lsb, keep the high half; NaNs are quieted."""
    def emit(k):
        k.v_bfe_u32(v[5], v[2], 16, 1)                     # lsb of the kept half
        k.s_mov_b32(s[15], 0x7FFF)
        k.v_add3_u32(v[5], v[2], v[5], s[15])              # round to nearest even
        k.v_or_b32(v[6], 0x400000, v[2])                   # quiet NaN
        k.v_cmp_u_f32(vcc, v[2], v[2])
        k.v_cndmask_b32(v[5], v[5], v[6], vcc)
        k.v_lshrrev_b32(v[3], 16, v[5])
    x = f32_inputs(BF16)
    check_narrow(convert(emit, x), x, BF16)


def check_f16(got, want, what):
    got = (got & np.uint32(0xFFFF)).astype(np.uint16)
    nan = np.isnan(want)
    assert np.isnan(got[nan].view(np.float16)).all(), f"{what}: NaN expected"
    bad = np.nonzero((got != want.view(np.uint16)) & ~nan)[0]
    assert bad.size == 0, f"{what}: {bad.size} differ, e.g. " + ", ".join(
        f"#{i}: {got[i]:#06x} (want {want.view(np.uint16)[i]:#06x})" for i in bad[:4])


def test_v_fma_f16_rounds_once():
    """v_fma_f16: a * b + c with a single rounding, for random finite f16
    triples and for sums at, just above and just below the midpoint between
    c and its neighbour (a * b = ulp(c) / 2 times 1, 1 + 2^-10, 1 - 2^-11)."""
    rng = np.random.default_rng(3)
    rand = rng.integers(0, 1 << 16, (3, 40000)).astype(np.uint16).view(np.float16)
    rand = rand[:, np.isfinite(rand).all(axis=0)]
    c = narrow_patterns(16).astype(np.uint16).view(np.float16)
    c = c[np.isfinite(c) & (np.abs(c) >= np.float16(2.0 ** -13))]
    ulp = (np.nextafter(np.abs(c), np.float16(np.inf)) - np.abs(c)).astype(np.float16)
    half_ulp = (ulp.astype(np.float32) / 2).astype(np.float16)
    ok = np.isfinite(ulp)
    c, half_ulp = c[ok], half_ulp[ok]
    sign = np.where(np.signbit(c), np.float16(-1), np.float16(1))
    cases = [rand]
    for b in (1.0, 1.0 + 2.0 ** -10, 1.0 - 2.0 ** -11):
        cases.append(np.stack([half_ulp * sign, np.full(c.size, b, np.float16), c]))
    a, b, c = np.concatenate(cases, axis=1)
    x = a.view(np.uint16).astype(np.uint32) | (b.view(np.uint16).astype(np.uint32) << 16)

    def emit(k):
        k.v_lshrrev_b32(v[5], 16, v[2])
        k.v_fma_f16(v[3], v[2], v[5], v[4])
    got = convert(emit, x, c.view(np.uint16).astype(np.uint32))
    check_f16(got, fma(a, b, c, np.float16), "v_fma_f16")


F16_OPS = {"v_add_f16": np.add, "v_sub_f16": np.subtract, "v_mul_f16": np.multiply}


@pytest.mark.parametrize("mnemonic", ["v_add_f16", "v_sub_f16", "v_mul_f16", "v_pk_add_f16",
                                      "v_pk_mul_f16", "v_pk_fma_f16"])
def test_f16_arithmetic(mnemonic):
    """f16 (and packed 2 x f16) add, sub, mul, fma on random bit patterns,
    infinities and NaNs included. NumPy's f16 arithmetic (exact result in
    f32, then one rounding: 24 >= 2 * 11 + 2 bits, so the double rounding is
    innocuous) is the reference for add/sub/mul."""
    rng = np.random.default_rng(len(mnemonic))
    x = rng.integers(0, 2**32, 60000, dtype=np.uint64).astype(np.uint32)   # a | b << 16
    r = rng.integers(0, 2**32, 60000, dtype=np.uint64).astype(np.uint32)   # c | d << 16
    lo = lambda u: (u & np.uint32(0xFFFF)).astype(np.uint16).view(np.float16)  # noqa: E731
    hi = lambda u: (u >> np.uint32(16)).astype(np.uint16).view(np.float16)     # noqa: E731
    if mnemonic == "v_pk_fma_f16":
        got = convert(lambda k: k.v_pk_fma_f16(v[3], v[2], v[4], v[2]), x, r)
        check_f16(got, fma(lo(x), lo(r), lo(x), np.float16), "low half")
        check_f16(got >> np.uint32(16), fma(hi(x), hi(r), hi(x), np.float16), "high half")
        return
    op = F16_OPS[mnemonic.replace("_pk", "")]
    got = convert(lambda k: getattr(k, mnemonic)(v[3], v[2], v[4]), x, r)
    check_f16(got, op(lo(x), lo(r)), "low half")
    if "_pk_" in mnemonic:
        check_f16(got >> np.uint32(16), op(hi(x), hi(r)), "high half")


def test_fp8_word_and_byte_selects(hip_hsaco):
    """tests/emulator/hip/fp8_select.hip: op_sel word/byte destinations and
    SDWA byte/word sources of the fp8/bf8 conversions (clang's forms)."""
    code = hip_hsaco(Path(HIP_INCLUDE) / "fp8_select.hip")
    rng = np.random.default_rng(5)
    n = 1000
    x = np.concatenate([rng.standard_normal(n - 8) * 30, [0.0, -0.0, 1e-9, 240.0, 250.0, 1e6,
                                                          np.inf, np.nan]]).astype(np.float32)
    rnd = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    out = np.zeros((n, 8), np.uint32)
    aster.launch(code, "fp8_select", ((n + 63) // 64, 1, 1), (64, 1, 1), [x, rnd, out, np.int32(n)])
    u32 = lambda a: a.astype(np.uint32)  # noqa: E731
    f8 = lambda a, t: u32(a.astype(t).view(np.uint8))  # noqa: E731
    old = np.uint32(0x5A5A5A5A)
    pair = f8(x, E4M3) | f8(-x, E4M3) << 8
    np.testing.assert_array_equal(out[:, 0], pair << 16 | (old & 0xFFFF))
    two = f8(np.float32(2.0), E5M2)
    np.testing.assert_array_equal(out[:, 1], (old & 0xFFFF0000) | f8(x, E5M2) | two << 8)
    for col, byte, dt in ((2, 2, E4M3), (3, 3, E5M2)):          # SR: only its byte changes
        keep = old & ~np.uint32(0xFF << (8 * byte))
        assert ((out[:, col] & ~np.uint32(0xFF << (8 * byte))) == keep).all()
    check_wide(out[:, 4], f8(-x, E4M3), E4M3)
    check_wide(out[:, 5], np.full(n, two, np.uint32), E5M2)
    check_wide(out[:, 6], f8(x, E4M3), E4M3)
    check_wide(out[:, 7], f8(-x, E4M3), E4M3)


@pytest.mark.parametrize("mnemonic", ["v_add_f32", "v_mul_f32", "v_fma_f32"])
def test_f32_arithmetic(mnemonic):
    """f32 add, mul and fma (one rounding) on random bit patterns: every
    exponent, denormals, infinities, NaNs; NumPy (IEEE) as the reference."""
    rng = np.random.default_rng(len(mnemonic) + 7)
    x, r = (rng.integers(0, 2**32, 60000, dtype=np.uint64).astype(np.uint32) for _ in range(2))
    a, b = x.view(np.float32), r.view(np.float32)
    if mnemonic == "v_fma_f32":            # a * b + a, exactly rounded
        got = convert(lambda k: k.v_fma_f32(v[3], v[2], v[4], v[2]), x, r)
        want = fma(a, b, a, np.float32)
    else:
        got = convert(lambda k: getattr(k, mnemonic)(v[3], v[2], v[4]), x, r)
        want = {"v_add_f32": np.add, "v_mul_f32": np.multiply}[mnemonic](a, b)
    nan = np.isnan(want)
    assert np.isnan(got[nan].view(np.float32)).all()
    bad = np.nonzero((got != want.view(np.uint32)) & ~nan)[0]
    assert bad.size == 0, f"{bad.size} differ, e.g. " + ", ".join(
        f"{x[i]:#010x},{r[i]:#010x} -> {got[i]:#010x} (want {want.view(np.uint32)[i]:#010x})"
        for i in bad[:4])
