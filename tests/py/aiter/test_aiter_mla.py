"""AMD's asm MLA decode stage 1 (mla_dec_stage1_bf16_a16w16_subQ16_mqa16.co,
16 heads on one 576-wide latent head, one split) on aster's emulator, against
the definition: per sequence and head, softmax(q . KV^T / sqrt(576)) @ KV[:, :512]
over the sequence's pages, and the log-sum-exp of the scaled scores."""
import numpy as np
import pytest

import aster
from aiterlib import assert_close, bf16, f64, rng
from aster.aiter import mla

# aiter's paged-KV bookkeeping reads (page indices) run past the last
# sequence's pages: a framework's allocator leaves that memory readable.
SLACK = 4096


def _case(seed=0):
    g = rng(seed)
    lens = [70, 130]
    pages = sum(lens)
    kv = bf16(g.normal(size=(pages + 8, 1, 1, 576)))
    indices = g.permutation(pages + 8)[:pages].astype(np.int32)
    indptr = np.r_[0, np.cumsum(lens)].astype(np.int32)
    q = bf16(g.normal(size=(2, 16, 576)))
    return q, kv, indptr, indices, np.ones(2, np.int32)


def _reference(q, kv, indptr, indices):
    out, lse = [], []
    for b in range(q.shape[0]):
        keys = f64(kv[indices[indptr[b]:indptr[b + 1]], 0, 0])
        s = f64(q[b]) @ keys.T / np.sqrt(576)
        m = s.max(axis=1, keepdims=True)
        e = np.exp(s - m)
        out.append(e / e.sum(axis=1, keepdims=True) @ keys[:, :512])
        lse.append((m + np.log(e.sum(axis=1, keepdims=True)))[:, 0])
    return np.stack(out), np.stack(lse)


@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
def test_mla_decode_stage1_matches_definition(arch):
    q, kv, indptr, indices, last = _case()
    out, lse, r = mla.run(q, kv, indptr, indices, last, arch=arch, lse_padding=48, slack=SLACK)
    ref, ref_lse = _reference(q, kv, indptr, indices)
    assert_close(out[:, 0], ref, rel_ulps=2, abs_tol=5e-3, what=f"split output ({arch})")
    assert_close(lse[:, 0, :, 0], ref_lse, rel_ulps=0, abs_tol=1e-4, dtype=np.float32,
                 what="split lse")


def test_mla_decode_stage1_stores_past_lse():
    """With aiter's LSE tensor as allocated ([batch, splits, 16, 1]), the last
    sequence's LSE store runs past its end: strict mode reports it."""
    q, kv, indptr, indices, last = _case()
    with pytest.raises(aster.EmulatorError, match="past the end of 'ptr_LSE'"):
        mla.run(q, kv, indptr, indices, last, slack=SLACK)


def test_mla_reads_page_indices_past_the_end():
    q, kv, indptr, indices, last = _case()
    with pytest.raises(aster.EmulatorError, match="after the end of 'ptr_LTD'"):
        mla.run(q, kv, indptr, indices, last, lse_padding=48)
