"""aster's GEMM library against AMD's hand-written asm GEMM, side by side in one
run on aster's emulator with its timing model (MI300X, gfx942).

    python bench/bench_gemm_vs_aiter.py                  # every shape, 2 processes
    python bench/bench_gemm_vs_aiter.py --shapes 64x256x5120,1024x1024x1024
    python bench/bench_gemm_vs_aiter.py --jobs 1 --markdown
    python bench/bench_gemm_vs_aiter.py --arch gfx950      # MI355X: AMD's gfx950 code objects
    python bench/bench_gemm_vs_aiter.py --a8w8             # int8 A, B, scales, bias, bf16 out
    python bench/bench_gemm_vs_aiter.py --blockscale-fp8   # gfx950 block-scale fp8 (MI355X)
    python bench/bench_gemm_vs_aiter.py --check-pick 3     # also simulate dispatch's next 2

--blockscale-fp8 (gfx950, MI355X): AMD's block-scale fp8 GEMM
(`aster.aiter.gemm_blockscale`, f8_block_scale_mi350_x{32,128}.co launched
as asm_mi350_a8w8_blockscale.cu does) against `aster.ops.gemm(A, B,
trans_b=True, scale_a=, scale_b=, block_scale=128, arch="gfx950")` on
`BLOCKSCALE_SHAPES` (AMD's constraints: N and K multiples of 128, K >= 512,
M >= 16); OCP fp8 inputs that are multiples of 1/4 in [-2, 2] and
power-of-two scales, so both results must equal NumPy's (aiter's reference
formula in float64, rounded to bf16). AMD's kernel sums wrongly on the
emulator when M or N leaves a partial tile (aster.aiter.gemm_blockscale's
module doc): those rows are marked and the geometric mean is printed over
all shapes and over the whole-tile ones.

--a8w8: AMD's i8gemm code objects (`aster.aiter.gemm.a8w8`, asm_gemm_a8w8.cu's
launch) against `aster.ops.gemm(A, B, trans_b=True, scale_a=, scale_b=,
bias=)`; int8 inputs in [-8, 8], scales multiples of 1/8: aster's bf16
result must equal NumPy's (exact, then f32, then bf16 round to nearest
even); AMD's, which rounds its f32 steps in its own order, within one bf16
ulp of the exact value.

AMD's side: `aster.aiter.gemm.bf16` (the code objects of the amd-aiter wheel,
launched as aiter's asm_gemm_a16w16.cu does: its KernelArgs, grid, block, its
tile/split-K heuristic and the zero fill before split-K). aster's side:
`aster.ops.gemm(A, B, trans_b=True)` with its own dispatch (`choose`). Both
compute A (M x K bf16) @ B.T (B: N x K bf16) in f32 and both results are
checked against NumPy (inputs are multiples of 1/4 in [-2, 2], so every sum
is exact in f32 and the check is equality).

Printed per shape: both GEMM kernels' simulated cycles, the device time in
microseconds of every launch each side makes (`LaunchResult.microseconds`: the
timing model's launch cost plus the cycles at the device profile's clock under
the launch's MFMA load), whole-device TFLOP/s (2 M N K / time; the whole
device, not the CUs that were busy) and aiter/aster (the speed-up of aster, by
device time). Launches counted: AMD's side launches a zero fill of D before a
split-K GEMM (asm_gemm_a16w16.cu's ``out.zero_()``; `aiter fill us`: aster.ops.fill's
zero fill kernel of D on the same profile stands in for torch's); aster's
split-K kernels need no zero fill (workgroup z = 0 zeroes C, or, names
ending `n`, split 0 stores and the others add), so aster launches the GEMM
alone. `aster est. cycles`: the dispatch estimate
(`aster.ops.plan`) of the kernel it chose, next to its simulated cycles.
"""
import argparse
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import _path  # noqa: E402,F401  (finds aster in a source checkout)


# (class, M, N, K): AMD's bf16 kernels need N % 64 == 0 and K % 64 == 0 (its
# interface checks K; N selects the tiles); M is free (odd and prime M here).
# Sizes keep each simulation under ~30 s on a shared 2-core machine (the
# 2048^3 and 4096x4096x512 launches take minutes each; --shapes runs them).
SHAPES = [
    ("decode", 1, 4096, 4096),
    ("decode", 16, 2048, 4096),
    ("decode", 32, 1280, 8192),
    ("decode", 64, 256, 5120),
    ("decode", 128, 1280, 8192),
    ("decode", 256, 256, 5120),
    ("prefill", 512, 1024, 4096),
    ("square", 1024, 1024, 1024),
    ("square", 768, 768, 768),
    ("N-heavy", 256, 4096, 512),
    ("N-heavy", 64, 8192, 1024),
    ("K-heavy", 128, 128, 16384),
    ("K-heavy", 256, 512, 8192),
    ("odd", 7, 3072, 2048),
    ("odd", 97, 1536, 2048),
    ("odd", 257, 768, 1536),
    ("odd", 1021, 512, 640),
    # wave quantisation: 323 tiles of 64x64 for 304 CUs (MI300X), a second
    # round of 19 tiles unless stream-K evens it out (aster.ops.dispatch)
    ("wave-quant", 1216, 1088, 4096),
]


