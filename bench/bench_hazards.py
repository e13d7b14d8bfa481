"""Hazard padding speed: µs per instruction of `amdgcn-hazards` for N = 1k,
10k, 100k instructions, and growth per 10x.

    python bench/bench_hazards.py [--reps 3] [--ns 1000,10000,100000]

Kernels (allocated registers only, as the pass needs):
  add    N v_add_u32 over 64 VGPRs: no hazards (the cost of the walk)
  mfma   N/2 v_mfma_f32_16x16x16_f16 cycling through 8 AGPR x4 accumulators,
         each followed by a v_accvgpr_read_b32 of the previous one (a hazard
         at every read: the cost with padding)
  loop   the mfma body split into blocks of 16 instructions, each branching
         back to the first (every block start merges two predecessors)
The time is the pass alone (`aster.run_pipeline(module, "amdgcn-hazards")` on
a freshly built module), the minimum over repetitions; `nops` is the kernel's
`hazard_nops`.
"""
import argparse
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import _path  # noqa: E402,F401  (finds aster in a source checkout)
import aster  # noqa: E402
from aster import a, v  # noqa: E402


def build_add(n):
    m = aster.Module("gfx942")
    k = m.kernel("add", block=(64, 1, 1))
    for i in range(n):
        k.v_add_u32(v[1 + (i + 1) % 64], v[1 + i % 64], v[0])
    k.s_endpgm()
    return m


def mfma_body(k, n, label=None):
    for i in range(n // 2):
        acc = a[4 * (i % 8):4 * (i % 8) + 4]
        prev = a[4 * ((i + 7) % 8)]
        k.v_mfma_f32_16x16x16_f16(acc, v[0:2], v[0:2], acc)
        k.v_accvgpr_read_b32(v[2 + i % 32], prev)
        if label is not None and i % 8 == 7:
            k.s_cbranch_scc1(label)
            label = k.here()


def build_mfma(n):
    m = aster.Module("gfx942")
    k = m.kernel("mfma", block=(64, 1, 1))
    mfma_body(k, n)
    k.s_endpgm()
    return m


def build_loop(n):
    m = aster.Module("gfx942")
    k = m.kernel("loop", block=(64, 1, 1))
    mfma_body(k, n, k.here())
    k.s_endpgm()
    return m


KERNELS = {"add": build_add, "mfma": build_mfma, "loop": build_loop}


def run(name, n, reps):
    best, nops = None, None
    for _ in range(reps):
        m = KERNELS[name](n)
        m.mlir()                                    # finish building first
        t = time.perf_counter()
        m.run_pipeline("amdgcn-hazards")
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
        nops = int(re.search(r"hazard_nops = (\d+)", m.mlir()).group(1))
    return best, nops


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--ns", default="1000,10000,100000")
    ap.add_argument("--kernels", default="add,mfma,loop")
    args = ap.parse_args()
    ns = [int(x) for x in args.ns.split(",")]
    print(f"{'kernel':8} {'N':>8} {'seconds':>10} {'us/instr':>9} {'growth':>7} {'nops':>7}")
    for name in args.kernels.split(","):
        prev = None
        for n in ns:
            dt, nops = run(name, n, args.reps)
            per = dt / n * 1e6
            growth = f"{per / prev:6.2f}x" if prev else "      -"
            print(f"{name:8} {n:8d} {dt:10.4f} {per:9.3f} {growth:>7} {nops:7d}")
            prev = per


if __name__ == "__main__":
    main()
