"""AMD's asm flash-attention forward (fmha_v3_fwd, bf16, head size 128) on
aster's emulator, against the definition: O = softmax(Q K^T / sqrt(d) + mask) V
per batch and head, the causal mask bottom-right aligned (query i sees keys
j <= i + S_k - S_q), and the row log-sum-exp of the masked scores."""
import numpy as np
import pytest

from aiterlib import assert_close, bf16, f64, rng
from aster.aiter import fmha_fwd


def _reference(q, k, v, causal, scale):
    b, sq, h, d = q.shape
    sk, hk = k.shape[1], k.shape[2]
    out = np.zeros(q.shape)
    lse = np.zeros((b, h, sq))
    for bi in range(b):
        for hi in range(h):
            kh = hi // (h // hk)
            s = f64(q[bi, :, hi]) @ f64(k[bi, :, kh]).T * scale
            if causal:
                s = np.where(np.arange(sk)[None, :] <= np.arange(sq)[:, None] + sk - sq, s, -np.inf)
            m = s.max(axis=1, keepdims=True)
            e = np.exp(s - m)
            out[bi, :, hi] = (e / e.sum(axis=1, keepdims=True)) @ f64(v[bi, :, kh])
            lse[bi, hi] = (m + np.log(e.sum(axis=1, keepdims=True)))[:, 0]
    return out, lse


def _inputs(b, sq, sk, h, hk, seed=0):
    g = rng(seed)
    return (bf16(g.normal(size=(b, sq, h, 128))), bf16(g.normal(size=(b, sk, hk, 128))),
            bf16(g.normal(size=(b, sk, hk, 128))))


@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
@pytest.mark.parametrize("causal", [False, True], ids=["nomask", "causal"])
def test_fmha_fwd_matches_definition(arch, causal):
    q, k, v = _inputs(1, 256, 256, 1, 1)
    out, lse, r = fmha_fwd.run(q, k, v, causal=causal, lse=True, arch=arch)
    ref, ref_lse = _reference(q, k, v, causal, 1 / np.sqrt(128))
    assert_close(out, ref, rel_ulps=2, abs_tol=1e-2, what=f"out ({arch}, causal={causal})")
    assert_close(lse, ref_lse, rel_ulps=0, abs_tol=1e-3, dtype=np.float32, what="lse")
