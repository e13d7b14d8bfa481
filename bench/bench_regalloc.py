"""Register allocation speed: µs per instruction of `amdgcn-regalloc` for
N = 1k, 10k, 100k, 1M instructions, growth, and registers used vs MaxLive.

    python bench/bench_regalloc.py [--reps 3] [--ns 1000,10000,100000,1000000]

Kernels (all registers virtual except the work-item id v0):
  add    the peer's add chain: a = 0, x = 1, then N x = v_add_u32(a, x)
  mix    a mix with ranges: 32-bit adds/xors over a window of 8 recent
         values, every 4th instruction a 64-bit v_lshl_add_u64 on pairs
  mfma   N v_mfma_f32_16x16x16_f16 cycling through 10 AGPR x4 accumulators
         (the peer's scaled MFMA kernel)
  spill  adds/xors over a window of 16 values allocated with max-vgprs=10:
         heavy spilling to AGPRs (not in the default --kernels)
  spill_ranges  64-bit v_lshl_add_u64 over a window of 8 pairs (16 VGPRs
         live) allocated with max-vgprs=10: pairs spill whole to scratch;
         slots whose lifetimes do not overlap share bytes, so any N fits a
         work-item's private segment (not in the default --kernels;
         `--kernels spill,spill_ranges --ns 1000,10000,100000`)
The time is the pass alone: `aster.run_pipeline(module, "amdgcn-regalloc",
verify=False)` on a freshly built and verified module (building is
bench_builder.py's), the minimum over repetitions. The MLIR verifier that
run_pipeline runs after a pass by default is timed apart (`module.verify()`
on the allocated module, the same check): its own column, and `+verify` is
the two together (what `aster.compile(m, "amdgcn-regalloc")` pays).
`vs 10k` is µs/instr relative to N=10000 (flat means linear time).
`used`/`MaxLive` are the kernel's `regalloc` attribute (VGPRs, AGPRs for
mfma).

ASTER (the peer, ../shared/peers/aster/README.md): its register allocation
(`amdgcn-backend`) costs about 45 µs per instruction at 10k adds (0.4508 s for
10000, aster-mlir 0.0.4 on this machine); `--peer` reruns its harness
(`NS=... bash ../shared/peers/aster/run.sh`, needs its venv) instead of
quoting that figure (set PY312=<python3.12> when python3.12 is not on PATH).
Measured here with --peer at load ~4 on 2 cores: ASTER 98 µs/instr at 10k
adds, 89 µs/instr at 10k MFMAs.
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import _path  # noqa: E402,F401  (finds aster in a source checkout)
import aster  # noqa: E402
from aster import AGPR, VGPR  # noqa: E402

PIPELINE = "amdgcn-regalloc"
# ASTER's allocation pass time per instruction (µs) from its README table
# (`regalloc` variant minus `alloc`: passes 0.4508 s at N=10000 adds,
# 0.4470 s at N=10000 MFMAs).
PEER_US = {("add", 10000): 45.1, ("mfma", 10000): 44.7, ("add", 1000): 39.0,
           ("mfma", 1000): 43.4}
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def build_add(n):
    m = aster.Module("gfx942")
    k = m.kernel("add", block=(64, 1, 1))
    a = k.v_mov_b32(VGPR(), 0)
    x = k.v_mov_b32(VGPR(), 1)
    for _ in range(n):
        x = k.v_add_u32(VGPR(), a, x)
    k.s_endpgm()
    return m


def build_mix(n):
    m = aster.Module("gfx942")
    k = m.kernel("mix", block=(64, 1, 1))
    win = [k.v_mov_b32(VGPR(), i) for i in range(8)]
    pairs = [k.v_mov_b64(VGPR(2), i) for i in range(2)]
    for i in range(n):
        if i % 4 == 3:
            pairs[i % 2] = k.v_lshl_add_u64(VGPR(2), pairs[0], 1, pairs[1])
        else:
            op = k.v_add_u32 if i % 2 else k.v_xor_b32
            win[i % 8] = op(VGPR(), win[(i + 3) % 8], win[(i + 7) % 8])
    k.s_endpgm()
    return m


def build_mfma(n):
    m = aster.Module("gfx942")
    k = m.kernel("mfma", block=(64, 1, 1))
    A, B = k.v_mov_b64(VGPR(2), 0), k.v_mov_b64(VGPR(2), 0)
    accs = [k.v_mfma_f32_16x16x16_f16(AGPR(4), A, B, 0) for _ in range(10)]
    for i in range(n - 10):
        accs[i % 10] = k.v_mfma_f32_16x16x16_f16(AGPR(4), A, B, accs[i % 10])
    k.s_endpgm()
    return m


def build_spill(n, window=16):
    m = aster.Module("gfx942")
    k = m.kernel("spill", block=(64, 1, 1))
    win = [k.v_mov_b32(VGPR(), i) for i in range(window)]
    for i in range(n):
        op = k.v_add_u32 if i % 2 else k.v_xor_b32
        win[i % window] = op(VGPR(), win[(i + 3) % window], win[(i + window - 1) % window])
    for x in win:
        k.v_add_u32(VGPR(), x, x)
    k.s_endpgm()
    return m


def build_spill_ranges(n, window=8):
    m = aster.Module("gfx942")
    k = m.kernel("spill_ranges", block=(64, 1, 1))
    win = [k.v_mov_b64(VGPR(2), i) for i in range(window)]
    for i in range(n):
        win[i % window] = k.v_lshl_add_u64(VGPR(2), win[i % window], 1,
                                           win[(i + 5) % window])
    for x in win:
        k.v_lshl_add_u64(VGPR(2), x, 0, x)
    k.s_endpgm()
    return m


KERNELS = {"add": build_add, "mix": build_mix, "mfma": build_mfma, "spill": build_spill,
           "spill_ranges": build_spill_ranges}
PIPELINES = {"spill": "amdgcn-regalloc{max-vgprs=10}",
             "spill_ranges": "amdgcn-regalloc{max-vgprs=10}"}


def regalloc_stats(module):
    """What amdgcn-regalloc recorded on the (only) kernel of `module`."""
    return aster._aster.kernel_infos(module._m)[0]["regalloc"]


def run_peer(ns):
    """Reruns the peer's harness; {(kernel, n): µs/instr of its allocation}."""
    out = os.environ.get("ASTER_PEER_OUT", os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                                        "aster-peer", "out"))
    env = dict(os.environ, NS=",".join(str(n) for n in ns if n <= 10000), REPS="3",
               ASTER_PEER_OUT=out)
    subprocess.run(["bash", os.path.join(ROOT, "..", "shared", "peers", "aster", "run.sh")],
                   env=env, check=True, capture_output=True)
    with open(os.path.join(out, "bench.json")) as f:
        data = json.load(f)
    return {(r["kernel"], r["n"]): r["passes_s"] / r["n"] * 1e6
            for r in data["rows"] if r["variant"] == "regalloc"}


