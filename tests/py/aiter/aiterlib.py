"""Shared by the tests of AMD's asm kernels (tests/py/aiter): inputs in AMD's
types and comparisons against NumPy references.

The kernels, their arguments and launches come from aster.aiter (which reads
the pinned amd-aiter wheel, a test dependency: nothing is downloaded here).
Every reference is written from the operation's definition in float64, never
from the kernel; tolerances are stated in units of the output type's spacing.
"""
import ml_dtypes
import numpy as np

BF16 = np.dtype(ml_dtypes.bfloat16)


def rng(seed):
    return np.random.default_rng(seed)


def bf16(a):
    """float64/float32 values rounded to bfloat16 (round to nearest even)."""
    return np.asarray(a, np.float32).astype(BF16)


def f64(a):
    return np.asarray(a).astype(np.float64)


def assert_close(actual, expected, *, rel_ulps, abs_tol=0.0, dtype=BF16, what="result"):
    """|actual - expected| <= rel_ulps * spacing(expected in `dtype`) + abs_tol,
    elementwise; the message names the worst element."""
    a, e = f64(actual), f64(expected)
    assert a.shape == e.shape, f"{what}: shape {a.shape} != {e.shape}"
    eps = float(ml_dtypes.finfo(dtype).eps) if dtype == BF16 else float(np.finfo(dtype).eps)
    tol = rel_ulps * eps * np.maximum(np.abs(e), float(ml_dtypes.finfo(dtype).tiny)
                                      if dtype == BF16 else float(np.finfo(dtype).tiny)) + abs_tol
    err = np.abs(a - e)
    bad = ~(err <= tol)
    if bad.any():
        i = np.unravel_index(np.argmax(np.where(bad, err / np.maximum(tol, 1e-300), -1)), a.shape)
        raise AssertionError(
            f"{what}: {int(bad.sum())} of {a.size} elements differ beyond {rel_ulps} ulp "
            f"+ {abs_tol}; worst at {tuple(int(x) for x in i)}: got {a[i]!r}, expected {e[i]!r}")


def softmax(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    e = np.exp(x - m)
    return e / e.sum(axis=axis, keepdims=True)
