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
  asm_a8w8_gemm.csv `us`: AMD's first asm int8 GEMM (gemm_a8w8_m128_splitK /
    _noSplitK.co), launched by aster.aiter.gemm_a8w8_m128 as aiter's first
    interface launched it. The table names no device; it was measured on an
    80-CU gfx942 (the MI308X profile): the kernel holds a CU alone (64 KiB
    LDS, 512 VGPRs), and its time doubles from 80 to 160 workgroups (M 128
    -> 256 at N 1280, 13.85 -> 25.54 us; N 8192: 12.67 -> 23.80 us), which
    cannot happen on 304 CUs where 160 such workgroups run at once. Only the
    20 rows of the table's first version (ROCm/aiter pull request 28; the
    copy at zjing14/aiter 075c5877) are used, with their split-K then: the
    N 8192 K 1024 rows were measured with splitK 0 (later edited to 4
    without new times); later rows name other kernels, and nine repeat one
    time (1483.54 us) for different shapes.
  a4w4_blockscale_tuned_gemm.csv `us`: AMD's asm MXFP4 GEMMs for gfx950
    (f4gemm_bf16_per1x32Fp4_BpreShuffle_<tile>), the rows whose kernelName
    is such an asm symbol (the CK-named rows are not asm code objects), all
    on cu_num 256 (MI355X), split-K 0; launched by aster.aiter.f4gemm as
    aiter's gemm_a4w4_asm launches them, timed by aiter's tuner
    (csrc/ck_gemm_a4w4_blockscale/gemm_a4w4_blockscale_tune.py: perftest,
    10 warm-up and 101 timed launches). The MI355X profile's sustained-MFMA
    clock bound (Params.h mfmaClockMHz) comes from this table's fastest row
    (32768x8192x28672), one number bounding the clock, not fitted to rows.
    The tuner's perftest rotates 101 copies of the tensor arguments through
    its timed launches: where the copies together fit in the device's
    Infinity Cache (256 MiB), the row runs with its data in the MALL
    (aster.launch(data_in_mall=True); f4gemm.perftest_footprint); the
    fmoe_stage1 and a8w8 rows' weights alone exceed it 101 times over.
Held out, never opened: aiter/configs/bf16_tuned_gemm.csv.

    python bench/bench_fidelity.py                 # rows under --max-cost
    python bench/bench_fidelity.py --max-cost 2e6 --rows 40
    python bench/bench_fidelity.py --family f4gemm --csv f4.csv   # rows appended as done
    python bench/bench_fidelity.py --only "mi355x .*32x256_2tg_pf3 16 7168"  # chosen rows
    python bench/bench_fidelity.py --summarize a.csv b.csv        # Markdown table + medians
    python bench/bench_fidelity.py --trend 32x128    # AMD's M = 1 times of a tile vs K

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

from aster.aiter import f4gemm, fmoe, gemm_a8w8_m128, wheel

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
            out.append((cost, dict(source="tuned_fmoe.csv us1", family="fmoe_stage1", kernel=name,
                                   device=device, arch=arch, token=token, dim=dim,
                                   inter=inter, expert=expert, topk=topk,
                                   measured=float(r["us1"]))))
    return out


# (N, K) -> split-K of the first asm_a8w8_gemm.csv (pull request 28), whose
# times the wheel's copy still carries.
A8W8_FIRST_SPLITK = {(1280, 8192): 3, (8192, 1024): 0}


def a8w8_rows():
    """(cost, row) for the measured rows of asm_a8w8_gemm.csv's first
    version (see the module doc), on the MI308X profile."""
    path = wheel.wheel_file("aiter/configs/asm_a8w8_gemm.csv")
    out = []
    with open(path) as f:
        for r in csv.DictReader(f):
            m, n, k = int(r["M"]), int(r["N"]), int(r["K"])
            split = A8W8_FIRST_SPLITK.get((n, k))
            if split is None or m < gemm_a8w8_m128.TILE:
                continue
            cost = 2 * m * n * k / 16384             # as fmoe_rows: 2 MACs / 16384
            out.append((cost, dict(source="asm_a8w8_gemm.csv us", family="gemm_a8w8_m128",
                                   kernel="gemm_kernel_func (a8w8 m128 "
                                          + ("splitK)" if split else "noSplitK)"),
                                   device="mi308x", arch="gfx942", m=m, n=n, k=k,
                                   splitk=split, measured=float(r["us"]))))
    return out


