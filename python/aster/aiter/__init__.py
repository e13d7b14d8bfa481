"""aster.aiter: AMD's hand-written asm kernels from the amd-aiter wheel, located,
loaded and launched the way aiter's own interface code launches them.

The wheel (amd-aiter==0.1.7.post2.dev18, pinned in the Makefile's deps; installed
with ``pip install --no-deps``: nothing of it is imported, only its files are read)
ships code objects under ``aiter_meta/hsa/<arch>/`` and the C++ interface code
that builds each kernel's packed arguments under ``aiter_meta/csrc/py_itfs_cu/``.
One module per kernel family launches that family, ``run(..., arch=, timing=,
device=, slack=)`` returning the outputs and the LaunchResult: ``layernorm``,
``topk_softmax``, ``pa`` (paged attention), ``fmha_fwd``, ``fmha_bwd``, ``mla``
(decode stage 1), ``fmoe`` (fused MoE: 1-stage ``run_g1u1``, 2-stage stage 1
``run_stage1``). ``kernargs`` reads the packed ``KernelArgs`` structs from the
wheel's C source; ``wheel`` finds the files.
"""
from .wheel import available, code_object, code_objects, hsa_dir, wheel_file

__all__ = ["available", "code_object", "code_objects", "hsa_dir", "wheel_file"]
