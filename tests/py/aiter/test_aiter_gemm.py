"""AMD's asm GEMMs through aster.aiter.gemm (aiter's heuristic and argument
packing), in strict mode on aster's emulator, against NumPy's float64 product
of the same inputs: bf16 (bf16gemm_outf32_tn_*: D = A B^T in float32, A [M, K],
B [N, K]) on gfx942 and gfx950, a8w8 (I8gemm_bf16_perTokenI8_BpreShuffle_*:
C = bf16((A sa)(B sb)^T + bias), int8 A and B) on gfx942 (the wheel's gfx950
i8gemm folder has no code objects)."""
import numpy as np
import pytest

from aiterlib import assert_close, bf16, f64, rng
from aster.aiter import gemm


@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
@pytest.mark.parametrize("m,kernel", [(64, "32x64"), (64, "64x64"), (40, "48x64")],
                         ids=["32x64", "64x64", "48x64-partial-M"])
def test_bf16_gemm_matches_numpy(arch, m, kernel):
    g = rng(m)
    a = bf16(g.normal(size=(m, 256)))
    b = bf16(g.normal(size=(128, 256)))
    d = gemm.bf16(a, b, kernel=kernel, arch=arch, strict=True)
    # f32 accumulation of 256 exact bf16 products.
    assert_close(d, f64(a) @ f64(b).T, rel_ulps=0, abs_tol=1e-4, dtype=np.float32,
                 what=f"{arch} {kernel}")


def test_a8w8_gemm_matches_numpy():
    g = rng(7)
    m, n, k = 128, 128, 256
    a = g.integers(-127, 128, size=(m, k), dtype=np.int8)
    b = g.integers(-127, 128, size=(n, k), dtype=np.int8)
    sa = g.uniform(0.001, 0.01, size=m).astype(np.float32)
    sb = g.uniform(0.001, 0.01, size=n).astype(np.float32)
    bias = g.uniform(0, 10, size=n).astype(np.float32)
    c = gemm.a8w8(a, b, sa, sb, bias, arch="gfx942", strict=True)
    ref = (a.astype(np.float64) @ b.astype(np.float64).T) * sa[:, None] * sb[None, :] + bias
    assert_close(c, ref, rel_ulps=1, abs_tol=1e-3, what="a8w8")


def test_bf16_gemm_heuristic_split_k():
    """aiter's heuristic on 304 CUs: 2 output tiles, so split-K; K = 4096 keeps
    every split a multiple of 64 (the output is zeroed and accumulated)."""
    g = rng(11)
    a, b = bf16(g.normal(size=(64, 4096))), bf16(g.normal(size=(64, 4096)))
    cfg, split = gemm.bf16_choice(64, 64, 4096)
    assert split > 1
    d = gemm.bf16(a, b, strict=True)
    assert_close(d, f64(a) @ f64(b).T, rel_ulps=0, abs_tol=2e-3, dtype=np.float32,
                 what=f"split-K {split}")
