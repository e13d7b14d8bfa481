"""gfx950 (CDNA4) code objects from clang (tests/emulator/hip/gfx950_mfma.hip,
compiled with --offload-arch=gfx950) on the emulator, against NumPy / ml_dtypes
references written from what each kernel means: the loader takes the code
object as gfx950, the decoder uses the gfx950 subtarget, the doubled-K MFMA
shapes, bf16/f16 conversions and three-input bit logic compute what the source
says, and gfx950's 160 KiB LDS limit holds; then gfx950-only VALU
instructions built with aster's builder against independent NumPy
references. The per-instruction MFMA register layouts are checked against
published sources in test_emu_mfma_layouts.py, the OCP fp8/bf8 conversions
exhaustively in test_emu_formats.py."""
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import aster
from aster import v
from conftest import HIP_INCLUDE
from exact import fma
from test_emu_formats import convert

HIP = Path(HIP_INCLUDE) / "gfx950_mfma.hip"
ONE = ((1, 1, 1), (64, 1, 1))     # one wave


@pytest.fixture(scope="module")
def code(hip_hsaco):
    return hip_hsaco(HIP, arch="gfx950")


def test_loads_as_gfx950_and_every_instruction_has_semantics(code):
    co = aster.load_code_object(code)
    assert co.processor == "gfx950"
    names = {k.name for k in co.kernels}
    assert {"mfma950_f16_16x16x32", "saxpy950", "convert950"} <= names
    bad = {n: co.unsupported(n) for n in sorted(names) if co.unsupported(n)}
    assert not bad, f"instructions without semantics: {bad}"


def quarters(shape, seed):
    """Random multiples of 1/4 in [-2, 2]: exact in f16/bf16, and so is
    every product and sum of the matrix products below (any order)."""
    return np.random.default_rng(seed).integers(-8, 9, shape).astype(np.float64) / 4


@pytest.mark.parametrize("kernel,m,n,k,dtype,with_c", [
    ("mfma950_f16_16x16x32", 16, 16, 32, np.float16, True),
    ("mfma950_bf16_32x32x16", 32, 32, 16, ml_dtypes.bfloat16, False),
])
def test_mfma_f16_bf16(code, kernel, m, n, k, dtype, with_c):
    a, b, c = quarters((m, k), m + k + 950), quarters((k, n), n + 3 * k), quarters((m, n), 950)
    d = np.full((m, n), np.nan, np.float32)
    args = [a.astype(dtype), b.astype(dtype)] + ([c.astype(np.float32)] if with_c else []) + [d]
    r = aster.launch(code, kernel, *ONE, args)
    np.testing.assert_array_equal(d, a @ b + (c if with_c else 0))
    assert r.mfma == 1


@pytest.mark.parametrize("m,k", [(16, 64), (32, 32)])
def test_mfma_i8(code, m, k):
    rng = np.random.default_rng(950 + m)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)     # the full int8 range
    b = rng.integers(-128, 128, (k, m)).astype(np.int8)
    d = np.zeros((m, m), np.int32)
    aster.launch(code, f"mfma950_i8_{m}x{m}x{k}", *ONE, [a, b, d])
    np.testing.assert_array_equal(d, a.astype(np.int32) @ b.astype(np.int32))


def test_saxpy(code):
    """y = a * x + y; clang contracts it to one fused multiply-add
    (asserted on the disassembly), so the reference rounds once."""
    assert any(op in aster.load_code_object(code).disassemble("saxpy950")
               for op in ("v_fma_f32", "v_fmac_f32", "v_pk_fma_f32"))
    n = 1000
    rng = np.random.default_rng(9)
    x = rng.uniform(-4, 4, n).astype(np.float32)
    y = rng.uniform(-4, 4, n).astype(np.float32)
    want = fma(np.float32(1.5), x, y, np.float32)
    aster.launch(code, "saxpy950", (4, 1, 1), (256, 1, 1), [x, y, np.float32(1.5), np.int32(n)])
    np.testing.assert_array_equal(y, want)


