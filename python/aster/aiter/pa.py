"""AMD's asm paged attention for decode (``pa/pa_*.co``), launched as aiter's
``pa_fwd_asm`` does (``aiter_meta/csrc/py_itfs_cu/asm_pa.cu``; the kernel is
chosen from the wheel's ``hsa/<arch>/pa/pa_asm.csv`` by the interface's
``get_heuristic_kernel``).

What it computes, per sequence s, query head h (kv head ``h // gqa``):
``out[s, h] = softmax(q[s, h] . K[t] / sqrt(D)) @ V`` over the sequence's
``context_lens[s]`` tokens, token t living in cache block
``block_tables[s, t // block_size]`` at row ``t % block_size``.

Cache layouts (the interface's comments; aiter's tests build V with
``asm_V_shuffle``), x = 16 bytes / element size:
  K: [num_blocks, kv_heads, D / x, block_size, x]
  V: [num_blocks, kv_heads, block_size / x, D, x]
`k_cache_layout` / `v_cache_layout` make them from [num_blocks, kv_heads,
block_size, D]. Supported here: the unquantised kernels (Q and the caches of
one type, bf16 or fp16), one query token per sequence (no MTP). Launch: grid
(kv_heads, num_seqs), block 256; ``sclg2e = log2(e) / sqrt(D)`` (the kernel
works with exp2).
"""
from __future__ import annotations

import csv
import math

import numpy as np

from .kernargs import launch, struct_layout
from .wheel import wheel_file

SOURCE = "aiter_meta/csrc/py_itfs_cu/asm_pa.cu"
ARCHS = ("gfx942", "gfx950")


def _dtype_name(dt):
    import ml_dtypes
    if dt == np.float16:
        return "fp16"
    if dt == np.dtype(ml_dtypes.bfloat16):
        return "bf16"
    raise ValueError(f"the unquantised asm PA kernels take bf16 or fp16, got {dt}")


def configs(arch):
    """The rows of the wheel's pa_asm.csv for `arch`."""
    with open(wheel_file(f"aiter_meta/hsa/{arch}/pa/pa_asm.csv"), newline="") as f:
        return list(csv.DictReader(f))


def select(arch, q_type, kv_type, gqa, block_size, hp=1, mtp=0, msk=0):
    """(kernel symbol, code object) as get_heuristic_kernel picks them: the
    exact gqa, then gqa rounded up to a multiple of 8; hp == 1 matches any
    precision (the C++ takes the first of its unordered_map: with several
    matches we take the CSV's first and say so in `ambiguous`)."""
    rows = configs(arch)
    for g in (gqa, (gqa + 7) // 8 * 8):
        hits = [r for r in rows if r["qType"] == q_type and r["kvType"] == kv_type
                and int(r["Gqa"]) == g and int(r["Mtp"]) == mtp and int(r["Msk"]) == msk
                and (int(r["Hp"]) == hp or hp == 1) and int(r["blkSz"]) == block_size]
        if hits:
            return hits[0]["knl_name"], "pa/" + hits[0]["knl_file"]
    raise ValueError(f"no asm PA kernel for q {q_type}, kv {kv_type}, gqa {gqa}, block size "
                     f"{block_size} on {arch} (aiter: 'cannot get heuristic kernel')")


def k_cache_layout(k):
    """[num_blocks, kv_heads, block_size, D] -> [num_blocks, kv_heads, D/x, block_size, x]."""
    nb, nh, bs, d = k.shape
    x = 16 // k.itemsize
    return np.ascontiguousarray(k.reshape(nb, nh, bs, d // x, x).transpose(0, 1, 3, 2, 4))


def v_cache_layout(v):
    """[num_blocks, kv_heads, block_size, D] -> [num_blocks, kv_heads, block_size/x, D, x]
    (aiter's asm_V_shuffle of the [.., D, block_size] cache)."""
    nb, nh, bs, d = v.shape
    x = 16 // v.itemsize
    return np.ascontiguousarray(v.reshape(nb, nh, bs // x, x, d).transpose(0, 1, 2, 4, 3))


def run(q, k_cache, v_cache, block_tables, context_lens, *, arch="gfx942", timing=False,
        device="emu", slack=0, profile=None, strict=True):
    """q: [num_seqs, heads, D]; caches in the layouts above; block_tables:
    [num_seqs, max_blocks] int32; context_lens: [num_seqs] int32. Returns
    ``(out [num_seqs, heads, D] of q's type, launch_result)``. `profile`: the
    timing model's device (None: the arch's flagship). `strict=False` for
    contexts past one loop trip: the kernel's main loop (label_01A3 of the
    gfx942 bf16 gqa8 code object) reads the block-table entry it loaded
    (v16) after `s_waitcnt vmcnt(24)` with 23 loads issued after it, a wait
    that does not cover it; the hardware's load latency does, strict mode
    reports it."""
    if arch not in ARCHS:
        raise ValueError(f"arch must be one of {ARCHS}")
    if q.ndim != 3 or k_cache.ndim != 5 or v_cache.ndim != 5:
        raise ValueError("q must be [num_seqs, heads, D] and the caches 5-d (see aster.aiter.pa)")
    seqs, heads, dim = q.shape
    kv_heads, block_size = k_cache.shape[1], k_cache.shape[3]
    if heads % kv_heads:
        raise ValueError(f"{heads} query heads is not a multiple of {kv_heads} kv heads")
    if k_cache.dtype != q.dtype or v_cache.dtype != q.dtype:
        raise ValueError("q and the caches must have one type (unquantised kernels)")
    bt = np.array(block_tables, np.int32, order="C")
    cl = np.array(context_lens, np.int32, order="C")
    if bt.ndim != 2 or bt.shape[0] != seqs or cl.shape != (seqs,):
        raise ValueError("block_tables must be [num_seqs, max_blocks], context_lens [num_seqs]")
    t = _dtype_name(q.dtype)
    kernel, co = select(arch, t, t, heads // kv_heads, block_size)
    sc = float(np.float32(math.log2(math.e) / math.sqrt(dim)))
    out = np.zeros_like(q)
    packed = struct_layout(SOURCE).pack(
        ptr_O=out, ptr_Q=np.array(q, order="C"), ptr_K=np.array(k_cache, order="C"),
        ptr_V=np.array(v_cache, order="C"), ptr_BT=bt, ptr_CL=cl, sclg2e=sc,
        mblk=bt.shape[1], kv_nheads=kv_heads, Qs=q.strides[0], Bs=k_cache.strides[0],
        KVs=k_cache.strides[1], GQA=heads // kv_heads)
    r = launch(arch, co, kernel, (kv_heads, seqs, 1), (256, 1, 1), packed, timing=timing,
               device=device, slack=slack, profile=profile, strict=strict)
    return out, r
