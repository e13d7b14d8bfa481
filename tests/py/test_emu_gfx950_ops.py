"""gfx950 instructions whose semantics come from the CDNA4 ISA document,
checked on the emulator against NumPy references written here from the
document (clang-22 kernels in hip950/ops.hip where clang emits them, aster's
builder otherwise):

* v_prng_b32: `D0.u32 = ((in << 1U) ^ (in[31] ? 197U : 0U))` (12.8, VOP1);
* v_ashr_pk_i8_i32 / v_ashr_pk_u8_i32: src0 and src1 shifted right
  (arithmetic) by src2[4:0], saturated to i8 / u8, packed into 16 bits
  (12.11) -- written as the other gfx9 16-bit results (low half, high half
  zeroed; op_sel[3]: high half, low half kept);
* v_smfmac_f32_{16x16x64,32x32x32}_{f16,bf16}: the document's B layout and
  index layout (7.5) with A laid out as AMD's rocjitsu emulator does (the
  document does not tabulate A), C/D as the dense MFMAs (AMD's calculator,
  mfma_layouts.py); the 8-bit ones (v_smfmac_i32_16x16x128_i8, 32x32x64_i8,
  v_smfmac_f32_16x16x128/32x32x64 with fp8/bf8) with the document's 8-bit
  B layout (two 16-byte runs per lane), A the same way with 16 values, one
  32-bit index set;
* global_load_lds_dwordx4: 16 bytes per lane to LDS at M0 + offset +
  lane * 16 (10.3)."""
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import aster
import mfma_layouts as ml
from aster import v
from test_emu_formats import convert

HIP = Path(__file__).with_name("hip950") / "ops.hip"


@pytest.fixture(scope="module")
def code(hip_hsaco):
    return hip_hsaco(HIP, arch="gfx950")


def launch(code, name, grid, args):
    assert aster.load_code_object(code).unsupported(name) == []
    aster.launch(code, name, grid=grid, block=64, args=args)


