"""Instruction scheduling: a naive MFMA K-loop, as written and after
`amdgcn-schedule`.

Each step of the loop body loads A, loads B and multiplies (no s_waitcnt
written: amdgcn-waitcnt places them). As written, every MFMA waits for the
loads just before it; the scheduler issues the loads of the body ahead of
the MFMA chain (within the register limit), so the memory latency overlaps.

    python examples/schedule_demo.py          # loop bodies before/after, estimate, MaxLive
    python examples/schedule_demo.py --run    # also: simulated cycles of both (timing
                                              # model) and aster.check_equivalent
"""
import re
import sys

import numpy as np

import _path  # noqa: F401  (finds aster in a source checkout)
import aster
from aster import VGPR, s, v

REST = "amdgcn-regalloc,amdgcn-waitcnt,amdgcn-hazards"
ITERS, STEPS = 4, 8


def build(iters=ITERS, steps=STEPS):
    """D (16x16 f32 per wave, v_mfma_f32_16x16x16_f16 layout) = sum over
    iters * steps of A_s @ B_s; lane l's fragments of step s are at
    a[l][s][0:4], b[l][s][0:4] (f16)."""
    m = aster.Module("gfx942", name="kloop")
    f16 = aster.ptr(np.float16)
    k = m.kernel("kloop", args=[("a", f16), ("b", f16), ("d", aster.ptr(np.float32))],
                 block=(64, 1, 1))
    pa, pb, pd = k.load_arg("a"), k.load_arg("b"), k.load_arg("d")
    lane_bytes = iters * steps * 8
    off = k.v_lshlrev_b32(VGPR(), lane_bytes.bit_length() - 1, v[0])
    acc = k.concat(*[k.v_mov_b32(VGPR(), 0) for _ in range(4)])
    with k.loop(s[20], iters, carry=[acc, off]) as L:
        acc, o = L.carry
        for step in range(steps):               # naive: load A, load B, MFMA
            A = k.global_load_dwordx2(VGPR(2), o, pa, offset=8 * step)
            B = k.global_load_dwordx2(VGPR(2), o, pb, offset=8 * step)
            acc = k.v_mfma_f32_16x16x16_f16(VGPR(4), A, B, acc)
        L.next(acc, k.v_add_u32(VGPR(), 8 * steps, o))
    k.global_store_dwordx4(k.v_lshlrev_b32(VGPR(), 4, v[0]), L.results[0], pd)
    k.s_endpgm()
    return m


def args(rng, iters=ITERS, steps=STEPS):
    """Random small-integer fragments (exact in f32) and a zeroed D."""
    a = rng.integers(-3, 4, (64, iters * steps, 4)).astype(np.float16)
    b = rng.integers(-3, 4, (64, iters * steps, 4)).astype(np.float16)
    return [a, b, np.zeros((64, 4), np.float32)]


def loop_body(asm):
    body = asm.split("\nkloop:\n", 1)[1].split(".Lfunc_end", 1)[0]
    return body.split(".LBB0_1:\n", 1)[1].split("s_cbranch_scc1", 1)[0].rstrip()


def main():
    m = build()
    plain = aster.compile(m, REST)
    sched = aster.compile(m, "amdgcn-schedule," + REST)
    print(f"# loop body with {REST}:")
    print(loop_body(plain.asm))
    print(f"# loop body with amdgcn-schedule,{REST}:")
    print(loop_body(sched.asm))
    st = sched.metadata["kloop"].schedule
    print(f"# estimate: {st['cycles_before']} -> {st['cycles_after']} cycles; VGPR MaxLive "
          f"{st['vgpr_maxlive_before']} -> {st['vgpr_maxlive_after']}")
    waits = [len(re.findall("s_waitcnt", loop_body(c.asm))) for c in (plain, sched)]
    print(f"# waits in the loop body: {waits[0]} -> {waits[1]}")
    if "--run" in sys.argv[1:]:
        cycles = []
        for c in (plain, sched):
            cycles.append(aster.launch(c, "kloop", 1, 64, args(np.random.default_rng(0)),
                                       timing=True).cycles)
        n = aster.check_equivalent(plain, sched, "kloop", args, 3)
        print(f"# simulated cycles: {cycles[0]} -> {cycles[1]} "
              f"({cycles[0] / cycles[1]:.2f}x); equivalent in {n} random trials")


if __name__ == "__main__":
    main()
