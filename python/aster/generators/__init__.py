"""Kernels generated from Python metaprograms (aster's builder + passes).

    from aster.generators import gemm
    cfg = gemm.GemmConfig(dtype="f16", tile_m=128, tile_n=128, tile_k=32)
    compiled = gemm.compile_config(cfg)       # aster.Compiled, one kernel
"""
