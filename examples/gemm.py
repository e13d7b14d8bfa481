"""GEMM through aster's kernel library: C = A @ B in f32 from f16/bf16 inputs,
kernels generated from Python (aster.generators.gemm), picked by a heuristic,
run on the emulator with the MI300X timing model.

    python examples/gemm.py                      # a few shapes vs NumPy, the kernel chosen
    python examples/gemm.py --table [--big]      # simulated matrix-core utilisation of
                                                 # every f16 library config at 1024^3
                                                 # (and 4096^3 with --big: ~1 min each)
    python examples/gemm.py --library DIR        # build a library into DIR and list it

The default library is built once per user (~/.cache/aster/gemm-<hash>, or
$ASTER_CACHE_DIR) on first use.
"""
import sys
import time

import numpy as np

import _path  # noqa: F401  (finds aster in a source checkout)
import aster.ops as L
from aster.generators.gemm import DTYPES, reference


def demo(lib):
    rng = np.random.default_rng(0)
    for (m, n, k), dtype, trans_b in [((1, 1, 1), "f16", False), ((97, 131, 113), "bf16", True),
                                      ((300, 270, 50), "f16", False),
                                      ((512, 512, 512), "f16", True)]:
        a = (rng.integers(-4, 5, (m, k)) / 4).astype(DTYPES[dtype])
        b = (rng.integers(-4, 5, (n, k) if trans_b else (k, n)) / 4).astype(DTYPES[dtype])
        e = L.choose(lib, m, n, k, dtype=dtype, trans_b=trans_b)
        c, r = L.gemm(a, b, trans_b=trans_b, library=lib, timing=True)
        assert np.array_equal(c, reference(a, b, trans_b)), "differs from NumPy"
        print(f"{m}x{n}x{k} {dtype}{' trans_b' if trans_b else ''}: {e.name}, "
              f"{r.cycles} simulated cycles, equal to NumPy")


def utilisation_table(lib, shapes):
    """Simulated utilisation of each f16 gfx942 config (flops / (cycles x
    2048 x CUs busy)), and the emulation time with and without timing."""
    print("| config | shape | cycles | CUs busy | utilisation | emulation s (timing / plain) |")
    print("|---|---|---|---|---|---|")
    for e in lib.find(arch="gfx942", dtype="f16"):
        for shape in shapes:
            m, n, k = shape
            a = np.zeros((m, k), np.float16)
            b = np.zeros((n, k) if e.config.trans_b else (k, n), np.float16)
            t0 = time.perf_counter()
            _, r = L.gemm(a, b, trans_b=e.config.trans_b, library=lib, config=e.name,
                          timing=True)
            t1 = time.perf_counter()
            L.gemm(a, b, trans_b=e.config.trans_b, library=lib, config=e.name)
            t2 = time.perf_counter()
            gx, gy, _ = e.config.grid(m, n)
            print(f"| {e.name} | {m}x{n}x{k} | {r.cycles} | {min(gx * gy, L.library.CUS)} | "
                  f"{100 * L.utilisation(shape, r.cycles, e.config):.1f}% | "
                  f"{t1 - t0:.1f} / {t2 - t1:.1f} |", flush=True)


if __name__ == "__main__":
    argv = sys.argv[1:]
    if "--library" in argv:
        lib = L.build_library(argv[argv.index("--library") + 1], workers=2)
        for e in lib.entries:
            print(e.config.arch, e.name, e.row["ref_cycles"], e.row["ref_utilisation"])
        sys.exit(0)
    lib = L.default_library()
    print(f"# library {lib.directory}: {len(lib.entries)} kernels")
    if "--table" in argv:
        utilisation_table(lib, [(1024, 1024, 1024)] + ([(4096, 4096, 4096)]
                                                       if "--big" in argv else []))
    else:
        demo(lib)
