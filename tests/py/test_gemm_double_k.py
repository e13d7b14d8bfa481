"""gfx950's double-K MFMAs in the GEMM generator (`GemmConfig.double_k`:
v_mfma_f32_16x16x32 / 32x32x16, each fed two K steps' fragments) against
NumPy (inputs multiples of 1/4: exact in f32)."""
import numpy as np
import pytest

import aster
from aster.generators.gemm import DTYPES, GemmConfig, compile_config, reference
from aster.ops import dispatch


@pytest.mark.parametrize("tile", [dict(tile_m=64, tile_n=64, tile_k=64, mfma=16),
                                  dict(tile_m=128, tile_n=128, tile_k=32, mfma=32)],
                         ids=["16x16x32", "32x32x16"])
@pytest.mark.parametrize("trans_b,dtype", [(True, "bf16"), (False, "f16")])
def test_double_k_matches_numpy(tile, trans_b, dtype):
    cfg = GemmConfig(dtype=dtype, arch="gfx950", trans_b=trans_b, prefetch=2, double_k=True,
                     **tile).check()
    out = compile_config(cfg)
    mn = "v_mfma_f32_16x16x32" if tile["mfma"] == 16 else "v_mfma_f32_32x32x16"
    assert mn in out.asm
    m, n, k = 37, 70, 333
    rng = np.random.default_rng(3)
    a = (rng.integers(-4, 5, (m, k)) / 4).astype(DTYPES[dtype])
    b = (rng.integers(-4, 5, (n, k) if trans_b else (k, n)) / 4).astype(DTYPES[dtype])
    c = np.zeros((m, n), np.float32)
    aster.launch(out, cfg.name, grid=cfg.grid(m, n), block=cfg.block,
                 args=[dispatch._padded(a), dispatch._padded(b), c, m, n, k])
    np.testing.assert_array_equal(c, reference(a, b, trans_b))


def test_double_k_needs_gfx950():
    with pytest.raises(ValueError, match="double_k"):
        GemmConfig(arch="gfx942", double_k=True).check()
