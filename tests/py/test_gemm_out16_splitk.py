"""16-bit C by split-K (`aster.ops.gemm(..., out_dtype=bfloat16/float16)`
with an f32 split-K kernel into a workspace and `aster.ops.gemm_convert`'s
launch after it) against NumPy, and the dispatch choosing it by estimated
device time.

Oracles: ml_dtypes / NumPy rounding of float64 (round to nearest even) for
the conversion and for C (inputs multiples of 1/4: exact f32 sums); the
timing model's simulation of each whole launch for the time (the estimate
`gemm_convert.estimate_us` against the simulated conversion; plan's pick
against the simulated plain 16-bit kernel)."""
import ml_dtypes
import numpy as np
import pytest

import aster.ops as L
from aster.generators.gemm import GemmConfig
from aster.ops import gemm_convert
from aster.ops.devices import profile

OUT = {"bf16": ml_dtypes.bfloat16, "f16": np.float16}
PLAIN16 = GemmConfig(dtype="bf16", tile_m=64, tile_n=64, tile_k=64, waves_m=2, waves_n=2,
                     mfma=16, prefetch=2, trans_b=True, out="bf16")
SPLIT = GemmConfig(dtype="bf16", tile_m=16, tile_n=64, tile_k=64, waves_m=1, waves_n=2,
                   mfma=16, prefetch=2, trans_b=True, split_k=True)


@pytest.mark.parametrize("fmt", ["bf16", "f16"])
def test_convert_rounds_like_numpy(fmt):
    rng = np.random.default_rng(0)
    for n in (1, 7, 1027):
        ws = (rng.normal(0, 300, n) * rng.choice([1, 2.0 ** -20, 2.0 ** 10], n)).astype(np.float32)
        ws[:3] = [1 + 2.0 ** -8, 1 + 3 * 2.0 ** -8, -(1 + 2.0 ** -11)][:min(3, n)]  # ties
        c = np.full(n + 4, 0x1234, np.uint16)
        gemm_convert.run(ws, c[:n], fmt)
        np.testing.assert_array_equal(c[:n].view(OUT[fmt]), ws.astype(OUT[fmt]))
        assert (c[n:] == 0x1234).all()          # nothing past C written


@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
def test_convert_estimate_near_simulation(arch):
    for m, n in ((64, 64), (256, 768)):
        ws = np.zeros((m, n), np.float32)
        r = gemm_convert.run(ws, np.zeros((m, n), np.uint16), "bf16", arch=arch, timing=True)
        est = gemm_convert.estimate_us(m, n, profile(arch))
        assert abs(est / r.microseconds - 1) < 0.25, (m, n, est, r.microseconds)


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    return L.build_library(str(tmp_path_factory.mktemp("o16lib")), [PLAIN16, SPLIT],
                           ref_shapes=(), workers=2)


def operands(m, n, k, seed=0):
    rng = np.random.default_rng(seed)
    a = (rng.integers(-4, 5, (m, k)) / 4).astype(ml_dtypes.bfloat16)
    b = (rng.integers(-4, 5, (n, k)) / 4).astype(ml_dtypes.bfloat16)
    return a, b


def test_splitk_16bit_c_matches_numpy(lib, fmt="bf16"):
    m, n, k = 7, 130, 1001
    a, b = operands(m, n, k)
    ref = (a.astype(np.float64) @ b.astype(np.float64).T).astype(OUT[fmt])
    c, r = L.gemm(a, b, trans_b=True, out_dtype=OUT[fmt], library=lib, config=SPLIT.name,
                  splits=3, timing=True)
    assert r.plan.convert == fmt and r.convert is not None and c.dtype == OUT[fmt]
    assert r.total_us == pytest.approx(r.microseconds + r.convert.microseconds)
    np.testing.assert_array_equal(c, ref)


def test_plan_picks_splitk_16bit_where_faster(lib):
    """A decode shape: 16 x 1024 outputs on 304 CUs leave the plain 16-bit
    kernels 16 workgroups; splitting K (and converting) is faster on the
    timing model, and plan picks it; on a square shape it keeps the plain
    kernel or stays within 10% of it."""
    m, n, k = 16, 1024, 4096
    a, b = operands(m, n, k, 1)
    ref = (a.astype(np.float64) @ b.astype(np.float64).T).astype(ml_dtypes.bfloat16)
    c, r = L.gemm(a, b, trans_b=True, out_dtype=ml_dtypes.bfloat16, library=lib, timing=True)
    c2, r2 = L.gemm(a, b, trans_b=True, out_dtype=ml_dtypes.bfloat16, library=lib, timing=True,
                    config=PLAIN16.name)
    assert r.plan.convert == "bf16" and r.total_us < 0.8 * r2.total_us
    np.testing.assert_array_equal(c, ref)
    np.testing.assert_array_equal(c2, ref)
