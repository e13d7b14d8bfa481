"""Dispatch where K splits add into the same tiles (`aster.ops.dispatch`):
MI355X (gfx950 profile, 256 CUs), bf16 `trans_b`, 64 x 8192 x 1024 (the
bench's decode-ish row of docs/gemm-vs-aiter.md): the 64x64 stream-K kernel in 1024
ranges (128 tiles cut into 8 segments of 2 K steps: 7 adders per tile,
every segment resident at once) against the 128x128 split-K kernel in 4
splits with zero workgroups (the pick on main 29ef82f's model). The
oracle is the timing model's simulation of both whole launches: stream-K
takes 26097 cycles, the split-K launch 21190 (main a400ae4's model,
grouped default), so stream-K is slower by more than 15%.

Before the stream-K estimate charged its adders' atomics at L2 it ordered
them the other way round (18056 against 17212 cycles; the plan picked
stream-K, 13.49 us against 11.86): the stream-K kernel's full-device probe
(`library.calibrate`: one segment per tile) measures no adds, and the
adders' atomic line accesses (their adds and the polls of their tile's
counter: about 1024 per 64x64 adder, `dispatch.ATOMIC_C_BYTES_PER_ACCESS`)
queue at their XCD's L2 (16 line accesses per clock per XCD, the
profile's l2_tb_s_per_xcd; 112 adders per XCD here: about 7.2k cycles
after the first segments end)."""
import pytest

import aster.ops as L
from aster.generators.gemm import GemmConfig
from aster.ops import library as Lb

TILE64 = dict(dtype="bf16", tile_m=64, tile_n=64, tile_k=64, waves_m=2, waves_n=2, mfma=16,
              prefetch=2, trans_b=True, arch="gfx950")
STREAM = GemmConfig(**TILE64, split_k=True, stream_k=True)
SPLIT = GemmConfig(dtype="bf16", tile_m=128, tile_n=128, tile_k=32, waves_m=2, waves_n=2,
                   mfma=32, prefetch=2, trans_b=True, split_k=True, arch="gfx950")
M, N, K = 64, 8192, 1024
RANGES, SPLITS = 1024, 4


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    return L.build_library(str(tmp_path_factory.mktemp("addlib")), [STREAM, SPLIT],
                           ref_shapes=(), workers=2)


def _entry(lib, stream):
    return next(e for e in lib.entries if e.config.stream_k == stream)


@pytest.fixture(scope="module")
def simulated(lib):
    """Cycles of both whole launches on the timing model (the oracle)."""
    st, sk = _entry(lib, True), _entry(lib, False)
    gx, gy, _ = st.config.grid(M, N)
    r_st = Lb.run(lib.code(st), st.config, (M, N, K), RANGES // (gx * gy))
    r_sk = Lb.run(lib.code(sk), sk.config, (M, N, K), SPLITS, zwg=1)
    return r_st.cycles, r_sk.cycles


def test_stream_k_is_slower_here(simulated):
    """The timing model: 7 adders per tile make stream-K the slower launch."""
    st, sk = simulated
    assert st > 1.15 * sk, simulated


def test_estimate_orders_them_as_simulated(lib, simulated):
    """The stream-K estimate is the larger, and within 15% of its cycles."""
    st, sk = _entry(lib, True), _entry(lib, False)
    us_st = L.dispatch.estimate_us(st.config, M, N, K, RANGES, st.calibration)[0]
    us_sk = L.dispatch.estimate_us(sk.config, M, N, K, SPLITS, sk.calibration, zwg=1)[0]
    assert us_st > us_sk, (us_st, us_sk, simulated)
    est = L.dispatch.estimate_us(st.config, M, N, K, RANGES, st.calibration)[1]
    assert abs(est / simulated[0] - 1) < 0.15, (est, simulated)


def test_plan_does_not_pick_stream_k(lib):
    p = L.plan(lib, M, N, K, dtype="bf16", trans_b=True, arch="gfx950")
    assert not p.entry.config.stream_k, p.name
