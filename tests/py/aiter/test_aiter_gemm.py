"""AMD's asm bf16 GEMM (bf16gemm/bf16gemm_outf32_tn_<M>x64_pf3.co: out = A B^T,
A [M, K] and B [N, K] bf16, out [M, N] float32) on aster's emulator, against
NumPy's float64 product of the same bf16 inputs.

aster.aiter's GEMM launcher (gemm.py, aiter's heuristic) is another helper's;
until it lands this file launches one named kernel the way aiter's
gemm_a16w16_asm does for an explicit kernelName and splitK = 1
(aiter_meta/csrc/py_itfs_cu/asm_gemm_a16w16.cu): strides in bytes (A and B
K * 2, C N * 4; the interface leaves stride_D* unset: 0 here), alpha 1,
beta 0, grid (ceil(N / tileN), ceil(M / tileM)), block 256."""
import numpy as np
import pytest

from aiterlib import assert_close, bf16, f64, rng
from aster.aiter.kernargs import launch, struct_layout

SOURCE = "aiter_meta/csrc/py_itfs_cu/asm_gemm_a16w16.cu"


def _gemm(a, b, tile_m, arch):
    m, k = a.shape
    n = b.shape[0]
    name = f"bf16gemm_outf32_tn_{tile_m}x64_pf3"
    out = np.zeros((m, n), np.float32)
    packed = struct_layout(SOURCE).pack(
        ptr_D=out, ptr_C=None, ptr_A=a, ptr_B=b, alpha=1.0, beta=0.0, stride_C0=n * 4,
        stride_A0=k * 2, stride_B0=k * 2, M=m, N=n, K=k, splitk=1)
    r = launch(arch, f"bf16gemm/{name}.co", f"_ZN5aiter{len(name)}{name}E",
               ((n + 63) // 64, (m + tile_m - 1) // tile_m, 1), (256, 1, 1), packed)
    return out, r


@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
@pytest.mark.parametrize("tile_m", [32, 64])
def test_bf16_gemm_matches_numpy(arch, tile_m):
    g = rng(tile_m)
    a = bf16(g.normal(size=(64, 256)))
    b = bf16(g.normal(size=(128, 256)))
    out, r = _gemm(a, b, tile_m, arch)
    # f32 accumulation of 256 exact bf16 products: within 1e-5 of the exact sum's scale.
    assert_close(out, f64(a) @ f64(b).T, rel_ulps=0, abs_tol=1e-4, dtype=np.float32,
                 what=f"{arch} {tile_m}x64")
    assert r.workgroups == 2 * (64 // tile_m)


A8W8_SOURCE = "aiter_meta/csrc/py_itfs_cu/asm_gemm_a8w8.cu"


def _shuffle_32x16(w):
    """aiter's shuffle_weight(w, layout=(32, 16)) for int8 [N, K] (aiter/ops/shuffle.py;
    the layout asm_gemm_a8w8.cu names for B): [N/32, 32, K/32, 2, 16] -> [N/32, K/32, 2, 32, 16]."""
    n, k = w.shape
    return np.ascontiguousarray(w.reshape(n // 32, 32, k // 32, 2, 16).transpose(0, 2, 3, 1, 4))


@pytest.mark.parametrize("arch", ["gfx942"])      # the wheel's gfx950 i8gemm has no code objects
def test_a8w8_gemm_matches_numpy(arch):
    """I8gemm_bf16_perTokenI8_BpreShuffle_128x128.co: out = (A * sa) (B * sb)^T + bias in
    bf16, A [M, K] and B [N, K] int8 (B in aiter's (32, 16) preshuffle), per-row
    scales; launched as gemm_a8w8_asm does (lda = ldb = K, ldc = N * 2 bytes,
    ks = 1, grid (N / 128, ceil(M / 128)), block 256)."""
    g = rng(7)
    m, n, k = 128, 128, 256
    a = g.integers(-127, 128, size=(m, k), dtype=np.int8)
    b = g.integers(-127, 128, size=(n, k), dtype=np.int8)
    sa = g.uniform(0.001, 0.01, size=(m, 1)).astype(np.float32)
    sb = g.uniform(0.001, 0.01, size=(1, n)).astype(np.float32)
    bias = g.uniform(0, 10, size=(1, n)).astype(np.float32)
    out = np.zeros((m, n), bf16(0).dtype)
    name = "I8gemm_bf16_perTokenI8_BpreShuffle_128x128"
    packed = struct_layout(A8W8_SOURCE).pack(
        ptr_c=out, ptr_a=a, ptr_b=_shuffle_32x16(b), ptr_sa=sa, ptr_sb=sb, ptr_bias=bias,
        m=m, n=n, k=k, lda=k, ldb=k, ldc=n * 2, ks=1)
    # AMD's kernel builds one buffer resource from s[60:61], which nothing writes
    # (a resource it never uses): strict mode's uninitialized-register check
    # reports it, so it runs with that check as a warning.
    r = launch(arch, f"i8gemm/{name}.co", f"_ZN5aiter{len(name)}{name}E",
               (n // 128, m // 128, 1), (256, 1, 1), packed, uninitialized="warn")
    assert any("s61" in w for w in r.warnings)
    ref = (a.astype(np.float64) @ b.astype(np.float64).T) * sa * sb + bias
    assert_close(out, ref, rel_ulps=1, abs_tol=1e-3, what=f"a8w8 {arch}")
