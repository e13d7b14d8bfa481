"""aster.ops: a GEMM kernel library generated from Python (aiter-style).

    import aster.ops
    C = aster.ops.gemm(A, B)                          # default library, heuristic dispatch
    C, r = aster.ops.gemm(A, B, trans_b=True, timing=True); r.cycles
    lib = aster.ops.build_library("gemmlib")          # *.co, configs.csv, kernel_args.h
    lib = aster.ops.Library("gemmlib")
    aster.ops.tune([(1024, 1024, 1024)], space, executor="ray", library="gemmlib")
    O = aster.ops.attention(q, k, v, causal=True)      # FlashAttention forward (ops/attention.py)
    O = aster.ops.attention_decode(q, k, v)            # split-KV decode (ops/attention_decode.py)
"""
from .library import (Entry, Library, REF_SHAPES, args_dtype, build_library,  # noqa: F401
                      calibrate, default_configs, kernel_args_header, simulate, utilisation)
from .dispatch import (Plan, cache_dir, choose, default_library, estimate,  # noqa: F401
                       estimate_us, gemm, plan)
from .tune import tune  # noqa: F401
from . import fill  # noqa: F401
from .attention import (attention, build_attention_library,  # noqa: F401
                        load_attention_library)
from .attention_decode import attention_decode, decode_plan  # noqa: F401

__all__ = ["gemm", "choose", "plan", "Plan", "estimate", "estimate_us", "calibrate",
           "build_library", "Library", "Entry",
           "default_configs", "default_library", "cache_dir", "args_dtype",
           "kernel_args_header", "simulate", "utilisation", "tune", "REF_SHAPES", "fill",
           "attention", "build_attention_library", "load_attention_library",
           "attention_decode", "decode_plan"]
