"""Cost of the timing model: emulation with `timing=True` vs without, on the
VALU and MFMA kernels of bench_emulator.py (one wave per SIMD; valu-2w: the
VALU loop with two waves per SIMD), its clang-compiled SGEMM through LDS and
the vector add, strict mode, one thread, through aster.launch. Prints per kernel the CPU time of the launch without and with
timing, their ratio (the issue's target: <= 2.5), ns per wave-instruction,
and the simulated cycles and MI300X-equivalent time.

    python bench/bench_timing.py [--repeat 3]
"""
import argparse
import os
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_emulator as be  # noqa: E402  (its kernels; also sets up sys.path)
import aster  # noqa: E402
import vector_add  # noqa: E402

TARGET = 2.5


def kernels(tmp):
    rng = np.random.default_rng(0)
    n = 1 << 18
    va, vb = rng.standard_normal(n, np.float32), rng.standard_normal(n, np.float32)
    g = 128
    ga, gb = rng.standard_normal((g, g), np.float32), rng.standard_normal((g, g), np.float32)
    hip_tests = os.path.join(be.ROOT, "tests", "emulator", "hip")
    sgemm = be.hip_kernel(os.path.join(HERE, "hip", "sgemm_lds.hip"),
                          os.path.join(tmp, "sgemm.hsaco"), hip_tests)
    return [
        ("valu", be.valu_kernel(2000), "valu", 64, 256, lambda: []),
        ("valu-2w", be.valu_kernel(1000, 512), "valu", 64, 512, lambda: []),
        ("mfma", be.mfma_kernel(250), "mfma", 32, 64, lambda: []),
        ("vadd", aster.compile(vector_add.build(block=256)).hsaco, "vector_add", n // 256, 256,
         lambda: [va, vb, np.zeros(n, np.float32), n]),
        ("sgemm", sgemm, "sgemm_lds", (g // 16, g // 16), (16, 16),
         lambda: [ga, gb, np.zeros((g, g), np.float32), g]),
    ]


def cpu_time(hsaco, kernel, grid, block, args, timing, repeat):
    best, r = None, None
    for _ in range(repeat):
        a = args()
        t0 = time.process_time()
        r = aster.launch(hsaco, kernel, grid, block, a, timing=timing)
        dt = time.process_time() - t0
        best = dt if best is None else min(best, dt)
    return best, r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    opts = ap.parse_args()
    print(f"{'kernel':8} {'wave-insts':>11} {'plain s':>9} {'timed s':>9} {'ratio':>6} "
          f"{'ns/inst':>8} {'cycles':>10} {'MI300X us':>10}")
    worst = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, hsaco, kernel, grid, block, args in kernels(tmp):
            plain, r0 = cpu_time(hsaco, kernel, grid, block, args, False, opts.repeat)
            timed, r1 = cpu_time(hsaco, kernel, grid, block, args, True, opts.repeat)
            ratio = timed / plain
            if name in ("valu", "valu-2w", "mfma"):
                worst = max(worst, ratio)
            print(f"{name:8} {r1.wave_instructions:>11} {plain:>9.3f} {timed:>9.3f} "
                  f"{ratio:>6.2f} {1e9 * timed / r1.wave_instructions:>8.1f} "
                  f"{r1.cycles:>10} {r1.cycles / r1.trace.clock_mhz:>10.2f}")
    print(f"worst VALU/MFMA ratio {worst:.2f} (target <= {TARGET})")


if __name__ == "__main__":
    main()
