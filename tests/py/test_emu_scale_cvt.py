"""gfx950's v_cvt_scalef32_* conversions on the emulator against NumPy /
ml_dtypes (float8_e4m3fn, float8_e5m2, float6_e2m3fn, float6_e3m2fn,
float4_e2m1fn; bfloat16), with the meaning the CDNA4 ISA document gives them:

* the scale is 2^(e - 127), e the exponent field of the f32 scale operand
  ("The scale is an E8M0 exponent with a bias of 127 ... float exponent
  portion is used"; pseudo-code `scale = 32'U(exponent(S1.f32))`); the
  scale operands here carry random sign and mantissa bits, which must not
  matter;
* to a small format the value is divided by the scale (MLIR's
  arith.scaling_truncf = truncf(x / scale), lowered to these instructions
  for gfx950) and rounded to nearest even; fp8/bf8 overflow as the OCP
  non-saturating conversions (E4M3 NaN, E5M2 infinity: MODE.FP16_OVFL = 0,
  the default), fp6/bf6/fp4 saturate ("clamped/saturated to the maximum
  FP4/FP6 magnitude, preserving the sign") -- as ml_dtypes converts;
* from a small format the value is multiplied by the scale and rounded once
  to f32/f16/bf16;
* op_sel selects the source byte (op_sel[1:0]) or word (op_sel[0]) and the
  destination word (op_sel[3]) or byte (op_sel[3:2]); other destination
  bits are kept (pseudo-code: "Other destination bits are preserved").

Each mnemonic runs through aster's builder over lanes of random values with
rounding ties, exact values, over- and underflow and specials; clang-22's
`__builtin_amdgcn_cvt_scalef32_*` kernels (hip950/scale_cvt.hip) check that
real compiler output (operand order, op_sel encodings) means the same."""
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import aster
from aster import v
from lanes import run_lanes

pytestmark = pytest.mark.filterwarnings("ignore:(overflow|invalid value) encountered")

SMALL = {"fp8": (ml_dtypes.float8_e4m3fn, 8), "bf8": (ml_dtypes.float8_e5m2, 8),
         "fp6": (ml_dtypes.float6_e2m3fn, 6), "bf6": (ml_dtypes.float6_e3m2fn, 6),
         "fp4": (ml_dtypes.float4_e2m1fn, 4)}
WIDE = {"f32": (np.float32, np.uint32), "f16": (np.float16, np.uint16),
        "bf16": (ml_dtypes.bfloat16, np.uint16)}
N = 64 * 48
HIP = Path(__file__).with_name("hip950") / "scale_cvt.hip"


def small_values(fmt, codes):
    dt, bits = SMALL[fmt]
    return (np.asarray(codes, np.uint32) & np.uint32((1 << bits) - 1)).astype(np.uint8) \
        .view(dt).astype(np.float64)


def to_small(fmt, x):
    """float64 -> codes (round to nearest even, ml_dtypes' overflow rules)."""
    dt, bits = SMALL[fmt]
    return np.asarray(x, np.float64).astype(dt).view(np.uint8).astype(np.uint32)


def wide_values(w, bits):
    dt, ut = WIDE[w]
    return np.asarray(bits).astype(ut).view(dt).astype(np.float64)


def to_wide(w, x):
    dt, ut = WIDE[w]
    if w == "bf16":   # exact in f32 here (few significant bits), one rounding to bf16
        x = np.asarray(x, np.float64).astype(np.float32)
    return np.asarray(x).astype(dt).view(ut).astype(np.uint32)


def scales(rng, n, lo=-12, hi=12):
    """(f32 scale operand bits, k): exponent field 127 + k, random sign and
    mantissa bits."""
    k = rng.integers(lo, hi + 1, n)
    junk = rng.integers(0, 1 << 23, n) | (rng.integers(0, 2, n) << 31)
    return (((k + 127) << 23) | junk).astype(np.uint32), k


def small_codes(fmt, rng, n):
    """Every bit pattern of the format often, NaN/inf patterns included."""
    return rng.integers(0, 1 << SMALL[fmt][1], n).astype(np.uint32)


