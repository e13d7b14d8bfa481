"""Dispatch where K splits add into the same tiles (`aster.ops.dispatch`):
MI355X (gfx950 profile, 256 CUs), bf16 `trans_b`, 64 x 8192 x 1024 (the
bench's decode-ish row of docs/gemm.md): the 64x64 stream-K kernel in 1024
ranges (128 tiles cut into 8 segments of 2 K steps: 7 adders per tile,
every segment resident at once) against the 128x128 split-K kernel in 4
splits with zero workgroups (the pick on main 29ef82f's model). The
oracle is the timing model's simulation of both whole launches: stream-K
takes 26097 cycles, the split-K launch 21190 (main a400ae4's model,
grouped default), so stream-K is slower by more than 15%.

The estimate orders them the other way round (18056 against 17212 cycles
before the clock; the plan picks stream-K): the stream-K kernel's
full-device probe (`library.calibrate`: one segment per tile, no adders)
measures no atomic adds, and the adders' atomics through their XCD's L2
(16 line accesses per clock per XCD, `Params.h` l2BytesPerClkPerXcd; about
1024 atomic line accesses per 64x64 segment: 1.09M in this launch, about
8.6k cycles of one XCD's L2) are charged only by the calibrated turn
term (wg_fixed0 - wg_fixed) x (1 + adders / 32). The ordering test is a
strict xfail until the estimate charges them (docs/gemm.md, dispatch)."""
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


@pytest.mark.xfail(strict=True, reason="the estimate does not charge the adders' atomic "
                   "line accesses at L2 (module doc)")
def test_estimate_orders_them_as_simulated(lib, simulated):
    st, sk = _entry(lib, True), _entry(lib, False)
    us_st = L.dispatch.estimate_us(st.config, M, N, K, RANGES, st.calibration)[0]
    us_sk = L.dispatch.estimate_us(sk.config, M, N, K, SPLITS, sk.calibration, zwg=1)[0]
    assert us_st > us_sk, (us_st, us_sk, simulated)
