"""a8w8 GEMM in aster's library (`aster.ops.gemm` with int8 A and B):
C = bf16(A @ B.T * scale_a[m] * scale_b[n] + bias[n]) against NumPy: the
exact product in float64, scaled, rounded to f32 then to bf16 (round to
nearest even, ml_dtypes); with small integer inputs and scales that are
multiples of 1/8 every f32 step is exact, so the results must be equal."""
import ml_dtypes
import numpy as np
import pytest

import aster
import aster.ops as L
from aster.generators.gemm import GemmConfig, compile_config


def operands(m, n, k, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(-8, 9, (m, k)).astype(np.int8)
    b = rng.integers(-8, 9, (n, k)).astype(np.int8)
    sa = (rng.integers(1, 5, m) / 4).astype(np.float32)
    sb = (rng.integers(1, 5, n) / 8).astype(np.float32)
    bias = (rng.integers(-4, 5, n) / 2).astype(np.float32)
    return a, b, sa, sb, bias


def reference(a, b, sa, sb, bias):
    ref = (a.astype(np.float64) @ b.astype(np.float64).T) * sa[:, None] * sb[None, :] + bias
    return ref.astype(np.float32).astype(ml_dtypes.bfloat16)


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    """A small library: the default library's 64x64 and 128x128 int8 tiles."""
    cfgs = [c for c in L.default_configs(archs=("gfx942",), dtypes=())
            if (c.dtype == "i8" and c.tile_m <= 128) or (c.dtype == "fp8" and c.tile_m == 64)]
    return L.build_library(str(tmp_path_factory.mktemp("a8lib")), cfgs, ref_shapes=(),
                           workers=2, calib=False)


@pytest.mark.parametrize("shape", [(1, 1, 1), (37, 70, 333), (130, 257, 96), (5, 300, 1001)])
def test_library_a8w8_matches_numpy(lib, shape):
    a, b, sa, sb, bias = operands(*shape)
    c, r = L.gemm(a, b, trans_b=True, scale_a=sa, scale_b=sb, bias=bias, timing=True,
                  library=lib)
    assert c.dtype == ml_dtypes.bfloat16 and r.cycles > 0
    np.testing.assert_array_equal(c, reference(a, b, sa, sb, bias))


@pytest.mark.parametrize("tile", [dict(tile_m=64, tile_n=64, tile_k=64, mfma=16),
                                  dict(tile_m=256, tile_n=128, tile_k=32, mfma=32)],
                         ids=["16x16x32_i8", "32x32x16_i8"])
def test_every_tile_matches_numpy(tile):
    cfg = GemmConfig(dtype="i8", trans_b=True, prefetch=2, **tile).check()
    lib_out = compile_config(cfg)
    assert ("v_mfma_i32_16x16x32_i8" if tile["mfma"] == 16 else
            "v_mfma_i32_32x32x16_i8") in lib_out.asm
    m, n, k = 97, 131, 113
    a, b, sa, sb, bias = operands(m, n, k, seed=1)
    from aster.ops.dispatch import _i8_pairs
    c = np.zeros((m, n), ml_dtypes.bfloat16)
    aster.launch(lib_out, cfg.name, grid=cfg.grid(m, n), block=cfg.block,
                 args=[_i8_pairs(a), _i8_pairs(b), c.view(np.uint16), m, n, -(-k // 2),
                       sa, sb, bias])
    np.testing.assert_array_equal(c, reference(a, b, sa, sb, bias))


def test_a8w8_bad_input(lib):
    a, b, sa, sb, bias = operands(4, 8, 16)
    with pytest.raises(ValueError, match="trans_b"):
        L.gemm(a, b.T.copy(), scale_a=sa, scale_b=sb, library=lib)
    with pytest.raises(ValueError, match="scale_a"):
        L.gemm(a, b, trans_b=True, scale_b=sb, library=lib)
    with pytest.raises(ValueError, match="scale_b"):
        L.gemm(a, b, trans_b=True, scale_a=sa, scale_b=sb[:3], library=lib)
    with pytest.raises(ValueError, match="int8"):
        L.gemm(a.astype(np.float16), b.astype(np.float16), trans_b=True, scale_a=sa,
               library=lib)
    with pytest.raises(ValueError, match="split-K|i8"):
        GemmConfig(dtype="i8", trans_b=True, split_k=True).check()


@pytest.mark.parametrize("dtype,arch,np_dtype", [
    ("fp8", "gfx942", ml_dtypes.float8_e4m3fnuz),     # gfx942's FNUZ E4M3
    ("ofp8", "gfx950", ml_dtypes.float8_e4m3fn)])     # gfx950's OCP E4M3
def test_fp8_matches_numpy(dtype, arch, np_dtype):
    """fp8 A and B (integers -8..8: exact in E4M3) through v_mfma_f32_*_fp8_fp8
    and the scaled bf16 epilogue, against NumPy on ml_dtypes' fp8 values."""
    m, n, k = 97, 131, 113
    a8, b8, sa, sb, bias = operands(m, n, k, seed=2)
    a, b = a8.astype(np_dtype), b8.astype(np_dtype)
    cfg = GemmConfig(dtype=dtype, arch=arch, trans_b=True, prefetch=2, tile_m=64, tile_n=64,
                     tile_k=64, mfma=16).check()
    out = compile_config(cfg)
    assert "v_mfma_f32_16x16x32_fp8_fp8" in out.asm
    from aster.ops.dispatch import _i8_pairs
    c = np.zeros((m, n), ml_dtypes.bfloat16)
    aster.launch(out, cfg.name, grid=cfg.grid(m, n), block=cfg.block,
                 args=[_i8_pairs(a), _i8_pairs(b), c.view(np.uint16), m, n, -(-k // 2),
                       sa, sb, bias])
    ref = (a.astype(np.float64) @ b.astype(np.float64).T) * sa[:, None] * sb[None, :] + bias
    np.testing.assert_array_equal(c, ref.astype(np.float32).astype(ml_dtypes.bfloat16))


def test_fp8_arch_checked():
    with pytest.raises(ValueError, match="FNUZ"):
        GemmConfig(dtype="fp8", arch="gfx950", trans_b=True).check()


def test_library_fp8_dispatch(lib):
    """gemm() recognises FNUZ fp8 arrays and launches the fp8 kernel."""
    a8, b8, sa, sb, bias = operands(33, 65, 77, seed=5)
    a, b = a8.astype(ml_dtypes.float8_e4m3fnuz), b8.astype(ml_dtypes.float8_e4m3fnuz)
    c, r = L.gemm(a, b, trans_b=True, scale_a=sa, scale_b=sb, bias=bias, library=lib,
                  timing=True)
    assert r.plan.entry.config.dtype == "fp8"
    ref = (a.astype(np.float64) @ b.astype(np.float64).T) * sa[:, None] * sb[None, :] + bias
    np.testing.assert_array_equal(c, ref.astype(np.float32).astype(ml_dtypes.bfloat16))


@pytest.fixture(scope="module")
def lib_ofp8(tmp_path_factory):
    """The default library's 64x64 OCP fp8 tile for gfx950 (a8w8, not block-scale)."""
    cfgs = [c for c in L.default_configs(archs=("gfx950",), dtypes=())
            if c.dtype == "ofp8" and not c.block_scale and c.tile_m == 64]
    return L.build_library(str(tmp_path_factory.mktemp("of8lib")), cfgs, ref_shapes=(),
                           workers=1, calib=False)


@pytest.mark.parametrize("fmt", ["fp8-gfx942", "ofp8-gfx950"])
@pytest.mark.parametrize("with_bias", [True, False], ids=["bias", "no-bias"])
def test_gemm_fp8_scales_bias_matches_numpy(lib, lib_ofp8, fmt, with_bias):
    """Issue 25 item 2 through `aster.ops.gemm` itself (dispatch, padding,
    the library's code object): gfx942 FNUZ and gfx950 OCP E4M3 with
    per-token scale_a (M), per-channel scale_b (N) and the bias optional,
    on an odd shape. The oracle: ml_dtypes' fp8 values (integers -8..8 are
    exact in both formats), the product in float64, scaled, rounded to f32,
    then to bf16 (round to nearest even); every f32 step is exact, so equal."""
    np_dtype, arch, library = {
        "fp8-gfx942": (ml_dtypes.float8_e4m3fnuz, "gfx942", lib),
        "ofp8-gfx950": (ml_dtypes.float8_e4m3fn, "gfx950", lib_ofp8)}[fmt]
    a8, b8, sa, sb, bias = operands(45, 97, 301, seed=7)
    a, b = a8.astype(np_dtype), b8.astype(np_dtype)
    a_copy, b_copy = a.copy(), b.copy()
    c, r = L.gemm(a, b, trans_b=True, scale_a=sa, scale_b=sb,
                  bias=bias if with_bias else None, library=library, arch=arch, timing=True)
    assert r.plan.entry.config.dtype == ("fp8" if arch == "gfx942" else "ofp8")
    assert c.dtype == ml_dtypes.bfloat16 and c.shape == (45, 97)
    ref = (a.astype(np.float64) @ b.astype(np.float64).T) * sa[:, None] * sb[None, :]
    if with_bias:
        ref = ref + bias
    np.testing.assert_array_equal(c, ref.astype(np.float32).astype(ml_dtypes.bfloat16))
    np.testing.assert_array_equal(a.view(np.uint8), a_copy.view(np.uint8))     # inputs untouched
    np.testing.assert_array_equal(b.view(np.uint8), b_copy.view(np.uint8))