def wide_inputs(w, fmt, k, rng, nan=True):
    """Wide bit patterns around the small format's values times 2^k: exact
    values, rounding midpoints (ties), their f32 neighbours, random
    magnitudes from far below the smallest to far above the largest, zeros
    of both signs, infinities and (if `nan`) NaNs."""
    n = k.size
    vals = np.unique(small_values(fmt, np.arange(1 << SMALL[fmt][1])))
    vals = vals[np.isfinite(vals)]
    mids = (vals[:-1] + vals[1:]) / 2
    kind = rng.integers(0, 6, n)
    x = np.where(kind == 0, rng.choice(vals, n), rng.choice(mids, n))
    near = kind == 2
    x[near] *= 1 + rng.choice([-1, 1], near.sum()) * 2.0 ** -20
    rnd = kind == 3
    x[rnd] = rng.choice([-1, 1], rnd.sum()) * 2.0 ** rng.uniform(-14, 18, rnd.sum())
    x = x * 2.0 ** k
    specials = np.array([0.0, -0.0, np.inf, -np.inf] + ([np.nan] if nan else []))
    sp = kind == 4
    x[sp] = rng.choice(specials, sp.sum())
    return to_wide(w, x) if w != "f32" else np.asarray(x, np.float32).view(np.uint32)


def check_codes(fmt, got, want):
    """Small-format codes equal, any NaN matching any NaN."""
    g, wv = small_values(fmt, got), small_values(fmt, want)
    nan = np.isnan(wv)
    assert np.isnan(g[nan]).all(), "NaN expected"
    bad = np.nonzero((got != want) & ~nan)[0]
    assert bad.size == 0, [f"#{i}: {got[i]:#x} want {want[i]:#x} ({wv[i]})" for i in bad[:6]]


def check_wide(w, got, want):
    g, wv = wide_values(w, got), wide_values(w, want)
    nan = np.isnan(wv)
    assert np.isnan(g[nan]).all(), "NaN expected"
    bad = np.nonzero((got != want) & ~nan)[0]
    assert bad.size == 0, [f"#{i}: {got[i]:#x} want {want[i]:#x}" for i in bad[:6]]


def op(name):
    return getattr(aster.Kernel, "v_cvt_scalef32_" + name)


# ---- small format -> f32 / f16 / bf16 ---------------------------------------

@pytest.mark.parametrize("fmt", ["fp8", "bf8"])
@pytest.mark.parametrize("w", ["f32", "f16"])
@pytest.mark.parametrize("byte", range(4))
def test_one_8bit_value(fmt, w, byte):
    """v_cvt_scalef32_{f32,f16}_{fp8,bf8}: the byte op_sel[1:0] of src0
    times the scale; the f16 form writes the half op_sel[3], keeping the
    other."""
    rng = np.random.default_rng(byte + 10 * len(w) + len(fmt))
    src = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
    sc, k = scales(rng, N, -10, 10)
    old = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
    hi = byte & 1
    sel = [byte & 1, byte >> 1, hi if w == "f16" else 0]
    got = run_lanes(lambda kk, r: op(f"{w}_{fmt}")(kk, r[2], r[0], r[1], op_sel=sel),
                    [src, sc], 1, old)[:, 0]
    x = small_values(fmt, src >> np.uint32(8 * byte)) * 2.0 ** k
    want = to_wide(w, x)
    if w == "f32":
        check_wide(w, got, want)
    else:
        keep = (old & np.uint32(0xFFFF)) if hi else (old >> np.uint32(16))
        res = (got >> np.uint32(16)) if hi else (got & np.uint32(0xFFFF))
        other = (got & np.uint32(0xFFFF)) if hi else (got >> np.uint32(16))
        np.testing.assert_array_equal(other, keep)
        check_wide(w, res, want)


# (format, op_sel value): fp8/bf8 select one of two words, fp4 one of 4 bytes.
SELS = [(f, sel) for f in ("fp8", "bf8", "fp4") for sel in range(4 if f == "fp4" else 2)]


