"""10 independent v_mfma_f32_16x16x16_f16: each multiplies the same A (v[0:2])
and B (v[2:4]) f16 fragments into its own accumulator a[4i:4i+4]. Nothing
reads their results and no pass runs, and all 10 are kept.

    python examples/mfma_10.py         # prints the assembly
    python examples/mfma_10.py --run   # also runs a variant that loads A and B,
                                       # zeroes the accumulators and stores all
                                       # 10 results, on aster's emulator, vs NumPy
    python examples/mfma_10.py --timeline mfma_10.png [--perfetto mfma_10.json]
        # runs 8 waves of the kernel on one CU with the timing model and draws
        # the timeline: each wave's MFMAs issue 16 cycles apart, and the two
        # waves of each SIMD take turns on its matrix core
"""
import sys

import numpy as np

import _path  # noqa: F401  (finds aster in a source checkout)
import aster
from aster import a, s, v


def build(target="gfx942", store=False, waves=1):
    """The kernel; `store=True` adds loads of A and B (4 halves per lane from
    pointers a and b), zeroed accumulators, and stores of the 10 results
    (4 floats per lane each, to d[i][lane][0:4]). `waves`: waves per
    workgroup (64 work-items each)."""
    m = aster.Module(target, name="mfma_10")
    args = ([("a", aster.ptr(np.float16)), ("b", aster.ptr(np.float16)),
             ("d", aster.ptr(np.float32))] if store else [])
    k = m.kernel("mfma_10", args=args, block=(64 * waves, 1, 1))
    A, B = v[0:2], v[2:4]                      # 4 f16 each per lane
    if store:
        for name, base in (("a", s[4:6]), ("b", s[6:8]), ("d", s[8:10])):
            k.load_arg(name, base)
        k.v_lshlrev_b32(v[8], 3, v[0])          # lane * 8 bytes (v0 is the lane id)
        k.s_waitcnt(lgkmcnt=0)
        k.global_load_dwordx2(A, v[8], s[4:6])  # overwrites v0 (the id) last
        k.global_load_dwordx2(B, v[8], s[6:8])
        for r in range(40):
            k.v_accvgpr_write_b32(a[r], 0)
        k.s_waitcnt(vmcnt=0)
    for i in range(10):
        acc = a[4 * i:4 * i + 4]                # 4 f32 per lane: a[4i..4i+3]
        k.v_mfma_f32_16x16x16_f16(acc, A, B, acc)
    if store:
        k.s_nop(imm=7)                          # MFMA results -> VALU reads
        k.s_nop(imm=7)
        k.v_lshlrev_b32(v[8], 1, v[8])          # lane * 16 bytes
        for i in range(10):
            for j in range(4):
                k.v_accvgpr_read_b32(v[4 + j], a[4 * i + j])
            k.global_store_dwordx4(v[8], v[4:8], s[8:10])
            k.v_add_u32(v[8], 64 * 16, v[8])    # the next result's 64 lanes
    k.s_endpgm()
    return m


def reference(a_lanes, b_lanes):
    """D = A @ B in the lane layouts of v_mfma_f32_16x16x16_f16 (AMD's matrix
    instruction calculator): lane l holds A[l % 16][4 (l // 16) + j],
    B[4 (l // 16) + j][l % 16] and D[4 (l // 16) + j][l % 16], j = 0..3."""
    lane, j = np.divmod(np.arange(64 * 4), 4)
    row, grp = lane % 16, lane // 16
    A = np.zeros((16, 16), np.float32)
    B = np.zeros((16, 16), np.float32)
    A[row, 4 * grp + j] = a_lanes.reshape(-1)
    B[4 * grp + j, row] = b_lanes.reshape(-1)
    D = A @ B
    return D[4 * grp + j, row].reshape(64, 4)


def run_on_emulator():
    rng = np.random.default_rng(0)
    a_lanes = rng.integers(-4, 5, (64, 4)).astype(np.float16)   # exact in f32 sums
    b_lanes = rng.integers(-4, 5, (64, 4)).astype(np.float16)
    d = np.full((10, 64, 4), np.nan, np.float32)
    r = aster.launch(build(store=True), "mfma_10", grid=1, block=64, args=[a_lanes, b_lanes, d],
                     timing=True)
    want = reference(a_lanes, b_lanes)
    for i in range(10):
        np.testing.assert_array_equal(d[i], want)
    print(f"# ran on the emulator: {r.mfma} MFMA, {r.wave_instructions} wave-instructions; "
          f"each of the 10 results matches NumPy; timing model: {r.cycles} cycles")


def timeline(png, perfetto=None, waves=8):
    """The timing model's view of `waves` waves of the kernel on one CU (its
    registers are never written: uninitialized reads are allowed here)."""
    r = aster.launch(build(waves=waves), "mfma_10", grid=1, block=64 * waves,
                     uninitialized="ignore", timing=True)
    r.trace.plot(png, title=f"mfma_10: {waves} waves x 10 independent "
                            f"v_mfma_f32_16x16x16_f16 on one CU, {r.cycles} cycles")
    if perfetto:
        r.trace.save_perfetto(perfetto)
    gaps = sorted({int(d) for w in range(waves) for d in np.diff(r.trace.issues("v_mfma", w))})
    print(f"# timing model: {r.cycles} cycles; MFMA issue intervals within a wave: {gaps}; "
          f"timeline written to {png}")
    return r


if __name__ == "__main__":
    argv = sys.argv[1:]
    print(aster.compile(build()).asm, end="")
    if "--run" in argv:
        run_on_emulator()
    if "--timeline" in argv:
        timeline(argv[argv.index("--timeline") + 1],
                 argv[argv.index("--perfetto") + 1] if "--perfetto" in argv else None)
