"""Split-K adders taking turns on their tile's lines at L2
(`aster.ops.estimate_terms.adder_turns`): the timing model holds a line
for `atomicLineCycles` (Params.h, 16) per atomic and runs the atomics to
one line one after another (Memory.cpp), so the adders of one tile that
end their K loops together queue on its counter line (the poll that sees
the store, the increment) and on its C lines (two half-line adds each).

MI355X (gfx950 profile, 256 CUs), bf16 `trans_b`, 16 x 2048 x 4096 (a
decode row of the bench, docs/gemm-vs-aiter.md) on the 16x64 split-K kernel with
zero workgroups: 32 splits (32 adders per tile, 1056 workgroups, all
resident) against 11. The oracle is the timing model's simulation of both
whole launches: 14274 and 13255 cycles on main a400ae4's model (grouped
default), so 32 splits are the slower. Without the turns the estimate
ordered them the other way (11688 against 11728 cycles) and the plan
took 32 splits, 5.4% slower."""
import pytest

import aster.ops as L
from aster.generators.gemm import GemmConfig
from split_orders import one_kernel_library, simulated_cycles
from aster.ops.estimate_terms import ATOMIC_LINE_CYCLES, adder_turns

CFG = GemmConfig(dtype="bf16", tile_m=16, tile_n=64, tile_k=64, waves_m=1, waves_n=2, mfma=16,
                 prefetch=2, trans_b=True, split_k=True, arch="gfx950")
M, N, K = 16, 2048, 4096
MANY, FEW = 32, 11


def test_turns_count_adders_together():
    """One adder per tile (the calibration probe's) adds nothing; adders
    that run together take two turns each after the first; a launch of two
    rounds of workgroups has half of a tile's adders together."""
    assert adder_turns(1, 600, 512) == 0
    assert adder_turns(32, 1056, 2048) == 2 * 31 * ATOMIC_LINE_CYCLES
    assert adder_turns(32, 1024, 512) == 2 * 15 * ATOMIC_LINE_CYCLES


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    return one_kernel_library(tmp_path_factory, "turnlib", CFG)


@pytest.fixture(scope="module")
def simulated(lib):
    """Cycles of both whole launches on the timing model (the oracle)."""
    return simulated_cycles(lib, (M, N, K), (MANY, FEW))


def test_many_splits_are_slower_here(simulated):
    many, few = simulated
    assert many > 1.05 * few, simulated


def test_estimate_orders_them_as_simulated(lib, simulated):
    e = lib.entries[0]
    us_many = L.dispatch.estimate_us(e.config, M, N, K, MANY, e.calibration, zwg=1)[0]
    us_few = L.dispatch.estimate_us(e.config, M, N, K, FEW, e.calibration, zwg=1)[0]
    assert us_many > us_few, (us_many, us_few, simulated)
