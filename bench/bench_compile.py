"""End-to-end compile speed: a kernel built from Python, its registers
allocated, hazard nops inserted and its code object produced, for N = 10,
100, 1000 instructions by default (--ns adds 10k...1M), side by side with
ASTER (the peer, iree-org/aster) in the same run. Small N shows the fixed
cost a kernel pays (module, passes, MC, lld); large N the cost per
instruction.

    python bench/bench_compile.py [--small-reps 30] [--ns 10,100,1000]
                                  [--peer-ns 10,100,1000] [--no-peer] [--peer-harness]
                                  [--gemm-library] [--json FILE]

Kernels are the peer's (../shared/peers/aster/aster_kernels.py), with virtual
registers: `add` is a = 0, x = 1, then N x = v_add_u32(a, x); `mfma` is N
v_mfma_f32_16x16x16_f16 cycling through 10 AGPR x4 accumulators.

First table, per kernel and N, in ms per kernel: aster.Module(...) to the
code object of aster.compile(m, "amdgcn-regalloc,amdgcn-hazards"), each
repetition a fresh module (module creation inside the time, as a user pays
it), N <= 1000 repeated --small-reps times (--reps above): process CPU time
(less sensitive to other load on the machine) and wall-clock time, min and
median; the same for ASTER (bench/peer_cpu.py under the peer's Python, one
process, a warm-up repetition, the same number of repetitions: build +
amdgcn-backend + hazards + translate + in-process MC and lld); speed-up =
ASTER / aster of the medians.

Second table, µs per instruction (minimum over repetitions):
  build     aster.Module(...), m.kernel(...) and the Python builder calls
  passes    aster.compile's copy of the module + amdgcn-regalloc +
            amdgcn-hazards (as compile runs them: no verifier between passes)
  hsaco     the verifier, then the code object, instructions encoded directly
            (DirectEmit), linked by lld: what aster.compile adds after the passes
  text      the same code object through assembly text (print, LLVM MC parse,
            lld), for comparison (up to --text-max instructions), timed
            after the repetitions above on the last one's module: between
            them it would leave the caches and the heap of another workload
--peer-harness also runs the peer's own harness (../shared/peers/aster/run.sh,
wall clock, each repetition a fresh process) for --peer-ns.

--gemm-library times compiling the 32 kernels of the default GEMM library as
it was when issue 29 was filed (bench_gemm_library_build.py, which also
runs them side by side with a baseline build), one process, min over
--gemm-reps of the total.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import _path  # noqa: E402,F401  (finds aster in a source checkout)
import aster  # noqa: E402
from aster import AGPR, VGPR, _aster  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
PIPELINE = "amdgcn-regalloc,amdgcn-hazards"


def build_add(n):
    t = time.perf_counter()
    m = aster.Module("gfx942")
    k = m.kernel("add", block=(64, 1, 1))
    a = k.v_mov_b32(VGPR(), 0)
    x = k.v_mov_b32(VGPR(), 1)
    for _ in range(n):
        x = k.v_add_u32(VGPR(), a, x)
    k.s_endpgm()
    return time.perf_counter() - t, m


def build_mfma(n):
    t = time.perf_counter()
    m = aster.Module("gfx942")
    k = m.kernel("mfma", block=(64, 1, 1))
    A, B = k.v_mov_b64(VGPR(2), 0), k.v_mov_b64(VGPR(2), 0)
    accs = [k.v_mfma_f32_16x16x16_f16(AGPR(4), A, B, 0) for _ in range(min(n, 10))]
    for i in range(n - 10):
        accs[i % 10] = k.v_mfma_f32_16x16x16_f16(AGPR(4), A, B, accs[i % 10])
    k.s_endpgm()
    return time.perf_counter() - t, m


KERNELS = {"add": build_add, "mfma": build_mfma}


def measure(kind, n, reps, text_max):
    """{build, passes, hsaco, text} seconds (minimum of `reps`), the wall and
    CPU seconds of each repetition ("walls", "cpus"), and the direct
    encoder's stats. The repetitions run back to back, as a user's loop of
    compiles does; the text path and the encoder's stats are measured after
    them, on the last repetition's module (between timed repetitions they
    would leave the caches and the heap of another workload)."""
    best = {}
    totals, cpus = [], []
    for _ in range(reps):
        m = raw = None  # free the previous module first
        c0 = time.process_time()
        build, m = KERNELS[kind](n)
        m._finish()
        t0 = time.perf_counter()
        raw = _aster.clone_module(m._m)
        _aster.run_pipeline(raw, PIPELINE, False)
        t1 = time.perf_counter()
        direct = raw.hsaco(True)
        t2 = time.perf_counter()
        row = {"build": build, "passes": t1 - t0, "hsaco": t2 - t1,
               "cpu": time.process_time() - c0}
        totals.append(build + t1 - t0 + t2 - t1)
        cpus.append(row["cpu"])
        for k, v in row.items():
            best[k] = min(best.get(k, v), v)
    if n <= text_max:
        for _ in range(min(reps, 5)):
            t3 = time.perf_counter()
            text = raw.hsaco(False)
            best["text"] = min(best.get("text", 1e9), time.perf_counter() - t3)
            assert text == direct, f"{kind} {n}: direct and text code objects differ"
    stats = _aster.direct_stats(raw)
    best["total"] = best["build"] + best["passes"] + best["hsaco"]
    best["walls"], best["cpus"] = totals, cpus
    return best, stats


def run_peer(ns, reps):
    """Runs the peer's harness; {(kernel, n): µs/instr of its whole regalloc path}
    (its minimum over `reps`: its first repetition pays LLVM's start-up)."""
    out = os.environ.get("ASTER_PEER_OUT", os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                                        "aster-peer", "out"))
    env = dict(os.environ, NS=",".join(str(n) for n in ns), REPS=str(reps), ASTER_PEER_OUT=out)
    env.pop("PYTHONPATH", None)  # the peer's `import aster` is its own package
    p = subprocess.run(["bash", _peer_script()], env=env, capture_output=True, text=True)
    if p.returncode != 0:
        print(f"peer harness failed (rc {p.returncode}): {p.stderr[-500:]}")
        return {}
    with open(os.path.join(out, "bench.json")) as f:
        data = json.load(f)
    return {(r["kernel"], r["n"]): (r["build_s"] + r["passes_s"] + r["translate_s"] +
                                    r["hsaco_s"]) / r["n"] * 1e6
            for r in data["rows"] if r["variant"] == "regalloc" and "build_s" in r}


