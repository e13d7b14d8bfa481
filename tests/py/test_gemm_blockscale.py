"""Block-scale fp8 GEMM on gfx950: AMD's asm kernel (aster.aiter.gemm_blockscale,
launched as asm_mi350_a8w8_blockscale.cu does) and aster's generated kernel
(GemmConfig(block_scale=True), aster.ops.gemm(..., block_scale=128)) against
NumPy.

The oracle: aiter's reference for this operation (op_tests/
test_gemm_a8w8_blockscale.py `run_torch`): dequantise XQ with x_scale
repeated over each 128 of K, WQ with w_scale repeated over each 128 x 128
block, multiply in f32, round to bf16; restated here in float64 with the
fp8 values of ml_dtypes (float8_e4m3fn, OCP E4M3, gfx950's format). The
kernels sum each 128-block in f32 and fold it with its scales, so with
inputs that are multiples of 1/4 in [-2, 2] and power-of-two scales every
f32 step is exact and the results must be equal; with random values they
agree to bf16 rounding (one ulp: the kernels round in f32 block by block).
"""
import ml_dtypes
import numpy as np
import pytest

import aster
import aster.ops as L
from aster.generators.gemm import GemmConfig, compile_config

F8 = ml_dtypes.float8_e4m3fn


def operands(m, n, k, seed=0, exact=True):
    rng = np.random.default_rng(seed)
    kb, nb = -(-k // 128), -(-n // 128)
    if exact:
        a = (rng.integers(-8, 9, (m, k)) / 4).astype(F8)
        b = (rng.integers(-8, 9, (n, k)) / 4).astype(F8)
        sa = (2.0 ** rng.integers(-3, 3, (m, kb))).astype(np.float32)
        sb = (2.0 ** rng.integers(-3, 3, (nb, kb))).astype(np.float32)
    else:
        a = rng.normal(0, 2, (m, k)).astype(F8)
        b = rng.normal(0, 2, (n, k)).astype(F8)
        sa = rng.uniform(0.01, 1, (m, kb)).astype(np.float32)
        sb = rng.uniform(0.01, 1, (nb, kb)).astype(np.float32)
    return a, b, sa, sb


def aiter_formula(a, b, sa, sb):
    """aiter's run_torch, in float64: dequantise, then one matmul."""
    m, k = a.shape
    n = b.shape[0]
    x = a.astype(np.float64) * np.repeat(sa.astype(np.float64), 128, axis=1)[:, :k]
    ws = np.repeat(np.repeat(sb.astype(np.float64), 128, axis=0), 128, axis=1)[:n, :k]
    return (x @ (b.astype(np.float64) * ws).T).astype(np.float32).astype(ml_dtypes.bfloat16)


def close(c, ref):
    """Equal to bf16 rounding: within one ulp of bf16 at the reference's magnitude."""
    c, ref = c.astype(np.float64), ref.astype(np.float64)
    ulp = np.maximum(np.abs(ref), 1e-30) * 2.0 ** -7
    return np.all(np.abs(c - ref) <= ulp)


def test_reference_is_aiters_formula():
    from aster.aiter.gemm_blockscale import reference
    for shape in ((3, 5, 300), (16, 256, 512)):
        a, b, sa, sb = operands(*shape)
        np.testing.assert_array_equal(reference(a, b, sa, sb), aiter_formula(a, b, sa, sb))


# ---- AMD's kernel ---------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(32, 256, 512), (128, 512, 640)], ids=["x32", "x128"])
def test_amd_blockscale_matches_numpy(shape):
    from aster.aiter import gemm_blockscale as g
    a, b, sa, sb = operands(*shape)
    y = g.run(a, b, sa, sb)
    assert y.dtype == ml_dtypes.bfloat16 and g.whole_tiles(*shape[:2])
    np.testing.assert_array_equal(y, aiter_formula(a, b, sa, sb))
    a, b, sa, sb = operands(*shape, seed=1, exact=False)
    assert close(g.run(a, b, sa, sb), aiter_formula(a, b, sa, sb))


def test_amd_blockscale_checks_shapes():
    from aster.aiter import gemm_blockscale as g
    for m, n, k in ((8, 256, 512), (32, 200, 512), (32, 256, 384), (32, 256, 500)):
        a, b, sa, sb = operands(m, n, k)
        with pytest.raises(aster.AsterError):
            g.run(a, b, sa[:, :k // 128], sb[:n // 128, :k // 128])
    a, b, sa, sb = operands(32, 256, 512)
    with pytest.raises(aster.AsterError, match="x_scale"):
        g.run(a, b, sa.T.copy(), sb)


# ---- aster's kernels ------------------------------------------------------------------

TILES = {"16x64_m16": dict(tile_m=16, tile_n=64, waves_m=1, waves_n=2, mfma=16),
         "64x64_m16": dict(tile_m=64, tile_n=64, waves_m=2, waves_n=2, mfma=16),
         "64x32_m32": dict(tile_m=64, tile_n=32, waves_m=2, waves_n=1, mfma=32)}


@pytest.mark.parametrize("tile", list(TILES))
def test_generated_blockscale_matches_numpy(tile):
    from aster.ops.dispatch import _block_scales, _i8_pairs
    cfg = GemmConfig(dtype="ofp8", arch="gfx950", trans_b=True, tile_k=64, prefetch=2,
                     block_scale=True, **TILES[tile]).check()
    out = compile_config(cfg)
    shape_mfma = "16x16x128" if cfg.mfma == 16 else "32x32x64"
    assert f"v_mfma_f32_{shape_mfma}_f8f6f4" in out.asm
    if cfg.mfma == 16:      # the library's tiles fit the registers (the 32x32 one spills)
        assert "scratch_" not in out.asm
    for (m, n, k), exact in (((1, 7, 3), True), ((97, 200, 333), True),
                             ((33, 129, 300), False)):
        a, b, sa, sb = operands(m, n, k, seed=m, exact=exact)
        c = np.full((m, n), 7, np.uint16)
        aster.launch(out, cfg.name, grid=cfg.grid(m, n), block=cfg.block,
                     args=[_i8_pairs(a), _i8_pairs(b), c, m, n, -(-k // 2),
                           *_block_scales(sa, sb, m, n, k)])
        ref = aiter_formula(a, b, sa, sb)
        got = c.view(ml_dtypes.bfloat16)
        if exact:
            np.testing.assert_array_equal(got, ref)
        else:
            assert close(got, ref)


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    """The default library's smallest block-scale tile, uncalibrated."""
    cfgs = [c for c in L.default_configs(archs=("gfx950",), dtypes=())
            if c.block_scale and c.tile_m == 32]
    return L.build_library(str(tmp_path_factory.mktemp("bslib")), cfgs, ref_shapes=(),
                           workers=1, calib=False)


def test_ops_gemm_block_scale(lib):
    m, n, k = 45, 190, 520
    a, b, sa, sb = operands(m, n, k, seed=3)
    keep = [x.copy() for x in (a, b, sa, sb)]
    c, r = L.gemm(a, b, trans_b=True, scale_a=sa, scale_b=sb, block_scale=128, arch="gfx950",
                  library=lib, timing=True)
    assert c.dtype == ml_dtypes.bfloat16 and r.plan.entry.config.block_scale and r.cycles > 0
    np.testing.assert_array_equal(c, aiter_formula(a, b, sa, sb))
    for x, y in zip(keep, (a, b, sa, sb)):      # the caller's arrays are untouched
        np.testing.assert_array_equal(x.view(np.uint8), y.view(np.uint8))


def test_ops_gemm_block_scale_errors(lib):
    a, b, sa, sb = operands(20, 130, 300)
    call = dict(trans_b=True, scale_a=sa, scale_b=sb, block_scale=128, arch="gfx950",
                library=lib)
    bad = [dict(block_scale=64), dict(arch="gfx942"), dict(trans_b=False),
           dict(bias=np.zeros(130, np.float32)), dict(scale_a=sa.T), dict(scale_b=sb[:1]),
           dict(scale_a=None)]
    for change in bad:
        with pytest.raises(ValueError):
            L.gemm(a, b, **{**call, **change})
    with pytest.raises(ValueError):     # int8 operands are not block-scale
        L.gemm(a.view(np.int8), b.view(np.int8), **call)
