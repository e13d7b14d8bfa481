"""s_waitcnt insertion speed: µs per instruction of `amdgcn-waitcnt` for
N = 10k, 100k, 1M instructions, and growth against the 10k cost.

    python bench/bench_waitcnt.py [--reps 3] [--ns 10000,100000,1000000]

Kernels (allocated registers, no waits written; groups of 16 instructions):
  mix    4 global loads, 2 LDS reads, 1 scalar load, 1 LDS write, 6 VALU
         reading loaded registers (earliest first) and 2 global stores: about
         3 waits inserted per group
  loop   the mix body with every group a block branching back to the first
         group (every block start merges two predecessors: the fixpoint)
The time is the pass alone (`aster.run_pipeline(m, "amdgcn-waitcnt",
verify=False)` on a freshly built, verified module), the minimum over
repetitions; `waits` is the kernel's `waitcnt.inserted`.
"""
import argparse
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import _path  # noqa: E402,F401  (finds aster in a source checkout)
import aster  # noqa: E402
from aster import s, v  # noqa: E402


def group(k, i):
    base = 8 + 8 * (i % 16)            # v[base..base+7]: this group's loads
    for j in range(4):
        k.global_load_dword(v[base + j], v[1], s[4:6], offset=4 * j)
    k.ds_read_b32(v[base + 4], v[2])
    k.ds_read_b32(v[base + 5], v[2], offset=4)
    k.s_load_dword(s[8 + i % 16], s[4:6], 64)
    k.ds_write_b32(v[2], v[3], offset=8)
    for j in range(6):
        k.v_add_u32(v[3 + j % 2], v[base + j], v[0])
    k.global_store_dword(v[1], v[3], s[6:8])
    k.global_store_dword(v[1], v[4], s[6:8], offset=4)


def build(n, loop=False):
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(64, 1, 1), lds=64 * 1024)
    top = k.here() if loop else None
    for i in range(n // 16):
        group(k, i)
        if loop:
            k.s_cbranch_scc1(top)
            k.here()
    k.s_endpgm()
    return m


KERNELS = {"mix": build, "loop": lambda n: build(n, loop=True)}


def run(name, n, reps):
    best, waits = None, None
    for _ in range(reps):
        m = None  # the previous module is freed before the next is built
        m = KERNELS[name](n)
        m.verify()
        t = time.perf_counter()
        aster.run_pipeline(m, "amdgcn-waitcnt", verify=False)
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
        if waits is None:
            waits = int(re.search(r"inserted = (\d+)", m.mlir()).group(1))
    return best, waits


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--ns", default="10000,100000,1000000")
    ap.add_argument("--kernels", default="mix,loop")
    args = ap.parse_args()
    ns = [int(x) for x in args.ns.split(",")]
    print(f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'kernel':8} {'N':>8} {'seconds':>10} {'us/instr':>9} {'vs 10k':>7} {'waits':>8}")
    for name in args.kernels.split(","):
        first = None
        for n in ns:
            dt, waits = run(name, n, args.reps)
            per = dt / n * 1e6
            growth = f"{per / first:6.2f}x" if first else "      -"
            print(f"{name:8} {n:8d} {dt:10.4f} {per:9.3f} {growth:>7} {waits:8d}")
            first = first or per


if __name__ == "__main__":
    main()