def run_peer_cpu(ns, reps):
    """{(kernel, n): {"cpu": [s], "wall": [s]}} of the peer's regalloc path,
    one entry per repetition (bench/peer_cpu.py under the peer's venv
    Python, as run.sh makes it)."""
    peer_dir = os.path.dirname(_peer_script())
    root = os.environ.get("PEER", os.path.join(os.environ.get("TMPDIR", "/tmp"), "aster-peer"))
    py = os.path.join(root, "venv", "bin", "python")
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    p = subprocess.run([py, os.path.join(ROOT, "bench", "peer_cpu.py"), peer_dir, "--ns",
                        ",".join(str(n) for n in ns), "--reps", str(reps)],
                       env=env, capture_output=True, text=True)
    if p.returncode != 0:
        print(f"peer CPU harness failed (rc {p.returncode}): {p.stderr[-500:]}")
        return {}
    data = json.loads(p.stdout.strip().splitlines()[-1])
    out = {}
    for key, times in data.items():
        kind, n = key.split()
        out[(kind, int(n))] = times
    return out


def _peer_script():
    # The peer harness sits next to the checkout (../shared) or, from a
    # worktree under wt/, next to its parent.
    cands = [os.path.join(ROOT, *up, "shared", "peers", "aster", "run.sh")
             for up in (("..",), ("..", ".."))]
    return next((c for c in cands if os.path.exists(c)), cands[0])


def gemm_library(reps):
    """Seconds (wall, CPU) to compile the original default GEMM library's 32
    kernels (min of `reps` totals) and their count."""
    from bench_gemm_library_build import time_library
    r = time_library(reps)
    return (min(r["wall"]), min(r["cpu"])), r["n"]


