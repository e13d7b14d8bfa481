"""AMD's asm MLA decode, stage 1 (``mla/mla_dec_stage1_bf16_a16w16_subQ16_mqa16.co``:
bf16 Q and KV, 16 query heads on one latent KV head, one query token per
sequence), launched as aiter's ``mla_decode_stage1_asm_fwd`` does
(``aiter_meta/csrc/py_itfs_cu/asm_mla.cu``; ``aiter/mla.py``'s
``mla_decode_fwd`` builds the split bookkeeping: ``num_kv_splits_indptr =
arange(0, (batch + 1) * splits, splits)``).

What it computes, per sequence b, head h and KV split s: over the split's
share of the sequence's pages, ``split_out[b, s, h] = softmax(scale * q[b, h]
. KV^T) @ KV[:, :512]`` (float32; V is the first 512 of the 576 latent
columns) and ``split_lse[b, s, h]`` the log-sum-exp of those scores. aiter's
stage 2 (Triton, not an asm kernel) merges the splits by their lse; with one
split stage 1's result is the attention output itself.

Layouts: q [batch, 16, 576]; kv [pages, page_size, 1, 576] with
kv_indptr [batch + 1] / kv_page_indices / kv_last_page_lens [batch] (int32)
naming each sequence's pages. Launch: grid (1, batch, splits), block 256;
``s_Q_Bs = q.stride(0) * 2``, ``s_Bs = kv.stride(0) * 2``,
``s_log2_plen = log2(page_size)``, ``s_MQA = 16``.

Found running it on aster's emulator: the kernel stores 64 LSE floats per
(sequence, split) (the 16 heads' values repeated), 48 past its 16 heads: into
the next sequence's entries, and past the end of aiter's [batch, splits, 16, 1]
LSE tensor for the last one (strict mode reports that store). `lse_padding`
adds float32 entries after the LSE array to hold them; the entries that
belong to a later sequence are rewritten by its own workgroup, which runs
later here (on a GPU the order is not fixed).
"""
from __future__ import annotations

import math

import numpy as np

from .kernargs import launch, struct_layout

SOURCE = "aiter_meta/csrc/py_itfs_cu/asm_mla.cu"
CODE_OBJECT = "mla/mla_dec_stage1_bf16_a16w16_subQ16_mqa16.co"
KERNEL = "_ZN5aiter39mla_dec_stage1_bf16_a16w16_subQ16_mqa16E"
ARCHS = ("gfx942", "gfx950")
HEADS, D_QK, D_V = 16, 576, 512


def run(q, kv, kv_indptr, kv_page_indices, kv_last_page_lens, *, splits=1,
        softmax_scale=None, lse_padding=0, arch="gfx942", timing=False, device="emu",
        slack=0):
    """Returns ``(split_out [batch, splits, 16, 512] f32, split_lse [batch,
    splits, 16, 1] f32, launch_result)``."""
    import ml_dtypes
    bf16 = np.dtype(ml_dtypes.bfloat16)
    if arch not in ARCHS:
        raise ValueError(f"arch must be one of {ARCHS}")
    if q.dtype != bf16 or kv.dtype != bf16 or q.ndim != 3 or q.shape[1:] != (HEADS, D_QK) \
            or kv.ndim != 4 or kv.shape[2:] != (1, D_QK):
        raise ValueError(f"q must be bf16 [batch, {HEADS}, {D_QK}] and kv bf16 [pages, "
                         f"page_size, 1, {D_QK}]")
    batch, page_size = q.shape[0], kv.shape[1]
    if page_size & (page_size - 1):
        raise ValueError("page_size must be a power of two (s_log2_plen)")
    if softmax_scale is None:
        softmax_scale = 1.0 / math.sqrt(D_QK)
    qo_indptr = np.arange(batch + 1, dtype=np.int32)
    splits_indptr = np.arange(0, (batch + 1) * splits, splits, dtype=np.int32)
    out = np.zeros((batch, splits, HEADS, D_V), np.float32)
    lse_buf = np.zeros(batch * splits * HEADS + lse_padding, np.float32)
    lse = lse_buf[:batch * splits * HEADS].reshape(batch, splits, HEADS, 1)
    final = np.zeros((batch, HEADS, D_V), bf16)
    q, kv = np.array(q, order="C"), np.array(kv, order="C")
    packed = struct_layout(SOURCE).pack(
        ptr_R=out, ptr_LSE=lse_buf, ptr_Q=q, ptr_KV=kv,
        ptr_LTP=np.array(kv_indptr, np.int32), ptr_LTD=np.array(kv_page_indices, np.int32),
        ptr_LTL=np.array(kv_last_page_lens, np.int32), ptr_QTP=qo_indptr,
        scalar=float(softmax_scale), s_MQA=HEADS, s_kv_split=splits, s_Q_Bs=q.strides[0],
        s_Bs=kv.strides[0], s_log2_plen=int(math.log2(page_size)), ptr_STP=splits_indptr,
        ptr_RP=final, out_16_nosplit=splits)
    r = launch(arch, CODE_OBJECT, KERNEL, (1, batch, splits), (256, 1, 1), packed,
               timing=timing, device=device, slack=slack)
    return out, lse, r
