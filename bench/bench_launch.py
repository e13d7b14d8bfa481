"""aster.launch on the emulator: what the Python runtime costs around the
emulation itself.

    python bench/bench_launch.py [--reps 50]

1. Launch overhead: a one-wave kernel (vector_add of 64 floats), µs per
   launch end to end vs the emulator's own time (LaunchStats.seconds); the
   rest is loading (cached per code object), packing, buffer copies.
2. Throughput through aster.launch: a VALU loop (aster builder: 1000
   iterations of 8 VALU + 3 SALU ops per wave) over 64 one-wave workgroups,
   wave-instructions per second with threads=1 and 2 (essentially the
   emulator's own figure; the runtime adds the overhead of 1. per launch).
Times are the minimum over repetitions.
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import _path  # noqa: E402,F401  (finds aster in a source checkout)
import aster  # noqa: E402
from aster import s, v  # noqa: E402
import vector_add  # noqa: E402


def best(fn, reps):
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        r = fn()
        times.append(time.perf_counter() - t)
    return min(times), r


def valu_loop(iters):
    m = aster.Module("gfx942", name="valu")
    k = m.kernel("valu", block=(64, 1, 1))
    k.v_mov_b32(v[1], 1)
    k.v_cvt_f32_u32(v[2], v[0])
    with k.loop(s[8], iters):
        for _ in range(2):
            k.v_add_u32(v[1], v[0], v[1])
            k.v_fma_f32(v[2], v[2], 0.5, 1.0)
            k.v_xor_b32(v[1], v[1], v[0])
            k.v_max_f32(v[2], 0.5, v[2])
    k.s_endpgm()
    return aster.compile(m).hsaco


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=50)
    opts = ap.parse_args()

    hsaco = aster.compile(vector_add.build()).hsaco
    n = 64
    a = np.ones(n, np.float32)
    c = np.zeros(n, np.float32)
    t, r = best(lambda: aster.launch(hsaco, "vector_add", 1, 64, [a, a, c, n]), opts.reps)
    print(f"launch overhead (vector_add, 1 wave): {t * 1e6:8.1f} µs per launch, of which "
          f"emulation {r.seconds * 1e6:.1f} µs ({t / max(r.seconds, 1e-9):.1f}x)")
    t_load, _ = best(lambda: aster._emu.CodeObject.load(hsaco), max(opts.reps // 5, 3))
    print(f"uncached code object load:           {t_load * 1e6:8.1f} µs (saved by the cache)")

    hsaco = valu_loop(1000)
    for threads in (1, 2):
        t, r = best(lambda: aster.launch(hsaco, "valu", 64, 64, [], threads=threads),
                    max(opts.reps // 25, 2))
        print(f"VALU loop, threads={threads}: {r.wave_instructions / t / 1e6:7.1f} M "
              f"wave-instructions/s through aster.launch ({t / r.wave_instructions * 1e9:.1f} "
              f"ns each; {r.wave_instructions} in {t * 1e3:.1f} ms)")


if __name__ == "__main__":
    main()
