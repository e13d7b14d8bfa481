"""AMD's asm top-k softmax (topksoftmax_4x{128,256}x{6,8}.co) on aster's
emulator, against the definition: softmax over the experts, the k largest
probabilities and their expert indices, optionally renormalised to sum 1."""
import numpy as np
import pytest

from aiterlib import assert_close, rng, softmax
from aster.aiter import topk_softmax


def _reference(gating, k, renormalize):
    p = softmax(gating.astype(np.float64))
    idx = np.argsort(-p, axis=1, kind="stable")[:, :k]
    w = np.take_along_axis(p, idx, axis=1)
    if renormalize:
        w = w / w.sum(axis=1, keepdims=True)
    return w, idx


@pytest.mark.parametrize("experts,k,renormalize", [(128, 8, False), (256, 6, True)])
def test_topk_softmax_matches_definition(experts, k, renormalize):
    tokens = 8
    # Distinct logits a clear step apart, so the top-k set is unambiguous.
    g = rng(experts + k)
    gating = np.stack([g.permutation(experts) * 0.05 for _ in range(tokens)]).astype(np.float32)
    weights, indices, r = topk_softmax.run(gating, k, renormalize)
    w_ref, i_ref = _reference(gating, k, renormalize)
    # The kernel's order within the top k is not part of the definition: compare as sets.
    order = np.argsort(indices, axis=1)
    np.testing.assert_array_equal(np.take_along_axis(indices, order, 1), np.sort(i_ref, axis=1))
    ref_by_index = np.take_along_axis(w_ref, np.argsort(i_ref, axis=1), 1)
    # f32 ulps: exp and reciprocal (1 ulp each on the hardware) and a sum of E terms.
    assert_close(np.take_along_axis(weights, order, 1), ref_by_index, rel_ulps=16,
                 dtype=np.float32, what="weights")
    assert r.workgroups == tokens // 4


def test_topk_softmax_rejects_unsupported_configs():
    with pytest.raises(ValueError, match="experts, topk"):
        topk_softmax.run(np.zeros((4, 64), np.float32), 8)


def test_topk_softmax_partial_tile_reads_past_gating():
    """6 tokens, 4 per workgroup: the second workgroup reads gating rows 6 and 7,
    past the array's end. Strict mode reports it; with a framework's
    allocator slack (readable zeros there) the 6 real rows are right."""
    import aster
    g = rng(3)
    gating = np.stack([g.permutation(128) * 0.05 for _ in range(6)]).astype(np.float32)
    with pytest.raises(aster.EmulatorError, match="after the end of 'ptr_A'"):
        topk_softmax.run(gating, 8)
    weights, indices, _ = topk_softmax.run(gating, 8, slack=4096)
    w_ref, i_ref = _reference(gating, 8, False)
    np.testing.assert_array_equal(np.sort(indices, axis=1), np.sort(i_ref, axis=1))
    order = np.argsort(indices, axis=1)
    assert_close(np.take_along_axis(weights, order, 1),
                 np.take_along_axis(w_ref, np.argsort(i_ref, axis=1), 1), rel_ulps=16,
                 dtype=np.float32, what="weights")
