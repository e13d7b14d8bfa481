"""aster.ops.attention with variable sequence lengths (cu_seqlens_q,
cu_seqlens_k: FlashAttention's varlen API; aster.generators.
attention_varlen_gen) on the emulator against the definition O =
softmax(scale Q K^T + mask) V in float64 by NumPy
(aster.generators.attention.reference), applied to each packed sequence on
its own: the causal mask bottom-right aligned per sequence (query i of a
sequence sees its keys j <= i + seq_k - seq_q, FlashAttention-2's varlen
convention).

Tolerance, as tests/py/test_attention.py states for the forward: the
kernel rounds only P (in [0, 1]) to the input format before P V, so |O -
O_ref| <= u max|v| per row (u: bf16 2^-8, f16 2^-11); allowed 1.25 u max|v|
+ 1e-5, LSE 1e-5 (1 + |LSE|). Rows that see no key (seq_q > seq_k under the
mask, or an empty key sequence) give O = 0 and LSE = -inf exactly. Strict
mode on every launch (bad accesses, missing waits and reads of unwritten
registers raise): a sequence's rows read nothing of its neighbours'."""
import numpy as np
import pytest

import aster
from aster.generators import attention as gen

U = {"bf16": 2.0 ** -8, "f16": 2.0 ** -11}


def _packed(lq, lk, h, hk, d, dtype, seed=0):
    g = np.random.default_rng(seed)
    dt = gen.DTYPES[dtype]
    cq = np.concatenate([[0], np.cumsum(lq)]).astype(np.int32)
    ck = np.concatenate([[0], np.cumsum(lk)]).astype(np.int32)
    return (g.normal(size=(h, cq[-1], d)).astype(dt), g.normal(size=(hk, ck[-1], d)).astype(dt),
            g.normal(size=(hk, ck[-1], d)).astype(dt), cq, ck)


def _check(q, k, v, cq, ck, dtype, causal, o, lse, scale=None):
    assert o.dtype == np.float32 and o.shape == q.shape and lse.shape == q.shape[:2]
    tol = 1.25 * U[dtype] * np.abs(np.asarray(v, np.float64)).max() + 1e-5
    for i in range(len(cq) - 1):
        rq, rk = slice(cq[i], cq[i + 1]), slice(ck[i], ck[i + 1])
        if cq[i] == cq[i + 1]:
            continue
        if ck[i] == ck[i + 1]:                      # no key at all
            assert (o[:, rq] == 0).all() and np.isneginf(lse[:, rq]).all()
            continue
        ro, rl = gen.reference(q[None, :, rq], k[None, :, rk], v[None, :, rk], causal, scale)
        err = np.abs(o[:, rq] - ro[0]).max()
        assert err <= tol, f"sequence {i}: max |O - O_ref| = {err} > {tol}"
        fin = np.isfinite(rl[0])
        assert (np.isneginf(lse[:, rq]) == ~fin).all()
        assert (o[:, rq][~fin] == 0).all()
        if fin.any():
            assert np.abs(lse[:, rq][fin] - rl[0][fin]).max() <= \
                1e-5 * (1 + np.abs(rl[0][fin]).max())


