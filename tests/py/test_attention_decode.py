"""aster.ops.attention_decode (aster.generators.attention_decode: split-KV
decode, the splits merged in the same launch) on the emulator against the
definition O = softmax(scale Q K^T + mask) V in float64 by NumPy
(aster.generators.attention.reference; the causal mask bottom-right
aligned: query token i sees keys j <= i + seq_k - seq_q).

Tolerance, as tests/py/test_attention.py states for the forward: each
split rounds only P (in [0, 1]) to the input format before P V, so its O_s
is within u max|v| of the split's exact softmax average (u: bf16 2^-8, f16
2^-11); the merge O = sum_s w_s O_s / sum_s w_s (w_s >= 0, in f32) is a
convex combination of them, so the same bound holds for O: 1.25 u max|v| +
1e-5. LSE never sees the rounding: 1e-5 (1 + |LSE|). Rows that see no key
give O = 0 and LSE = -inf exactly. Strict mode on every launch (bad
accesses, missing waits, reads of unwritten registers raise)."""
import math

import numpy as np
import pytest

import aster
from aster.generators import attention as gen
from aster.generators import attention_decode as dgen

U = {"bf16": 2.0 ** -8, "f16": 2.0 ** -11}


def _inputs(b, h, hk, sq, sk, d, dtype, seed=0):
    g = np.random.default_rng(seed)
    dt = gen.DTYPES[dtype]
    return (g.normal(size=(b, h, sq, d)).astype(dt), g.normal(size=(b, hk, sk, d)).astype(dt),
            g.normal(size=(b, hk, sk, d)).astype(dt))


def _check(q, k, v, dtype, causal, o, lse):
    ro, rl = gen.reference(q, k, v, causal)
    tol = 1.25 * U[dtype] * np.abs(np.asarray(v, np.float64)).max() + 1e-5
    assert o.dtype == np.float32 and o.shape == q.shape
    err = np.abs(o - ro).max()
    assert err <= tol, f"max |O - O_ref| = {err} > {tol}"
    fin = np.isfinite(rl)
    assert (np.isneginf(lse) == ~fin).all()
    assert (o[~fin] == 0).all()
    assert np.abs(lse[fin] - rl[fin]).max() <= 1e-5 * (1 + np.abs(rl[fin]).max())


@pytest.mark.parametrize("dtype,d,causal,b,h,hk,sq,sk,splits,want", [
    ("bf16", 128, False, 1, 8, 1, 1, 1000, None, 16),    # GQA 8:1 as rows; the plan's splits
    ("f16", 128, True, 2, 16, 2, 3, 300, 4, 4),          # 3 tokens, the mask in the last split
    ("bf16", 64, True, 1, 4, 4, 16, 40, None, 1),        # 16 tokens, one split: no merge
    ("bf16", 128, True, 2, 4, 4, 9, 5, None, 1),         # seq_q > seq_k: rows without a key
    ("f16", 64, False, 1, 2, 1, 2, 2100, 40, 33),        # 33 splits: merge trips 16 + 16 + 1
    ("bf16", 128, True, 1, 20, 1, 2, 200, 3, 3),         # 40 rows: 2 waves, 2 counters
])
def test_decode_matches_definition(dtype, d, causal, b, h, hk, sq, sk, splits, want):
    q, k, v = _inputs(b, h, hk, sq, sk, d, dtype)
    q0, k0, v0 = q.copy(), k.copy(), v.copy()
    (o, lse), r = aster.ops.attention_decode(q, k, v, causal=causal, lse=True, splits=splits,
                                             timing=True)
    assert r.splits == want
    _check(q, k, v, dtype, causal, o, lse)
    for a, a0 in ((q, q0), (k, k0), (v, v0)):
        assert a.view(np.uint16).tobytes() == a0.view(np.uint16).tobytes()


def test_decode_counters_back_to_zero():
    """The merge's counters are zero again after a launch (the last wave
    resets its own), so the next launch with the same buffer merges right:
    two launches give the same bits. (On the 32-row MFMA block, m = 32:
    the plan's launches above run m = 16.)"""
    cfg = dgen.DecodeConfig(dtype="bf16", d=128)
    out = dgen.compile_config(cfg)
    q, k, v = _inputs(1, 8, 2, 1, 300, 128, "bf16")
    z, rows, splits, chunk = 2, 4, 5, 64
    cnt = np.zeros((z, 1, 1, 32), np.uint32)
    results = []
    for _ in range(2):
        op = np.zeros((z, splits, rows, 128), np.float32)
        lp = np.zeros((z, splits, rows), np.float32)
        o = np.zeros((1, 8, 1, 128), np.float32)
        lse = np.zeros((1, 8, 1), np.float32)
        aster.launch(out, cfg.name, grid=cfg.grid(z, rows, splits), block=cfg.block,
                     args=[q, k, v, op, lp, o, lse, cnt, rows, 1, 300, chunk, splits,
                           float(np.float32(math.log2(math.e) / math.sqrt(128)))])
        assert not cnt.any()
        results.append(o.copy())
        _check(q, k, v, "bf16", False, o, lse)
    assert results[0].tobytes() == results[1].tobytes()


