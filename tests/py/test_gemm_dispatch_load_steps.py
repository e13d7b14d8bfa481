"""The full-device probe's extra cycles growing with the K steps
(`aster.ops.library.calibrate`'s wg_load_step, charged by
`aster.ops.estimate_terms.probe_extra`): with every CU busy, each K step's
loads queue at L2, the Infinity Cache and HBM, which one workgroup alone
(wg_step) does not see. The probe of one workgroup per CU, run at both
calibration lengths (CALIB_STEPS: 4 and 12 K steps), measures the growth.

MI355X (gfx950 profile, 256 CUs), bf16 `trans_b`, 512 x 1024 x 4096 (a
prefill row of the bench, docs/gemm-vs-aiter.md) on the 128x128 split-K kernel with
zero workgroups: 8 splits (16 K steps, one K workgroup per CU) against 13
(10 steps, two on most CUs). The oracle is the timing model's simulation of
both whole launches: 25391 and 21352 cycles on main bbe3627's model, so 8
splits are the slower. The estimate without the growth charged the probe's
extra of 4 steps to both and ordered them the other way (23426 against
23452 cycles: the plan took 8 splits, 12.7% slower); with it, 8 splits'
one-per-CU workgroups pay the growth of their 16 steps (up to 12, the
longest probe) and 13 splits' workgroups, sharing their CUs, mostly the
probe with every slot busy, which does not grow (docs/gemm.md)."""
import pytest

import aster.ops as L
from aster.generators.gemm import GemmConfig
from aster.ops import library as Lb
from split_orders import one_kernel_library, simulated_cycles
from aster.ops.estimate_terms import probe_extra

CFG = GemmConfig(dtype="bf16", tile_m=128, tile_n=128, tile_k=32, waves_m=2, waves_n=2, mfma=32,
                 prefetch=2, trans_b=True, split_k=True, arch="gfx950")
M, N, K = 512, 1024, 4096
FEW, MANY = 8, 13


def test_probe_extra_grows_to_the_longest_probe():
    """wg_load at CALIB_STEPS[0] steps, + wg_load_step per step up to
    CALIB_STEPS[1] (not beyond); a library without the column (0) charges
    the probe as before; the busy-slot probe is charged as measured."""
    n0, n1 = Lb.CALIB_STEPS
    cal = dict(wg_load=500.0, wg_load_full=6000.0, wg_load_step=70.0)
    assert probe_extra(cal, 1.0, 2, n0) == 500.0
    assert probe_extra(cal, 1.0, 2, n1) == 500.0 + 70.0 * (n1 - n0)
    assert probe_extra(cal, 1.0, 2, 40) == probe_extra(cal, 1.0, 2, n1)
    assert probe_extra(cal, 0.5, 2, n1) == 0.5 * (500.0 + 70.0 * (n1 - n0))
    assert probe_extra(cal, 2.0, 2, 40) == 6000.0
    old = dict(wg_load=500.0, wg_load_full=6000.0)
    assert probe_extra(old, 1.5, 2, 16) == 500.0 + 0.5 * 5500.0
    # a negative growth (tiles sharing A and B hit in L2) never charges below 0
    assert probe_extra(dict(wg_load=100.0, wg_load_full=100.0, wg_load_step=-50.0), 1.0, 1,
                       12) == 0.0


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    return one_kernel_library(tmp_path_factory, "steplib", CFG)


@pytest.fixture(scope="module")
def simulated(lib):
    """Cycles of both whole launches on the timing model (the oracle)."""
    return simulated_cycles(lib, (M, N, K), (FEW, MANY))


def test_calibration_measures_the_growth(lib):
    """The probe of one workgroup per CU takes longer per K step than one
    workgroup alone (MI355X: 489 extra cycles at 4 steps, 1069 at 12)."""
    cal = lib.entries[0].calibration
    assert cal["wg_load_step"] > 0.05 * cal["wg_step"], cal


def test_few_long_splits_are_slower_here(simulated):
    few, many = simulated
    assert few > 1.1 * many, simulated


def test_estimate_orders_them_as_simulated(lib, simulated):
    e = lib.entries[0]
    us = [L.dispatch.estimate_us(e.config, M, N, K, s, e.calibration, zwg=1)[0]
          for s in (FEW, MANY)]
    assert us[0] > us[1], (us, simulated)
    # without the growth the estimate orders them the other way
    flat = dict(e.calibration, wg_load_step=0.0)
    us0 = [L.dispatch.estimate_us(e.config, M, N, K, s, flat, zwg=1)[0] for s in (FEW, MANY)]
    assert us0[0] < us0[1], (us0, simulated)


def test_no_growth_without_zero_workgroups(lib):
    """The growth is the probe's, a launch with zero workgroups: a split-K
    launch whose split 0 stores (zwg = 0: its adders wait for that store,
    wg_fixed0) is charged the probe's extra of 4 steps; the same launch
    with zero workgroups pays the growth."""
    e = lib.entries[0]
    flat = dict(e.calibration, wg_load_step=0.0)
    for z, grows in ((0, False), (1, True)):
        c = L.dispatch.estimate(e.config, M, N, K, None, FEW, 256, e.calibration, zwg=z)[0]
        c0 = L.dispatch.estimate(e.config, M, N, K, None, FEW, 256, flat, zwg=z)[0]
        assert (c > c0) == grows, (z, c, c0)
