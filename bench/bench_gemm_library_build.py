"""Cost of building the GEMM library, before and after the fixed-cost work
(issue 29): the 32 kernels of the default library as it was when the issue
was filed (4 tiles x trans_b x f16/bf16 x gfx942/gfx950), each compiled by
the GEMM generator's compile_config (build + inline, schedule, regalloc,
waitcnt, hazards) to its code object, in one process.

    python bench/bench_gemm_library_build.py [--reps 3] [--rounds 5]
        [--baseline-build DIR]

Without --baseline-build it times the aster it imports. With it, the same
configs are also compiled by another build of aster (DIR is that build's
`build/python_packages`, e.g. of a worktree at the issue's baseline commit
11676cc), each in a fresh process, the two alternating for --rounds rounds
so that the machine's load falls on both alike; it prints per round the
minimum over --reps of each side's total and the median over rounds of the
difference per kernel. The generator itself changed between the two (the
code objects differ by a few bytes), so the difference is the fixed costs
removed plus any change in the passes' work on these kernels.

The configs live here, not in aster.ops.library: the default library has
grown since (split-K, stream-K, small-M, block-scale tiles), and a
before/after needs the same 32 kernels on both sides.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ORIGINAL_TILES = (
    dict(tile_m=256, tile_n=256, tile_k=16, waves_m=2, waves_n=2, mfma=32, prefetch=2),
    dict(tile_m=256, tile_n=128, tile_k=32, waves_m=2, waves_n=2, mfma=32, prefetch=2),
    dict(tile_m=128, tile_n=128, tile_k=32, waves_m=2, waves_n=2, mfma=32, prefetch=2),
    dict(tile_m=64, tile_n=64, tile_k=64, waves_m=2, waves_n=2, mfma=16, prefetch=2),
)
ARCHS, DTYPES = ("gfx942", "gfx950"), ("f16", "bf16")


def _generator():
    """GemmConfig and compile_config of whichever aster is importable (the
    generator moved from aster.kernels.gemm to aster.generators.gemm)."""
    try:
        from aster.generators.gemm import GemmConfig, compile_config
    except ImportError:
        from aster.kernels.gemm import GemmConfig, compile_config
    return GemmConfig, compile_config


def time_library(reps):
    """{n, wall, cpu (lists of totals in seconds), hsaco_bytes} for `reps`
    builds of the 32 original kernels in this process (after one warm-up
    compile, as the library builder's process pays it once)."""
    GemmConfig, compile_config = _generator()
    cfgs = [GemmConfig(dtype=d, arch=a, trans_b=tb, **t)
            for a in ARCHS for d in DTYPES for t in ORIGINAL_TILES for tb in (False, True)]
    compile_config(cfgs[0]).hsaco
    walls, cpus, size = [], [], 0
    for _ in range(reps):
        w, c = time.perf_counter(), time.process_time()
        size = sum(len(compile_config(cfg).hsaco) for cfg in cfgs)
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return dict(n=len(cfgs), wall=walls, cpu=cpus, hsaco_bytes=size)


def _child(pythonpath, reps):
    env = dict(os.environ, PYTHONPATH=pythonpath)
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", str(reps)],
                         env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--baseline-build", help="python_packages folder of another aster build")
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(time_library(args.child)))
        return
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "examples"))
    import _path  # noqa: F401  (finds aster in a source checkout)
    import aster
    this = os.path.dirname(os.path.dirname(os.path.abspath(aster.__file__)))
    sides = [("this", this)] + ([("baseline", args.baseline_build)] if args.baseline_build else [])
    load = os.getloadavg()[0]
    res = {name: [] for name, _ in sides}
    for _ in range(args.rounds):
        for name, path in reversed(sides):
            res[name].append(_child(path, args.reps))
    n = res["this"][0]["n"]
    print(f"GEMM library build, the issue's 32 kernels ({'/'.join(ARCHS)} x {'/'.join(DTYPES)} x "
          f"4 tiles x trans_b), CPU s of each side's fastest of {args.reps} per round, "
          f"{args.rounds} rounds alternating, load {load:.1f} -> {os.getloadavg()[0]:.1f}\n")
    print("| round | " + " | ".join(name for name, _ in sides) + " |")
    print("|---:|" + "---:|" * len(sides))
    for r in range(args.rounds):
        print(f"| {r + 1} | " + " | ".join(f"{min(res[name][r]['cpu']):.3f}"
                                          for name, _ in sides) + " |")
    med = {name: statistics.median(min(x["cpu"]) for x in res[name]) for name, _ in sides}
    for name, _ in sides:
        print(f"\n{name}: median {med[name]:.3f} s = {med[name] / n * 1e3:.1f} ms per kernel, "
              f"{res[name][0]['hsaco_bytes']} bytes of code objects")
    if args.baseline_build:
        diffs = [(min(b["cpu"]) - min(t["cpu"])) / n * 1e3
                 for b, t in zip(res["baseline"], res["this"])]
        print(f"baseline - this: median {statistics.median(diffs):.1f} ms per kernel "
              f"(rounds: {', '.join(f'{d:.1f}' for d in diffs)}); "
              f"baseline/this {med['baseline'] / med['this']:.2f}x")


if __name__ == "__main__":
    main()
