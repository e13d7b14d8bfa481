"""Stream-K decomposition (`GemmConfig(split_k=True, stream_k=True)`, the
work table of `aster.generators.gemm.stream_k_table`): the tiles' K steps
laid end to end and cut into equal ranges, one workgroup per segment, the
split-K store/add protocol per tile. Checked against NumPy (inputs multiples
of 1/4: exact f32 sums, so C must be equal whatever order the segments add
in), with C filled with NaN before the launch (every element written), the
counters zero after it, and the table's own invariants."""
import ml_dtypes
import numpy as np
import pytest

import aster
import aster.ops as L
from aster.generators.gemm import (GemmConfig, K_UNROLL, compile_config, split_counters,
                                   stream_k_table)

CFG = GemmConfig(dtype="bf16", tile_m=64, tile_n=64, tile_k=64, waves_m=2, waves_n=2,
                 mfma=16, prefetch=2, trans_b=True, split_k=True, stream_k=True)


def operands(m, n, k, seed=0):
    rng = np.random.default_rng(seed)
    a = (rng.integers(-4, 5, (m, k)) / 4).astype(ml_dtypes.bfloat16)
    b = (rng.integers(-4, 5, (n, k)) / 4).astype(ml_dtypes.bfloat16)
    return a, b


@pytest.mark.parametrize("shape,groups", [((1, 1, 1), 4), ((130, 257, 1000), 7),
                                          ((97, 200, 333), 300), ((64, 64, 4096), 5)])
def test_table_covers_each_k_step_once(shape, groups):
    m, n, k = shape
    tab = stream_k_table(CFG, m, n, k, groups)
    gx, gy, _ = CFG.grid(m, n)
    unit = K_UNROLL * CFG.tile_k
    seen = {}
    for i, (tx, ty, k0, kl, first, adders, _, _) in enumerate(tab.tolist()):
        assert k0 % unit == 0 and kl > 0 and k0 + kl <= k
        seen.setdefault((tx, ty), []).append((k0, kl, first, adders, i))
    assert set(seen) == {(x, y) for x in range(gx) for y in range(gy)}
    for segs in seen.values():
        segs.sort()
        assert segs[0][0] == 0 and segs[0][2] == 1 and all(s[2] == 0 for s in segs[1:])
        assert all(a[0] + a[1] == b[0] for a, b in zip(segs, segs[1:]))
        assert segs[-1][0] + segs[-1][1] == k
        assert all(s[3] == len(segs) - 1 for s in segs)
        assert segs[0][4] == min(s[4] for s in segs)      # the first runs first
    steps = gx * gy * -(-k // unit)
    assert max(-(-r[3] // unit) for r in tab.tolist()) <= -(-steps // groups)


@pytest.mark.parametrize("shape,groups", [((1, 1, 1), 4), ((130, 257, 1000), 7),
                                          ((33, 129, 2000), 50), ((7, 300, 999), 13)])
def test_stream_k_matches_numpy(shape, groups):
    m, n, k = shape
    out = compile_config(CFG)
    a, b = operands(m, n, k)
    tab = stream_k_table(CFG, m, n, k, groups)
    gx, gy, _ = CFG.grid(m, n)
    cnt = split_counters(gx * gy * CFG.waves)
    c = np.full((m, n), np.nan, np.float32)
    pad = lambda x: np.concatenate([x.reshape(-1), np.zeros(1, x.dtype)])  # noqa: E731
    aster.launch(out, CFG.name, grid=(len(tab), 1, 1), block=CFG.block,
                 args=[pad(a), pad(b), c, m, n, k, tab, cnt])
    np.testing.assert_array_equal(c, a.astype(np.float64) @ b.astype(np.float64).T)
    assert not cnt.any()


def test_ops_gemm_stream_k_config(tmp_path):
    lib = L.build_library(str(tmp_path / "st"), [CFG], ref_shapes=(), workers=1, calib=False)
    m, n, k = 45, 190, 700
    a, b = operands(m, n, k, 1)
    c, r = L.gemm(a, b, trans_b=True, library=lib, config=CFG.name, splits=9, timing=True)
    assert r.plan.name.endswith("/st9") and r.grid[0] == len(stream_k_table(CFG, m, n, k, 9))
    np.testing.assert_array_equal(c, a.astype(np.float64) @ b.astype(np.float64).T)
