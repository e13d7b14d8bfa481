"""Simulated matrix-core utilisation of the GEMM library's f16 gfx942 configs
and the emulator's cost of running them.

    python bench/bench_gemm.py                 # 1024^3: full simulation, every config
    python bench/bench_gemm.py --big           # also 4096^3 (full: ~1 min per config)
    python bench/bench_gemm.py --big --config 256x256x16   # configs whose name has it

Utilisation = flops / (cycles x 2048 flop/clk/CU x CUs busy), CUs busy =
min(tiles, 304). Two estimates per shape:
  full     every workgroup simulated (the launch as it is)
  one CU   one workgroup simulated with the problem's real M, N, K (its tile
           is like every other: full tiles, same K loop), as if the other
           CUs ran theirs alongside; the cycles of one round of workgroups
Emulation seconds: the same launch with and without the timing model.
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import _path  # noqa: E402,F401  (finds aster in a source checkout)
import aster  # noqa: E402
from aster.generators.gemm import DTYPES, compile_config  # noqa: E402
from aster.ops import default_configs, utilisation  # noqa: E402
from aster.ops.library import CUS  # noqa: E402


def launch(out, cfg, shape, grid, timing):
    m, n, k = shape
    a = np.zeros(m * k + 1, DTYPES[cfg.dtype])
    b = np.zeros(n * k + 1, DTYPES[cfg.dtype])
    c = np.zeros(m * n, np.float32)
    t = time.perf_counter()
    r = aster.launch(out, cfg.name, grid=grid, block=cfg.block, args=[a, b, c, m, n, k],
                     timing=timing)
    return r, time.perf_counter() - t


def row(cfg, out, shape, full=True):
    m, n, k = shape
    gx, gy, _ = cfg.grid(m, n)
    busy = min(gx * gy, CUS)
    one, _ = launch(out, cfg, shape, (1, 1, 1), True)
    rounds = -(-(gx * gy) // CUS)
    cells = [cfg.name, "x".join(map(str, shape)), str(busy),
             f"{100 * utilisation(shape, one.cycles * rounds, cfg):.1f}%"]
    if full:
        r, t_timing = launch(out, cfg, shape, (gx, gy, 1), True)
        _, t_plain = launch(out, cfg, shape, (gx, gy, 1), False)
        cells += [str(r.cycles), f"{100 * utilisation(shape, r.cycles, cfg):.1f}%",
                  f"{t_timing:.1f} / {t_plain:.1f}"]
    else:
        cells += ["", "", ""]
    print("| " + " | ".join(cells) + " |", flush=True)


def main():
    big = "--big" in sys.argv[1:]
    print("| config | M x N x K | CUs busy | one CU | cycles (full) | full | "
          "emulation s (timing / plain) |")
    print("|---|---|---|---|---|---|---|")
    args = sys.argv[1:]
    only = args[args.index("--config") + 1] if "--config" in args else ""
    for cfg in default_configs(archs=("gfx942",), dtypes=("f16",)):
        if only not in cfg.name:
            continue
        out = compile_config(cfg)
        row(cfg, out, (1024, 1024, 1024))
        if big:
            row(cfg, out, (4096, 4096, 4096), full="--one-cu" not in sys.argv)


if __name__ == "__main__":
    main()
