"""Matrix-core kernels of the HIP corpus (tests/emulator/hip/mfma.hip, through
`__builtin_amdgcn_mfma_*`), run on the emulator and compared with NumPy
matrix products. Each kernel stores row-major D from row-major A, B (and C),
so the reference is A @ B (+ C) per block; the inputs are small multiples of
1/4 (or integers), so every product and sum is exact and the comparison is
exact. The per-instruction register layouts are checked separately against
AMD's published tables in test_emu_mfma_layouts.py."""
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import aster
from conftest import HIP_INCLUDE

HIP = Path(HIP_INCLUDE) / "mfma.hip"
ONE = ((1, 1, 1), (64, 1, 1))     # one wave


@pytest.fixture(scope="module")
def code(hip_hsaco):
    return hip_hsaco(HIP)


def quarters(shape, seed, lo=-8, hi=9):
    """Random multiples of 1/4 in [-2, 2]: exact in f16, bf16 and fp8."""
    return np.random.default_rng(seed).integers(lo, hi, shape).astype(np.float64) / 4


@pytest.mark.parametrize("kernel,m,n,k,dtype,with_c", [
    ("mfma_f16_16x16x16", 16, 16, 16, np.float16, True),
    ("mfma_f16_32x32x8", 32, 32, 8, np.float16, False),
    ("mfma_bf16_16x16x16", 16, 16, 16, ml_dtypes.bfloat16, False),
    ("mfma_bf16_32x32x8", 32, 32, 8, ml_dtypes.bfloat16, False),
    ("mfma_f32_16x16x4", 16, 16, 4, np.float32, False),
    ("mfma_f32_32x32x2", 32, 32, 2, np.float32, False),
    ("mfma_fp8_16x16x32", 16, 16, 32, ml_dtypes.float8_e4m3fnuz, False),
])
def test_mfma_float(code, kernel, m, n, k, dtype, with_c):
    a, b, c = quarters((m, k), m + k), quarters((k, n), 3 * n + k), quarters((m, n), 99)
    d = np.full((m, n), np.nan, np.float32)
    args = [a.astype(dtype), b.astype(dtype)] + ([c.astype(np.float32)] if with_c else []) + [d]
    aster.launch(code, kernel, *ONE, args)
    np.testing.assert_array_equal(d, a @ b + (c if with_c else 0))


@pytest.mark.parametrize("kernel,m,n,k", [("mfma_i8_16x16x32", 16, 16, 32),
                                          ("mfma_i8_32x32x16", 32, 32, 16)])
def test_mfma_i8(code, kernel, m, n, k):
    rng = np.random.default_rng(m * 7 + k)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)     # the full int8 range
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    d = np.zeros((m, n), np.int32)
    aster.launch(code, kernel, *ONE, [a, b, d])
    np.testing.assert_array_equal(d, a.astype(np.int32) @ b.astype(np.int32))


def test_mfma_f64(code):
    rng = np.random.default_rng(5)
    a, b = rng.uniform(-1, 1, (16, 4)), rng.uniform(-1, 1, (4, 16))
    d = np.zeros((16, 16))
    aster.launch(code, "mfma_f64_16x16x4", *ONE, [a, b, d])
    np.testing.assert_allclose(d, a @ b, rtol=1e-14, atol=1e-15)


def test_mfma_loop_k_accumulation_4_waves(code):
    """64x64 = (64 x K) @ (K x 64): 4 waves each own a 32x32 quadrant of
    four 16x16 tiles and accumulate K / 16 MFMAs per tile."""
    K = 80
    a, b = quarters((64, K), 1), quarters((K, 64), 2)
    d = np.zeros((64, 64), np.float32)
    st = aster.launch(code, "mfma_gemm_loop", (1, 1, 1), (256, 1, 1),
                      [a.astype(np.float16), b.astype(np.float16), d, np.int32(K)])
    np.testing.assert_array_equal(d, a @ b)
    assert st.mfma == 4 * 4 * (K // 16)


@pytest.mark.parametrize("broadcast", [0, 1])
def test_mfma_4x4x4_16_blocks_cbsz_abid(code, broadcast):
    """16 blocks of 4x4x4; with CBSZ=1, ABID=1 every pair of blocks uses the A
    of its odd block."""
    a, b = quarters((16, 4, 4), 40), quarters((16, 4, 4), 41)
    d = np.zeros((16, 4, 4), np.float32)
    aster.launch(code, "mfma_f16_4x4x4_16b", *ONE,
                 [a.astype(np.float16), b.astype(np.float16), d, np.int32(broadcast)])
    src = (np.arange(16) // 2) * 2 + 1 if broadcast else np.arange(16)
    np.testing.assert_array_equal(d, a[src] @ b)


def test_mfma_32x32x4_2_blocks(code):
    a, b = quarters((2, 32, 4), 50), quarters((2, 4, 32), 51)
    d = np.zeros((2, 32, 32), np.float32)
    aster.launch(code, "mfma_f16_32x32x4_2b", *ONE, [a.astype(np.float16), b.astype(np.float16), d])
    np.testing.assert_array_equal(d, a @ b)
