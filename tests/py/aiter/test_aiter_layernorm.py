"""AMD's asm layernorm with residual add (layer_norm.co) on aster's emulator,
against NumPy's layernorm of the definition (aiter's layernorm2d_with_add:
s = x + residual; out = (s - mean(s)) / sqrt(var(s) + eps) * weight + bias)."""
import numpy as np
import pytest

from aiterlib import assert_close, bf16, f64, rng
from aster.aiter import layernorm


def _inputs(m, seed=0):
    r = rng(seed)
    n = 8192
    return (bf16(r.normal(size=(m, n))), bf16(r.normal(size=(m, n))),
            bf16(r.uniform(0.5, 1.5, n)), bf16(r.normal(scale=0.1, size=n)))


def test_layernorm_matches_definition():
    x, res, w, b = _inputs(2)
    out, res_out, r = layernorm.run(x, res, w, b, 1e-5)
    s = f64(x) + f64(res)
    # residual_out: the sum in bf16. AMD's kernel packs bf16 by keeping the high
    # halves of the f32 results (v_perm_b32: truncation), so within 1 ulp, not 0.5.
    assert_close(res_out, s, rel_ulps=1, what="residual_out")
    mean = s.mean(axis=1, keepdims=True)
    var = ((s - mean) ** 2).mean(axis=1, keepdims=True)
    ref = (s - mean) / np.sqrt(var + 1e-5) * f64(w) + f64(b)
    assert_close(out, ref, rel_ulps=2, abs_tol=2e-2, what="out")
    assert r.workgroups == 1 and r.waves == 4


def test_layernorm_rejects_unsupported_shapes():
    x, res, w, b = _inputs(2)
    with pytest.raises(ValueError, match="N == 8192"):
        layernorm.run(x[:, :4096].copy(), res[:, :4096].copy(), w[:4096].copy(), b[:4096].copy())
    with pytest.raises(ValueError, match="gfx942 only"):
        layernorm.run(x, res, w, b, arch="gfx950")
