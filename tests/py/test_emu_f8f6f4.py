"""gfx950 scaled f8f6f4 MFMAs on the emulator: clang-22 kernels
(tests/py/raise_corpus/gfx950_f8f6f4.hip, __builtin_amdgcn_mfma_scale_f32_
{16x16x128,32x32x64}_f8f6f4) against NumPy, with the OCP element formats of
ml_dtypes (float8_e4m3fn, float8_e5m2, float6_e2m3fn, float6_e3m2fn,
float4_e2m1fn), E8M0 scales (float8_e8m0fnu) and AMD's MFMA register layouts
(mfma_layouts.py: a lane holds 32 consecutive k of one row of A / column of
B; C/D as the other 16x16 and 32x32 single-block MFMAs). The sum is formed
in k order in double and rounded once to f32, as the emulator documents for
every MFMA."""
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import aster
import mfma_layouts as ml

HIP = Path(__file__).with_name("raise_corpus") / "gfx950_f8f6f4.hip"
FORMATS = [(ml_dtypes.float8_e4m3fn, 8), (ml_dtypes.float8_e5m2, 8),
           (ml_dtypes.float6_e2m3fn, 6), (ml_dtypes.float6_e3m2fn, 6),
           (ml_dtypes.float4_e2m1fn, 4)]
KERNELS = ["s16_0_0_0_0", "s16_1_2_1_2", "s16_2_4_3_1", "s16_3_1_2_3", "s16_4_4_0_0",
           "s16_4_3_1_1", "s32_0_3_1_0", "s32_4_0_0_2", "s32_2_2_3_3", "s32_1_4_2_1"]


def lane_values(rng, fmt):
    """Random finite elements: per lane 32 bit patterns packed into 8 dwords
    (element e at bits [e*w, (e+1)*w)), and their values."""
    dtype, w = FORMATS[fmt]
    pats = rng.integers(0, 1 << w, (64, 32), dtype=np.uint64)
    vals = pats.astype(np.uint8).view(dtype).astype(np.float64)
    pats[~np.isfinite(vals)] = 0
    vals[~np.isfinite(vals)] = 0.0
    words = np.zeros((64, 8), np.uint32)
    for e in range(32):
        bit = e * w
        words[:, bit // 32] |= ((pats[:, e] << np.uint64(bit % 32)) & 0xffffffff).astype(np.uint32)
        if bit % 32 + w > 32:
            words[:, bit // 32 + 1] |= (pats[:, e] >> np.uint64(32 - bit % 32)).astype(np.uint32)
    return words, vals


@pytest.mark.parametrize("name", KERNELS)
def test_scaled_mfma_f8f6f4(hip_hsaco, name):
    h = hip_hsaco(HIP, arch="gfx950")
    assert aster.load_code_object(h).unsupported(name) == []
    m = 16 if name.startswith("s16") else 32
    fa, fb, oa, ob = (int(x) for x in name.split("_")[1:])
    sh = ml._s(m, m, 2048 // m, 1, "fp8", "f32")   # 16x16x128 / 32x32x64, one block
    rng = np.random.default_rng(KERNELS.index(name))
    wa, va = lane_values(rng, fa)
    wb, vb = lane_values(rng, fb)
    sa = rng.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    sb = rng.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    ea = rng.integers(118, 136, 64).astype(np.uint32)
    eb = rng.integers(118, 136, 64).astype(np.uint32)
    sa = (sa & ~np.uint32(0xff << (8 * oa))) | ea << np.uint32(8 * oa)
    sb = (sb & ~np.uint32(0xff << (8 * ob))) | eb << np.uint32(8 * ob)
    regs = m * m // 64
    c = rng.standard_normal((64, regs)).astype(np.float32)
    out = np.zeros((64, regs), np.float32)
    aster.launch(h, name, grid=1, block=64,
                 args=[wa.view(np.int32), wb.view(np.int32), c, sa.view(np.int32),
                       sb.view(np.int32), out])
    scale_a = ea.astype(np.uint8).view(ml_dtypes.float8_e8m0fnu).astype(np.float64)
    scale_b = eb.astype(np.uint8).view(ml_dtypes.float8_e8m0fnu).astype(np.float64)
    want = ml.scaled_one_block_reference(sh, va, vb, scale_a, scale_b, c)
    np.testing.assert_array_equal(out, want)