def test_prng_b32(code):
    rng = np.random.default_rng(950)
    n = 256
    seed = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    seed[:3] = [0, 1, 0x80000000]
    out = np.zeros((n, 3), np.uint32)
    launch(code, "prng950", n // 64, [seed, out])
    x = seed.astype(np.uint64)
    for i in range(3):
        x = ((x << np.uint64(1)) & np.uint64(0xFFFFFFFF)) ^ np.where(x >> np.uint64(31), 197, 0) \
            .astype(np.uint64)
        np.testing.assert_array_equal(out[:, i], x.astype(np.uint32))
    assert (out[0] == 0).all()      # zero is a fixed point (period 1)


@pytest.mark.parametrize("signed", [True, False])
@pytest.mark.parametrize("hi", [False, True])
def test_ashr_pk_8_i32(signed, hi):
    rng = np.random.default_rng(int(signed) + 2 * int(hi))
    n = 64 * 64
    x = rng.integers(-2**31, 2**31, n).astype(np.int32)
    r = rng.integers(-2**31, 2**31, n).astype(np.int32)
    x[:64] = rng.integers(-300, 300, 64)      # small values: in range, and shift 0..31
    r[:64] = rng.integers(-300, 300, 64)
    mn = "v_ashr_pk_i8_i32" if signed else "v_ashr_pk_u8_i32"
    sel = [0, 0, 0, 1] if hi else [0, 0, 0, 0]
    got = convert(lambda k: getattr(k, mn)(v[3], v[2], v[4], v[2], op_sel=sel),
                  x.view(np.uint32), r.view(np.uint32), arch="gfx950")
    sh = x & 31
    lo, top = (-128, 127) if signed else (0, 255)
    pk = ((np.clip(x >> sh, lo, top) & 0xFF) | (np.clip(r >> sh, lo, top) & 0xFF) << 8) \
        .astype(np.uint32)
    want = (pk << np.uint32(16)) | np.uint32(0x5A5A) if hi else pk
    np.testing.assert_array_equal(got, want)


def sparse_indices(rng, n, groups=8):
    """Per lane `groups` groups of two distinct positions in ascending order
    (index0 < index1, the document's rule), 2 bits each."""
    pairs = np.array([(p, q) for p in range(4) for q in range(p + 1, 4)])
    pick = pairs[rng.integers(0, len(pairs), (n, groups))]      # (n, groups, 2)
    bits = (pick[..., 0] | pick[..., 1] << 2).astype(np.uint64)
    return (bits << (4 * np.arange(groups, dtype=np.uint64))).sum(axis=1).astype(np.uint32)


def sparse_reference(a, b, c, idx, M, N, K, idx_set, out_type):
    """D = C + A @ B for lane data a (64 x cv compressed values), b (64 x 2cv)
    per the layouts of the docstring of test_smfmac."""
    cv = a.shape[1]
    G = 64 // N
    A = np.zeros((M, K))
    B = np.zeros((K, N))
    for l in range(64):
        g = l // N
        for e in range(cv):
            pos = (int(idx[l]) >> (16 * idx_set + 2 * e)) & 3
            A[l % M, (K // G) * g + 4 * (e // 2) + pos] += a[l, e]
        for e in range(2 * cv):
            B[(e // cv) * cv * G + cv * g + e % cv, l % N] = b[l, e]
    sh = ml._s(M, N, 8, 1, "f16", out_type)        # the C/D layout of the one-block shapes
    want = c.astype(np.float64).copy()
    prod = A @ B
    for i in range(M):
        for j in range(N):
            lane, slot = ml.output_place(sh, 0, i, j)
            want[lane, slot] += prod[i, j]
    return want


@pytest.mark.parametrize("kernel,mn,dtype,idx_set", [
    ("sp16_f16", 16, np.float16, 0), ("sp16_f16_set1", 16, np.float16, 1),
    ("sp16_f16_cbsz", 16, np.float16, 0), ("sp16_bf16", 16, ml_dtypes.bfloat16, 0),
    ("sp32_f16", 32, np.float16, 0), ("sp32_bf16_set1", 32, ml_dtypes.bfloat16, 1),
    ("sp16_i8", 16, np.int8, 0), ("sp16_i8_abid", 16, np.int8, 0),
    ("sp32_i8", 32, np.int8, 0),
    ("sp16_fp8_bf8", 16, (ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2), 0),
    ("sp32_bf8_fp8", 32, (ml_dtypes.float8_e5m2, ml_dtypes.float8_e4m3fn), 0)])
def test_smfmac(code, kernel, mn, dtype, idx_set):
    """Lane l (g = l // N, G = 64 // N) holds cv compressed values of A's row
    l % M (cv = 8 of 16 bits, 16 of 8 bits), value e at k = (K/G) g +
    4 * (e // 2) + its 2-bit position (bits [2e+1:2e] of the index: for
    16-bit the 16-bit set abid[0] with cbsz 0, else set 0; for 8-bit the
    whole register, whatever cbsz/abid), and 2cv values of B's column l % N,
    value e at k = (e // cv) * cv G + cv g + e % cv (two 16-byte runs)."""
    M = N = mn
    byte = dtype is np.int8 or isinstance(dtype, tuple)
    cv = 16 if byte else 8
    K = (128 if mn == 16 else 64) if byte else (64 if mn == 16 else 32)
    rng = np.random.default_rng(len(kernel) + mn)
    if dtype is np.int8:
        a = rng.integers(-128, 128, (64, cv)).astype(np.float64)
        b = rng.integers(-128, 128, (64, 2 * cv)).astype(np.float64)
    else:
        a = (rng.integers(-8, 9, (64, cv)) / 4).astype(np.float64)
        b = (rng.integers(-8, 9, (64, 2 * cv)) / 4).astype(np.float64)
    idx = sparse_indices(rng, 64, cv) if byte else sparse_indices(rng, 64)
    regs = M * N // 64
    if dtype is np.int8:
        c = rng.integers(-2**20, 2**20, (64, regs)).astype(np.int32)
        want = sparse_reference(a, b, c, idx, M, N, K, idx_set, "i32").astype(np.int64)
        out = c.copy()
        launch(code, kernel, 1, [a.astype(np.int8), b.astype(np.int8), out, idx.view(np.int32)])
        np.testing.assert_array_equal(out, want.astype(np.int32))
        return
    c = (rng.integers(-64, 65, (64, regs)) / 8).astype(np.float32)
    want = sparse_reference(a, b, c, idx, M, N, K, idx_set, "f32")
    da, db = dtype if isinstance(dtype, tuple) else (dtype, dtype)
    out = c.copy()
    launch(code, kernel, 1, [a.astype(da), b.astype(db), out, idx.view(np.int32)])
    np.testing.assert_array_equal(out, want.astype(np.float32))   # exact: quarters


def test_lds_dma_3_and_4_dwords(code):
    """global_load_lds_dwordx3, buffer_load_dwordx4 ... lds and
    global_load_lds_dwordx4: lane l's dwords at M0 + 16 * l; dwordx3 leaves
    the 4th dword of its slot (CDNA4 ISA 9.1.9: "LOAD_DWORDX3 writes 3 dwords
    and skips the 4th")."""
    x = np.arange(768, dtype=np.uint32) * np.uint32(2654435761)
    out = np.zeros(768, np.uint32)
    launch(code, "lds_x3x4", 1, [x, out])
    want = np.uint32(0xDEAD0000) + np.arange(768, dtype=np.uint32)
    slots = np.arange(256).reshape(64, 4)
    want[slots[:, :3]] = x[slots[:, :3]]
    want[256:] = x[256:]
    np.testing.assert_array_equal(out, want)