def time_pass(kind, n, reps):
    """(pass s, verifier s, regalloc stats): minimum of `reps` runs each."""
    best_pass = best_verify = stats = None
    for _ in range(reps):
        m = None  # the previous module is freed before the next is built
        m = KERNELS[kind](n)
        m.verify()
        t0 = time.perf_counter()
        aster.run_pipeline(m, PIPELINES.get(kind, PIPELINE), verify=False)
        t1 = time.perf_counter()
        m.verify()
        t2 = time.perf_counter()
        best_pass = min(best_pass or t1 - t0, t1 - t0)
        best_verify = min(best_verify or t2 - t1, t2 - t1)
        stats = stats or regalloc_stats(m)
    return best_pass, best_verify, stats


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=3, help="runs per size (the minimum counts)")
    ap.add_argument("--ns", default="1000,10000,100000,1000000")
    ap.add_argument("--kernels", default="add,mix,mfma")
    ap.add_argument("--peer", action="store_true", help="rerun the peer's harness")
    args = ap.parse_args()
    ns = [int(x) for x in args.ns.split(",")]
    peer = run_peer(ns) if args.peer else PEER_US
    rows = []
    load = os.getloadavg()[0]
    for kind in args.kernels.split(","):
        cls = "agpr" if kind == "mfma" else "vgpr"
        measured = [(n,) + time_pass(kind, n, args.reps) for n in ns]
        ref = {n: s / n for n, s, _, _ in measured}
        ref = ref.get(10000, ref[ns[0]])
        for n, s, vs, stats in measured:
            rows.append((kind, n, s, s / n * 1e6, s / n / ref, vs / n * 1e6, stats[cls],
                         stats.get(f"{cls}_maxlive"), stats.get("spills", 0),
                         peer.get((kind, n))))
    print(f"aster amdgcn-regalloc (min of {args.reps}), gfx942, load {load:.1f} -> "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("| kernel | N | pass s | µs/instr | vs 10k | verifier µs/instr | +verify µs/instr "
          "| used | MaxLive | spills | ASTER µs/instr | speed-up |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for kind, n, s, us, rel, vus, used, live, spills, p in rows:
        total = us + vus
        ratio = f"{p / total:.1f}x" if p else ""
        print(f"| {kind} | {n} | {s:.4f} | {us:.3f} | {rel:.2f} | {vus:.3f} | {total:.3f} | "
              f"{used} | {live} | {spills} | {f'{p:.1f}' if p else ''} | {ratio} |")
    if not args.peer:
        print("ASTER figures are quoted from ../shared/peers/aster/README.md (its "
              "`regalloc` pass time; --peer reruns its harness); speed-up is against "
              "+verify")


if __name__ == "__main__":
    main()
