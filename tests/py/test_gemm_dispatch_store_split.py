"""A split-K kernel launched in one split without zero workgroups (`sk1n`)
only stores C: its K workgroup is split 0, which stores its tile and waits
for the stores before it releases the counter (generators/gemm_splitk.py),
where the calibration's K workgroup (zero workgroups on) polls the counter
and adds atomically. `library.calibrate` measures the storing workgroup
alone (wg_fixed1, wg_drain1) and the full-device probes launched that way
(wg_load1, wg_load1_step, wg_load1_full); `dispatch.estimate` charges
those to a one-split launch without zero workgroups.

MI300X (gfx942 profile, 304 CUs), bf16 `trans_b`, 768 x 768 x 768 (a
square row of the bench, docs/gemm-vs-aiter.md): the 32x64 and the 16x64
split-K kernels, each in one split without zero workgroups. The oracle is
the timing model's simulation of both whole launches: 10257 and 11214
cycles on main a4b1dd5's model, so 32x64 is the faster. Charged as adding
launches (wg_fixed and the adds' drain) the estimate ordered them the
other way (11355 against 10974 cycles: the plan took 16x64, 6.1%
slower)."""
import pytest

import aster.ops as L
from aster.generators.gemm import GemmConfig
from split_orders import entry, estimates_us, launch_cycles

WIDE = GemmConfig(dtype="bf16", tile_m=32, tile_n=64, tile_k=64, waves_m=2, waves_n=2, mfma=16,
                  prefetch=2, trans_b=True, split_k=True)
THIN = GemmConfig(dtype="bf16", tile_m=16, tile_n=64, tile_k=64, waves_m=1, waves_n=2, mfma=16,
                  prefetch=2, trans_b=True, split_k=True)
M, N, K = 768, 768, 768
LAUNCHES = ((WIDE, 1, 0), (THIN, 1, 0))      # (kernel, splits, zwg)
STORE_COLUMNS = ("wg_fixed1", "wg_drain1", "wg_load1", "wg_load1_full", "wg_load1_step")


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    return L.build_library(str(tmp_path_factory.mktemp("storelib")), [WIDE, THIN],
                           ref_shapes=(), workers=2)


def test_calibration_measures_the_storing_split(lib):
    """Storing (no poll, no adds) takes fewer fixed cycles than adding, and
    the storer waits for its stores: next to no drain after it."""
    for cfg in (WIDE, THIN):
        cal = entry(lib, cfg).calibration
        assert 0 < cal["wg_fixed1"] < cal["wg_fixed"], (cfg.name, cal)
        assert cal["wg_drain1"] < cal["wg_drain"] / 4, (cfg.name, cal)


@pytest.fixture(scope="module")
def simulated(lib):
    """Cycles of both whole launches on the timing model (the oracle)."""
    return launch_cycles(lib, (M, N, K), LAUNCHES)


def test_wide_tile_is_faster_here(simulated):
    wide, thin = simulated
    assert thin > 1.05 * wide, simulated


def test_estimate_orders_them_as_simulated(lib, simulated):
    new = estimates_us(lib, (M, N, K), LAUNCHES)
    # a library without the columns: charged as an adding launch
    old = estimates_us(lib, (M, N, K), LAUNCHES,
                       lambda cal: dict(cal, **{f: 0.0 for f in STORE_COLUMNS}))
    assert new[0] < new[1], (new, simulated)
    assert old[0] > old[1], (old, simulated)
