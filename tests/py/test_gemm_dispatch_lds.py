"""The CU's LDS shared by the workgroups resident on it
(`aster.ops.estimate_terms.lds_cycles`, a floor under the K loop): a K step writes
the step's A and B tiles to LDS and every wave reads its fragments from
it; one workgroup alone keeps the LDS busy wg_lds cycles per step (the
timing model's unit_busy["lds"], measured by `library.calibrate`), so
workgroups resident together take at least their sum per step.

MI355X (gfx950 profile, 256 CUs), bf16 `trans_b`, 1216 x 1088 x 4096 (the
wave-quantisation row of the bench, docs/gemm-vs-aiter.md): the 32x64
split-K kernel in one split without zero workgroups (646 workgroups, three
on most CUs, 64 K steps: LDS busy 3 x 288 = 864 cycles per step where one
alone takes 608) against the 64x64 split-K kernel in 2 splits with zero
workgroups. The oracle is the timing model's simulation of both whole
launches: 62921 and 56440 cycles on main a4b1dd5's model (the 32x64
launch's critical path waits 13.1 us on LDS), so 32x64 is the slower.
The estimate has them at 62.1k and 51.7k cycles; without the LDS floor it
ordered them the other way (47.7k against 49.9k)."""
import pytest

import aster.ops as L
from aster.generators.gemm import GemmConfig
from aster.ops.estimate_terms import lds_cycles
from split_orders import entry, estimates_us, launch_cycles

SMALL = GemmConfig(dtype="bf16", tile_m=32, tile_n=64, tile_k=64, waves_m=2, waves_n=2, mfma=16,
                   prefetch=2, trans_b=True, split_k=True, arch="gfx950")
WIDE = GemmConfig(dtype="bf16", tile_m=64, tile_n=64, tile_k=64, waves_m=2, waves_n=2, mfma=16,
                  prefetch=2, trans_b=True, split_k=True, arch="gfx950")
M, N, K = 1216, 1088, 4096
LAUNCHES = ((SMALL, 1, 0), (WIDE, 2, 1))      # (kernel, splits, zwg)


def test_lds_of_the_resident_workgroups():
    """wg_lds per resident workgroup; a library built before the column: 0."""
    assert lds_cycles(dict(wg_lds=288.0), 1) == 288.0
    assert lds_cycles(dict(wg_lds=288.0), 3) == 3 * 288.0
    assert lds_cycles(dict(wg_step=600.0), 3) == 0.0


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    return L.build_library(str(tmp_path_factory.mktemp("ldslib")), [SMALL, WIDE], ref_shapes=(),
                           workers=2)


def test_calibration_measures_the_lds(lib):
    """One workgroup's LDS busy cycles per K step, under its step."""
    for cfg in (SMALL, WIDE):
        cal = entry(lib, cfg).calibration
        assert 0 < cal["wg_lds"] < cal["wg_step"], (cfg.name, cal)


@pytest.fixture(scope="module")
def simulated(lib):
    """Cycles of both whole launches on the timing model (the oracle)."""
    return launch_cycles(lib, (M, N, K), LAUNCHES)


def test_the_lds_bound_launch_is_slower(simulated):
    small, wide = simulated
    assert small > 1.05 * wide, simulated


def test_estimate_orders_them_as_simulated(lib, simulated):
    new = estimates_us(lib, (M, N, K), LAUNCHES)
    old = estimates_us(lib, (M, N, K), LAUNCHES, lambda cal: dict(cal, wg_lds=0.0))
    assert new[0] > new[1], (new, simulated)
    assert old[0] < old[1], (old, simulated)     # without the LDS bound: the other way