def test_lds_limit_is_160_kib(code):
    x, y = np.zeros(256, np.float32), np.zeros(256, np.float32)
    args = [x, y, np.float32(1), np.int32(256)]
    aster.launch(code, "saxpy950", (1, 1, 1), (256, 1, 1), args, dynamic_lds=160 * 1024)
    with pytest.raises(aster.EmulatorError, match=r"bytes of LDS.*gfx950 has 163840"):
        aster.launch(code, "saxpy950", (1, 1, 1), (256, 1, 1), args,
                     dynamic_lds=160 * 1024 + 4)


def test_convert_and_bit_logic(code):
    """convert950: bf16 -> f32 (times 2), f32 pairs -> bf16 and f16 pairs
    (round to nearest even), and (u & v) | ((~u & i) ^ (v | 0x0f0f0f0f))."""
    n = 300
    rng = np.random.default_rng(950950)
    xb = rng.integers(0, 1 << 32, 2 * n, dtype=np.uint64).astype(np.uint32) & np.uint32(0x8FFFFFFF)
    xb[0] = np.float32(1 + 2.0**-8).view(np.uint32)        # a bf16 tie: rounds to even (down)
    xb[1] = np.float32(1 + 3 * 2.0**-8).view(np.uint32)    # a bf16 tie: rounds up
    x = xb.view(np.float32)                                 # exponents up to 2^31: finite
    b = rng.integers(0, 1 << 16, n, dtype=np.uint32).astype(np.uint16)
    b[(b & 0x7F80) == 0x7F80] &= np.uint16(0xBFFF)           # no inf/NaN
    widened = np.zeros(n, np.float32)
    bpairs, hpairs, bits = (np.zeros(n, np.uint32) for _ in range(3))
    aster.launch(code, "convert950", (2, 1, 1), (256, 1, 1),
                 [x, b, widened, bpairs, hpairs, bits, np.int32(n)])
    bf = b.view(ml_dtypes.bfloat16).astype(np.float32)
    with np.errstate(over="ignore"):                        # large bf16 * 2 is inf
        np.testing.assert_array_equal(widened, bf * np.float32(2))
    with np.errstate(over="ignore"):
        want_b = x.astype(ml_dtypes.bfloat16).view(np.uint16).astype(np.uint32)
        want_h = x.astype(np.float16).view(np.uint16).astype(np.uint32)
    assert want_b[0] == 0x3F80 and want_b[1] == 0x3F82
    np.testing.assert_array_equal(bpairs, want_b[0::2] | want_b[1::2] << np.uint32(16))
    np.testing.assert_array_equal(hpairs, want_h[0::2] | want_h[1::2] << np.uint32(16))
    u, v, i = xb[0::2], xb[1::2], np.arange(n, dtype=np.uint32)
    np.testing.assert_array_equal(bits, (u & v) | ((~u & i) ^ (v | np.uint32(0x0F0F0F0F))))


def test_fp8_is_ocp_e4m3fn(code):
    """clang's __builtin_amdgcn_cvt_f32_fp8 in gfx950 code reads OCP E4M3FN
    (every byte; NaN is S.1111.111, 0x80 is -0), not gfx942's FNUZ."""
    x = np.arange(256, dtype=np.uint32) | np.uint32(0xA5A5A500)   # only byte 0 counts
    y = np.zeros(256, np.float32)
    aster.launch(code, "fp8cvt950", (4, 1, 1), (64, 1, 1), [x, y])
    want = np.arange(256, dtype=np.uint8).view(ml_dtypes.float8_e4m3fn).astype(np.float32)
    np.testing.assert_array_equal(y.view(np.uint32)[~np.isnan(want)],
                                  want.view(np.uint32)[~np.isnan(want)])
    assert np.isnan(y[[0x7F, 0xFF]]).all() and np.signbit(y[0x80])


# ---- gfx950-only VALU through aster's builder (test_emu_formats.convert) ----