@pytest.mark.parametrize("fmt,sel", SELS)
@pytest.mark.parametrize("w", ["f32", "f16", "bf16"])
def test_two_values(fmt, w, sel):
    """v_cvt_scalef32_pk_{f32,f16,bf16}_{fp8,bf8,fp4}: two values (the word
    op_sel[0] for fp8/bf8, the byte op_sel[1:0] for fp4; element 0 in the
    low bits) times the scale; f32 results in two registers, 16-bit ones
    packed (element 0 low)."""
    rng = np.random.default_rng(sel + 7 * len(w) + 3 * len(fmt))
    src = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
    sc, k = scales(rng, N, -10, 10)
    eb = 4 if fmt == "fp4" else 8
    shift = np.uint32(8 * sel if fmt == "fp4" else 16 * sel)
    words = 2 if w == "f32" else 1
    got = run_lanes(lambda kk, r: op(f"pk_{w}_{fmt}")(kk, r[2], r[0], r[1],
                                                      op_sel=[sel & 1, sel >> 1, 0]),
                    [src, sc], words)
    e = [small_values(fmt, (src >> shift) >> np.uint32(eb * i)) * 2.0 ** k for i in (0, 1)]
    if w == "f32":
        for i in (0, 1):
            check_wide(w, got[:, i], to_wide(w, e[i]))
    else:
        check_wide(w, got[:, 0] & np.uint32(0xFFFF), to_wide(w, e[0]))
        check_wide(w, got[:, 0] >> np.uint32(16), to_wide(w, e[1]))


def pack(codes, bits, words):
    """(n, m) codes -> (n, words) uint32, element i at bits [i*bits, ...)."""
    big = [sum(int(c) << (bits * i) for i, c in enumerate(row)) for row in codes]
    return np.array([[(b >> (32 * j)) & 0xFFFFFFFF for j in range(words)] for b in big],
                    np.uint32)


def unpack(words, bits, m):
    big = [sum(int(x) << (32 * j) for j, x in enumerate(row)) for row in words]
    return np.array([[(b >> (bits * i)) & ((1 << bits) - 1) for i in range(m)] for b in big],
                    np.uint32)


@pytest.mark.parametrize("fmt", ["fp6", "bf6"])
@pytest.mark.parametrize("w", ["f32", "f16", "bf16"])
def test_32_fp6_values(fmt, w):
    """v_cvt_scalef32_pk32_{f32,f16,bf16}_{fp6,bf6}: 32 six-bit values packed
    in six registers (element i at bits 6i) times the scale."""
    n = 64 * 4
    rng = np.random.default_rng(len(fmt) + len(w))
    codes = rng.integers(0, 64, (n, 32)).astype(np.uint32)
    sc, k = scales(rng, n, -10, 10)
    words = 32 if w == "f32" else 16
    got = run_lanes(lambda kk, r: op(f"pk32_{w}_{fmt}")(kk, r[2], r[0], r[1]),
                    [pack(codes, 6, 6), sc], words)
    want = to_wide(w, small_values(fmt, codes) * 2.0 ** k[:, None])
    res = got if w == "f32" else unpack(got, 16, 32)
    check_wide(w, res.ravel(), want.ravel())


# ---- f32 / f16 / bf16 -> small format ---------------------------------------

@pytest.mark.parametrize("fmt,sel", SELS)
@pytest.mark.parametrize("w", ["f32", "f16", "bf16"])
def test_to_two_values(fmt, w, sel):
    """v_cvt_scalef32_pk_{fp8,bf8,fp4}_{f32,f16,bf16}: two values (src0 and
    src1 for f32, the halves of src0 otherwise) divided by the scale into
    the destination word op_sel[3] (fp8/bf8) or byte op_sel[3:2] (fp4),
    other bits kept."""
    rng = np.random.default_rng(sel + 5 * len(w) + 11 * len(fmt))
    sc, k = scales(rng, N, -6, 6) if w == "f16" else scales(rng, N)
    nan = fmt != "fp4"
    x0, x1 = (wide_inputs(w, fmt, k, rng, nan) for _ in range(2))
    old = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
    eb = 4 if fmt == "fp4" else 8
    shift = 8 * sel if fmt == "fp4" else 16 * sel
    if fmt == "fp4":
        opsel = [0, 0, sel & 1, sel >> 1]
    else:
        opsel = [0, 0, 0, sel] if w == "f32" else [0, 0, sel]
    name = f"pk_{fmt}_{w}"
    if w == "f32":
        got = run_lanes(lambda kk, r: op(name)(kk, r[3], r[0], r[1], r[2], op_sel=opsel),
                        [x0, x1, sc], 1, old)[:, 0]
    else:
        got = run_lanes(lambda kk, r: op(name)(kk, r[2], r[0], r[1], op_sel=opsel),
                        [x0 | x1 << np.uint32(16), sc], 1, old)[:, 0]
    mask = np.uint32(((1 << (2 * eb)) - 1) << shift)
    np.testing.assert_array_equal(got & ~mask, old & ~mask)
    field = (got & mask) >> np.uint32(shift)
    for i, x in enumerate((x0, x1)):
        want = to_small(fmt, wide_values(w, x) / 2.0 ** k)
        check_codes(fmt, (field >> np.uint32(eb * i)) & np.uint32((1 << eb) - 1), want)