def f4gemm_rows():
    """(cost, row) for the asm rows of a4w4_blockscale_tuned_gemm.csv (cu_num
    256: MI355X); cost as fmoe_rows, over whole tiles."""
    path = wheel.wheel_file("aiter/configs/a4w4_blockscale_tuned_gemm.csv")
    from aster.timing import devices
    table = f4gemm.kernels()
    mall_bytes = devices()["mi355x"]["mall_bytes"]
    out = []
    with open(path) as f:
        for r in csv.DictReader(f):
            k = table.get(r["kernelName"])
            if k is None or int(r["cu_num"]) != 256 or int(r["splitK"]):
                continue
            m, n, kk = int(r["M"]), int(r["N"]), int(r["K"])
            tiles = -(-m // k.tile_m) * -(-n // k.tile_n)
            cost = 2 * tiles * k.tile_m * k.tile_n * kk / 16384
            mall = f4gemm.perftest_footprint(m, n, kk) <= mall_bytes
            out.append((cost, dict(source="a4w4_blockscale_tuned_gemm.csv us", family="f4gemm",
                                   kernel=k.symbol, device="mi355x", arch="gfx950", m=m, n=n,
                                   k=kk, splitk=0, measured=float(r["us"]), mall=mall)))
    return out


FAMILIES = {"fmoe_stage1": fmoe_rows, "gemm_a8w8_m128": a8w8_rows, "f4gemm": f4gemm_rows}


def trend(tile):
    """AMD's measured times (no emulation) of the f4gemm `tile`'s M = 1 rows
    against the number of 256-k steps: a least-squares line over all of
    them and each row's residual (how far the GPU's own times scatter
    around a smooth dependence on K, which is what a model can follow)."""
    import numpy as np
    kern = f4gemm.kernel_of(tile)
    pts = sorted((int(r["k"]), int(r["n"]), r["measured"]) for _, r in f4gemm_rows()
                 if r["kernel"] == kern.symbol and r["m"] == 1)
    if len(pts) < 2:
        print(f"fewer than two M = 1 rows of {tile}")
        return 1
    steps = np.array([k / 256 for k, _, _ in pts])
    us = np.array([t for _, _, t in pts])
    b, a = np.polyfit(steps, us, 1)
    print(f"{tile}, M = 1: {len(pts)} rows; us = {a:.2f} + {b:.3f} per 256-k step")
    print(f"{'K':>6} {'N':>6} {'workgroups':>10} {'measured us':>11} {'residual us':>11}")
    for (k, n, t), st in zip(pts, steps):
        print(f"{k:6} {n:6} {-(-n // kern.tile_n):10} {t:11.2f} {t - a - b * st:11.2f}")
    return 0


def short(symbol):
    """aiter::NAME from the mangled _ZN5aiter<len>NAMEE."""
    m = re.fullmatch(r"_ZN5aiter\d+(\w+)E", symbol)
    return m.group(1) if m else symbol


def run(row):
    if row["family"] == "f4gemm":
        return f4gemm.run(row["kernel"], row["m"], row["n"], row["k"], device=row["device"],
                          data_in_mall=row["mall"])[1]
    if row["family"] == "gemm_a8w8_m128":
        st = gemm_a8w8_m128.launch(row["m"], row["n"], row["k"], row["splitk"],
                                   device=row["device"])
    else:
        st = fmoe.launch_stage1(row["kernel"], row["token"], row["dim"], row["inter"],
                                row["expert"], row["topk"], arch=row["arch"],
                                device=row["device"])
    return st.timing


def shape(r):
    if "m" in r:
        return f"{r['m']}x{r['n']}x{r['k']} splitK {r['splitk']}"
    return f"{r['token']} {r['dim']} {r['inter']} {r['expert']} {r['topk']}"


def line(r):
    """'family device kernel shape' of a row, the columns --summarize prints."""
    return f"{r['family']} {r['device']} {short(r['kernel'])} {shape(r)}"


def key(r):
    return (r["kernel"], r["device"], shape(r))


def summary(rows, key):
    groups = {}
    for r in rows:
        groups.setdefault(key(r), []).append(abs(r["ratio"] - 1))
    return {g: (len(e), statistics.median(e), max(e)) for g, e in sorted(groups.items())}


def select(args, only=()):
    """The rows main() runs for its parsed `args` (`only`: the compiled
    --only patterns), cheapest first, each launch once."""
    fams = args.family or FAMILIES
    src = [row for fam in fams for row in FAMILIES[fam]()]
    cand = sorted(((c, r) for c, r in src if c <= args.max_cost
                   and (not args.device or r["device"] in args.device)
                   and (not only or any(p.search(line(r)) for p in only))),
                  key=lambda x: x[0])
    # Distinct launches only (the tables repeat shapes with other columns).
    seen, rows = set(), []
    for c, r in cand:
        if key(r) not in seen:
            seen.add(key(r))
            rows.append(r)
    return rows[args.skip:args.skip + args.rows]


def parser():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max-cost", type=float, default=3e5,
                    help="skip rows whose estimated MFMA count is larger")
    ap.add_argument("--rows", type=int, default=40, help="at most this many rows")
    ap.add_argument("--device", action="append", choices=sorted({d for d, _ in
                                                                   DEVICE_OF_CUS.values()}),
                    help="only rows measured on this device (repeatable)")
    ap.add_argument("--skip", type=int, default=0,
                    help="skip the first N selected rows (to resume a run)")
    ap.add_argument("--family", action="append", choices=FAMILIES,
                    help="only rows of this kernel family (repeatable)")
    ap.add_argument("--only", action="append", metavar="REGEX",
                    help="only rows whose line 'family device kernel shape' (as --summarize "
                         "prints them, e.g. 'fmoe_stage1 mi308x "
                         "fmoe_stage1_bf16_pertokenFp8_g1u1_32x64_4tg_pf3 32 7168 256 256 8') "
                         "this regular expression matches (re.search; repeatable: any of "
                         "them); applied before --skip and --rows")
    ap.add_argument("--csv", help="append each finished row to this CSV file")
    ap.add_argument("--summarize", nargs="+", metavar="CSV",
                    help="run nothing: print the rows of these --csv files as a Markdown "
                         "table and their medians")
    ap.add_argument("--trend", metavar="TILE",
                    help="run nothing: AMD's M = 1 times of this f4gemm tile (e.g. 32x128) "
                         "against K, a least-squares line and each row's residual")
    return ap


