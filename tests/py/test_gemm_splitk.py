"""Split-K GEMM kernels (`GemmConfig.split_k`: per output tile, workgroup
z = 0 zeroes C's tile and the K splits add their partial sums with
buffer_atomic_add_f32 once it has: no zero fill of C before the launch) and
small-M tiles against NumPy (inputs multiples of 1/4: every partial sum is
exact in f32, so any order of the atomic adds gives NumPy's float64 result
exactly), and the dispatcher's use of them."""
import numpy as np
import pytest

import aster
import aster.ops as L
from aster.generators.gemm import DTYPES, GemmConfig, compile_config, reference
from aster.ops import dispatch


def operands(m, n, k, dtype, trans_b, seed=0):
    rng = np.random.default_rng(seed)
    a = (rng.integers(-4, 5, (m, k)) / 4).astype(DTYPES[dtype])
    b = (rng.integers(-4, 5, (n, k) if trans_b else (k, n)) / 4).astype(DTYPES[dtype])
    return a, b


def run(cfg, m, n, k, kc, fill=np.nan, zwg=1, **launch):
    """C starts as `fill` (NaN: the kernel must overwrite, not add); the
    counters must come back zero. zwg: zero workgroups (1) or split 0
    storing (0)."""
    a, b = operands(m, n, k, cfg.dtype, cfg.trans_b)
    c = np.full((m, n), fill, np.float32)
    gx, gy, _ = cfg.grid(m, n)
    cnt = dispatch.split_counters(gx * gy * cfg.waves)
    sk = -(-k // kc)
    aster.launch(compile_config(cfg), cfg.name, grid=cfg.grid(m, n, sk, zwg), block=cfg.block,
                 args=[dispatch._padded(a), dispatch._padded(b), c, m, n, k, kc, cnt, sk, zwg],
                 **launch)
    assert not cnt.any(), "the kernel must leave its split counters at zero"
    return c, reference(a, b, cfg.trans_b)


TILES = [dict(tile_m=64, tile_n=64, tile_k=64, mfma=16),
         dict(tile_m=32, tile_n=64, tile_k=64, mfma=16),
         dict(tile_m=16, tile_n=64, tile_k=64, waves_m=1, waves_n=2, mfma=16),
         dict(tile_m=128, tile_n=128, tile_k=32, mfma=32)]


@pytest.mark.parametrize("tile", TILES, ids=lambda t: f"{t['tile_m']}x{t['tile_n']}")
@pytest.mark.parametrize("trans_b", [False, True])
@pytest.mark.parametrize("dtype,arch", [("bf16", "gfx942"), ("f16", "gfx950")])
def test_split_k_matches_numpy(tile, trans_b, dtype, arch):
    """Odd M, N and K, a K chunk that is not a multiple of the K step (the
    last split is short), several splits; with zero workgroups and with
    split 0 storing (zwg = 0), and one split alone storing (zwg = 0)."""
    cfg = GemmConfig(dtype=dtype, arch=arch, trans_b=trans_b, prefetch=2, split_k=True,
                     **tile).check()
    c, ref = run(cfg, 37, 70, 333, 100)
    np.testing.assert_array_equal(c, ref)
    c, ref = run(cfg, 37, 70, 333, 100, zwg=0)
    np.testing.assert_array_equal(c, ref)
    c, ref = run(cfg, 37, 70, 333, 400, zwg=0)
    np.testing.assert_array_equal(c, ref)


@pytest.mark.parametrize("zwg", [1, 0])
@pytest.mark.parametrize("launch", [dict(threads=4), dict(timing=True)],
                         ids=["threads", "timing"])
def test_split_k_splits_finishing_in_any_order(launch, zwg):
    """Workgroups on 4 host threads (a tile's zeroing or storing split and
    its adding splits run at once, in any order) and on the timing model
    (CUs side by side in simulated time: split waves that finish before
    their tile is stored spin): C's old contents (1.5) never reach the
    result, the counters end at zero."""
    cfg = GemmConfig(dtype="bf16", tile_m=64, tile_n=64, tile_k=64, mfma=16, trans_b=True,
                     split_k=True, prefetch=2)
    c, ref = run(cfg, 70, 130, 1000, 128, fill=1.5, zwg=zwg, **launch)
    np.testing.assert_array_equal(c, ref)


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    """A small library: the default library's bf16 gfx942 trans_b tiles
    (no reference simulations, no calibration: dispatch's uncalibrated
    estimate; test_gemm_dispatch_time.py checks the calibrated one)."""
    cfgs = [c for c in L.default_configs(archs=("gfx942",), dtypes=("bf16",), a8w8=False)
            if c.trans_b and (c.split_k or c.tile_m == 64)]
    return L.build_library(str(tmp_path_factory.mktemp("sklib")), cfgs, ref_shapes=(),
                           workers=2, calib=False)


def test_plan_splits_skinny_shapes(lib):
    """A 64x256 output over K = 5120 leaves most CUs idle unsplit: the plan
    splits K; 2432x2048 (304 tiles of 128x128: one per CU) is not split."""
    p = L.plan(lib, 64, 256, 5120, dtype="bf16", trans_b=True)
    assert p.entry.config.split_k and p.splits > 8
    assert p.kchunk * p.splits >= 5120 > p.kchunk * (p.splits - 1)
    p = L.plan(lib, 2432, 2048, 4096, dtype="bf16", trans_b=True)
    assert p.splits == 1 and p.entry.config.tile_m == 128


@pytest.mark.parametrize("shape", [(1, 300, 700), (17, 64, 4096), (64, 256, 5120)])
def test_gemm_with_split_plan_matches_numpy(lib, shape):
    m, n, k = shape
    a, b = operands(m, n, k, "bf16", True)
    c, r = L.gemm(a, b, trans_b=True, timing=True, library=lib)
    np.testing.assert_array_equal(c, reference(a, b, True))
    assert r.plan.splits + r.plan.zwg == r.grid[2] and r.cycles > 0  # zwg: z = 0 zeroes C


def test_bad_splits_raise(lib):
    a, b = operands(8, 8, 64, "bf16", True)
    plain = [e for e in lib.find(arch="gfx942", dtype="bf16", trans_b=True)
             if not e.config.split_k][0]
    with pytest.raises(ValueError, match="split-K"):
        L.gemm(a, b, trans_b=True, config=plain, splits=2, library=lib)
