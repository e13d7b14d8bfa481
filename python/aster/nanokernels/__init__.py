"""aster's library of register-level functions: small hand-written pieces a
kernel calls with registers chosen per call site (`k.call(piece, *args)`;
each piece is an `@aster.function`, added to the kernel's module on its
first call and inlined by amdgcn-inline, which aster.compile runs).

    from aster.nanokernels import mfma, lds, reduce
    (acc,) = k.call(mfma.mfma_16x16x16_f16, a_frag, b_frag, acc)

Pieces (registers in -> out; layouts in each module's documentation):

  mfma.mfma_16x16x16_f16 / mfma_16x16x16_bf16   (VGPR x2, VGPR x2, AGPR x4) -> AGPR x4
  mfma.mfma_32x32x8_f16 / mfma_32x32x8_bf16     (VGPR x2, VGPR x2, AGPR x16) -> AGPR x16
  mfma.mfma_step(shape, acc="vgpr")             the same with VGPR accumulators
  mfma.store_result(shape, acc="agpr")          (D, SGPR x2 ptr, SGPR pitch, VGPR lane) -> ()
  lds.global_to_lds(rows, row_bytes, lds_row_bytes)
                                                (SGPR x2 ptr, SGPR stride, VGPR lane,
                                                 VGPR lds base) -> ()
  lds.fragment_offset(rows, row_bytes)          (VGPR lane) -> VGPR byte offset
  lds.lds_fragment(rows, row_bytes, offset)     (VGPR lane, VGPR lds base) -> VGPR x2
  reduce.wave_sum_f32 / wave_sum_u32            (VGPR) -> VGPR (the sum in every lane)
  tiles.raw_buffer / advance_buffer             (SGPR x2 ptr, SGPR bytes) -> SGPR x4 resource;
                                                (SGPR x4, SGPR step) -> SGPR x4
  tiles.buffer_loads(loads)                     (SGPR x4, VGPR offsets) -> VGPR x2 / x4 each
  tiles.write_kmajor(offsets)                   (VGPR x4 chunks, 4 VGPR K mask, VGPR addr) -> ()
  tiles.write_transposed(groups, row_bytes, group_bytes, offset)
                                                (VGPR x2 x 4 groups, VGPR addr) -> ()
  tiles.read_fragments(offsets)                 (VGPR addr) -> VGPR x2 each
  tiles.mask_fragments(n)                       (VGPR x2 x n, 2 VGPR K mask) -> VGPR x2 x n
  tiles.store_offset(mt)                        (VGPR lane, SGPR row0, col0, ncols, pitch) -> VGPR
  tiles.store_result_buffer(mt, acc="agpr")     (D, SGPR x4, SGPR pitch, VGPR off) -> ()

What a kernel using them compiles with: "amdgcn-regalloc,amdgcn-waitcnt,
amdgcn-hazards" (the pieces write no s_waitcnt or s_nop of their own: the
passes place exactly the waits and wait states the calls need, across the
call boundaries). All pieces are for gfx942 and gfx950 and need all 64
lanes active. Checked on the emulator against NumPy (tests/py/test_nanokernels.py,
tests/py/test_nanokernels_tiles.py). aster.generators.gemm builds its kernels from
`tiles`, `lds.fragment_offset` and `mfma.mfma_step`.
"""
from . import lds, mfma, reduce, tiles  # noqa: F401

__all__ = ["lds", "mfma", "reduce", "tiles"]
