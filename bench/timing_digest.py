"""Digests of timed launches, to check that a change to the timing model's
host code (speed only) changes no result: per case the cycles, microseconds,
a hash of the events, of the wave records, of summary() and of the result
bytes. Run it before and after a change and diff the outputs:

    python bench/timing_digest.py > before.txt      # (old build)
    python bench/timing_digest.py > after.txt
    diff before.txt after.txt

Cases: bench_timing.py's kernels (valu, valu-2w, mfma, vadd, sgemm),
examples/vector_add.py on 1, 64 and 1024 workgroups, the GEMM library's
512^3 and 2048^3 f16 GEMM (aster.ops.gemm), and the cheapest f4gemm and
gemm_a8w8_m128 rows of bench_fidelity.py. `--quick` leaves out the 2048^3
GEMM.
"""
import argparse
import hashlib
import json
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_timing as bt  # noqa: E402  (its kernels; sets up sys.path)
import aster  # noqa: E402
import aster.ops  # noqa: E402
import vector_add  # noqa: E402


def h(b):
    return hashlib.sha256(b).hexdigest()[:16]


def digest(name, trace, out_bytes):
    waves = json.dumps(trace.waves, sort_keys=True).encode()
    summ = json.dumps(trace.summary(), sort_keys=True, default=str).encode()
    ev = trace.events
    print(f"{name:24} cycles {trace.cycles} us {trace.microseconds!r} events {len(ev)} "
          f"{h(ev.tobytes())} waves {len(trace.waves)} {h(waves)} summary {h(summ)} "
          f"result {h(out_bytes)} misses {trace.icache_misses}/{trace.scalar_misses} "
          f"lines {trace.mem_lines}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="without the 2048^3 GEMM")
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for name, hsaco, kernel, grid, block, args in bt.kernels(tmp):
            a = args()
            r = aster.launch(hsaco, kernel, grid, block, a, timing=True)
            outb = b"".join(np.asarray(x).tobytes() for x in a if isinstance(x, np.ndarray))
            digest(name, r.trace, outb)
    hsaco = aster.compile(vector_add.build(block=256)).hsaco
    for groups in (1, 64, 1024):
        n = groups * 256 - 3
        rng = np.random.default_rng(groups)
        a, b = rng.standard_normal(n, np.float32), rng.standard_normal(n, np.float32)
        c = np.zeros(n, np.float32)
        r = aster.launch(hsaco, "vector_add", groups, 256, [a, b, c, n], timing=True)
        digest(f"vector_add {groups} wg", r.trace, c.tobytes())

    for n in (512,) if opts.quick else (512, 2048):
        rng = np.random.default_rng(n)
        A = rng.standard_normal((n, n)).astype(np.float16)
        B = rng.standard_normal((n, n)).astype(np.float16)
        C, r = aster.ops.gemm(A, B, timing=True)
        digest(f"gemm {n}^3", r.trace, np.asarray(C).tobytes())
    import bench_fidelity as bf
    from aster.timing import Trace
    for fam in ("f4gemm", "gemm_a8w8_m128"):
        cost, row = min(bf.FAMILIES[fam](), key=lambda cr: cr[0])
        t = bf.run(row)
        tr = t.trace if hasattr(t, "trace") else Trace(t, row["kernel"])
        digest(f"{fam} {bf.shape(row)}", tr, b"")


if __name__ == "__main__":
    main()
