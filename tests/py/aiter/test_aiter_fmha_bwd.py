"""AMD's asm flash-attention backward (bwd_hd128_bf16_a16_rtna.co: bf16, head
size 128, no mask) on aster's emulator, against the definition's gradients:
with P = softmax(Q K^T / sqrt(d)), dV = P^T dO, dS = P * (dO V^T - rowsum(dO * O)),
dQ = dS K / sqrt(d), dK = dS^T Q / sqrt(d) (all in float64 from the bf16 inputs)."""
import numpy as np
import pytest

import aster
from aiterlib import assert_close, bf16, f64, rng
from aster.aiter import fmha_bwd


def _problem(s, seed=0):
    g = rng(seed)
    q, k, v, do = (bf16(g.normal(size=(1, s, 1, 128))) for _ in range(4))
    scale = 1 / np.sqrt(128)
    sc = f64(q[0, :, 0]) @ f64(k[0, :, 0]).T * scale
    m = sc.max(axis=1, keepdims=True)
    e = np.exp(sc - m)
    lse = m[:, 0] + np.log(e.sum(axis=1))
    p = e / e.sum(axis=1, keepdims=True)
    o = bf16(p @ f64(v[0, :, 0]))[None, :, None]          # the forward's bf16 output
    dsum = (f64(do[0, :, 0]) * f64(o[0, :, 0])).sum(axis=1, keepdims=True)
    ds = p * (f64(do[0, :, 0]) @ f64(v[0, :, 0]).T - dsum)
    grads = (ds @ f64(k[0, :, 0]) * scale, ds.T @ f64(q[0, :, 0]) * scale,
             p.T @ f64(do[0, :, 0]))
    return (q, k, v, o, do, lse[None, None].astype(np.float32)), grads


@pytest.mark.parametrize("s", [192, 384])
def test_fmha_bwd_matches_definition(s):
    (q, k, v, o, do, lse), (dq, dk, dv) = _problem(s)
    got_dq, got_dk, got_dv, r = fmha_bwd.run(q, k, v, o, do, lse)
    scale = max(np.abs(dq).max(), np.abs(dk).max(), np.abs(dv).max())
    for name, got, ref in (("dq", got_dq, dq), ("dk", got_dk, dk), ("dv", got_dv, dv)):
        assert_close(got[0, :, 0], ref, rel_ulps=2, abs_tol=1e-2 * scale, what=name)
