#!/usr/bin/env python3
"""Compares the emulator's float conversions with NumPy / ml_dtypes.

    check_float.py PATH/TO/aster-emu-float-dump [WORKDIR]

Exhaustive for 8- and 16-bit sources; for f32 sources every exponent with
random mantissas plus all values next to every rounding boundary of the
narrow formats, infinities and NaNs.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import ml_dtypes


def run(tool, mode, inp, out_dtype, work):
    src = os.path.join(work, mode + ".in")
    dst = os.path.join(work, mode + ".out")
    inp.tofile(src)
    subprocess.run([tool, mode, src, dst], check=True)
    return np.fromfile(dst, dtype=out_dtype)


def f32_inputs(narrow):
    """f32 bit patterns: a sample of every exponent, and the boundaries of
    `narrow` (values one f32 ulp around every midpoint between neighbours)."""
    rng = np.random.default_rng(0)
    parts = []
    exps = np.arange(256, dtype=np.uint32) << 23
    mant = rng.integers(0, 1 << 23, size=(256, 256), dtype=np.uint32)
    parts.append((exps[:, None] | mant).ravel())
    parts.append((exps | 0).astype(np.uint32))
    vals = np.arange(0, 1 << (8 * np.dtype(narrow).itemsize), dtype=np.uint32)
    nar = vals.astype({1: np.uint8, 2: np.uint16}[np.dtype(narrow).itemsize]).view(narrow)
    f = nar.astype(np.float64)
    f = np.sort(f[np.isfinite(f)])
    f = f[f >= 0]
    mids = ((f[1:] + f[:-1]) / 2).astype(np.float32)
    m = mids.view(np.uint32)
    parts.extend([m - np.uint32(1), m, m + np.uint32(1)])
    top = f.astype(np.float32).view(np.uint32)
    parts.extend([top, top + 1, top - 1])
    allp = np.concatenate(parts).astype(np.uint32)
    allp = np.concatenate([allp, allp | np.uint32(0x80000000)])
    special = np.array([0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001,
                        0x00000001, 0x80000001, 0x00800000, 0x7F7FFFFF], dtype=np.uint32)
    return np.concatenate([allp, special])


def compare(name, got, want, nan_mask=None):
    bad = got != want
    if nan_mask is not None:
        bad &= ~nan_mask
    n = int(bad.sum())
    print(f"{'PASS' if n == 0 else 'FAIL'} {name}: {got.size} values, {n} mismatches")
    if n:
        idx = np.nonzero(bad)[0][:5]
        for i in idx:
            print(f"   #{i}: got {got[i]:#x} want {want[i]:#x}")
    return n == 0


def main():
    np.seterr(all="ignore")
    tool = sys.argv[1]
    work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    ok = True
    # Narrow -> f32, exhaustive.
    h = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    want = h.view(np.float16).astype(np.float32)
    got = run(tool, "f16_to_f32", h, np.uint32, work).view(np.float32)
    ok &= compare("f16->f32", got.view(np.uint32), want.view(np.uint32), np.isnan(want))
    want = h.view(ml_dtypes.bfloat16).astype(np.float32)
    got = run(tool, "bf16_to_f32", h, np.uint32, work).view(np.float32)
    ok &= compare("bf16->f32", got.view(np.uint32), want.view(np.uint32), np.isnan(want))
    b = np.arange(256, dtype=np.uint32).astype(np.uint8)
    for mode, dt in (("e4m3fnuz_to_f32", ml_dtypes.float8_e4m3fnuz),
                     ("e5m2fnuz_to_f32", ml_dtypes.float8_e5m2fnuz)):
        want = b.view(dt).astype(np.float32)
        got = run(tool, mode, b, np.uint32, work).view(np.float32)
        nan = np.isnan(want)
        ok &= compare(mode, got.view(np.uint32), want.view(np.uint32), nan)
        ok &= compare(mode + " (NaN)", np.isnan(got[nan]), np.ones(int(nan.sum()), bool))
    # f32 -> narrow.
    for mode, dt, odt in (("f32_to_f16", np.float16, np.uint16),
                          ("f32_to_bf16", ml_dtypes.bfloat16, np.uint16),
                          ("f32_to_e4m3fnuz", ml_dtypes.float8_e4m3fnuz, np.uint8),
                          ("f32_to_e5m2fnuz", ml_dtypes.float8_e5m2fnuz, np.uint8)):
        x = f32_inputs(dt)
        want = x.view(np.float32).astype(dt).view(odt)
        got = run(tool, mode, x, odt, work)
        nan_in = np.isnan(x.view(np.float32))
        ok &= compare(mode, got, want, nan_in)
        back = got[nan_in].view(dt).astype(np.float32)
        ok &= compare(mode + " (NaN stays NaN)", np.isnan(back), np.ones(back.size, bool))
    # f64 -> f16 with one rounding.
    rng = np.random.default_rng(1)
    d = np.concatenate([rng.standard_normal(200000) * 10.0 ** rng.integers(-8, 6, 200000),
                        h.view(np.float16).astype(np.float64)[:0x7C00] * (1 + 2.0 ** -30)])
    want = d.astype(np.float16).view(np.uint16)
    got = run(tool, "f64_to_f16", d.view(np.uint64), np.uint16, work)
    ok &= compare("f64->f16", got, want)
    print("all conversions match" if ok else "MISMATCHES")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
