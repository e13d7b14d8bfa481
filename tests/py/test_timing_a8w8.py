"""The timing model against a second family of AMD-measured kernels: AMD's
first asm int8 GEMM (gemm_a8w8_m128_splitK.co / _noSplitK.co in the amd-aiter
wheel), launched as aiter's first interface launched it
(aster.aiter.gemm_a8w8_m128), timed by AMD in aiter/configs/asm_a8w8_gemm.csv
(column `us`) on an 80-CU gfx942 (the MI308X profile; why 80 CUs: the
module doc of bench/bench_fidelity.py). The full table is
bench/bench_fidelity.py (make bench-fidelity); this is its fixed sample, the
two cheapest rows (one per code object).

The results are checked against NumPy: without split-K the kernel's bf16
output is A @ B.T * scale_a * scale_b + bias rounded once; with split-K the
workgroups of one tile each zero a slice of the tile's rows and then add
their partial sums with global_atomic_pk_add_bf16 (a race that concurrent
workgroups win on a GPU): it is right when the workgroups run side by side,
as in the timing model, and loses partial sums when they run one after
another (the emulator without timing)."""
import ml_dtypes
import numpy as np
import pytest

from aster.aiter import gemm_a8w8_m128 as g

# asm_a8w8_gemm.csv (AMD's measurements): (M, N, K, splitK) -> us
MEASURED = {(128, 8192, 1024, 0): 12.6, (128, 1280, 8192, 3): 13.85}


def problem(m, n, k, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(-8, 8, (m, k), dtype=np.int8)
    b = rng.integers(-8, 8, (n, k), dtype=np.int8)
    sa = (rng.random(m, dtype=np.float32) + 0.5).astype(np.float32)
    sb = (rng.random(n, dtype=np.float32) + 0.5).astype(np.float32)
    bias = rng.random(n, dtype=np.float32)
    ref = (a.astype(np.float64) @ b.T.astype(np.float64)) * sa[:, None] * sb[None, :] + bias
    return (a, b, sa, sb, bias), ref


def as_f32(c):
    return c.view(ml_dtypes.bfloat16).astype(np.float32)


def test_no_split_k_matches_numpy():
    data, ref = problem(256, 256, 512)
    _, c = g.launch(256, 256, 512, 0, data=data, timing=False)
    # one bf16 rounding of the f32 result: half an ulp, 2**-9 relative
    assert np.abs(as_f32(c) - ref).max() <= 2.0 ** -8 * np.abs(ref).max()


def test_split_k_needs_concurrent_workgroups():
    data, ref = problem(128, 256, 1024, seed=1)
    _, c = g.launch(128, 256, 1024, 1, data=data, timing=True, device="mi308x")
    # two bf16 atomic adds after the kernel's own rounding: a few ulps
    assert np.abs(as_f32(c) - ref).max() <= 2.0 ** -6 * np.abs(ref).max()
    _, c = g.launch(128, 256, 1024, 1, data=data, timing=False)
    assert np.abs(as_f32(c) - ref).max() > 0.1 * np.abs(ref).max()


@pytest.mark.parametrize("shape", sorted(MEASURED))
def test_time_near_amds_measurement(shape):
    m, n, k, split = shape
    t = g.launch(m, n, k, split, device="mi308x").timing
    assert t.device == "mi308x"
    assert t.microseconds == pytest.approx(MEASURED[shape], rel=0.35)


def test_bad_shapes_raise():
    import aster
    with pytest.raises(aster.AsterError, match="multiples of 128"):
        g.launch(128, 100, 1024, 0)
    with pytest.raises(aster.AsterError, match="below one tile"):
        g.launch(64, 128, 1024, 0)