def total_order_key(bits, width):
    """Integer keys that order floats of `width` bits by value with -0 < +0
    (for non-NaN): negative patterns have every bit flipped, positive ones
    the sign bit set."""
    sign = np.uint64(1) << np.uint64(width - 1)
    b = bits.astype(np.uint64)
    return np.where(b & sign, (~b) & ((sign << np.uint64(1)) - np.uint64(1)), b | sign)


def minimum_maximum_reference(a, b, c, dtype, width, maximum):
    """IEEE 754-2019 minimum / maximum of three: NaN if any operand is NaN,
    else the least (greatest) value with -0 below +0, chosen through the
    total-order keys of the bit patterns."""
    bits = np.stack([a, b, c])
    keys = total_order_key(bits, width)
    pick = keys.argmax(axis=0) if maximum else keys.argmin(axis=0)
    out = np.take_along_axis(bits, pick[None], axis=0)[0]
    vals = bits.view(dtype)
    return out, np.isnan(vals).any(axis=0)


def special_mix(n, width, rng):
    """Random bit patterns with zeros of both signs, infinities, NaNs and
    equal operands made common."""
    ubits = {16: np.uint16, 32: np.uint32}[width]
    dt = {16: np.float16, 32: np.float32}[width]
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0], dt).view(ubits)
    x = rng.integers(0, 1 << width, n, dtype=np.uint64).astype(ubits)
    pick = rng.random(n) < 0.4
    x[pick] = specials[rng.integers(0, specials.size, pick.sum())]
    return x


@pytest.mark.parametrize("mnemonic", ["v_minimum3_f32", "v_maximum3_f32"])
def test_v_minimum3_maximum3_f32(mnemonic):
    """gfx950's v_minimum3/v_maximum3_f32 are IEEE 754-2019 minimum/maximum
    (NaN-propagating, -0 < +0): the operation LLVM's llvm.minimum/maximum
    name (LangRef), which gfx950 code gets directly (triton's AMD backend
    lowers arith.minimumf/maximumf straight to llvm.minimum/maximum for
    gfx950 but to minnum plus NaN checks for gfx942) -- unlike v_min3_f32's
    minNum, which returns the non-NaN operand. c = a ^ b is the third operand."""
    rng = np.random.default_rng(len(mnemonic))
    a, b = special_mix(60000, 32, rng), special_mix(60000, 32, rng)
    op = getattr(aster.Kernel, mnemonic)

    def emit(k):
        k.v_xor_b32(v[5], v[2], v[4])
        op(k, v[3], v[2], v[4], v[5])
    got = convert(emit, a, b, arch="gfx950")
    want, nan = minimum_maximum_reference(a, b, a ^ b, np.float32, 32, "maximum" in mnemonic)
    assert nan.any() and (~nan).any()
    assert np.isnan(got[nan].view(np.float32)).all(), "a NaN operand must give NaN"
    bad = np.nonzero((got != want) & ~nan)[0]
    assert bad.size == 0, [f"{a[i]:#010x} {b[i]:#010x} -> {got[i]:#010x} (want {want[i]:#010x})"
                           for i in bad[:4]]


@pytest.mark.parametrize("mnemonic", ["v_pk_minimum3_f16", "v_pk_maximum3_f16"])
def test_v_pk_minimum3_maximum3_f16(mnemonic):
    """The packed f16 forms, each half on its own (same rule as above)."""
    rng = np.random.default_rng(len(mnemonic) + 1)
    n = 60000
    a16, b16 = special_mix(2 * n, 16, rng), special_mix(2 * n, 16, rng)
    a, b = a16.view(np.uint32), b16.view(np.uint32)
    op = getattr(aster.Kernel, mnemonic)

    def emit(k):
        k.v_xor_b32(v[5], v[2], v[4])
        op(k, v[3], v[2], v[4], v[5])
    got = convert(emit, a, b, arch="gfx950").view(np.uint16)
    want, nan = minimum_maximum_reference(a16, b16, a16 ^ b16, np.float16, 16,
                                          "maximum" in mnemonic)
    assert np.isnan(got[nan].view(np.float16)).all(), "a NaN operand must give NaN"
    bad = np.nonzero((got != want) & ~nan)[0]
    assert bad.size == 0, [f"#{i}: {a16[i]:#06x} {b16[i]:#06x} -> {got[i]:#06x} "
                           f"(want {want[i]:#06x})" for i in bad[:4]]