@pytest.mark.parametrize("dtype,d,causal,lq,lk,h,hk", [
    # odd lengths, a sequence longer than one 128-row block, seq_q > seq_k
    # (rows without a key under the mask), an empty query sequence, GQA 2:1
    ("bf16", 128, True, [37, 0, 130, 5], [50, 3, 130, 1], 4, 2),
    ("bf16", 128, False, [1, 77, 200], [33, 64, 19], 2, 2),
    ("f16", 64, True, [65, 9, 31], [65, 100, 7], 6, 2),   # GQA 3:1
    ("f16", 128, False, [17, 40], [0, 45], 2, 1),         # an empty key sequence
])
def test_varlen_matches_definition(dtype, d, causal, lq, lk, h, hk):
    q, k, v, cq, ck = _packed(lq, lk, h, hk, d, dtype)
    saved = [a.copy() for a in (q, k, v, cq, ck)]
    (o, lse), r = aster.ops.attention(q, k, v, causal=causal, lse=True, timing=True,
                                      cu_seqlens_q=cq, cu_seqlens_k=ck)
    assert r.config.varlen and r.grid == (-(-max(lq) // r.config.block_q), h, len(lq))
    _check(q, k, v, cq, ck, dtype, causal, o, lse)
    for a, a0 in zip((q, k, v, cq, ck), saved):     # the caller's arrays are untouched
        assert a.tobytes() == a0.tobytes()


def test_varlen_equals_padded_batches():
    """Two sequences of equal lengths packed give the bits of the batched
    (non-varlen) kernel on the same tensors: the same tile body and order
    of operations, only the buffers differ."""
    q, k, v, cq, ck = _packed([70, 70], [90, 90], 4, 2, 128, "bf16", seed=2)
    o, lse = aster.ops.attention(q, k, v, causal=True, lse=True, scale=0.07,
                                 cu_seqlens_q=cq, cu_seqlens_k=ck)
    qb = q.reshape(4, 2, 70, 128).transpose(1, 0, 2, 3)
    kb, vb = (x.reshape(2, 2, 90, 128).transpose(1, 0, 2, 3) for x in (k, v))
    ob, lseb = aster.ops.attention(qb, kb, vb, causal=True, lse=True, scale=0.07)
    assert ob.transpose(1, 0, 2, 3).reshape(4, 140, 128).tobytes() == o.tobytes()
    assert lseb.transpose(1, 0, 2).reshape(4, 140).tobytes() == lse.tobytes()


def test_varlen_gfx950():
    q, k, v, cq, ck = _packed([33, 96], [40, 100], 2, 1, 128, "bf16", seed=4)
    o, lse = aster.ops.attention(q, k, v, causal=True, lse=True, target="gfx950",
                                 cu_seqlens_q=cq, cu_seqlens_k=ck)
    _check(q, k, v, cq, ck, "bf16", True, o, lse)


@pytest.mark.parametrize("bad,match", [
    (lambda q, k, v, cq, ck: (q, k, v, cq, None), "both"),
    (lambda q, k, v, cq, ck: (q[None], k[None], v[None], cq, ck), r"\(heads, seq_q, d\)"),
    (lambda q, k, v, cq, ck: (q, k, v, cq[1:], ck), "rise from 0"),
    (lambda q, k, v, cq, ck: (q, k, v, cq[::-1].copy(), ck), "rise from 0"),
    (lambda q, k, v, cq, ck: (q, k, v, cq[:-1], ck[:-1]), "rise from 0"),
    (lambda q, k, v, cq, ck: (q, k, v, cq, np.array([0, 9, 1, 20], np.int32)), "decreasing"),
    (lambda q, k, v, cq, ck: (q, k, v, cq.astype(np.float32), ck), "integer"),
    (lambda q, k, v, cq, ck: (q, k, v, np.array([0, 3, 12], np.int32), ck), "one length"),
])
def test_varlen_bad_inputs_raise(bad, match):
    q, k, v, cq, ck = _packed([3, 4, 5], [6, 7, 7], 2, 1, 64, "bf16")
    q2, k2, v2, cq2, ck2 = bad(q, k, v, cq, ck)
    with pytest.raises(ValueError, match=match):
        aster.ops.attention(q2, k2, v2, cu_seqlens_q=cq2, cu_seqlens_k=ck2)


def test_varlen_library_on_disk(tmp_path):
    """The varlen kernels are in the library (default_attention_configs):
    a launch from a library build_attention_library wrote equals the
    in-process kernel bit for bit; its kernel arguments are the offsets'
    pointers and sizes of attention_varlen_gen."""
    from aster.ops.attention import default_attention_configs
    cfg = [c for c in default_attention_configs(("gfx942",)) if c.varlen and c.d == 64
           and c.dtype == "bf16" and not c.causal and not c.lse and c.waves == 2]
    assert len(cfg) == 1
    lib = str(tmp_path / "lib")
    aster.ops.build_attention_library(lib, cfg)
    info = aster.load_code_object(open(tmp_path / "lib" / f"{cfg[0].name}.gfx942.co", "rb")
                                  .read()).kernel(cfg[0].name)
    assert [a.name for a in info.args if not a.hidden] == [
        "q", "k", "v", "o", "lse", "cu_q", "cu_k", "total_q", "total_k", "group",
        "group_magic", "c2"]
    q, k, v, cq, ck = _packed([3, 20], [9, 30], 2, 1, 64, "bf16", seed=5)
    a = aster.ops.attention(q, k, v, cu_seqlens_q=cq, cu_seqlens_k=ck, config=cfg[0],
                            library=lib)
    b = aster.ops.attention(q, k, v, cu_seqlens_q=cq, cu_seqlens_k=ck)
    assert a.tobytes() == b.tobytes()
