"""Cost of a process's FIRST timed launch: the timing model's wave state
(cc/emulator/timing/HugeSlots.h, the wave pool of timing/Model.cpp) is made
on a process's first timed launch and kept for the next ones, so the first
launch pays the host's page faults (zeroed pages) for every resident wave,
the later ones none. A script that runs one timed launch pays exactly this.

Each sample is a fresh Python process (the same interpreter and package):
one plain 1-workgroup launch (the library loaded, the code compiled), then
two timed launches of examples/vector_add.py (256 lanes per workgroup) on
G workgroups; it reports the wall milliseconds of the first and of the
second timed launch and the minor page faults of each (getrusage). Prints
per G the median and the range over the processes.

    python bench/bench_timing_first.py [--procs 5] [--groups 64 1024]

Compare two builds by running it with each package on PYTHONPATH,
interleaved, on idle cores (`taskset -c 0,1`); the load average is printed.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
import numpy as np
sys.path.insert(0, sys.argv[1])
import aster, vector_add
groups = int(sys.argv[2])
h = aster.compile(vector_add.build(block=256)).hsaco
n = groups * 256
a = np.ones(n, np.float32); c = np.zeros(n, np.float32)
aster.launch(h, "vector_add", 1, 256, [a, a, c, n], timing=False)
out = []
for _ in range(2):
    f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    t = time.perf_counter()
    aster.launch(h, "vector_add", groups, 256, [a, a, c, n], timing=True)
    w = time.perf_counter() - t
    out.append((w * 1e3, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0))
np.testing.assert_array_equal(c, a + a)
print(json.dumps(out))
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--procs", type=int, default=5, help="fresh processes per size")
    ap.add_argument("--groups", type=int, nargs="+", default=[64, 1024])
    args = ap.parse_args()
    if args.procs < 1 or any(g < 1 for g in args.groups):
        sys.exit("bench_timing_first.py: --procs and --groups must be >= 1")
    examples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples")
    print(f"first vs second timed launch of a fresh process (vector_add, 256 lanes "
          f"per workgroup), {args.procs} processes each; load average "
          f"{os.getloadavg()[0]:.1f}")
    print(f"{'workgroups':>10} {'first ms':>9} {'(range)':>17} {'second ms':>9} "
          f"{'faults 1st':>10} {'faults 2nd':>10}")
    for g in args.groups:
        runs = []
        for _ in range(args.procs):
            r = subprocess.run([sys.executable, "-c", CHILD, examples, str(g)],
                               capture_output=True, text=True)
            if r.returncode:
                sys.exit(f"bench_timing_first.py: the child process failed:\n{r.stderr}")
            runs.append(json.loads(r.stdout.strip().splitlines()[-1]))
        first = [x[0][0] for x in runs]
        second = [x[1][0] for x in runs]
        print(f"{g:>10} {statistics.median(first):>9.1f} "
              f"{f'{min(first):.1f}-{max(first):.1f}':>17} {statistics.median(second):>9.1f} "
              f"{statistics.median(x[0][1] for x in runs):>10.0f} "
              f"{statistics.median(x[1][1] for x in runs):>10.0f}")


if __name__ == "__main__":
    main()
