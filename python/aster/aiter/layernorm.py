"""AMD's asm layernorm with residual add (``layer_norm.co``, gfx942 only),
launched as aiter's ``layernorm2d_with_add_asm`` does
(``aiter_meta/csrc/py_itfs_cu/asm_layernorm.cu``).

What it computes (aiter's op ``layernorm2d_with_add``): ``s = x + residual``
(stored to ``residual_out``), then each row of ``s`` normalised over its N
columns, ``(s - mean) / sqrt(var + epsilon) * weight + bias`` into ``out``.
Preconditions the interface checks, checked here as ValueErrors: bf16 inputs,
N == 8192, M even. Launch: grid ``(M + 1) // 2`` (two rows per workgroup,
``sub_M``), block 256 (four waves).
"""
from __future__ import annotations

import numpy as np

from .kernargs import launch, struct_layout

SOURCE = "aiter_meta/csrc/py_itfs_cu/asm_layernorm.cu"
CODE_OBJECT = "layer_norm.co"
KERNEL = "layer_norm_kernel_func"
ARCHS = ("gfx942",)
SUB_M = 2       # rows per workgroup (asm_layernorm.cu: sub_M)


def _bf16():
    import ml_dtypes
    return np.dtype(ml_dtypes.bfloat16)


def run(x, residual, weight, bias, epsilon=1e-5, *, arch="gfx942", timing=False,
        device="emu", slack=0):
    """x, residual: [M, 8192] bf16; weight, bias: [8192] bf16. Returns
    ``(out, residual_out, launch_result)``."""
    if arch not in ARCHS:
        raise ValueError(f"the wheel ships {CODE_OBJECT} for {', '.join(ARCHS)} only, not {arch}")
    bf16 = _bf16()
    for name, a in (("x", x), ("residual", residual), ("weight", weight), ("bias", bias)):
        if not isinstance(a, np.ndarray) or a.dtype != bf16:
            raise ValueError(f"{name} must be a bfloat16 NumPy array (the kernel supports bf16 only)")
    if x.ndim != 2 or residual.shape != x.shape:
        raise ValueError(f"x and residual must be [M, N] of one shape, got {x.shape}, {residual.shape}")
    m, n = x.shape
    if n != 8192 or m % 2:
        raise ValueError(f"the kernel supports N == 8192 and even M only, got M={m}, N={n}")
    if weight.shape != (n,) or bias.shape != (n,):
        raise ValueError(f"weight and bias must be [{n}]")
    out = np.zeros_like(x)
    res_out = np.zeros_like(x)
    packed = struct_layout(SOURCE).pack(
        ptr_O=out, ptr_In=np.array(x, order="C"), ptr_Weight=np.array(weight),
        ptr_Bias=np.array(bias), epsilon=float(epsilon), M=m, N=n,
        ptr_OutResidual=res_out, ptr_InResidual=np.array(residual))
    r = launch(arch, CODE_OBJECT, KERNEL, ((m + SUB_M - 1) // SUB_M, 1, 1), (256, 1, 1), packed,
               timing=timing, device=device, slack=slack)
    return out, res_out, r
