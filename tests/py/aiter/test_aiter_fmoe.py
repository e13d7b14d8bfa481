"""AMD's asm fused-MoE kernels on aster's emulator, against NumPy's fused MoE
written from the operation's definition (aiter's ``torch_moe``):

    out[t] = sum_k w[t, k] * W2[e] (act(W1g[e] x[t]) * W1u[e] x[t]),  e = ids[t, k]

with x, W1 and W2 per-row int8 quantised (x ~ a8 * a8_scale, W ~ Wq * scale,
aiter's ``pertoken_quant``: scale = max|row| / 127, q = round(row / scale)),
act SiLU (x * sigmoid(x)) or GELU (the erf form, ``F.gelu``), routing by
softmax over random scores, top-k, renormalised (aiter's ``fused_topk``).

* 1-stage: ``fmoe_g1u1`` (asm_fmoe.cu) with a kernel of the
  ``fmoe_bf16_pertokenInt8_g1u1_{silu,gelu}`` tables, gfx942 and gfx950.
  The kernel re-quantises the intermediate ``act(gate) * up`` to int8 for
  its int8 down-projection (the definition keeps it exact): per 128-column
  tile (its sub_GU) and rounding toward zero, as its result shows (RMS
  distance 0.4% of the output's RMS to that model, 3% to per-row
  round-to-nearest). The test asserts only what any int8 quantisation with a
  scale of at most max|row| / 127 allows: each intermediate element moves by
  less than one step, which moves out[t, j] by less than
  sum_k w[t, k] sum_i |W2[e, j, i]| max|row_k| / 127, plus the bf16 roundings
  of the output (one per expert added: 2^-8 relative each); and the RMS error
  at most that of independent errors of up to one step (step / sqrt(3)).
* 2-stage: stage 1 is AMD's asm ``fmoe_stage1_bf16_pertokenInt8_g1u1``
  kernel (asm_moe_2stage.cu); stage 2 in aiter is CK's ``ck_moe_stage2_fwd``,
  compiled by aiter's JIT and not shipped as a code object in the wheel, so
  it runs here in NumPy (int8 per-token quantisation of stage 1's bf16
  output, the down-projection, the routing weights). Stage 1's output is
  checked element by element (f32 arithmetic rounded once to bf16: within 1
  bf16 ulp), the pipeline against the definition with the bound above.
"""
import math

import numpy as np
import pytest

from aiterlib import assert_close, f64, rng
from aster.aiter import fmoe

M, DIM, INTER, E, TOPK = 16, 512, 256, 4, 2

ONE_STAGE = {"silu": "_ZN5aiter46fmoe_bf16_pertokenInt8_g1u1_vs_silu_1tg_32x128E",
             "gelu": "_ZN5aiter46fmoe_bf16_pertokenInt8_g1u1_vs_gelu_1tg_32x128E"}
STAGE1 = "_ZN5aiter49fmoe_stage1_bf16_pertokenInt8_g1u1_32x128_3tg_pf2E"

# Allocator slack (bytes after each array, readable zeros) the kernels need:
# 1-stage: a padding id is token M, so row M of the input and a8_scale[M] are
# read (DIM bytes), and the w1 scales one expert past the last (2*INTER*4
# bytes); stage 1: sorted ids past the end of their array (it reads a whole
# 64-lane window of ids for each 32-row block).
SLACK_1STAGE = max(DIM, 2 * INTER * 4)
SLACK_STAGE1 = 1024


def _quant_rows(a):
    """aiter's pertoken_quant to int8 over the last axis: (q, scale)."""
    scale = np.abs(a).max(axis=-1, keepdims=True) / 127.0
    q = np.clip(np.rint(a / scale), -127, 127).astype(np.int8)
    return q, scale[..., 0].astype(np.float32)


def _act(name, g):
    if name == "silu":
        return g / (1.0 + np.exp(-g))
    return 0.5 * g * (1.0 + np.vectorize(math.erf)(g / math.sqrt(2.0)))


