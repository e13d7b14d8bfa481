"""Ops of the audited dialects and the reasons some are out of scope.

Part of the coverage audit (aster.lowering.coverage: see its __init__)."""


DIALECTS = ("gpu", "arith", "math", "scf", "cf", "memref", "vector", "amdgpu")

# ---------------------------------------------------------------------------
# Ops out of scope of item 2, with the reason (the audit expects an error).
# ---------------------------------------------------------------------------
_HOST = "host side of a GPU program (runs on the CPU, not in a kernel)"
_SPARSE = "sparse-library calls of the host (cuSPARSE-style), not kernel code"
_STRUCT = "structural (a terminator or region holder; probed through its parent op)"
_NV = "NVIDIA's WMMA fragment ops (lowered to NVVM / SPIR-V only); AMD's path is amdgpu.mfma"
_SCALABLE = "scalable vectors (Arm SVE / RISC-V V); AMD GPUs have none"
_GFX12 = "gfx11 / gfx12 / gfx1250 instructions (WMMA, tensor DMA); not gfx942 / gfx950"
_CLUSTER = ("thread-block clusters (NVIDIA sm_90+); gfx942 / gfx950 have none and LLVM 22's "
            "convert-gpu-to-rocdl does not lower the cluster ops (failed to legalize)")
OUT_OF_SCOPE = {
    **{f"gpu.{n}": _HOST for n in (
        "alloc", "dealloc", "memcpy", "memset", "wait", "host_register", "host_unregister",
        "launch", "launch_func", "set_default_device", "binary")},
    **{f"gpu.{n}": _SPARSE for n in (
        "create_2to4_spmat", "create_bsr", "create_coo", "create_coo_aos", "create_csc",
        "create_csr", "create_dn_tensor", "destroy_dn_tensor", "destroy_sp_mat", "sddmm",
        "sddmm_buffer_size", "set_csr_pointers", "spgemm_copy", "spgemm_create_descr",
        "spgemm_destroy_descr", "spgemm_work_estimation_or_compute", "spmat_get_size", "spmm",
        "spmm_buffer_size", "spmv", "spmv_buffer_size")},
    **{f"gpu.{n}": _NV for n in (
        "subgroup_mma_compute", "subgroup_mma_constant_matrix", "subgroup_mma_elementwise",
        "subgroup_mma_extract_thread_local", "subgroup_mma_insert_thread_local",
        "subgroup_mma_load_matrix", "subgroup_mma_store_matrix")},
    **{f"gpu.{n}": _STRUCT for n in ("module", "func", "return", "terminator", "yield")},
    **{f"gpu.{n}": _CLUSTER for n in (
        "cluster_id", "cluster_dim", "cluster_block_id", "cluster_dim_blocks")},
    "gpu.printf": "device printf needs the host's printf buffer (hostcall); no such runtime here",
    "gpu.warp_execute_on_lane_0": "vector distribution's staging op: upstream's "
                                  "vector-warp-distribute rewrites it before any backend",
    "scf.condition": _STRUCT, "scf.yield": _STRUCT, "scf.reduce.return": _STRUCT,
    "scf.forall.in_parallel": "tensor-only terminator of scf.forall (bufferize first)",
    "cf.assert": "aborts the program with a message: needs the host's hostcall runtime",
    "memref.alloc": "heap allocation in a kernel (malloc): GPU kernels allocate in LDS / scratch",
    "memref.dealloc": "heap deallocation (see memref.alloc)",
    "memref.realloc": "heap reallocation (see memref.alloc)",
    "memref.dma_start": "a DMA engine's ops (no upstream GPU lowering)",
    "memref.dma_wait": "a DMA engine's ops (no upstream GPU lowering)",
    "memref.alloca_scope.return": _STRUCT, "memref.atomic_yield": _STRUCT,
    "vector.print": "printing from a kernel needs the host's printf runtime",
    "vector.yield": _STRUCT,
    "vector.scalable.extract": _SCALABLE, "vector.scalable.insert": _SCALABLE,
    "vector.vscale": _SCALABLE,
    **{f"amdgpu.{n}": _GFX12 for n in (
        "wmma", "tensor_load_to_lds", "tensor_store_from_lds", "make_dma_base",
        "make_dma_descriptor", "make_gather_dma_base", "make_gather_dma_descriptor",
        "scaled_wmma")},
    "amdgpu.scaled_ext_packed_matrix": "gfx1250's v_cvt_scale_pk8/pk16 (a matrix of packed narrow "
                                       "floats per lane); gfx950's scaled conversions are "
                                       "amdgpu.scaled_ext_packed",
}
