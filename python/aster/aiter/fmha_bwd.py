"""AMD's asm flash-attention backward, one configuration: ``fmha_v3_bwd/
bwd_hd128_bf16_a16_<cvt>.co`` (gfx942; bf16, head size 128, no mask, dQ written
in bf16, S_q == S_k a multiple of 64), launched as aiter's ``fmha_v3_bwd``
dispatcher does (``aiter_meta/csrc/py_itfs_cu/asm_mha_bwd.cu``,
``hsa/gfx942/fmha_v3_bwd/codegen.py``: ``fmha_bwd_v3_<dot_do_o, dq_dk_dv>``
fills the packed ``fmha_bwd_v3_args`` of ``csrc/include/mha_bwd.h``).

What it computes, with P = softmax(scale Q K^T) (from the forward's
log-sum-exp ``lse``) and ``D = rowsum(dO * O)``:
``dV = P^T dO``, ``dS = P * (dO V^T - D)``, ``dQ = scale dS K``,
``dK = scale dS^T Q``. aiter computes D with a CK kernel before the asm
kernel (``fmha_bwd_dot_do_o``, not an asm kernel): here NumPy computes it
the same way (float32, from the bf16 O and dO).

Layouts as the forward: q, k, v, out, dout [b, S, H, 128] bf16 (k, v with
H_k heads); lse and D [b, H, S] float32. ``Ts = ts_kv * stride_k * 2`` with
ts_kv = 192 (FmhaBwdV3Ts), byte strides = element strides * 2,
``log2e = log2(e)`` as a float. Launch: block 256, grid (ceil(S_k / 192), H, b).
dQ is accumulated by the kernel: it starts from zero.
"""
from __future__ import annotations

import math

import numpy as np

from .kernargs import launch, struct_layout

SOURCE = "aiter_meta/csrc/include/mha_bwd.h"
STRUCT = "fmha_bwd_v3_args"
ARCHS = ("gfx942",)
TS_KV = 192                 # FmhaBwdV3Ts<128, 128, Bf16, no mask, a16, ...>::ts_kv
_CVT = {0: "rtne", 1: "rtna", 2: "rtz"}


def kernel(bf16_cvt=1):
    if bf16_cvt not in _CVT:
        raise ValueError(f"bf16_cvt must be 0 (rtne), 1 (rtna) or 2 (rtz), got {bf16_cvt!r}")
    name = f"fmha_bwd_hd128_bf16_a16_{_CVT[bf16_cvt]}"
    return f"fmha_v3_bwd/bwd_hd128_bf16_a16_{_CVT[bf16_cvt]}.co", f"_ZN5aiter{len(name)}{name}E"


def run(q, k, v, out, dout, lse, *, softmax_scale=None, bf16_cvt=1, arch="gfx942",
        timing=False, device="emu", slack=0):
    """Returns ``(dq, dk, dv, launch_result)`` (bf16, shaped like q, k, v)."""
    import ml_dtypes
    bf16 = np.dtype(ml_dtypes.bfloat16)
    if arch not in ARCHS:
        raise ValueError(f"the a16 hd128 backward kernel is launched here for {ARCHS} only")
    for name, a in (("q", q), ("k", k), ("v", v), ("out", out), ("dout", dout)):
        if not isinstance(a, np.ndarray) or a.dtype != bf16 or a.ndim != 4 or a.shape[3] != 128:
            raise ValueError(f"{name} must be a bfloat16 [batch, seq, heads, 128] NumPy array")
    b, sq, h, d = q.shape
    sk, hk = k.shape[1], k.shape[2]
    if sq != sk or sk % 64 or v.shape != k.shape or out.shape != q.shape or \
            dout.shape != q.shape or h % hk:
        raise ValueError("this kernel needs S_q == S_k, a multiple of 64, and out/dout like q")
    if softmax_scale is None:
        softmax_scale = 1.0 / math.sqrt(d)
    q, k, v, out, dout = (np.array(a, order="C") for a in (q, k, v, out, dout))
    lse = np.array(lse, np.float32, order="C")
    dsum = np.einsum("bshd,bshd->bhs", dout.astype(np.float32), out.astype(np.float32),
                     dtype=np.float32)
    dq = np.zeros_like(q)
    dk = np.zeros_like(k)
    dv = np.zeros_like(v)
    el = lambda a, i: a.strides[i] // a.itemsize        # noqa: E731 (element stride)
    co, sym = kernel(bf16_cvt)
    packed = struct_layout(SOURCE, STRUCT).pack(
        ptr_dq=dq, ptr_dk=dk, ptr_dv=dv, ptr_q=q, ptr_k=k, ptr_v=v, ptr_do=dout,
        ptr_lse=lse, ptr_d=np.ascontiguousarray(dsum), scalar=float(softmax_scale),
        log2e=float(np.float32(math.log2(math.e))), seq_len=sq,
        Ts=TS_KV * el(k, 1) * 2, Hs=el(q, 2) * 2, BAs=el(q, 0) * 2, Seqs=el(q, 1) * 2,
        ratio=h // hk, Hs_kv=el(k, 2) * 2, BAs_kv=el(k, 0) * 2, Seqs_kv=el(k, 1) * 2,
        Seqs_dkv=el(dk, 1) * 2)
    grid = ((sk + TS_KV - 1) // TS_KV, h, b)
    r = launch(arch, co, sym, grid, (256, 1, 1), packed, timing=timing, device=device,
               slack=slack)
    return dq, dk, dv, r