def _problem(seed=0):
    r = rng(seed)
    a8, sa = _quant_rows(r.normal(size=(M, DIM)))
    w1, s1 = _quant_rows(r.normal(size=(E, 2 * INTER, DIM)) / 10)
    w2, s2 = _quant_rows(r.normal(size=(E, DIM, INTER)) / 10)
    scores = r.normal(size=(M, E))
    p = np.exp(scores - scores.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    ids = np.argsort(-p, axis=1, kind="stable")[:, :TOPK].astype(np.int32)
    wts = np.take_along_axis(p, ids, axis=1)
    wts = (wts / wts.sum(axis=1, keepdims=True)).astype(np.float32)
    return a8, sa, w1, s1, w2, s2, ids, wts


def _intermediate(p, act):
    """act(gate) * up per (token, slot), float64 from the dequantised inputs."""
    a8, sa, w1, s1, _, _, ids, _ = p
    x = f64(a8) * f64(sa)[:, None]
    h = np.einsum("tknd,td->tkn", f64(w1)[ids] * f64(s1)[ids][..., None], x)
    return _act(act, h[..., :INTER]) * h[..., INTER:]


def _down(p, inter, steps=127.0):
    """sum_k w[t, k] W2[e] inter[t, k]; the bound an int8 re-quantisation of
    `inter` with steps max|row| / `steps` allows; the RMS of that error
    (each element's error independent, uniform within one step)."""
    _, _, _, _, w2, s2, ids, wts = p
    w2d = f64(w2)[ids] * f64(s2)[ids][..., None]               # [M, K, DIM, INTER]
    out = np.einsum("tk,tkji,tki->tj", f64(wts), w2d, inter)
    step = np.abs(inter).max(axis=-1) / steps
    bound = np.einsum("tk,tkji,tk->tj", f64(wts), np.abs(w2d), step)
    var = np.einsum("tk,tkji,tk->tj", f64(wts) ** 2, w2d ** 2, step ** 2 / 3)
    mag = np.einsum("tk,tkj->tj", f64(wts), np.abs(np.einsum("tkji,tki->tkj", w2d, inter)))
    rounding = TOPK * 2.0 ** -8 * mag
    return out, bound + rounding, np.sqrt(var.mean() + (rounding ** 2).mean())


def _assert_within(out, ref, bound, rms, what):
    err = np.abs(f64(out) - ref)
    worst = np.unravel_index(np.argmax(err / bound), err.shape)
    assert (err <= bound).all(), (
        f"{what}: {int((err > bound).sum())} of {err.size} beyond the int8 bound; worst at "
        f"{worst}: got {f64(out)[worst]!r}, expected {ref[worst]!r} +- {bound[worst]!r}")
    # The elementwise bound is loose (~20% of |out|): the error must also be
    # that of a quantisation on average, not a systematic one.
    assert np.sqrt((err ** 2).mean()) <= rms, f"{what}: RMS error beyond {rms}"


def test_sort_routing_is_ck_moe_sorting():
    """CK's reference_moe_sorting (MOCK_ID on): experts in order, an expert
    without tokens skipped, ids token | slot << 24 in token order, padding
    M | topk << 24 with weight 0, one expert id per block, [valid, M]."""
    ids = np.array([[2, 0], [0, 3], [2, 3]], np.int32)          # expert 1 unused
    w = np.array([[.6, .4], [.7, .3], [.5, .5]], np.float32)
    s, sw, se, nv = fmoe.sort_routing(ids, w, 4, 2)
    pad = 3 | 2 << 24
    assert list(s[:6]) == [0 | 1 << 24, 1, 0, 2, 1 | 1 << 24, 2 | 1 << 24]
    assert list(sw[:6]) == pytest.approx([.4, .7, .6, .5, .3, .5])
    assert list(se[:3]) == [0, 2, 3] and list(nv) == [6, 3]
    assert len(s) == 3 * 2 + 4 * 2 - 2 and len(se) == 6
    ids[0, 1] = 3
    s, sw, se, nv = fmoe.sort_routing(ids, w, 4, 2)              # expert 0: 1 token, padded
    assert list(s[:2]) == [1, pad] and sw[1] == 0 and list(nv) == [8, 3]
    with pytest.raises(ValueError, match="lie in"):
        fmoe.sort_routing(ids, w, 3, 2)


def test_shuffle_weight_is_aiters_layout():
    """shuffle_weight((16, 16)) on int8: element [n, k] moves to block
    (n // 16, k // 32), then k % 32 // 16, n % 16, k % 16."""
    w = np.arange(32 * 64, dtype=np.int64).astype(np.int8).reshape(1, 32, 64)
    s = fmoe.shuffle_weight(w).reshape(-1)
    for n, k in [(0, 0), (5, 17), (16, 33), (31, 63)]:
        pos = ((((n // 16) * 2 + k // 32) * 2 + k % 32 // 16) * 16 + n % 16) * 16 + k % 16
        assert s[pos] == w[0, n, k]


@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
@pytest.mark.parametrize("act", ["silu", "gelu"])
def test_fmoe_1stage_int8_g1u1(arch, act):
    p = _problem()
    out, r = fmoe.run_g1u1(*p, kernel=ONE_STAGE[act], arch=arch, slack=SLACK_1STAGE)
    ref, bound, rms = _down(p, _intermediate(p, act))
    _assert_within(out, ref, bound, rms, f"1-stage {act} on {arch}")
    assert r.workgroups == (INTER // 128) * len(fmoe.sort_routing(p[6], p[7], E, 32)[2])


def test_fmoe_1stage_reads_past_its_inputs():
    """Strict mode without slack: the padding id's token row M is read."""
    import aster
    with pytest.raises(aster.EmulatorError, match=r"after the end of 'ptr_X"):
        fmoe.run_g1u1(*_problem(), kernel=ONE_STAGE["silu"])


def test_fmoe_1stage_rejects_bad_arguments():
    p = list(_problem())
    with pytest.raises(ValueError, match="not a kernel"):
        fmoe.run_g1u1(*p, kernel=STAGE1)
    with pytest.raises(ValueError, match="persistent"):
        fmoe.run_g1u1(*p, kernel="_ZN5aiter49fmoe_bf16_pertokenInt8_g1u1_vs_silu_1tg_ps_32x512E")
    p[0] = p[0].astype(np.float32)
    with pytest.raises(ValueError, match="a8 must be a int8"):
        fmoe.run_g1u1(*p, kernel=ONE_STAGE["silu"])


@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
def test_fmoe_2stage_asm_stage1_numpy_stage2(arch):
    p = _problem(seed=1)
    a8, sa, w1, s1, w2, s2, ids, wts = p
    out1, _ = fmoe.run_stage1(a8, sa, w1, s1, ids, wts, kernel=STAGE1, activation="silu",
                              arch=arch, slack=SLACK_STAGE1)
    inter = _intermediate(p, "silu")
    assert_close(out1, inter, rel_ulps=1, abs_tol=1e-6, what=f"stage 1 on {arch}")
    # Stage 2 (CK's kernel in aiter) in NumPy: per-token int8 of the bf16 rows.
    q, sq = _quant_rows(f64(out1))
    out2 = _down(p, f64(q) * f64(sq)[..., None])[0]
    ref, bound, rms = _down(p, inter, steps=254.0)              # round to nearest: half a step
    _assert_within(out2, ref, bound, rms, f"2-stage pipeline on {arch}")