# --a8w8: the same shapes, but AMD's a8w8 kernels need N % 128 == 0: the
# wave-quantisation shape there is 1216 x 1152 (342 tiles of 64x64 for 304 CUs)
A8W8_SHAPES = SHAPES[:-1] + [("wave-quant", 1216, 1152, 4096)]


# (class, M, N, K) for --blockscale-fp8: N and K multiples of 128, K >= 512,
# M >= 16 (AMD's interface checks); the "odd" shapes leave partial tiles of
# AMD's kernel (M not a multiple of 32 / 128, or N of 256).
BLOCKSCALE_SHAPES = [
    ("decode", 32, 4096, 4096),
    ("decode", 32, 2048, 4096),
    ("decode", 32, 1280, 8192),
    ("decode", 128, 256, 5120),
    ("decode", 128, 1280, 8192),
    ("decode", 256, 256, 5120),
    ("prefill", 512, 1024, 4096),
    ("square", 1024, 1024, 1024),
    ("square", 768, 768, 768),
    ("N-heavy", 256, 4096, 512),
    ("N-heavy", 128, 8192, 1024),
    ("K-heavy", 128, 256, 16384),
    ("K-heavy", 256, 512, 8192),
    ("odd", 16, 3072, 2048),
    ("odd", 97, 1536, 2048),
    ("odd", 257, 768, 1536),
    ("odd", 1021, 512, 640),
]


def parse_shape(s):
    m, n, k = (int(x) for x in s.lower().split("x"))
    return ("given", m, n, k)


def inputs(m, n, k, seed=0):
    import ml_dtypes
    rng = np.random.default_rng(seed)
    a = (rng.integers(-8, 9, (m, k)) / 4).astype(ml_dtypes.bfloat16)
    b = (rng.integers(-8, 9, (n, k)) / 4).astype(ml_dtypes.bfloat16)
    return a, b


def run_a8w8(shape, libdir, arch):
    import ml_dtypes
    import aster.aiter.gemm as agemm
    import aster.ops
    cls, m, n, k = shape
    rng = np.random.default_rng(0)
    a = rng.integers(-8, 9, (m, k)).astype(np.int8)
    b = rng.integers(-8, 9, (n, k)).astype(np.int8)
    sa = (rng.integers(1, 5, m) / 4).astype(np.float32)
    sb = (rng.integers(1, 5, n) / 8).astype(np.float32)
    bias = (rng.integers(-4, 5, n) / 2).astype(np.float32)
    ref = (a.astype(np.float64) @ b.astype(np.float64).T) * sa[:, None] * sb[None, :] + bias
    rne = ref.astype(np.float32).astype(ml_dtypes.bfloat16)
    ulp = np.spacing(np.abs(rne)).astype(np.float64)
    t = time.perf_counter()
    d, ra = agemm.a8w8(a, b, sa, sb, bias, timing=True, arch=arch)
    ta = time.perf_counter() - t
    t = time.perf_counter()
    c, rs = aster.ops.gemm(a, b, trans_b=True, scale_a=sa, scale_b=sb, bias=bias, timing=True,
                           library=aster.ops.Library(libdir), arch=arch)
    ts = time.perf_counter() - t
    return dict(cls=cls, shape=(m, n, k), arch=arch, aiter=ra.cycles,
                aiter_us=ra.total_us, aiter_fill_us=ra.fill_us, aster_us=rs.microseconds,
                aster_est=rs.plan.cycles,
                aiter_kernel=f"{ra.kernel.tile}", aster=rs.cycles,
                aster_kernel=rs.plan.name.replace("gemm_i8_", ""),
                aiter_ok=bool((np.abs(d.astype(np.float64) - ref) <= ulp).all()),
                aster_ok=bool(np.array_equal(c, rne)), emu_s=(ta, ts))


