"""AMD's asm flash-attention forward (``fmha_v3_fwd``: bf16, head size 128, batch
mode), launched as aiter's ``fmha_v3_fwd`` does (``aiter_meta/csrc/py_itfs_cu/
asm_mha_fwd.cu`` builds ``mha_fwd_args``; ``hsa/<arch>/fmha_v3_fwd/codegen.py``
holds the dispatcher that fills the packed ``fmha_fwd_v3_args`` of
``csrc/include/mha_fwd.h`` and launches).

What it computes, per batch b and query head h (kv head ``h // (H / H_k)``):
``O = softmax(scale * Q K^T + mask) V`` with, when `causal`, the bottom-right
aligned causal mask (query i of S_q sees keys j <= i + S_k - S_q), and when
`lse`, the row log-sum-exp ``logsumexp(scale * Q K^T + mask)`` in float32.

Layouts: q [b, S_q, H, 128], k and v [b, S_k, H_k, 128], out like q (bf16,
contiguous). Byte strides are the element strides times 2 (the dispatcher's
``* 2``); ``s_Ts = ts_qo * stride_q * 2``; ``s_opt`` = 5, or 3 for a masked
launch with H % 8 != 0 or S_q > 16384 (``tune_opt``). Launch: block 512,
grid (ceil(ceil(S_q / ts_qo) / tg), H, b) with tg = 2 when masked, else 1.
Kernel choice (codegen.py): gfx942 uses the ``MI300/`` folder (a 304-CU
device) and the bf16 conversion variant `bf16_cvt` (0 rtne, 1 rtna, 2 rtz),
ts_qo 256; gfx950 has one variant, ts_qo 256.

On aster's emulator the waves of a workgroup interleave instruction by
instruction (``aster.launch(interleave=1)``), as the hardware issues them:
the gfx950 causal kernel with two 256-row tiles per workgroup (S_q > 256)
has a write-after-read race on LDS that the hardware's load latency hides.
Starting its second tile, a wave loads Q straight to LDS (``buffer_load_
dwordx4 ... lds``, pc 0x3764-0x38f0 of ``fwd_hd128_bf16_causal.co``) over
the bytes that the other waves still read as the first tile's last V tile
(``ds_read_b64_tr_b16``, pc 0x743c-0x749c), with no ``s_barrier`` between
(the next one, pc 0x3b50, follows the loads' ``s_waitcnt vmcnt(2)``). On a
GPU the loads take hundreds of cycles and the reads, issued about when they
are, finish first; the emulator writes LDS when the load executes, so with
long turns a wave ahead overwrites V before the last waves (rows 192-255)
read it. Details: cc/emulator/README.md, Known limits.
"""
from __future__ import annotations

import math

import numpy as np

from .kernargs import launch, struct_layout

SOURCE = "aiter_meta/csrc/include/mha_fwd.h"
STRUCT = "fmha_fwd_v3_args"
ARCHS = ("gfx942", "gfx950")
TS_QO = 256                       # FmhaFwdV3Ts<...hd128...>::ts_qo, both archs
_CVT = {0: "rtne", 1: "rtna", 2: "rtz"}


def kernel(arch, causal, bf16_cvt=1, group=False):
    """(code object under hsa/<arch>, kernel symbol) as codegen.py names them;
    `group`: the group-mode (variable length) kernel."""
    mask = "_causal" if causal else ""
    grp = "_group" if group else ""
    if arch == "gfx942":
        if bf16_cvt not in _CVT:
            raise ValueError(f"bf16_cvt must be 0 (rtne), 1 (rtna) or 2 (rtz), got {bf16_cvt!r}")
        name = f"fmha_fwd_hd128_bf16{mask}_{_CVT[bf16_cvt]}{grp}"
        co = f"fmha_v3_fwd/MI300/fwd_hd128_bf16{mask}_{_CVT[bf16_cvt]}{grp}.co"
    elif arch == "gfx950":
        name = f"fmha_fwd_hd128_bf16{mask}{grp}"
        co = f"fmha_v3_fwd/fwd_hd128_bf16{mask}{grp}.co"
    else:
        raise ValueError(f"arch must be one of {ARCHS}, got {arch!r}")
    return co, f"_ZN5aiter{len(name)}{name}E"