def test_not_emulated_gfx950_instruction_fails_with_its_name():
    """An instruction gfx950 code may hold but the emulator does not run (a
    gfx942 fp8 sparse MFMA, whose gfx950 OCP meaning is not implemented) is
    reported up front and fails when executed, naming the instruction and
    its pc."""
    m = aster.Module("gfx950")
    k = m.kernel("sp", block=(64, 1, 1))
    k.v_smfmac_f32_16x16x64_fp8_fp8(v[2:6], v[6:8], v[8:12], v[12])
    k.s_endpgm()
    code = m.hsaco()
    mn = "v_smfmac_f32_16x16x64_fp8_fp8"
    assert any(mn in u for u in aster.load_code_object(code).unsupported("sp"))
    with pytest.raises(aster.EmulatorError, match=rf"(?s){mn}.*pc 0x|pc 0x.*{mn}"):
        aster.launch(code, "sp", (1, 1, 1), (64, 1, 1))


@pytest.mark.parametrize("row", [16, 32])
def test_v_permlane_swap(row):
    """v_permlane16_swap_b32 vdst, vsrc: the odd 16-lane rows of vdst trade
    places with the even rows of vsrc within each 32-lane half;
    v_permlane32_swap_b32: the upper 32 lanes of vdst with the lower 32 of
    vsrc. Facts: LLVM's llvm.amdgcn.permlane16/32.swap (vdst's old value
    first, results in the same order), as public gfx950 kernels that call
    them through MLIR's rocdl.permlane16_swap / permlane32_swap document
    them ("odd 16-lane rows of x trade with even rows of y (each within its
    half)", "the upper 32 lanes of x trade with the lower of y"); not
    checked against hardware."""
    n = 64 * 8
    x = np.arange(n, dtype=np.uint32)
    y = x + np.uint32(0x10000)
    op = getattr(aster.Kernel, f"v_permlane{row}_swap_b32")

    def emit(which):
        def body(k):
            k.v_mov_b32(v[3], v[2])
            k.v_mov_b32(v[5], v[4])
            op(k, v[3], v[5])
            if which == "vsrc":
                k.v_mov_b32(v[3], v[5])
        return body
    got_x = convert(emit("vdst"), x, y, arch="gfx950")
    got_y = convert(emit("vsrc"), x, y, arch="gfx950")
    # Each wave as (halves, rows of `row` lanes within a half, lanes): rows
    # 1 of vdst and 0 of vsrc trade places.
    shape = (n // 64, 64 // (2 * row), 2, row)
    wx, wy = x.reshape(shape).copy(), y.reshape(shape).copy()
    wx[:, :, 1], wy[:, :, 0] = y.reshape(shape)[:, :, 0], x.reshape(shape)[:, :, 1]
    np.testing.assert_array_equal(got_x, wx.ravel())
    np.testing.assert_array_equal(got_y, wy.ravel())


def test_v_permlane_swap_partial_exec_is_refused():
    m = aster.Module("gfx950")
    k = m.kernel("swap", block=(64, 1, 1))
    k.v_mov_b32(v[2], 1)
    k.v_mov_b32(v[3], 2)
    k.s_mov_b64(aster.exec, 0xFFFF)
    k.v_permlane32_swap_b32(v[2], v[3])
    k.s_endpgm()
    with pytest.raises(aster.EmulatorError, match="v_permlane32_swap_b32 with a partial EXEC"):
        aster.launch(m, "swap", (1, 1, 1), (64, 1, 1))
