"""GEMM kernels with a 16-bit C (`GemmConfig.out` "bf16" / "f16";
`aster.ops.gemm(..., out_dtype=)`) against NumPy: inputs are multiples of
1/4, so the f32 sums are exact and C must equal NumPy's float64 product
rounded by ml_dtypes / NumPy (round to nearest even)."""
import ml_dtypes
import numpy as np
import pytest

import aster
import aster.ops as L
from aster.generators.gemm import DTYPES, GemmConfig, compile_config, reference
from aster.ops import dispatch

OUT = {"bf16": ml_dtypes.bfloat16, "f16": np.float16}


def operands(m, n, k, dtype, trans_b, seed=0):
    rng = np.random.default_rng(seed)
    a = (rng.integers(-4, 5, (m, k)) / 4).astype(DTYPES[dtype])
    b = (rng.integers(-4, 5, (n, k) if trans_b else (k, n)) / 4).astype(DTYPES[dtype])
    return a, b


@pytest.mark.parametrize("dtype,out", [("bf16", "bf16"), ("f16", "f16"), ("bf16", "f16")])
@pytest.mark.parametrize("trans_b", [False, True])
def test_out16_matches_numpy(dtype, out, trans_b):
    cfg = GemmConfig(dtype=dtype, out=out, trans_b=trans_b, tile_m=128, tile_n=128, tile_k=32,
                     mfma=32, prefetch=2).check()
    m, n, k = 130, 257, 333
    a, b = operands(m, n, k, dtype, trans_b)
    c = np.zeros((m, n), OUT[out])
    aster.launch(compile_config(cfg), cfg.name, grid=cfg.grid(m, n), block=cfg.block,
                 args=[dispatch._padded(a), dispatch._padded(b), c.view(np.uint16), m, n, k])
    np.testing.assert_array_equal(c, reference(a, b, trans_b).astype(OUT[out]))


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    cfgs = [GemmConfig(dtype="bf16", trans_b=True, tile_m=64, tile_n=64, tile_k=64, mfma=16,
                       out=o) for o in ("f32", "bf16")]
    return L.build_library(str(tmp_path_factory.mktemp("o16lib")), cfgs, ref_shapes=(), calib=False)


def test_gemm_out_dtype(lib):
    a, b = operands(37, 70, 99, "bf16", True)
    c, r = L.gemm(a, b, trans_b=True, out_dtype=ml_dtypes.bfloat16, library=lib, timing=True)
    assert c.dtype == ml_dtypes.bfloat16 and r.plan.entry.config.out == "bf16"
    np.testing.assert_array_equal(c, reference(a, b, True).astype(ml_dtypes.bfloat16))
    assert L.gemm(a, b, trans_b=True, library=lib).dtype == np.float32
    with pytest.raises(ValueError, match="out_dtype"):
        L.gemm(a, b, trans_b=True, out_dtype=np.float16, library=lib)
    with pytest.raises(ValueError, match="out must be"):
        GemmConfig(out="bf16", split_k=True).check()