def test_decode_plan():
    """floor(2 CUs / blocks) splits, at most MAX_SPLITS (32) and one per two
    KV tiles; 1 when the heads alone fill the device (MI300X: 304 CUs)."""
    from aster.ops.attention_decode import decode_plan
    p = decode_plan("bf16", 128, False, 1, 64, 8, 1, 1024)
    assert (p.rows, p.splits, p.chunk, p.config.waves, p.config.m) == (8, 16, 64, 1, 16)
    assert decode_plan("bf16", 128, False, 1, 64, 8, 1, 16384).splits == 32
    assert decode_plan("bf16", 128, False, 16, 64, 8, 1, 4096).splits == 4
    assert decode_plan("bf16", 128, False, 64, 64, 8, 1, 1024).splits == 1
    assert decode_plan("bf16", 128, False, 1, 8, 1, 1, 100).splits == 2     # 4 tiles: 2 each
    p = decode_plan("f16", 64, True, 1, 64, 2, 4, 5000, splits=7)
    assert (p.rows, p.config.waves, p.config.kv, p.splits) == (128, 4, 64, 7)
    assert p.chunk % 64 == 0 and (p.splits - 1) * p.chunk < 5000 <= p.splits * p.chunk


@pytest.mark.parametrize("bad,exc,match", [
    (lambda q, k, v: (q[:, :, :0], k, v), ValueError, "empty"),
    (lambda q, k, v: (np.repeat(q, 9, axis=2), k, v), ValueError, "at most 16"),
    (lambda q, k, v: (q, k.astype(np.float16), v), TypeError, "one dtype"),
    (lambda q, k, v: (q[:, :3], k, v), ValueError, "multiple of kv_heads"),
    (lambda q, k, v: (q[..., :96], k[..., :96], v[..., :96]), ValueError, "64 or 128"),
])
def test_decode_bad_inputs_raise(bad, exc, match):
    q, k, v = _inputs(1, 4, 2, 2, 64, 128, "bf16")
    with pytest.raises(exc, match=match):
        aster.ops.attention_decode(*bad(q, k, v))


def test_decode_bad_scale_and_splits():
    q, k, v = _inputs(1, 4, 2, 1, 64, 64, "bf16")
    for s in (0.0, -1.0, float("inf"), "x"):
        with pytest.raises(ValueError, match="scale"):
            aster.ops.attention_decode(q, k, v, scale=s)
    for sp in (0, -2, 1.5, True):
        with pytest.raises(ValueError, match="splits"):
            aster.ops.attention_decode(q, k, v, splits=sp)


def test_amd_pa_long_context_strict():
    """AMD's asm paged attention (the bench's other side) past one trip of
    its main loop: strict mode reports its block-table register read under
    s_waitcnt vmcnt(24) with 23 loads issued after it (aster.aiter.pa.run's
    doc); with strict=False its output matches the definition (aiter's own
    test tolerance for it, tests/py/aiter/test_aiter_pa.py: bf16 O)."""
    from aster.aiter import pa
    q, k, v = _inputs(1, 8, 1, 1, 512, 128, "bf16")
    mb = 512 // 16
    kc = pa.k_cache_layout(k.reshape(1, 1, mb, 16, 128).transpose(0, 2, 1, 3, 4)
                           .reshape(mb, 1, 16, 128))
    vc = pa.v_cache_layout(v.reshape(1, 1, mb, 16, 128).transpose(0, 2, 1, 3, 4)
                           .reshape(mb, 1, 16, 128))
    bt = np.arange(mb, dtype=np.int32)[None]
    cl = np.array([512], np.int32)
    with pytest.raises(aster.EmulatorError, match="vmcnt"):
        pa.run(q[:, :, 0], kc, vc, bt, cl, slack=4096)
    out, _ = pa.run(q[:, :, 0], kc, vc, bt, cl, slack=4096, strict=False)
    ro, _ = gen.reference(q, k, v)
    tol = 2.25 * 2.0 ** -8 * np.abs(v.astype(np.float64)).max()
    assert np.abs(out.astype(np.float64) - ro[:, :, 0]).max() <= tol


def test_decode_gfx950():
    """gfx950 (v_mfma_f32_32x32x16 in the split kernel, v_cvt_pk_bf16_f32
    for P) under the same bound, on its MI355X timing profile."""
    q, k, v = _inputs(1, 16, 2, 2, 500, 128, "bf16")
    (o, lse), r = aster.ops.attention_decode(q, k, v, causal=True, lse=True, timing=True,
                                             target="gfx950")
    assert r.splits > 1 and r.launches[0].trace.device == "mi355x"
    _check(q, k, v, "bf16", True, o, lse)
