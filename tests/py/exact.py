"""Exactly rounded references for the tests: the float16/float32 nearest to
an exact rational (ties to even), and a * b + c with one rounding."""
from fractions import Fraction

import numpy as np


def nearest(x, dtype):
    """The `dtype` (float16 or float32) value nearest to the rational x, ties
    to even; infinite when float(x) already overflows `dtype`."""
    f = dtype(float(x))
    if not np.isfinite(f):
        return f
    cands = [c for c in (np.nextafter(f, dtype(-np.inf)), f, np.nextafter(f, dtype(np.inf)))
             if np.isfinite(c)]
    err = [abs(Fraction(float(c)) - x) for c in cands]
    best = [c for c, e in zip(cands, err) if e == min(err)]
    bits = {2: np.uint16, 4: np.uint32}[np.dtype(dtype).itemsize]
    return min(best, key=lambda c: int(np.asarray(c, dtype).view(bits)) & 1)


def fma(a, b, c, dtype):
    """a * b + c rounded once to `dtype` (float16 or float32), elementwise.
    The product is exact in f64; the f64 sum is used when TwoSum says it is
    exact, else the exact rational is rounded."""
    p, c64 = np.broadcast_arrays(np.asarray(a, np.float64) * np.asarray(b, np.float64),
                                 np.asarray(c, np.float64))
    with np.errstate(invalid="ignore", over="ignore"):
        s = p + c64
        bb = s - p
        err = (p - (s - bb)) + (c64 - bb)
        out = s.astype(dtype)
    for i in np.nonzero(np.isfinite(s) & (err != 0))[0]:
        out[i] = nearest(Fraction(float(p[i])) + Fraction(float(c64[i])), dtype)
    return out
