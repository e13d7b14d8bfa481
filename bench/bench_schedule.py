"""Instruction scheduling: the speed of `amdgcn-schedule` and what it gains.

    python bench/bench_schedule.py [--reps 3] [--ns 1000,10000,100000]

1. µs per instruction of the pass alone (`aster.run_pipeline(m,
   "amdgcn-schedule", verify=False)` on a freshly built, verified module;
   CPU time of the process, and wall-clock, each the minimum over
   repetitions: on a shared machine the wall-clock includes waiting for a
   core) at N instructions in one block (one region:
   the scheduler's worst case), virtual registers, no waits written:
     mfma_chain  steps of (load A, load B, MFMA) on one accumulator chain
     mix         groups of 2 global loads, 2 LDS reads, 1 LDS write, 8 VALU
                 (a transcendental among them) and 1 store
2. Simulated cycles (`aster.launch(..., timing=True).cycles`, the timing
   model) of three kernels compiled with amdgcn-regalloc,amdgcn-waitcnt,
   amdgcn-hazards, without and with amdgcn-schedule first; both versions
   must compute the same (aster.check_equivalent) and the scheduled one may
   not be slower (the script exits with status 1 otherwise):
     kloop          a K-loop (real loop, 8 unrolled steps of load A, load B,
                    MFMA per iteration), as written naively
                    (examples/schedule_demo.py)
     lds_reduction  8 values per lane through LDS, then each lane adds 16
                    of them (its own and its neighbours'), each read right
                    before its add
     vector_math    8 independent elements per lane: load, exp, fma chain,
                    sqrt, one element after the other, then the 8 stores
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import _path  # noqa: E402,F401  (finds aster in a source checkout)
import aster  # noqa: E402
import schedule_demo  # noqa: E402  (the naive MFMA K-loop)
from aster import VGPR, s, v  # noqa: E402

REST = "amdgcn-regalloc,amdgcn-waitcnt,amdgcn-hazards"


# ---- 1. pass speed ---------------------------------------------------------

def _speed_kernel(n, body):
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(64, 1, 1), lds=64 * 1024)
    p = s[4:6]
    count = 0
    i = 0
    while count < n:
        count += body(k, p, i)
        i += 1
    k.s_endpgm()
    return m


def _mfma_step(k, p, i, state={}):
    acc = state.get(id(k))
    if acc is None:
        acc = state[id(k)] = k.concat(*[k.v_mov_b32(VGPR(), 0) for _ in range(4)])
    A = k.global_load_dwordx2(VGPR(2), v[1], p, offset=8 * (i % 256))
    B = k.global_load_dwordx2(VGPR(2), v[2], p, offset=8 * (i % 256))
    state[id(k)] = k.v_mfma_f32_16x16x16_f16(VGPR(4), A, B, acc)
    return 3


def _mix_group(k, p, i):
    x = k.global_load_dword(VGPR(), v[1], p, offset=4 * (i % 512))
    y = k.global_load_dword(VGPR(), v[2], p, offset=4 * (i % 512))
    a = k.ds_read_b32(VGPR(), v[3], offset=4 * (i % 1024))
    b = k.ds_read_b32(VGPR(), v[3], offset=4 * ((i + 7) % 1024))
    t = k.v_add_f32(VGPR(), x, y)
    t = k.v_exp_f32(VGPR(), t)
    t = k.v_fma_f32(VGPR(), t, a, b)
    u = k.v_mul_f32(VGPR(), a, b)
    u = k.v_add_f32(VGPR(), u, x)
    t = k.v_max_f32(VGPR(), t, u)
    t = k.v_min_f32(VGPR(), t, y)
    t = k.v_add_f32(VGPR(), t, 1.0)
    k.ds_write_b32(v[3], u, offset=4 * ((i + 3) % 1024))
    k.global_store_dword(v[1], t, p, offset=4 * (i % 512))
    return 14


SPEED = {"mfma_chain": lambda n: _speed_kernel(n, _mfma_step),
         "mix": lambda n: _speed_kernel(n, _mix_group)}


def pass_time(name, n, reps):
    """(CPU seconds, wall seconds) of the pass, the minimum of each."""
    cpu = wall = None
    for _ in range(reps):
        m = None
        m = SPEED[name](n)
        m.verify()
        c, t = time.process_time(), time.perf_counter()
        aster.run_pipeline(m, "amdgcn-schedule", verify=False)
        dc, dt = time.process_time() - c, time.perf_counter() - t
        cpu = dc if cpu is None else min(cpu, dc)
        wall = dt if wall is None else min(wall, dt)
    return cpu, wall


# ---- 2. cycles before / after ----------------------------------------------

def lds_reduction():
    m = aster.Module("gfx942", name="lds_reduction")
    u32 = aster.ptr(np.uint32)
    k = m.kernel("lds_reduction", args=[("x", u32), ("y", u32)], block=(64, 1, 1),
                 lds=64 * 4 * 8)
    px, py = k.load_arg("x"), k.load_arg("y")
    off = k.v_lshlrev_b32(VGPR(), 2, v[0])
    for j in range(8):
        x = k.global_load_dword(VGPR(), off, px, offset=256 * j)
        k.ds_write_b32(off, x, offset=256 * j)
    k.s_barrier()
    acc = k.v_mov_b32(VGPR(), 0)
    for j in range(16):                     # 16 neighbours: read, add, read, add, ...
        x = k.ds_read_b32(VGPR(), off, offset=64 * j)
        acc = k.v_add_u32(VGPR(), acc, x)
    k.global_store_dword(off, acc, py)
    k.s_endpgm()
    return m


def lds_reduction_args(rng):
    return [rng.integers(0, 2**32, 512, dtype=np.uint32), np.zeros(64, np.uint32)]


def vector_math():
    m = aster.Module("gfx942", name="vector_math")
    f32 = aster.ptr(np.float32)
    k = m.kernel("vector_math", args=[("x", f32), ("y", f32)], block=(64, 1, 1))
    px, py = k.load_arg("x"), k.load_arg("y")
    off = k.v_lshlrev_b32(VGPR(), 2, v[0])
    ys = []
    for j in range(8):                      # one element after the other
        x = k.global_load_dword(VGPR(), off, px, offset=256 * j)
        t = k.v_mul_f32(VGPR(), 0.5, x)
        t = k.v_exp_f32(VGPR(), t)
        t = k.v_fma_f32(VGPR(), t, x, 1.0)
        t = k.v_fma_f32(VGPR(), t, t, x)
        t = k.v_sqrt_f32(VGPR(), t)
        ys.append(k.v_add_f32(VGPR(), t, x))
    for j, y in enumerate(ys):              # y may alias x: stores after all loads
        k.global_store_dword(off, y, py, offset=256 * j)
    k.s_endpgm()
    return m


def vector_math_args(rng):
    return [rng.uniform(-2, 2, 512).astype(np.float32), np.zeros(512, np.float32)]


CYCLE_KERNELS = {"kloop": (schedule_demo.build, schedule_demo.args),
                 "lds_reduction": (lds_reduction, lds_reduction_args),
                 "vector_math": (vector_math, vector_math_args)}


def cycles(name):
    """(cycles without, with amdgcn-schedule, the pass's statistics)."""
    build, args = CYCLE_KERNELS[name]
    m = build()
    plain, sched = aster.compile(m, REST), aster.compile(m, "amdgcn-schedule," + REST)
    aster.check_equivalent(plain, sched, name, args, 3)
    out = []
    for c in (plain, sched):
        a = args(np.random.default_rng(0))
        out.append(aster.launch(c, name, 1, 64, a, timing=True).cycles)
    return out[0], out[1], sched.metadata[name].schedule


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--ns", default="1000,10000,100000")
    args = ap.parse_args()
    ns = [int(x) for x in args.ns.split(",")]
    print(f"load average {os.getloadavg()[0]:.2f}")
    print("\namdgcn-schedule alone, one block of N instructions: µs per instruction, "
          "CPU (wall-clock)")
    print("| kernel | " + " | ".join(f"N={n}" for n in ns) + " | CPU last / first |")
    print("|---|" + "---|" * len(ns) + "---|")
    for name in SPEED:
        per = [[x / n * 1e6 for x in pass_time(name, n, args.reps)] for n in ns]
        print(f"| {name} | " + " | ".join(f"{c:.2f} ({w:.2f})" for c, w in per) +
              f" | {per[-1][0] / per[0][0]:.2f} |")
    print("\nsimulated cycles (timing model), without / with amdgcn-schedule")
    print("| kernel | without | with | speedup | estimate before -> after | "
          "VGPR MaxLive before -> after |")
    print("|---|---|---|---|---|---|")
    worse = []
    for name in CYCLE_KERNELS:
        before, after, st = cycles(name)
        print(f"| {name} | {before} | {after} | {before / after:.2f}x | "
              f"{st['cycles_before']} -> {st['cycles_after']} | "
              f"{st['vgpr_maxlive_before']} -> {st['vgpr_maxlive_after']} |")
        if after > before:
            worse.append(name)
    if worse:
        print(f"slower after scheduling: {', '.join(worse)}")
        sys.exit(1)


if __name__ == "__main__":
    main()
