"""aster.generators.gemm: every config of the default library (both dtypes,
gfx942 and gfx950, with and without trans_b) and the generator's other
options (prefetch 2, B direct to registers) against NumPy on many shapes:
1, odd and prime sizes, K not a multiple of the tile, shapes spanning
several tiles. Inputs are multiples of 1/4 in [-1, 1], so every product and
sum is exact in f32 and the result must equal NumPy's float64 product."""
import numpy as np
import pytest

import aster
from aster.ops.dispatch import split_counters
from aster.generators import gemm
from aster.generators.gemm import stream_k_table
from aster.ops import default_configs

SHAPES = [(1, 1, 1), (1, 7, 3), (37, 53, 29), (64, 61, 33), (97, 131, 113), (130, 67, 16),
          (257, 129, 160), (300, 270, 50)]


def operands(m, n, k, dtype, trans_b, seed=0):
    rng = np.random.default_rng(seed)
    dt = gemm.DTYPES[dtype]
    a = (rng.integers(-4, 5, (m, k)) / 4).astype(dt)
    b = (rng.integers(-4, 5, (n, k) if trans_b else (k, n)) / 4).astype(dt)
    return a, b


def padded(x):
    """The kernels read 16-bit matrices one element past their end."""
    return np.concatenate([x.reshape(-1), np.zeros(1, x.dtype)])


def run(compiled, cfg, a, b, m, n, k):
    """C from the kernel (every element of a NaN-filled C written); a
    split-K kernel runs 3 K splits, a stream-K one 5 segments (each leaves
    its counters zero)."""
    c = np.full((m, n), np.nan, np.float32)
    kc, sk = cfg.kchunk(k, 3)
    gx, gy, _ = cfg.grid(m, n)
    cnt = split_counters(gx * gy * cfg.waves)
    if cfg.stream_k:    # a stream-K kernel: 5 segments from its work table
        tab = stream_k_table(cfg, m, n, k, 5)
        aster.launch(compiled, cfg.name, grid=(len(tab), 1, 1), block=cfg.block,
                     args=[padded(a), padded(b), c, m, n, k, tab, cnt])
        assert not cnt.any()
        return c
    aster.launch(compiled, cfg.name, grid=cfg.grid(m, n, sk if cfg.split_k else 1),
                 block=cfg.block,
                 args=[padded(a), padded(b), c, m, n, k] + ([kc, cnt, sk, 1] if cfg.split_k else []))
    assert not cnt.any()
    return c


@pytest.fixture(scope="module")
def compiled():
    cache = {}

    def get(cfg):
        if cfg not in cache:
            cache[cfg] = gemm.compile_config(cfg)
        return cache[cfg]
    return get


LIBRARY = [c for c in default_configs() if c.dtype in ("f16", "bf16") and c.out == "f32"]
# (int8, fp8: test_gemm_a8w8.py; 16-bit C: test_gemm_out16.py)


@pytest.mark.parametrize("cfg", LIBRARY, ids=lambda c: f"{c.arch}-{c.name}")
def test_library_config_matches_numpy(cfg, compiled):
    out = compiled(cfg)
    shapes = SHAPES if cfg.arch == "gfx942" else SHAPES[::2]
    for i, (m, n, k) in enumerate(shapes[::2] if cfg.split_k else shapes):
        a, b = operands(m, n, k, cfg.dtype, cfg.trans_b, seed=i)
        np.testing.assert_array_equal(run(out, cfg, a, b, m, n, k),
                                      gemm.reference(a, b, cfg.trans_b),
                                      err_msg=f"{cfg.name} on {cfg.arch}, M,N,K={m},{n},{k}")


OPTIONS = [
    gemm.GemmConfig(prefetch=2),
    gemm.GemmConfig(prefetch=2, trans_b=True, dtype="bf16"),
    gemm.GemmConfig(trans_b=True, b_direct=True),
    gemm.GemmConfig(trans_b=True, b_direct=True, mfma=16, tile_m=64, tile_n=64, tile_k=64),
    gemm.GemmConfig(waves_m=1, waves_n=1, tile_m=64, tile_n=64, tile_k=32),
    gemm.GemmConfig(waves_m=4, waves_n=1, tile_m=128, tile_n=64, tile_k=64, mfma=16),
]


@pytest.mark.parametrize("cfg", OPTIONS, ids=lambda c: c.name)
def test_generator_options_match_numpy(cfg, compiled):
    out = compiled(cfg)
    for i, (m, n, k) in enumerate([(1, 1, 1), (37, 53, 29), (97, 131, 113), (130, 67, 200)]):
        a, b = operands(m, n, k, cfg.dtype, cfg.trans_b, seed=10 + i)
        np.testing.assert_array_equal(run(out, cfg, a, b, m, n, k),
                                      gemm.reference(a, b, cfg.trans_b),
                                      err_msg=f"{cfg.name}, M,N,K={m},{n},{k}")


def test_columns_past_n_are_not_written():
    """C rows are N apart: a store of a column past N would land in the next
    row; the kernel sends those out of range, so a C larger than M x N keeps
    its tail and every value of C is the product."""
    cfg = gemm.GemmConfig(tile_m=64, tile_n=64, tile_k=64, waves_m=2, waves_n=2, mfma=16)
    m, n, k = 70, 45, 19
    a, b = operands(m, n, k, "f16", False, seed=3)
    c = np.full(m * n + 64, 7.0, np.float32)
    aster.launch(gemm.compile_config(cfg), cfg.name, grid=cfg.grid(m, n), block=cfg.block,
                 args=[padded(a), padded(b), c, m, n, k])
    np.testing.assert_array_equal(c[:m * n].reshape(m, n), gemm.reference(a, b))
    assert (c[m * n:] == 7.0).all()


def test_the_passes_place_waits_and_registers():
    """The generator writes no s_waitcnt, s_nop or physical register of its
    own (but the loop counter): amdgcn-waitcnt / -hazards / -regalloc do."""
    cfg = gemm.GemmConfig()
    m = gemm.build(cfg)
    ir = m.mlir()
    assert "s_waitcnt" not in ir and "s_nop" not in ir
    out = aster.compile(m, gemm.PIPELINE)
    md = out.metadata[cfg.name]
    assert md.waitcnt["inserted"] > 0 and md.waitcnt["author"] == 0
    assert md.regalloc["spills"] == 0
    assert "s_waitcnt" in out.asm


@pytest.mark.parametrize("bad", [dict(dtype="f32"), dict(tile_m=96), dict(mfma=8),
                                 dict(b_direct=True), dict(tile_k=128),
                                 dict(tile_m=512, tile_n=256), dict(prefetch=3),
                                 dict(arch="gfx1201")])
def test_bad_configs_are_errors(bad):
    with pytest.raises(ValueError, match="GEMM config"):
        gemm.build(gemm.GemmConfig(**bad))