@pytest.mark.parametrize("fmt", ["fp6", "bf6"])
@pytest.mark.parametrize("w", ["f32", "f16", "bf16"])
def test_to_32_fp6_values(fmt, w):
    """v_cvt_scalef32_pk32_{fp6,bf6}_{f16,bf16} (32 values of src0) and
    v_cvt_scalef32_2xpk16_{fp6,bf6}_f32 (element 2p from src0[p], 2p+1 from
    src1[p]) divided by the scale, packed into six registers."""
    n = 64 * 8
    rng = np.random.default_rng(3 * len(fmt) + len(w))
    sc, k = scales(rng, n, -6, 6)
    x = wide_inputs(w, fmt, np.repeat(k, 32), rng, nan=False).reshape(n, 32)
    if w == "f32":
        a, b = x[:, 0::2], x[:, 1::2]
        got = run_lanes(lambda kk, r: op(f"2xpk16_{fmt}_f32")(kk, r[3], r[0], r[1], r[2]),
                        [a, b, sc], 6)
    else:
        packed = x[:, 0::2] | x[:, 1::2] << np.uint32(16)
        got = run_lanes(lambda kk, r: op(f"pk32_{fmt}_{w}")(kk, r[2], r[0], r[1]),
                        [packed, sc], 6)
    want = to_small(fmt, wide_values(w, x) / 2.0 ** k[:, None])
    check_codes(fmt, unpack(got, 6, 32).ravel(), want.ravel())


def test_nan_to_fp4_and_nan_scale_are_refused():
    """fp6/bf6/fp4 have no NaN and the documents do not say what a NaN
    converts to; an E8M0 NaN scale (exponent 255) likewise: both fail
    with the reason instead of guessing."""
    n = 64
    nan = np.full(n, np.float32(np.nan)).view(np.uint32)
    one = np.full(n, np.float32(1)).view(np.uint32)
    with pytest.raises(aster.EmulatorError, match="NaN to fp6/bf6/fp4"):
        run_lanes(lambda kk, r: op("pk_fp4_f32")(kk, r[3], r[0], r[1], r[2]),
                  [nan, one, one], 1)
    inf = np.full(n, np.float32(np.inf)).view(np.uint32)
    with pytest.raises(aster.EmulatorError, match="exponent 255"):
        run_lanes(lambda kk, r: op("pk_fp8_f32")(kk, r[3], r[0], r[1], r[2]),
                  [one, one, inf], 1)


def test_inline_constant_scale():
    """The scale as an inline constant (clang and Triton write 1.0): its
    exponent field (127) is the scale 2^0; 4.0 is 2^2."""
    rng = np.random.default_rng(4)
    x = (rng.standard_normal(N) * 64).astype(np.float32).view(np.uint32)
    for c, k in ((1.0, 0), (4.0, 2)):
        got = run_lanes(lambda kk, r: op("pk_fp8_f32")(kk, r[2], r[0], r[1], c),
                        [x, x], 1)[:, 0]
        want = to_small("fp8", wide_values("f32", x) / 2.0 ** k)
        check_codes("fp8", got & np.uint32(0xFF), want)


# ---- clang-22 kernels --------------------------------------------------------