def run(q, k, v, *, causal=False, softmax_scale=None, lse=False, bf16_cvt=1, arch="gfx942",
        timing=False, device="emu", slack=0, interleave=1, profile=None):
    """Returns ``(out, lse or None, launch_result)``. `interleave`: the
    emulator's wave turn length (1: instruction by instruction, see above);
    `profile`: the timing model's device profile (None: the arch's flagship)."""
    import ml_dtypes
    bf16 = np.dtype(ml_dtypes.bfloat16)
    for name, a in (("q", q), ("k", k), ("v", v)):
        if not isinstance(a, np.ndarray) or a.dtype != bf16 or a.ndim != 4 or a.shape[3] != 128:
            raise ValueError(f"{name} must be a bfloat16 [batch, seq, heads, 128] NumPy array "
                             "(the v3 kernels are bf16 with head size 128)")
    b, sq, h, d = q.shape
    sk, hk = k.shape[1], k.shape[2]
    if k.shape != (b, sk, hk, d) or v.shape != k.shape or h % hk:
        raise ValueError(f"k, v must be [{b}, S_k, H_k, {d}] with H_k dividing {h}")
    if causal and sq == 1:
        causal = False                 # the interface: causal == no mask for one query
    if softmax_scale is None:
        softmax_scale = 1.0 / math.sqrt(d)
    co, sym = kernel(arch, causal, bf16_cvt)
    q, k, v = (np.array(a, order="C") for a in (q, k, v))
    out = np.zeros((b, sq, h, d), bf16)
    lse_arr = np.zeros((b, h, sq), np.float32) if lse else None
    opt = 5 - (2 if causal and (h % 8 or sq > 16384) else 0)
    el = lambda a, i: a.strides[i] // a.itemsize        # noqa: E731 (element stride)
    packed = struct_layout(SOURCE, STRUCT).pack(
        ptr_o=out, ptr_q=q, ptr_k=k, ptr_v=v, ptr_lse=lse_arr,
        scalar=float(softmax_scale), s_seq_len=sq,
        s_Seqs=el(q, 1) * 2, s_Ts=TS_QO * el(q, 1) * 2, s_Hs=el(q, 2) * 2, s_Bs=el(q, 0) * 2,
        s_gqa=h // hk, s_k_Seqs=el(k, 1) * 2, s_k_Hs=el(k, 2) * 2, s_k_Bs=el(k, 0) * 2,
        s_opt=opt, s_lse=1 if lse else 0, s_kv_seq_len=sk, s_qk_head_dim=d, s_v_head_dim=d,
        s_q_head_num=h, s_v_Seqs=el(v, 1) * 2, s_v_Hs=el(v, 2) * 2, s_v_Bs=el(v, 0) * 2,
        s_o_Seqs=el(out, 1) * 2, s_o_Hs=el(out, 2) * 2, s_o_Bs=el(out, 0) * 2,
        s_lse_Hs=(sq * 4 if lse else 0))
    tg = 2 if causal else 1
    grid = (((sq + TS_QO - 1) // TS_QO + tg - 1) // tg, h, b)
    r = launch(arch, co, sym, grid, (512, 1, 1), packed, timing=timing, device=device,
               slack=slack, profile=profile,
               **({"interleave": interleave} if device == "emu" else {}))
    return out, lse_arr, r


def run_group(q, k, v, cu_seqlens_q, cu_seqlens_k, *, causal=False, softmax_scale=None,
              lse=False, bf16_cvt=1, arch="gfx942", timing=False, device="emu", slack=0,
              interleave=1, profile=None):
    """The group-mode (variable length) kernels, launched as aiter's
    asm_mha_varlen_fwd.cu and codegen.py's fmha_fwd_v3_group_dispatcher do:
    q [total_q, H, 128], k and v [total_k, H_k, 128] bf16, cu_seqlens_q/_k
    int32 [batch + 1] (the args' ptr_qseq / ptr_kseq, their padding pointers
    the same arrays); s_seq_len and s_kv_seq_len are total_q and total_k
    (the interface's seqlen_q / seqlen_k in group mode), LSE [H, total_q];
    grid (H, batch, ceil(ceil(total_q / ts_qo) / tg)), block 512. Returns
    ``(out [total_q, H, 128] bf16, lse or None, launch_result)``."""
    import ml_dtypes
    bf16 = np.dtype(ml_dtypes.bfloat16)
    for name, a in (("q", q), ("k", k), ("v", v)):
        if not isinstance(a, np.ndarray) or a.dtype != bf16 or a.ndim != 3 or a.shape[2] != 128:
            raise ValueError(f"{name} must be a bfloat16 [total, heads, 128] NumPy array")
    tq, h, d = q.shape
    tk, hk = k.shape[0], k.shape[1]
    if v.shape != k.shape or h % hk:
        raise ValueError(f"k, v must be [total_k, H_k, {d}] with H_k dividing {h}")
    cq = np.array(cu_seqlens_q, np.int32)
    ck = np.array(cu_seqlens_k, np.int32)
    b = cq.size - 1
    if cq.ndim != 1 or ck.shape != cq.shape or cq[-1] != tq or ck[-1] != tk:
        raise ValueError("cu_seqlens_q / _k must be [batch + 1] offsets ending at total_q / total_k")
    if causal and int(np.diff(cq).max()) == 1:
        causal = False                 # the interface: max_seqlen_q == 1 is no mask
    if softmax_scale is None:
        softmax_scale = 1.0 / math.sqrt(d)
    co, sym = kernel(arch, causal, bf16_cvt, group=True)
    q, k, v = (np.array(a, order="C") for a in (q, k, v))
    out = np.zeros((tq, h, d), bf16)
    lse_arr = np.zeros((h, tq), np.float32) if lse else None
    opt = 5 - (2 if causal and (h % 8 or tq > 16384) else 0)
    packed = struct_layout(SOURCE, STRUCT).pack(
        ptr_o=out, ptr_q=q, ptr_k=k, ptr_v=v, ptr_lse=lse_arr,
        scalar=float(softmax_scale), s_seq_len=tq,
        s_Seqs=h * d * 2, s_Ts=TS_QO * h * d * 2, s_Hs=d * 2, s_Bs=0,
        s_gqa=h // hk, s_k_Seqs=hk * d * 2, s_k_Hs=d * 2, s_k_Bs=0,
        s_opt=opt, s_lse=1 if lse else 0, s_kv_seq_len=tk, s_qk_head_dim=d, s_v_head_dim=d,
        s_q_head_num=h, s_v_Seqs=hk * d * 2, s_v_Hs=d * 2, s_v_Bs=0,
        s_o_Seqs=h * d * 2, s_o_Hs=d * 2, s_o_Bs=0, s_lse_Hs=(tq * 4 if lse else 0),
        ptr_qseq=cq, ptr_kseq=ck, ptr_qseq_padding=cq, ptr_kseq_padding=ck)
    tg = 2 if causal else 1
    grid = (h, b, ((tq + TS_QO - 1) // TS_QO + tg - 1) // tg)
    r = launch(arch, co, sym, grid, (512, 1, 1), packed, timing=timing, device=device,
               slack=slack, profile=profile,
               **({"interleave": interleave} if device == "emu" else {}))
    return out, lse_arr, r
