"""AMD's asm paged attention (pa_{bf16,fp16}_noquant_gqa8_1tg_4w.co) on aster's
emulator, against the definition: per sequence and query head,
softmax(q . K^T / sqrt(D)) V over the sequence's context_len tokens, token t
read from cache block block_tables[s, t // block_size], row t % block_size."""
import numpy as np
import pytest

from aiterlib import BF16, assert_close, f64, rng, softmax
from aster.aiter import pa

D, BLOCK = 128, 16
# The kernel reads block-table entries past the end of a sequence's row (and of
# the table): a framework's allocator leaves that memory readable.
SLACK = 4096


def _case(dtype, seed=0):
    g = rng(seed)
    seqs, heads, kv_heads, blocks, max_blocks = 2, 8, 1, 8, 4
    q = g.normal(size=(seqs, heads, D)).astype(np.float32).astype(dtype)
    k = g.normal(size=(blocks, kv_heads, BLOCK, D)).astype(np.float32).astype(dtype)
    v = g.normal(size=(blocks, kv_heads, BLOCK, D)).astype(np.float32).astype(dtype)
    tables = g.permutation(blocks)[:seqs * max_blocks].reshape(seqs, max_blocks).astype(np.int32)
    lens = np.array([37, 64], np.int32)
    return q, k, v, tables, lens


def _reference(q, k, v, tables, lens):
    seqs, heads, _ = q.shape
    kv_heads = k.shape[1]
    out = np.zeros(q.shape)
    for s in range(seqs):
        t = np.arange(lens[s])
        blk = tables[s, t // BLOCK]
        for h in range(heads):
            kh = h // (heads // kv_heads)
            keys, vals = f64(k[blk, kh, t % BLOCK]), f64(v[blk, kh, t % BLOCK])
            p = softmax(keys @ f64(q[s, h]) / np.sqrt(D))
            out[s, h] = p @ vals
    return out


@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
@pytest.mark.parametrize("dtype", [BF16, np.dtype(np.float16)], ids=["bf16", "fp16"])
def test_pa_matches_definition(arch, dtype):
    q, k, v, tables, lens = _case(dtype)
    out, r = pa.run(q, pa.k_cache_layout(k), pa.v_cache_layout(v), tables, lens, arch=arch,
                    slack=SLACK)
    assert_close(out, _reference(q, k, v, tables, lens), rel_ulps=2, abs_tol=1e-2,
                 dtype=dtype, what=f"pa out ({arch})")
    assert r.workgroups == 2


def test_pa_selects_kernel_as_interface():
    """get_heuristic_kernel: gqa 5 has no exact row; rounded up to 8."""
    assert pa.select("gfx942", "bf16", "bf16", 5, 16)[1] == "pa/pa_bf16_noquant_gqa8_1tg_4w.co"
    with pytest.raises(ValueError, match="no asm PA kernel"):
        pa.select("gfx942", "bf16", "bf16", 8, 32)


def test_pa_reads_past_the_block_table():
    """Without allocator slack, strict mode reports the block-table read past
    the table's end (why the tests above pass slack=)."""
    import aster
    q, k, v, tables, lens = _case(BF16)
    with pytest.raises(aster.EmulatorError, match="after the end of 'ptr_BT'"):
        pa.run(q, pa.k_cache_layout(k), pa.v_cache_layout(v), tables, lens)
