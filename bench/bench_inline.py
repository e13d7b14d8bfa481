"""Inlining speed: µs per inlined instruction of `amdgcn-inline`, and the
end-to-end cost of writing a kernel as calls of a function instead of flat.

    python bench/bench_inline.py [--reps 3] [--calls 100,1000,10000]

The function is an MFMA tile step plus address arithmetic (16 instructions:
8 VALU on virtual VGPRs, a pinned SGPR read, ds_read_b64 x2, an MFMA into an
AGPR x4 accumulator) called `calls` times, each call on the previous call's
accumulator. `inline` times the pass alone (`aster.run_pipeline(m,
"amdgcn-inline", verify=False)` on a freshly built module); `calls` and
`flat` time `aster.compile(m, "amdgcn-regalloc,amdgcn-waitcnt,
amdgcn-hazards")` from an empty module (Python build included) for the
kernel written with calls and for the same instructions written inline in
the kernel; the minimum over repetitions.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import _path  # noqa: E402,F401  (finds aster in a source checkout)
import aster  # noqa: E402
from aster import AGPR, VGPR, s, v  # noqa: E402

PIPE = "amdgcn-regalloc,amdgcn-waitcnt,amdgcn-hazards"
BODY = 16


def body(b, lane, acc):
    """The step's 16 instructions on builder b (a kernel or a function)."""
    r = b.v_and_b32(VGPR(), 15, lane)
    g = b.v_lshrrev_b32(VGPR(), 4, lane)
    g8 = b.v_lshlrev_b32(VGPR(), 3, g)
    rb = b.v_mul_u32_u24(VGPR(), 80, r)
    o = b.v_add_u32(VGPR(), rb, g8)
    oa = b.v_add_u32(VGPR(), s[8], o)
    ob = b.v_add_u32(VGPR(), 1280, o)
    fa = b.ds_read_b64(VGPR(2), oa)
    fb = b.ds_read_b64(VGPR(2), ob, offset=32)
    x = b.v_xor_b32(VGPR(), r, g)
    y = b.v_or_b32(VGPR(), x, g8)
    z = b.v_add_u32(VGPR(), y, 1)
    w = b.v_and_b32(VGPR(), z, 7)
    b.v_cmp_eq_u32(aster.vcc, w, 3)
    b.s_nop(0)
    return b.v_mfma_f32_16x16x16_f16(AGPR(4), fa, fb, acc)


def build(calls, use_calls):
    m = aster.Module("gfx942")
    if use_calls:
        f = m.function("step", params=[VGPR(), AGPR(4)], results=[AGPR(4)])
        f.ret(body(f, *f.params))
    k = m.kernel("k", block=64, lds=4096)
    k.s_mov_b32(s[8], 0)
    acc = k.concat(*[k.v_accvgpr_write_b32(AGPR(), 0) for _ in range(4)])
    for _ in range(calls):
        acc = k.call(f, v[0], acc)[0] if use_calls else body(k, v[0], acc)
    k.v_accvgpr_read_b32(v[1], acc[0])
    k.s_endpgm()
    return m


def best(fn, reps):
    t = None
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        dt = time.perf_counter() - t0
        t = dt if t is None else min(t, dt)
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--calls", default="100,1000,10000")
    a = ap.parse_args()
    print(f"{'calls':>7} {'insts':>8} {'inline us/inst':>15} {'compile calls':>14} "
          f"{'compile flat':>13} {'ratio':>6}")
    for n in map(int, a.calls.split(",")):
        def inline_only():
            m = build(n, True)
            m.verify()
            t0 = time.perf_counter()
            aster.run_pipeline(m, "amdgcn-inline", verify=False)
            return time.perf_counter() - t0
        t_inline = min(inline_only() for _ in range(a.reps))
        t_calls = best(lambda: aster.compile(build(n, True), PIPE), a.reps)
        t_flat = best(lambda: aster.compile(build(n, False), PIPE), a.reps)
        insts = n * BODY
        print(f"{n:>7} {insts:>8} {1e6 * t_inline / insts:>15.3f} "
              f"{1e6 * t_calls / insts:>11.2f} us {1e6 * t_flat / insts:>10.2f} us "
              f"{t_calls / t_flat:>6.2f}")


if __name__ == "__main__":
    main()
