"""How close the timing model comes to kernel times measured on real GPUs.

Each row is a kernel whose run time on a real AMD GPU was published, run in
aster's emulator with the timing model on the same device profile, shape and
launch; the table prints simulated / measured per row, the median and worst
|simulated/measured - 1| per source and device, and over all rows.

Sources (public, AMD's own measurements shipped in the amd-aiter wheel):
  tuned_fmoe.csv `us1`: the asm stage-1 fused-MoE kernels (fmoe_stage1_*),
    timed by aiter's tuner (aiter_meta/hsa/<arch>/fmoe_2stages/tune.py) on
    80-CU gfx942 (cu_num 80: the MI308X profile) and 256-CU gfx950 (cu_num
    256: MI355X); launched by aster.aiter.fmoe as asm_moe_2stage.cu does.
Held out, never opened: aiter/configs/bf16_tuned_gemm.csv.

    python bench/bench_fidelity.py                 # rows under --max-cost
    python bench/bench_fidelity.py --max-cost 2e6 --rows 40

--max-cost bounds each row's emulation work (estimated MFMAs), so the
default run takes minutes on two cores; the rows are chosen by cost only,
never by their error.
"""
import argparse
import csv
import re
import statistics
import sys
import time

from aster.aiter import fmoe, wheel

DEVICE_OF_CUS = {80: ("mi308x", "gfx942"), 256: ("mi355x", "gfx950")}


def fmoe_rows():
    """(cost, row) for every asm stage-1 row of tuned_fmoe.csv whose kernel the
    wheel has for the device's target; cost ~ the MFMA work of the launch."""
    path = wheel.wheel_file("aiter/configs/tuned_fmoe.csv")
    out = []
    with open(path) as f:
        for r in csv.DictReader(f):
            name = r["kernelName1"]
            cus = int(r["cu_num"])
            if "fmoe_stage1" not in name or cus not in DEVICE_OF_CUS or int(r["ksplit"]):
                continue
            device, arch = DEVICE_OF_CUS[cus]
            k = fmoe.stage1_kernels(arch).get(name)
            if k is None:
                continue
            token, dim, inter = int(r["token"]), int(r["model_dim"]), int(r["inter_dim"])
            expert, topk = int(r["expert"]), int(r["topk"])
            blocks = min(token * topk, expert) + token * topk // k.tile_m
            cost = blocks * (inter // k.tile_n) * k.tile_m * k.tile_n * 2 * dim / 16384
            out.append((cost, dict(source="tuned_fmoe.csv us1", family=k.table, kernel=name,
                                   device=device, arch=arch, token=token, dim=dim,
                                   inter=inter, expert=expert, topk=topk,
                                   measured=float(r["us1"]))))
    return out


def short(symbol):
    """aiter::NAME from the mangled _ZN5aiter<len>NAMEE."""
    m = re.fullmatch(r"_ZN5aiter\d+(\w+)E", symbol)
    return m.group(1) if m else symbol


def run_fmoe(row):
    st = fmoe.launch_stage1(row["kernel"], row["token"], row["dim"], row["inter"],
                            row["expert"], row["topk"], arch=row["arch"],
                            device=row["device"])
    return st.timing


def summary(rows, key):
    groups = {}
    for r in rows:
        groups.setdefault(key(r), []).append(abs(r["ratio"] - 1))
    return {g: (len(e), statistics.median(e), max(e)) for g, e in sorted(groups.items())}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max-cost", type=float, default=3e5,
                    help="skip rows whose estimated MFMA count is larger")
    ap.add_argument("--rows", type=int, default=40, help="at most this many rows")
    ap.add_argument("--device", action="append", choices=sorted({d for d, _ in
                                                                   DEVICE_OF_CUS.values()}),
                    help="only rows measured on this device (repeatable)")
    args = ap.parse_args(argv)
    if not wheel.available():
        print("the amd-aiter wheel is not installed (make deps)")
        return 1
    cand = sorted(((c, r) for c, r in fmoe_rows() if c <= args.max_cost
                   and (not args.device or r["device"] in args.device)), key=lambda x: x[0])
    # Distinct launches only (the tables repeat shapes with other columns).
    seen, rows = set(), []
    for c, r in cand:
        key = (r["kernel"], r["device"], r["token"], r["dim"], r["inter"], r["expert"], r["topk"])
        if key not in seen:
            seen.add(key)
            rows.append(r)
    rows = rows[:args.rows]
    print(f"{'device':7} {'kernel':62} {'shape (tok dim inter E topk)':30} "
          f"{'measured us':>11} {'sim us':>8} {'sim/meas':>8} {'cpu s':>6}")
    done = []
    for r in rows:
        t0 = time.perf_counter()
        res = run_fmoe(r)
        r["simulated"] = res.microseconds
        r["ratio"] = r["simulated"] / r["measured"]
        shape = f"{r['token']} {r['dim']} {r['inter']} {r['expert']} {r['topk']}"
        print(f"{r['device']:7} {short(r['kernel']):62} {shape:30} {r['measured']:11.2f} "
              f"{r['simulated']:8.2f} {r['ratio']:8.3f} {time.perf_counter() - t0:6.1f}",
              flush=True)
        done.append(r)
    if not done:
        print("no rows")
        return 1
    print()
    for title, key in (("per device", lambda r: r["device"]),
                       ("per family", lambda r: r["family"])):
        print(title + ":")
        for g, (n, med, worst) in summary(done, key).items():
            print(f"  {g:50} rows {n:3}  median |sim/meas-1| {med:6.1%}  worst {worst:6.1%}")
    errs = [abs(r["ratio"] - 1) for r in done]
    print(f"\nall: {len(done)} launches, median |sim/meas-1| {statistics.median(errs):.1%}, "
          f"worst {max(errs):.1%}; geometric mean sim/meas "
          f"{statistics.geometric_mean([r['ratio'] for r in done]):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
