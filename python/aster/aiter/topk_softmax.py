"""AMD's asm top-k softmax for MoE routing (``topksoftmax/topksoftmax_<SUBM>x<E>x<K>.co``,
gfx942 only), launched as aiter's ``topk_softmax_asm`` does
(``aiter_meta/csrc/py_itfs_cu/asm_topksoftmax.cu``).

What it computes: per token, ``p = softmax(gating_row)`` over the E experts,
the K largest ``p`` with their expert indices, divided by their sum when
``renormalize``. Configurations the interface has: (E, K) in (128, 6),
(128, 8), (256, 6), (256, 8); SUBM = 4 rows per workgroup below 10000 tokens,
else 12; grid ``ceil(tokens / SUBM)``, block 256. Outputs are allocated with
the row count rounded up to SUBM, as aiter's ``fused_topk`` rounds them up
(the kernel writes whole SUBM-row tiles); `run` returns the first `tokens`
rows. ``out_stride`` is the weights' row stride in bytes (stride(0) * 4).
"""
from __future__ import annotations

import numpy as np

from .kernargs import launch, struct_layout

SOURCE = "aiter_meta/csrc/py_itfs_cu/asm_topksoftmax.cu"
ARCHS = ("gfx942",)
CONFIGS = ((128, 6), (128, 8), (256, 6), (256, 8))   # (experts, topk), asm_topksoftmax.cu


def config(tokens, experts, topk):
    """(code object, kernel symbol, SUBM) the interface picks."""
    if (experts, topk) not in CONFIGS:
        raise ValueError(f"the asm kernels support (experts, topk) in {CONFIGS}, got "
                         f"({experts}, {topk})")
    subm = 4 if tokens < 10000 else 12
    name = f"topksoftmax_{subm}x{experts}x{topk}"
    return f"topksoftmax/{name}.co", f"_ZN5aiter{len(name)}{name}E", subm


def run(gating, topk, renormalize=False, *, arch="gfx942", timing=False, device="emu", slack=0):
    """gating: [tokens, experts] float32. Returns ``(weights [tokens, topk]
    float32, indices [tokens, topk] int32, launch_result)``."""
    if arch not in ARCHS:
        raise ValueError(f"the wheel ships the topksoftmax kernels for {', '.join(ARCHS)} only")
    if not isinstance(gating, np.ndarray) or gating.dtype != np.float32 or gating.ndim != 2:
        raise ValueError("gating must be a [tokens, experts] float32 NumPy array")
    tokens, experts = gating.shape
    co, kernel, subm = config(tokens, experts, topk)
    rows = (tokens + subm - 1) // subm * subm
    weights = np.zeros((rows, topk), np.float32)
    indices = np.zeros((rows, topk), np.int32)
    packed = struct_layout(SOURCE).pack(
        ptr_T=indices, ptr_W=weights, ptr_A=np.array(gating, order="C"), batch=tokens,
        expert=experts, topk=topk, renormalize=1 if renormalize else 0,
        out_stride=weights.strides[0])
    r = launch(arch, co, kernel, ((tokens + subm - 1) // subm, 1, 1), (256, 1, 1), packed,
               timing=timing, device=device, slack=slack)
    return weights[:tokens], indices[:tokens], r
