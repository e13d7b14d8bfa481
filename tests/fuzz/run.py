"""Runs aster's fuzz targets (tests/fuzz/targets.py) with atheris.

    python3 tests/fuzz/run.py                      # short, deterministic: make test runs this
    python3 tests/fuzz/run.py --runs 200000 --jobs 2 --keep out/   # long
    python3 tests/fuzz/run.py --targets asm,mlir --seconds 3600      # long, by time

Each target runs in its own process from seeds made from the test corpus
(seeds.py) with a fixed -seed, so a short run is repeatable. A crash, abort,
hang (over --timeout seconds on one input) or unexpected exception fails the
run and leaves the input as crash-*/timeout-* in the target's artifact dir;
turn it into a regression test (tests/py/test_fuzz_regressions.py)."""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

ALL = ("asm", "disasm", "mlir", "launch", "builder", "raise", "sass")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--targets", default=",".join(ALL))
    p.add_argument("--runs", type=int, default=300, help="inputs per target (after the seeds)")
    p.add_argument("--seconds", type=int, default=0, help="time per target instead of --runs")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=int, default=30, help="seconds for one input = a hang")
    p.add_argument("--keep", help="directory for corpora and findings (default: temporary)")
    p.add_argument("--hip", type=int, default=6, help="HIP files compiled for seeds")
    args = p.parse_args()

    import seeds
    root = args.keep or tempfile.mkdtemp(prefix="aster-fuzz-")
    dirs = seeds.write_seeds(os.path.join(root, "corpus"), args.hip)
    failed = []
    for target in args.targets.split(","):
        art = os.path.join(root, "findings", target)
        os.makedirs(art, exist_ok=True)
        limit = [f"-max_total_time={args.seconds}"] if args.seconds else [f"-runs={args.runs}"]
        cmd = [sys.executable, os.path.join(HERE, "fuzz_one.py"), target, *limit,
               f"-seed={args.seed}", f"-timeout={args.timeout}", "-rss_limit_mb=6000",
               "-max_len=65536", f"-artifact_prefix={art}/", "-print_final_stats=1",
               dirs[target]]
        t0 = time.time()
        r = subprocess.run(cmd, capture_output=True, text=True)
        runs = [l for l in r.stderr.splitlines() if "stat::number_of_executed_units" in l]
        n = runs[-1].split(":")[-1].strip() if runs else "?"
        status = "ok" if r.returncode == 0 else f"FAILED (exit {r.returncode})"
        print(f"fuzz {target:8s} {n:>8s} inputs in {time.time() - t0:6.1f} s: {status}")
        if r.returncode != 0:
            failed.append(target)
            print(r.stderr[-4000:])
            print("findings in", art, os.listdir(art))
    if failed:
        sys.exit(f"fuzz targets failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
