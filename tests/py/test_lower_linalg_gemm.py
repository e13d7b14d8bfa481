"""linalg.matmul / batch_matmul on host-level memrefs lowered to the GEMM
library's kernels (aster.lowering.linalg_gemm; issue 26 item 6), run on the
emulator against NumPy (the oracle: inputs are multiples of 1/4 in f16 /
bf16, so every f32 sum is exact). The text is parsed and verified by
mlir-opt-22; ops outside fill/matmul/batch_matmul are errors naming them."""
import numpy as np
import pytest
import ml_dtypes

import aster
import aster.ops as L
from aster.generators.gemm import GemmConfig
from aster.lowering import linalg_gemm

CONFIGS = [GemmConfig(dtype=d, arch="gfx942", trans_b=tb, tile_m=64, tile_n=64, tile_k=64,
                      mfma=16) for d in ("f16", "bf16") for tb in (False, True)]

TEXT = """
func.func @mm(%A: memref<70x48xf16>, %B: memref<48x40xf16>, %C: memref<70x40xf32>,
              %D: memref<3x16x32xbf16>, %E: memref<3x24x32xbf16>, %F: memref<3x16x24xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%C : memref<70x40xf32>)
  linalg.matmul ins(%A, %B : memref<70x48xf16>, memref<48x40xf16>) outs(%C : memref<70x40xf32>)
  linalg.batch_matmul
      indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                       affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>,
                       affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
      ins(%D, %E : memref<3x16x32xbf16>, memref<3x24x32xbf16>) outs(%F : memref<3x16x24xf32>)
  return
}
"""


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    return L.build_library(str(tmp_path_factory.mktemp("gemmlib")), CONFIGS, ref_shapes=(),
                           workers=1, calib=False)


def _q(r, shape, dt):
    return (r.integers(-4, 5, shape) / 4).astype(dt)


def test_matmul_and_batch_matmul_run_library_kernels(lib):
    r = np.random.default_rng(0)
    A, B = _q(r, (70, 48), np.float16), _q(r, (48, 40), np.float16)
    D, E = _q(r, (3, 16, 32), ml_dtypes.bfloat16), _q(r, (3, 24, 32), ml_dtypes.bfloat16)
    C = np.full((70, 40), 9, np.float32)                 # the fill zeroes it first
    F = _q(r, (3, 16, 24), np.float32)                   # batch_matmul accumulates into it
    F0 = F.copy()
    run = linalg_gemm.compile(TEXT, library=lib)
    assert [s[0] for s in run.steps] == ["fill", "matmul", "batch_matmul"]
    assert run.steps[2][2] is True                       # B's map (d0, d2, d3): trans_b
    run(A, B, C, D, E, F)
    np.testing.assert_array_equal(C, A.astype(np.float32) @ B.astype(np.float32))
    want = F0 + np.einsum("bik,bjk->bij", D.astype(np.float32), E.astype(np.float32))
    np.testing.assert_array_equal(F, want)


def test_errors_name_the_op(lib):
    with pytest.raises(aster.AsterError, match="'linalg.transpose' is not lowered to the GEMM"):
        linalg_gemm.compile("""
        func.func @t(%a: memref<4x8xf32>, %b: memref<8x4xf32>) {
          linalg.transpose ins(%a : memref<4x8xf32>) outs(%b : memref<8x4xf32>) permutation = [1, 0]
          return
        }""", library=lib)
    with pytest.raises(aster.AsterError, match="mlir-opt-22 rejects the input"):
        linalg_gemm.compile("func.func @x( {", library=lib)
    run = linalg_gemm.compile(TEXT, library=lib)
    with pytest.raises(TypeError, match="needs dtype float16"):
        run(np.zeros((70, 48), np.float32), *[None] * 5)
