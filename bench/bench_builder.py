"""Python builder speed: µs per instruction to build N = 1k, 10k, 100k
v_add_u32 and v_mfma_f32_16x16x16_f16 from Python (the call of the generated
method, the C++ fast path, op creation and verification; no translation).

    python bench/bench_builder.py [--reps 3] [--ns 1000,10000,100000]

The MFMA kernel cycles through 10 accumulators (a[4i:4i+4], i = n mod 10) as
the peer's scaled MFMA kernel does. Times are the minimum over repetitions,
each in a fresh module.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import _path  # noqa: E402,F401  (finds aster in a source checkout)
import aster  # noqa: E402
from aster import a, v  # noqa: E402

# ASTER's Python IR construction, µs per instruction, from
# ../shared/peers/aster/README.md ("Python IR construction costs about 8 µs
# (add) or 19 µs (MFMA) per instruction"; aster-mlir 0.0.4, this machine).
PEER_US = {"v_add_u32": 8.0, "mfma": 19.0}


def build_add(n):
    m = aster.Module("gfx942")
    k = m.kernel("add", block=(64, 1, 1))
    dst, x = v[1], v[0]
    t = time.perf_counter()
    for _ in range(n):
        k.v_add_u32(dst, x, dst)
    dt = time.perf_counter() - t
    k.s_endpgm()
    return dt, m


def build_mfma(n):
    m = aster.Module("gfx942")
    k = m.kernel("mfma", block=(64, 1, 1))
    accs = [a[4 * i:4 * i + 4] for i in range(10)]
    A, B = v[0:2], v[2:4]
    t = time.perf_counter()
    for i in range(n):
        acc = accs[i % 10]
        k.v_mfma_f32_16x16x16_f16(acc, A, B, acc)
    dt = time.perf_counter() - t
    k.s_endpgm()
    return dt, m


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--ns", default="1000,10000,100000")
    args = ap.parse_args()
    ns = [int(x) for x in args.ns.split(",")]
    rows = []
    for kind, fn in (("v_add_u32", build_add), ("mfma", build_mfma)):
        for n in ns:
            best, m = None, None
            for _ in range(args.reps):
                m = None                                  # free the previous module
                dt, m = fn(n)
                best = dt if best is None else min(best, dt)
            assert m.asm().count("\n\tv_") == n          # every instruction is there
            us = best / n * 1e6
            rows.append((kind, n, us, PEER_US[kind], PEER_US[kind] / us))
    print(f"aster Python builder (min of {args.reps}), gfx942, load "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("| kernel | N | µs/instr | ASTER peer µs/instr | speed-up |")
    print("|---|---:|---:|---:|---:|")
    for kind, n, us, peer, ratio in rows:
        print(f"| {kind} | {n} | {us:.2f} | {peer:.0f} | {ratio:.1f}x |")


if __name__ == "__main__":
    main()