def main(argv=None):
    ap = parser()
    args = ap.parse_args(argv)
    if args.trend:
        return trend(args.trend)
    if args.summarize:
        return summarize(args.summarize)
    try:
        only = [re.compile(p) for p in args.only or ()]
    except re.error as e:
        ap.error(f"--only: {e}")
    if not wheel.available():
        print("the amd-aiter wheel is not installed (make deps)")
        return 1
    rows = select(args, only)
    print(f"{'device':7} {'kernel':62} {'shape (tok dim inter E topk / MxNxK)':36} "
          f"{'measured us':>11} {'sim us':>8} {'sim/meas':>8} {'cpu s':>6}")
    done = []
    for r in rows:
        t0 = time.perf_counter()
        res = run(r)
        r["simulated"] = res.microseconds
        r["ratio"] = r["simulated"] / r["measured"]
        print(f"{r['device']:7} {short(r['kernel']):62} {shape(r):36} {r['measured']:11.2f} "
              f"{r['simulated']:8.2f} {r['ratio']:8.3f} {time.perf_counter() - t0:6.1f}",
              flush=True)
        done.append(r)
        if args.csv:
            append_csv(args.csv, r)
    if not done:
        print("no rows")
        return 1
    print()
    report(done)
    return 0


CSV_FIELDS = ("family", "device", "kernel", "shape", "measured", "simulated")


def append_csv(path, r):
    import os
    new = not os.path.exists(path)
    with open(path, "a", newline="") as f:
        w = csv.writer(f)
        if new:
            w.writerow(CSV_FIELDS)
        w.writerow([r["family"], r["device"], short(r["kernel"]), shape(r),
                    f"{r['measured']:.4f}", f"{r['simulated']:.4f}"])


def summarize(paths):
    """The rows of --csv files (later files win for a repeated launch) as a
    Markdown table, then the medians."""
    rows = {}
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                r["measured"], r["simulated"] = float(r["measured"]), float(r["simulated"])
                r["ratio"] = r["simulated"] / r["measured"]
                rows[(r["family"], r["device"], r["kernel"], r["shape"])] = r
    done = list(rows.values())
    print("| family | device | kernel | shape | measured us | simulated us | sim/meas |")
    print("|---|---|---|---|---|---|---|")
    for r in done:
        print(f"| {r['family']} | {r['device']} | {r['kernel']} | {r['shape']} | "
              f"{r['measured']:.2f} | {r['simulated']:.2f} | {r['ratio']:.3f} |")
    print()
    report(done)
    return 0


def report(done):
    for title, by in (("per device", lambda r: r["device"]),
                      ("per family", lambda r: r["family"]),
                      ("per family and device", lambda r: r["family"] + " " + r["device"])):
        print(title + ":")
        for g, (n, med, worst) in summary(done, by).items():
            print(f"  {g:50} rows {n:3}  median |sim/meas-1| {med:6.1%}  worst {worst:6.1%}")
    errs = [abs(r["ratio"] - 1) for r in done]
    print(f"\nall: {len(done)} launches, median |sim/meas-1| {statistics.median(errs):.1%}, "
          f"worst {max(errs):.1%}; geometric mean sim/meas "
          f"{statistics.geometric_mean([r['ratio'] for r in done]):.3f}; "
          f"rows off by more than 35%: {sum(e > 0.35 for e in errs)}")


if __name__ == "__main__":
    sys.exit(main())
