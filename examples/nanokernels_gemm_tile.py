"""A 32x32 tile of D = A @ B (f16 in, f32 out, K = 64) built only from
aster.nanokernels pieces, called like functions with registers chosen here:

  lds.global_to_lds    A (32 x 64) and B^T (32 x 64) from global memory (rows
                       `pitch` bytes apart) to LDS tiles with padded rows
  lds.lds_fragment     each k-step's A and B operands, in the MFMA layout
  mfma.mfma_32x32x8_f16  8 k-steps accumulating in AGPRs
  reduce.wave_sum_f32  the sum of the whole tile (each lane's 16 values
                       added, then summed over the wave with DPP)

aster.compile inlines the calls (amdgcn-inline), allocates the registers of
the whole kernel, places the waits and the hazard wait states.

    python examples/nanokernels_gemm_tile.py         # prints the assembly
    python examples/nanokernels_gemm_tile.py --run   # runs it on the emulator, vs NumPy
"""
import sys

import numpy as np

import _path  # noqa: F401  (finds aster in a source checkout)
import aster
from aster import VGPR, AGPR, v
from aster.nanokernels import lds, mfma, reduce

M = N = 32
K = 64
PAD = 2 * K + 16                 # LDS row: 128 bytes of f16 + 16 bytes padding
PIPELINE = "amdgcn-regalloc,amdgcn-waitcnt,amdgcn-hazards"


def build(target="gfx942"):
    m = aster.Module(target, name="nanokernels_gemm_tile")
    u32 = aster.ptr(np.uint32)
    k = m.kernel("tile_gemm", args=[("a", u32), ("bt", u32), ("pitch", np.uint32),
                                    ("d", aster.ptr(np.float32)),
                                    ("total", aster.ptr(np.float32))],
                 block=64, lds=2 * M * PAD)
    pa, pbt, pitch, pd, ptotal = (k.load_arg(x) for x in ("a", "bt", "pitch", "d", "total"))
    lane = v[0]                                   # one wave: v0 is the lane
    base_a = k.v_mov_b32(VGPR(), 0)
    base_b = k.v_mov_b32(VGPR(), M * PAD)
    copy = lds.global_to_lds(M, 2 * K, PAD)
    k.call(copy, pa, pitch, lane, base_a)
    k.call(copy, pbt, pitch, lane, base_b)
    acc = k.concat(*[k.v_accvgpr_write_b32(AGPR(), 0) for _ in range(16)])
    for step in range(K // 8):
        frag = lds.lds_fragment(32, PAD, offset=16 * step)     # 8 f16 further per step
        (fa,) = k.call(frag, lane, base_a)
        (fb,) = k.call(frag, lane, base_b)
        (acc,) = k.call(mfma.mfma_32x32x8_f16, fa, fb, acc)
    # D: 16 floats per lane, lane-major (the MFMA's result layout).
    vals = [k.v_accvgpr_read_b32(VGPR(), acc[r]) for r in range(16)]
    off = k.v_lshlrev_b32(VGPR(), 6, lane)
    for q in range(0, 16, 4):
        k.global_store_dwordx4(off, k.concat(*vals[q:q + 4]), pd, offset=4 * q)
    part = vals[0]
    for x in vals[1:]:
        part = k.v_add_f32(VGPR(), x, part)
    (total,) = k.call(reduce.wave_sum_f32, part)
    k.global_store_dword(k.v_lshlrev_b32(VGPR(), 2, lane), total, ptotal)
    k.s_endpgm()
    return m


def unpack_d(d_lanes):
    """D[i][j] from the lanes (v_mfma_f32_32x32x8_f16's result layout, AMD's
    matrix instruction calculator): register r of lane l holds
    D[8 (r // 4) + 4 (l // 32) + r % 4][l % 32]."""
    lane, r = np.divmod(np.arange(64 * 16), 16)
    D = np.zeros((M, N), np.float32)
    D[8 * (r // 4) + 4 * (lane // 32) + r % 4, lane % 32] = d_lanes.reshape(-1)
    return D


def run_on_emulator():
    rng = np.random.default_rng(0)
    cols = K + 32                                  # the matrices are wider than the tile
    A = (rng.integers(-4, 5, (M, cols)) / 4).astype(np.float16)
    BT = (rng.integers(-4, 5, (N, cols)) / 4).astype(np.float16)
    d = np.full((64, 16), np.nan, np.float32)
    total = np.zeros(64, np.float32)
    out = aster.compile(build(), PIPELINE)
    r = aster.launch(out, "tile_gemm", grid=1, block=64,
                     args=[A.view(np.uint32).reshape(-1), BT.view(np.uint32).reshape(-1),
                           2 * cols, d, total])
    want = A[:, :K].astype(np.float32) @ BT[:, :K].astype(np.float32).T
    np.testing.assert_array_equal(unpack_d(d), want)
    np.testing.assert_array_equal(total, np.float32(want.sum()))
    ra = out.metadata["tile_gemm"].regalloc
    print(f"# ran on the emulator: D matches NumPy (A @ B, 32x32, K={K}) and the wave sum "
          f"{total[0]} matches; {r.mfma} MFMA, {r.wave_instructions} wave-instructions; "
          f"registers: {ra['vgpr']} VGPRs, {ra['agpr']} AGPRs")


if __name__ == "__main__":
    out = aster.compile(build(), PIPELINE)
    print(out.asm, end="")
    if "--run" in sys.argv[1:]:
        run_on_emulator()
