"""Dispatch by device time (`aster.ops.dispatch.estimate`): with a library of
two kernels calibrated on the timing model (`library.calibrate`), `plan`
picks the kernel whose launch the timing model measures faster, on shapes
where the two differ by more than 10%, and its estimate is within 25% of
the simulated cycles. The oracle is the timing model's simulation of each
whole launch (every workgroup on the MI300X profile's 304 CUs), not the
estimate's own terms."""
import ml_dtypes
import numpy as np
import pytest

import aster.ops as L
from aster.generators.gemm import GemmConfig
from aster.ops import library as Lb

PLAIN = GemmConfig(dtype="bf16", tile_m=64, tile_n=64, tile_k=64, waves_m=2, waves_n=2, mfma=16,
                   prefetch=2, trans_b=True)
SPLIT = GemmConfig(dtype="bf16", tile_m=128, tile_n=128, tile_k=32, waves_m=2, waves_n=2,
                   mfma=32, prefetch=2, trans_b=True, split_k=True)


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    return L.build_library(str(tmp_path_factory.mktemp("dtlib")), [PLAIN, SPLIT],
                           ref_shapes=(), workers=2)


def test_calibration_columns(lib):
    """Each kernel carries its calibration; the split-K kernel's zero
    workgroup and its wait for split 0's store (zwg = 0) are measured."""
    for e in lib.entries:
        c = e.calibration
        assert c and c["wg_step"] > 0 and c["wg_fixed"] > 0 and c["wg_per_cu"] >= 1
        assert (c["wg_zero"] > 0 and c["wg_fixed0"] > 0) == e.config.split_k


# (M, N, K): the plain 64x64 kernel (256 workgroups, K = 512 in one pass:
# 12.3k simulated cycles) against 128x128 tiles split along K (15.8k at
# best: their workgroups' fixed cost weighs on short K chunks), and a
# K-heavy skinny shape where only splitting K fills the device (54.7k
# cycles unsplit, 10-16k split).
SHAPES = [(256, 4096, 512), (64, 256, 5120)]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_plan_picks_the_faster_launch(lib, shape):
    m, n, k = shape
    measured = {}
    for e in lib.entries:
        best = None
        for s in ((1,) if not e.config.split_k else L.dispatch.split_factors(e.config, k)):
            for z in ((1, 0) if e.config.split_k else (1,)):
                us = L.dispatch.estimate_us(e.config, m, n, k, s, e.calibration, zwg=z)[0]
                if best is None or us < best[0]:
                    best = (us, s, z)
        r = Lb.run(lib.code(e), e.config, shape, best[1], zwg=best[2])
        est = L.dispatch.estimate(e.config, m, n, k, None, best[1], calib=e.calibration,
                                  zwg=best[2])[0]
        assert abs(est / r.cycles - 1) < 0.25, (e.name, best, est, r.cycles)
        measured[e.name] = r.microseconds
    fast, slow = sorted(measured, key=measured.get)
    assert measured[slow] > 1.1 * measured[fast], measured      # a real difference
    assert L.plan(lib, m, n, k, dtype="bf16", trans_b=True).entry.name == fast, measured


def test_split_k_without_zero_workgroups_matches_numpy(lib):
    """A plan without zero workgroups (zwg = 0, split 0 stores) gives NumPy's
    result exactly (inputs multiples of 1/4) on odd sizes."""
    rng = np.random.default_rng(1)
    m, n, k = 97, 300, 1333
    a = (rng.integers(-4, 5, (m, k)) / 4).astype(ml_dtypes.bfloat16)
    b = (rng.integers(-4, 5, (n, k)) / 4).astype(ml_dtypes.bfloat16)
    e = [x for x in lib.entries if x.config.split_k][0]
    kc, sk = e.config.kchunk(k, 4)
    c = np.full((m, n), np.nan, np.float32)
    cnt = L.dispatch.split_counters(e.config.grid(m, n)[0] * e.config.grid(m, n)[1] * 4)
    from aster.runtime import launch
    launch(lib.code(e), e.name, grid=e.config.grid(m, n, sk, 0), block=e.config.block,
           args=[L.dispatch._padded(a), L.dispatch._padded(b), c, m, n, k, kc, cnt, sk, 0])
    ref = a.astype(np.float64) @ b.astype(np.float64).T
    np.testing.assert_array_equal(c, ref)
    assert not cnt.any()