def run_blockscale(shape, libdir):
    import ml_dtypes
    import aster.aiter.gemm_blockscale as bs
    import aster.ops
    cls, m, n, k = shape
    rng = np.random.default_rng(0)
    f8 = ml_dtypes.float8_e4m3fn
    a = (rng.integers(-8, 9, (m, k)) / 4).astype(f8)
    b = (rng.integers(-8, 9, (n, k)) / 4).astype(f8)
    sa = (2.0 ** rng.integers(-3, 3, (m, -(-k // 128)))).astype(np.float32)
    sb = (2.0 ** rng.integers(-3, 3, (-(-n // 128), -(-k // 128)))).astype(np.float32)
    ref = bs.reference(a, b, sa, sb)
    t = time.perf_counter()
    d, ra = bs.run(a, b, sa, sb, timing=True)
    ta = time.perf_counter() - t
    t = time.perf_counter()
    c, rs = aster.ops.gemm(a, b, trans_b=True, scale_a=sa, scale_b=sb, block_scale=128,
                           timing=True, library=aster.ops.Library(libdir), arch="gfx950")
    ts = time.perf_counter() - t
    return dict(cls=cls, shape=(m, n, k), arch="gfx950", aiter=ra.cycles,
                aiter_us=ra.microseconds, aiter_fill_us=0.0, aster_us=rs.microseconds,
                aster_est=rs.plan.cycles, aiter_kernel=ra.kernel.tile, aster=rs.cycles,
                aster_kernel=rs.plan.name.replace("gemm_ofp8_", ""),
                aiter_ok=bool(np.array_equal(d, ref)), aster_ok=bool(np.array_equal(c, ref)),
                whole=bs.whole_tiles(m, n), emu_s=(ta, ts))


def run_shape(job):
    """Both GEMMs of one shape (with the library in `libdir`): a dict of
    what was measured."""
    import aster.aiter.gemm as agemm
    import aster.ops
    shape, libdir, arch, a8w8, check = job
    if a8w8 == "blockscale":
        return check_pick(run_blockscale(shape, libdir), libdir, "ofp8", check, True)
    if a8w8:
        return check_pick(run_a8w8(shape, libdir, arch), libdir, "i8", check)
    cls, m, n, k = shape
    a, b = inputs(m, n, k)
    ref = a.astype(np.float64) @ b.astype(np.float64).T
    t = time.perf_counter()
    d, ra = agemm.bf16(a, b, timing=True, arch=arch)
    ta = time.perf_counter() - t
    t = time.perf_counter()
    c, rs = aster.ops.gemm(a, b, trans_b=True, timing=True, library=aster.ops.Library(libdir),
                           arch=arch)
    ts = time.perf_counter() - t
    return check_pick(dict(cls=cls, shape=(m, n, k), arch=arch, aiter=ra.cycles,
                           aiter_us=ra.total_us, aiter_fill_us=ra.fill_us,
                           aster_us=rs.microseconds, aster_est=rs.plan.cycles,
                           aiter_kernel=f"{ra.kernel.tile} sk{ra.splitk}", aster=rs.cycles,
                           aster_kernel=rs.plan.name.replace("gemm_bf16_", ""),
                           aiter_ok=bool(np.array_equal(d, ref)),
                           aster_ok=bool(np.array_equal(c, ref)), emu_s=(ta, ts)),
                      libdir, "bf16", check)


def check_pick(row, libdir, dtype, n, block_scale=False):
    """--check-pick n: the dispatch's best n launches by its estimate
    (`aster.ops.dispatch.candidates`; the first is the pick, run above)
    simulated on zero inputs (`aster.ops.library.run`; stream-K ones are
    skipped); adds pick_best (the pick's device time over the fastest's)
    and best (that launch's name)."""
    if not n:
        return row
    import aster.ops
    from aster.ops import library as lb
    m, nn, k = row["shape"]
    lib = aster.ops.Library(libdir)
    plans = aster.ops.dispatch.candidates(lib, m, nn, k, dtype=dtype, trans_b=True,
                                          arch=row["arch"], block_scale=block_scale)
    best, name = row["aster_us"], row["aster_kernel"]
    for p in plans[1:n]:
        if p.entry.config.stream_k:
            continue
        r = lb.run(lib.code(p.entry), p.entry.config, (m, nn, k), p.splits, zwg=p.zwg)
        if r.microseconds < best:
            best, name = r.microseconds, p.name
    row.update(pick_best=row["aster_us"] / best, best=name)
    return row


def tflops(m, n, k, us):
    return 2 * m * n * k / (us * 1e-6) / 1e12


def report(rows, markdown):
    hdr = ("| class | M x N x K | aiter kernel | aiter cycles | aiter fill us | aiter us | "
           "aiter TFLOP/s | aster kernel | aster est. cycles | aster cycles | est/sim | "
           "aster us | aster TFLOP/s | aiter/aster | NumPy |")
    print(hdr)
    print("|" + "---|" * 15)
    logs, errs = [], []
    for r in rows:
        m, n, k = r["shape"]
        ratio = r["aiter_us"] / r["aster_us"]
        logs.append(math.log(ratio))
        errs.append(r["aster_est"] / r["aster"])
        ok = "ok" if r["aiter_ok"] and r["aster_ok"] else \
            f"MISMATCH (aiter {r['aiter_ok']}, aster {r['aster_ok']})"
        if not r.get("whole", True):
            ok += " (AMD: partial tile)"
        print(f"| {r['cls']} | {m}x{n}x{k} | {r['aiter_kernel']} | {r['aiter']} | "
              f"{r['aiter_fill_us']:.2f} | {r['aiter_us']:.2f} | "
              f"{tflops(m, n, k, r['aiter_us']):.1f} | {r['aster_kernel']} | "
              f"{r['aster_est']:.0f} | {r['aster']} | {r['aster_est'] / r['aster']:.2f} | "
              f"{r['aster_us']:.2f} | "
              f"{tflops(m, n, k, r['aster_us']):.1f} | {ratio:.2f} | {ok} |")
    if logs:
        gm = math.exp(sum(logs) / len(logs))
        print(f"\ngeometric-mean speed-up of aster over aiter (device time): {gm:.2f}"
              f" over {len(logs)} shapes; lowest {min(math.exp(x) for x in logs):.2f}")
        whole = [x for x, r in zip(logs, rows) if r.get("whole", True)]
        if len(whole) < len(logs):
            print(f"over the {len(whole)} shapes of whole AMD tiles: "
                  f"{math.exp(sum(whole) / len(whole)):.2f}, lowest "
                  f"{min(math.exp(x) for x in whole):.2f}")
        within = sum(abs(e - 1) <= 0.15 for e in errs)
        print(f"dispatch estimate / simulated cycles: {min(errs):.2f} .. {max(errs):.2f}, "
              f"mean |err| {sum(abs(e - 1) for e in errs) / len(errs):.1%}, "
              f"{within} of {len(errs)} within 15%")
    picks = [r for r in rows if "pick_best" in r]
    if picks:
        worst = max(picks, key=lambda r: r["pick_best"])
        print(f"the pick against the fastest of the estimate's best launches (simulated): "
              f"fastest on {sum(r['pick_best'] <= 1.0 for r in picks)}, within 3% on "
              f"{sum(r['pick_best'] <= 1.03 for r in picks)} of {len(picks)}; worst "
              f"{worst['pick_best']:.3f} ({'x'.join(map(str, worst['shape']))}: "
              f"{worst['best']} faster)")
    if not markdown:
        for r in rows:
            print(f"{r['shape']}: emulation s aiter {r['emu_s'][0]:.1f}, aster {r['emu_s'][1]:.1f}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--shapes", help="comma-separated MxNxK (default: the built-in set)")
    p.add_argument("--jobs", type=int, default=2, help="processes (at most 2 on a shared box)")
    p.add_argument("--markdown", action="store_true", help="only the table")
    p.add_argument("--arch", default="gfx942", choices=("gfx942", "gfx950"))
    p.add_argument("--a8w8", action="store_true", help="int8 GEMMs with scales and bias")
    p.add_argument("--blockscale-fp8", action="store_true",
                   help="gfx950 block-scale fp8 GEMMs (MI355X)")
    p.add_argument("--library", help="a library folder to use instead of the default library")
    p.add_argument("--check-pick", type=int, default=0, metavar="N",
                   help="also simulate the dispatch's next best N - 1 launches (by its "
                        "estimate) and report how much slower the pick is than the fastest")
    args = p.parse_args()
    default = BLOCKSCALE_SHAPES if args.blockscale_fp8 else A8W8_SHAPES if args.a8w8 else SHAPES
    shapes = [parse_shape(s) for s in args.shapes.split(",")] if args.shapes else default
    import aster.ops
    libdir = args.library or aster.ops.default_library().directory  # built before the workers
    kind = "blockscale" if args.blockscale_fp8 else args.a8w8
    jobs = [(s, libdir, args.arch, kind, args.check_pick) for s in shapes]
    rows = []

    def done(r):
        rows.append(r)
        print(f"# {'x'.join(map(str, r['shape']))}: aiter {r['aiter_us']:.2f} us aster "
              f"{r['aster_us']:.2f} us ({r['aster_kernel']}) ratio "
              f"{r['aiter_us'] / r['aster_us']:.2f}", file=sys.stderr, flush=True)
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as ex:
            for f in as_completed([ex.submit(run_shape, j) for j in jobs]):
                done(f.result())
    else:
        for j in jobs:
            done(run_shape(j))
    order = {s[1:]: i for i, s in enumerate(shapes)}
    rows.sort(key=lambda r: order[r["shape"]])
    report(rows, args.markdown)


if __name__ == "__main__":
    main()
