"""The stream-K dispatch estimate against the timing model: every stream-K
launch `aster.ops.dispatch.candidates` weighs for the bench shapes of
bench_gemm_vs_aiter.py (bf16, trans_b, the default library), simulated
whole on zero inputs; prints est / sim per launch and the mean error.

    python bench/bench_stream_k_estimate.py [--arch gfx950] [--shapes MxNxK,...]
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def simulate(lib, p, m, n, k):
    """Cycles of the plan's stream-K launch (its `p.splits` ranges)."""
    from aster.generators.gemm import DTYPES, split_counters, stream_k_table
    from aster.runtime import launch
    cfg = p.entry.config
    gx, gy, _ = cfg.grid(m, n)
    tab = stream_k_table(cfg, m, n, k, p.splits)
    args = [np.zeros(m * k + 1, DTYPES[cfg.dtype]), np.zeros(n * k + 1, DTYPES[cfg.dtype]),
            np.zeros(m * n, np.float32), m, n, k, tab, split_counters(gx * gy * cfg.waves)]
    return launch(lib.code(p.entry), cfg.name, grid=(len(tab), 1, 1), block=cfg.block,
                  args=args, timing=True).cycles


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--arch", default="gfx942", choices=("gfx942", "gfx950"))
    ap.add_argument("--shapes", help="comma-separated MxNxK (default: the GEMM bench's)")
    a = ap.parse_args()
    from aster.ops import dispatch
    from aster.generators.gemm import stream_k_table
    if a.shapes:
        shapes = [tuple(int(x) for x in s.split("x")) for s in a.shapes.split(",")]
    else:
        from bench_gemm_vs_aiter import SHAPES
        shapes = [s[1:] for s in SHAPES]
    lib = dispatch.default_library()
    errs = []
    print("| M x N x K | launch | segments | most adders of a tile | est. cycles | cycles | est/sim |")
    print("|---|---|---|---|---|---|---|")
    for m, n, k in shapes:
        for p in dispatch.candidates(lib, m, n, k, dtype="bf16", trans_b=True, arch=a.arch):
            if not p.entry.config.stream_k:
                continue
            tab = stream_k_table(p.entry.config, m, n, k, p.splits)
            cyc = simulate(lib, p, m, n, k)
            errs.append(p.cycles / cyc)
            print(f"| {m}x{n}x{k} | {p.name} | {len(tab)} | {int(tab[:, 5].max())} | "
                  f"{p.cycles:.0f} | {cyc} | {p.cycles / cyc:.2f} |", flush=True)
    if errs:
        print(f"\nstream-K est/sim {min(errs):.2f} .. {max(errs):.2f}, mean |err| "
              f"{sum(abs(e - 1) for e in errs) / len(errs):.1%} over {len(errs)} launches")


if __name__ == "__main__":
    main()