def _ms(xs):
    return f"{min(xs) * 1e3:.3f} | {statistics.median(xs) * 1e3:.3f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--small-reps", type=int, default=30)
    ap.add_argument("--ns", default="10,100,1000")
    ap.add_argument("--peer-ns", default="10,100,1000")
    ap.add_argument("--peer-reps", type=int, default=3, help="repetitions of --peer-harness")
    ap.add_argument("--no-peer", action="store_true")
    ap.add_argument("--peer-harness", action="store_true")
    ap.add_argument("--text-max", type=int, default=100000)
    ap.add_argument("--gemm-library", action="store_true")
    ap.add_argument("--gemm-reps", type=int, default=2)
    ap.add_argument("--json", help="also write the measurements to this file")
    args = ap.parse_args()
    ns = [int(x) for x in args.ns.split(",")]
    load = os.getloadavg()[0]
    peer_ns = [int(x) for x in args.peer_ns.split(",")]
    peer = run_peer(peer_ns, args.peer_reps) if args.peer_harness and not args.no_peer else {}
    peer_cpu = {} if args.no_peer else run_peer_cpu(
        [n for n in peer_ns if n <= 1000], args.small_reps)
    rows = []
    for kind in KERNELS:        # LLVM, lld and the kernels' forms, once per process
        measure(kind, 100, 2, 0)
    for kind in KERNELS:
        for n in ns:
            reps = args.reps if n <= 100000 else 1
            if n <= 1000:
                reps = max(reps, args.small_reps)
            t, st = measure(kind, n, reps, args.text_max)
            rows.append((kind, n, t, st))
    gemm = gemm_library(args.gemm_reps) if args.gemm_library else None
    print(f"aster.compile(m, \"{PIPELINE}\") end to end, gfx942, {args.small_reps} repetitions "
          f"at N <= 1000 ({args.reps} above, 1 at 1M); load {load:.1f} -> "
          f"{os.getloadavg()[0]:.1f}, {len(os.sched_getaffinity(0))} of {os.cpu_count()} cores")
    print("ms per kernel:\n")
    print("| kernel | N | aster CPU min | median | aster wall min | median "
          "| ASTER CPU min | median | ASTER wall min | median | speed-up CPU | speed-up wall |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for kind, n, t, st in rows:
        pc = peer_cpu.get((kind, n))
        cells = [_ms(t["cpus"]), _ms(t["walls"])]
        if pc:
            cells += [_ms(pc["cpu"]), _ms(pc["wall"]),
                      f"{statistics.median(pc['cpu']) / statistics.median(t['cpus']):.1f}x",
                      f"{statistics.median(pc['wall']) / statistics.median(t['walls']):.1f}x"]
        else:
            cells += [""] * 6
        print(f"| {kind} | {n} | " + " | ".join(cells) + " |")
    print("\nµs per instruction (min over repetitions):\n")
    print("| kernel | N | build | passes | hsaco | total | vs 10k | hsaco via text "
          "| text kernels | ASTER harness | speed-up |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for kind, n, t, st in rows:
        us = {k: v / n * 1e6 for k, v in t.items() if not isinstance(v, list)}
        ref = next((r[2]["total"] / r[1] for r in rows if r[0] == kind and r[1] == 10000), None)
        rel = f"{t['total'] / n / ref:.2f}" if ref else ""
        p = peer.get((kind, n))
        text = f"{us['text']:.2f}" if "text" in us else ""
        ratio = f"{p / us['total']:.0f}x" if p else ""
        print(f"| {kind} | {n} | {us['build']:.2f} | {us['passes']:.2f} | {us['hsaco']:.2f} | "
              f"{us['total']:.2f} | {rel} | {text} | {len(st['text_kernels'])} | "
              f"{f'{p:.1f}' if p else ''} | {ratio} |")
    if gemm:
        (wall, cpu), count = gemm
        print(f"\nGEMM library ({count} kernels, gfx942/gfx950 f16/bf16, compile_config + .hsaco), "
              f"min of {args.gemm_reps}: wall {wall:.3f} s, CPU {cpu:.3f} s "
              f"({cpu / count * 1e3:.1f} ms CPU per kernel)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"load": load, "aster": {f"{k} {n}": {"cpu": t["cpus"], "wall": t["walls"]}
                                               for k, n, t, _ in rows},
                       "peer": {f"{k} {n}": v for (k, n), v in peer_cpu.items()},
                       "gemm": gemm}, f)


if __name__ == "__main__":
    main()