@pytest.fixture(scope="module")
def clang_code(hip_hsaco):
    return hip_hsaco(HIP, arch="gfx950")


def launch(code, name, args, n=256):
    assert aster.load_code_object(code).unsupported(name) == []
    aster.launch(code, name, grid=n // 64, block=64, args=args)


def test_clang_pk_fp8_f32_and_back(clang_code):
    """round950: __builtin_amdgcn_cvt_scalef32_pk_fp8_f32 into both words of
    a dword (op_sel[3]), then __builtin_amdgcn_cvt_scalef32_pk_f32_fp8 of
    each word back with the same scale."""
    rng = np.random.default_rng(950)
    n = 256
    x = (rng.standard_normal((n, 4)) * 2.0 ** rng.integers(-8, 8, (n, 1))).astype(np.float32)
    sc, k = scales(rng, n, -8, 8)
    packed = np.zeros(n, np.uint32)
    back = np.zeros((n, 4), np.float32)
    launch(clang_code, "round950", [x, sc.view(np.float32), packed, back])
    codes = to_small("fp8", x.astype(np.float64) / 2.0 ** k[:, None])
    want_packed = codes[:, 0] | codes[:, 1] << 8 | codes[:, 2] << 16 | codes[:, 3] << 24
    np.testing.assert_array_equal(packed, want_packed.astype(np.uint32))
    want_back = to_wide("f32", small_values("fp8", codes) * 2.0 ** k[:, None])
    check_wide("f32", back.view(np.uint32).ravel(), want_back.ravel())


def test_clang_fp4_and_f16(clang_code):
    """fp4_950: __builtin_amdgcn_cvt_scalef32_pk_fp4_f32 into byte 2, then
    __builtin_amdgcn_cvt_scalef32_pk_f16_fp4 of byte 2 and
    __builtin_amdgcn_cvt_scalef32_f16_fp8 of byte 1 into the high half."""
    rng = np.random.default_rng(4950)
    n = 256
    a = (rng.standard_normal((n, 2)) * 4).astype(np.float32)
    sc, k = scales(rng, n, -3, 3)
    words = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    out = np.zeros((n, 3), np.uint32)
    launch(clang_code, "fp4_950", [a, sc.view(np.float32), words, out])
    c = [to_small("fp4", a[:, i].astype(np.float64) / 2.0 ** k) for i in (0, 1)]
    byte2 = c[0] | c[1] << 4
    np.testing.assert_array_equal(out[:, 0], (words & np.uint32(0xFF00FFFF)) | byte2 << 16)
    h = to_wide("f16", small_values("fp4", byte2[:, None] >> np.array([0, 4])) * 2.0 ** k[:, None])
    np.testing.assert_array_equal(out[:, 1], (h[:, 0] | h[:, 1] << 16).astype(np.uint32))
    f = to_wide("f16", small_values("fp8", words >> np.uint32(8)) * 2.0 ** k)
    np.testing.assert_array_equal(out[:, 2] >> np.uint32(16), f)


def test_clang_pk32_fp6(clang_code):
    """fp6_950: __builtin_amdgcn_cvt_scalef32_2xpk16_fp6_f32 of two 16-float
    vectors, then __builtin_amdgcn_cvt_scalef32_pk32_f32_fp6 back."""
    rng = np.random.default_rng(6950)
    n = 64
    a = (rng.standard_normal((n, 32)) * 3).astype(np.float32)
    sc, k = scales(rng, n, -2, 2)
    packed = np.zeros((n, 8), np.uint32)      # clang's 6-element vector takes 32 bytes
    back = np.zeros((n, 32), np.float32)
    launch(clang_code, "fp6_950", [a, sc.view(np.float32), packed, back], n)
    packed = packed[:, :6]
    inter = np.empty_like(a)
    inter[:, 0::2], inter[:, 1::2] = a[:, :16], a[:, 16:]
    codes = to_small("fp6", inter.astype(np.float64) / 2.0 ** k[:, None])
    np.testing.assert_array_equal(unpack(packed, 6, 32), codes)
    want = to_wide("f32", small_values("fp6", codes) * 2.0 ** k[:, None])
    check_wide("f32", back.view(np.uint32).ravel(), want.ravel())
