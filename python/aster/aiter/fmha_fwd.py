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


def kernel(arch, causal, bf16_cvt=1):
    """(code object under hsa/<arch>, kernel symbol) as codegen.py names them."""
    mask = "_causal" if causal else ""
    if arch == "gfx942":
        if bf16_cvt not in _CVT:
            raise ValueError(f"bf16_cvt must be 0 (rtne), 1 (rtna) or 2 (rtz), got {bf16_cvt!r}")
        name = f"fmha_fwd_hd128_bf16{mask}_{_CVT[bf16_cvt]}"
        co = f"fmha_v3_fwd/MI300/fwd_hd128_bf16{mask}_{_CVT[bf16_cvt]}.co"
    elif arch == "gfx950":
        name = f"fmha_fwd_hd128_bf16{mask}"
        co = f"fmha_v3_fwd/fwd_hd128_bf16{mask}.co"
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
