"""aster's generated attention forward against AMD's hand-written asm
flash-attention forward, side by side in one run on aster's emulator with its
timing model (MI300X profile, gfx942; --arch gfx950: MI355X and AMD's gfx950
code objects).

    python bench/bench_attention_vs_aiter.py                   # every shape, 1 process
    python bench/bench_attention_vs_aiter.py --shapes 2x32x32x1024,1x8x1x8192c
    python bench/bench_attention_vs_aiter.py --jobs 2
    python bench/bench_attention_vs_aiter.py --device mi308x   # a smaller device, for tuning
    python bench/bench_attention_vs_aiter.py --arch gfx950     # MI355X: AMD's gfx950 code objects
    python bench/bench_attention_vs_aiter.py --decode          # decode vs AMD's paged attention
    python bench/bench_attention_vs_aiter.py --decode --shapes 1x64x8x1024
    python bench/bench_attention_vs_aiter.py --varlen          # packed variable lengths

The timing model is the default one: launches of at least 1024 waves run
grouped (each XCD's CUs a group); `ASTER_TIMING_THREADS=1` gives the same
cycles on one host thread (with --jobs 2 on a shared machine),
`ASTER_TIMING_THREADS=0` the one-group model that docs/attention.md's
older figures were measured on.

AMD's side: `aster.aiter.fmha_fwd.run` (the amd-aiter wheel's `fmha_v3_fwd`
code objects for gfx942, bf16, head dim 128, launched as aiter's
asm_mha_fwd.cu / fmha_v3_fwd codegen.py do: their packed fmha_fwd_v3_args,
grid, block 512, the `rtna` bf16 conversion of P). The wheel has no head
dim 64 and no f16 forward, so the bench compares bf16 at d = 128 only.
aster's side: `aster.ops.attention(q, k, v, causal=)` with its own config
choice. AMD's kernel takes [batch, seq, heads, d]; the same tensors are
passed to it transposed (copies, outside the timed launch).

Both outputs are checked against the float64 definition
(aster.generators.attention.reference) within the bound
tests/py/test_attention.py states (P rounded to bf16: |O - O_ref| <= 2^-8
max|v|, here with a 1.25 margin); AMD's output is bf16, so it is allowed one
more bf16 rounding of O (2^-8 |O| <= 2^-8 max|v|). The reference is
computed 512 query rows at a time.

Printed per shape: device time in microseconds (`LaunchResult.microseconds`:
the timing model's launch cost plus the cycles at the profile's clock under
the launch's MFMA load), whole-device TFLOP/s (4 b h s_q s_k d flops, half
of them under a causal mask with s_q = s_k; the whole device, not the busy
CUs), aiter/aster (aster's speed-up by device time), workgroups of each
launch and the host seconds each emulation took.

--decode: one query token per sequence against a long KV (DECODE_SHAPES,
BxHxHKxSK, bf16, d = 128). AMD's side: `aster.aiter.pa.run`, the wheel's
asm paged attention (pa_bf16_noquant_gqa{8,16}_1tg_4w, chosen and launched
as aiter's asm_pa.cu does: grid (kv_heads, batch), block 256), with a
trivially ordered block table (sequence s's block i is cache block s
max_blocks + i, 16 tokens each) over caches holding the same keys and
values: the same bytes to read as aster's contiguous k and v. Its strict
mode is off (its main loop reads a block-table register under a wait that
does not cover it: aster.aiter.pa.run) and it gets 4 KiB of allocator slack
(it reads block-table entries past the table, tests/py/aiter/test_aiter_pa.py).
aster's side: `aster.ops.attention_decode` (one launch: split-KV with the
merge by each head's last split; the split count its own). Both checked against the
float64 definition: aster's O within 1.25 2^-8 max|v| (P rounded to bf16),
AMD's bf16 O within one more bf16 rounding. TB/s: K and V bytes over the
device time (the KV read is the whole cost of decode).

--varlen: sequences of different lengths packed in one launch
(VARLEN_SHAPES; bf16, d = 128, q and k of one length per sequence): AMD's
side `aster.aiter.fmha_fwd.run_group` (the wheel's group-mode
`fmha_v3_fwd` code objects, `*_group.co`, launched as aiter's
asm_mha_varlen_fwd.cu and codegen.py's group dispatcher do, on [total,
heads, 128] tensors with two K tiles (2 x 32 rows) of allocator slack: the
kernels read up to a tile past the end of K, tests/py/test_attention_varlen.py), aster's `aster.ops.attention(...,
cu_seqlens_q=, cu_seqlens_k=)` on the same (heads, total, 128) tensors;
both checked against the definition per sequence; TFLOP/s over the
sequences' own flops (4 h n^2 d each, half under the mask).
"""
import argparse
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
import _path  # noqa: E402,F401  (finds aster in a source checkout)

# (batch, heads, kv_heads, seq, causal): prefill shapes with at least 304
# aster workgroups (128 query rows each) on MI300X's 304 CUs; GQA where
# kv_heads < heads. Sizes keep each side's emulation to minutes on a shared
# 2-core machine.
SHAPES = [
    (4, 32, 32, 512, False),
    (4, 32, 32, 512, True),
    (2, 32, 32, 1024, False),
    (2, 32, 8, 1024, True),
    (1, 32, 8, 2048, False),
    (1, 32, 32, 2048, True),
    (1, 16, 16, 4096, True),
    (1, 8, 1, 8192, True),
]


# (batch, heads, kv_heads, seq_k): decode, one query token; GQA 8:1 (AMD's
# gqa8 kernel) and 16:1 (its gqa16 kernel). Not 4:1: get_heuristic_kernel
# rounds it up to the gqa8 kernel, which writes 8 heads of O per kv head
# (past the end of a 4:1 output: the emulator stops it).
DECODE_SHAPES = [
    (1, 64, 8, 1024),
    (1, 64, 8, 16384),
    (4, 32, 4, 8192),
    (8, 64, 8, 2048),
    (16, 64, 8, 4096),
    (64, 64, 8, 1024),
    (2, 128, 8, 8192),
    (8, 64, 8, 4096),       # GQA 8:1 at 4k-8k keys with 32-64 sequences: AMD's kernel
    (4, 64, 8, 8192),       # has 32-64 workgroups of 4 waves, streaming at 3.2-3.6 TB/s
]


# (heads, kv_heads, sequence lengths (q and k alike), causal): variable
# lengths packed in one launch, the batch's odd lengths 77-1500
VARLEN_SHAPES = [
    (16, 16, (300, 1000, 77, 640, 1500, 220, 512, 900), False),
    (16, 4, (300, 1000, 77, 640, 1500, 220, 512, 900), True),
]


def _parse(text):
    causal = text.endswith("c")
    b, h, hk, s = (int(x) for x in text.rstrip("c").split("x"))
    return b, h, hk, s, causal


def _name(shape):
    b, h, hk, s, causal = shape
    return f"{b}x{h}x{hk}x{s}{'c' if causal else ''}"


def _max_error(o, q, k, v, causal, rows=512):
    """max |o - O_ref| with O_ref from the definition in float64, a block of
    query rows at a time (the whole score matrix of an 8192-long sequence
    would not fit in memory)."""
    b, h, s, d = q.shape
    grp = h // k.shape[1]
    scale = 1.0 / math.sqrt(d)
    worst = 0.0
    for bi in range(b):
        for hi in range(h):
            kf = k[bi, hi // grp].astype(np.float64)
            vf = v[bi, hi // grp].astype(np.float64)
            for r0 in range(0, s, rows):
                qf = q[bi, hi, r0:r0 + rows].astype(np.float64)
                sc = qf @ kf.T * scale
                if causal:
                    sc = np.where(np.arange(s)[None, :] <= np.arange(r0, r0 + len(qf))[:, None],
                                  sc, -np.inf)
                e = np.exp(sc - sc.max(axis=1, keepdims=True))
                ref = (e / e.sum(axis=1, keepdims=True)) @ vf
                worst = max(worst, float(np.abs(o[bi, hi, r0:r0 + rows] - ref).max()))
    return worst


def run_one(shape, device, arch="gfx942"):
    import ml_dtypes

    import aster
    from aster.aiter import fmha_fwd
    b, h, hk, s, causal = shape
    d = 128
    bf = np.dtype(ml_dtypes.bfloat16)
    g = np.random.default_rng(0)
    q = g.normal(size=(b, h, s, d)).astype(bf)
    k = g.normal(size=(b, hk, s, d)).astype(bf)
    v = g.normal(size=(b, hk, s, d)).astype(bf)
    bound = 1.25 * 2.0 ** -8 * np.abs(v.astype(np.float64)).max() + 1e-5
    t0 = time.time()
    o, r = aster.ops.attention(q, k, v, causal=causal, timing=True, device=device, target=arch)
    t_aster = time.time() - t0
    ok_aster = _max_error(o, q, k, v, causal) <= bound
    bshd = [np.ascontiguousarray(x.transpose(0, 2, 1, 3)) for x in (q, k, v)]
    t0 = time.time()
    # gfx950's kernel prefetches the next 64-row K tile (16 KiB) past the end
    # of K (tests/py/aiter/test_aiter_fmha_fwd.py): a framework's slack
    oa, _, ra = fmha_fwd.run(*bshd, causal=causal, timing=True, profile=device, arch=arch,
                             slack=16384 if arch == "gfx950" else 0)
    t_aiter = time.time() - t0
    oa = oa.astype(np.float64).transpose(0, 2, 1, 3)
    # one more bf16 rounding of O (|O| <= max|v|)
    ok_aiter = _max_error(oa, q, k, v, causal) <= bound + 2.0 ** -8 * np.abs(
        v.astype(np.float64)).max()
    flops = 4.0 * b * h * s * s * d / (2 if causal else 1)
    return dict(shape=shape, aster_us=r.microseconds, aiter_us=ra.microseconds,
                aster_tf=flops / r.microseconds / 1e6, aiter_tf=flops / ra.microseconds / 1e6,
                aster_wg=r.workgroups, aiter_wg=ra.workgroups, aster_cfg=r.config.name,
                t_aster=t_aster, t_aiter=t_aiter, ok_aster=bool(ok_aster),
                ok_aiter=bool(ok_aiter))


def _decode_error(o, q, k, v):
    """max |o - O_ref|, O_ref from the definition in float64, a sequence at a
    time; q (b, h, d), k and v (b, hk, sk, d), o (b, h, d)."""
    b, h, d = q.shape
    hk = k.shape[1]
    worst = 0.0
    for bi in range(b):
        qf = q[bi].astype(np.float64).reshape(hk, h // hk, d)
        kf, vf = k[bi].astype(np.float64), v[bi].astype(np.float64)
        sc = np.einsum("grd,gkd->grk", qf, kf) / math.sqrt(d)
        e = np.exp(sc - sc.max(axis=-1, keepdims=True))
        ref = np.einsum("grk,gkd->grd", e / e.sum(axis=-1, keepdims=True), vf)
        worst = max(worst, float(np.abs(o[bi].reshape(hk, h // hk, d) - ref).max()))
    return worst


def run_decode(shape, device, arch="gfx942"):
    import ml_dtypes

    import aster
    from aster.aiter import pa
    b, h, hk, sk = shape
    d, bs = 128, 16
    bf = np.dtype(ml_dtypes.bfloat16)
    g = np.random.default_rng(0)
    q = g.normal(size=(b, h, d)).astype(bf)
    k = g.normal(size=(b, hk, sk, d)).astype(bf)
    v = g.normal(size=(b, hk, sk, d)).astype(bf)
    vmax = np.abs(v.astype(np.float32)).max()
    bound = 1.25 * 2.0 ** -8 * vmax + 1e-5
    t0 = time.time()
    o, r = aster.ops.attention_decode(q[:, :, None, :], k, v, timing=True, device=device,
                                      target=arch)
    t_aster = time.time() - t0
    ok_aster = _decode_error(o[:, :, 0, :], q, k, v) <= bound
    # the paged caches: sequence s's block i is cache block s * max_blocks + i
    mb = sk // bs

    def paged(x):
        return np.ascontiguousarray(x.reshape(b, hk, mb, bs, d).transpose(0, 2, 1, 3, 4)
                                    .reshape(b * mb, hk, bs, d))
    kc, vc = pa.k_cache_layout(paged(k)), pa.v_cache_layout(paged(v))
    bt = np.arange(b * mb, dtype=np.int32).reshape(b, mb)
    t0 = time.time()
    oa, ra = pa.run(q, kc, vc, bt, np.full(b, sk, np.int32), arch=arch, timing=True,
                    profile=device, slack=4096, strict=False)
    t_aiter = time.time() - t0
    ok_aiter = _decode_error(oa.astype(np.float64), q, k, v) <= bound + 2.0 ** -8 * vmax
    kv_bytes = 2.0 * b * hk * sk * d * 2
    return dict(shape=shape, aster_us=r.microseconds, aiter_us=ra.microseconds,
                aster_tbs=kv_bytes / r.microseconds / 1e6, aiter_tbs=kv_bytes / ra.microseconds / 1e6,
                aster_wg=sum(x.workgroups for x in r.launches), aiter_wg=ra.workgroups,
                splits=r.splits, t_aster=t_aster,
                t_aiter=t_aiter, ok_aster=bool(ok_aster), ok_aiter=bool(ok_aiter),
                aster_cfg=r.config.name)


def run_varlen(shape, device, arch="gfx942"):
    import ml_dtypes

    import aster
    from aster.aiter import fmha_fwd
    from aster.generators.attention import reference
    h, hk, lens, causal = shape
    d = 128
    bf = np.dtype(ml_dtypes.bfloat16)
    g = np.random.default_rng(0)
    cu = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    q = g.normal(size=(h, cu[-1], d)).astype(bf)
    k = g.normal(size=(hk, cu[-1], d)).astype(bf)
    v = g.normal(size=(hk, cu[-1], d)).astype(bf)
    vmax = np.abs(v.astype(np.float64)).max()
    bound = 1.25 * 2.0 ** -8 * vmax + 1e-5
    t0 = time.time()
    o, r = aster.ops.attention(q, k, v, causal=causal, timing=True, device=device, target=arch,
                               cu_seqlens_q=cu, cu_seqlens_k=cu)
    t_aster = time.time() - t0
    t0 = time.time()
    # the group kernels read up to a 32-row K tile past the end of K (as
    # the batch mode's gfx950 kernel): a framework's allocator slack of two
    # tiles
    oa, _, ra = fmha_fwd.run_group(*(np.ascontiguousarray(x.transpose(1, 0, 2))
                                     for x in (q, k, v)), cu, cu, causal=causal, timing=True,
                                   profile=device, arch=arch, slack=2 * 32 * hk * d * 2)
    t_aiter = time.time() - t0
    oa = oa.astype(np.float64).transpose(1, 0, 2)
    err_aster = err_aiter = 0.0
    for i in range(len(lens)):
        rows = slice(cu[i], cu[i + 1])
        ref, _ = reference(q[None, :, rows], k[None, :, rows], v[None, :, rows], causal)
        err_aster = max(err_aster, float(np.abs(o[:, rows] - ref[0]).max()))
        err_aiter = max(err_aiter, float(np.abs(oa[:, rows] - ref[0]).max()))
    flops = sum(4.0 * h * n * n * d / (2 if causal else 1) for n in lens)
    return dict(shape=shape, aster_us=r.microseconds, aiter_us=ra.microseconds,
                aster_tf=flops / r.microseconds / 1e6, aiter_tf=flops / ra.microseconds / 1e6,
                aster_wg=r.workgroups, aiter_wg=ra.workgroups, t_aster=t_aster, t_aiter=t_aiter,
                ok_aster=err_aster <= bound, ok_aiter=err_aiter <= bound + 2.0 ** -8 * vmax)


def _table(args, run, shapes, head, row, configs=True):
    """Runs `run(shape, device, arch)` over `shapes` (args.jobs processes),
    printing the markdown table `head` with `row(result, aiter/aster)`'s
    cells, then each side's emulation seconds and NumPy check; then the
    geometric mean and the lowest ratio. Exits 1 if a result is wrong."""
    print(head)
    print("|---" * (head.count("|") - 1) + "|")
    t0 = time.time()
    ratios, results = [], []
    with ProcessPoolExecutor(args.jobs) as ex:
        for x in ex.map(run, shapes, [args.device] * len(shapes), [args.arch] * len(shapes)):
            results.append(x)
            ratio = x["aiter_us"] / x["aster_us"]
            ratios.append(ratio)
            ok = ["ok" if x[k] else "FAIL" for k in ("ok_aiter", "ok_aster")]
            print("| " + " | ".join(row(x, ratio)) + f" | {x['t_aiter']:.0f} / {x['t_aster']:.0f} | "
                  f"{ok[0]} / {ok[1]} |", flush=True)
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    cfgs = (f"; aster configs: {sorted(set(x['aster_cfg'] for x in results))}"
            if configs else "")
    print(f"\ngeometric mean aiter/aster: {geo:.3f} over {len(ratios)} shapes, lowest "
          f"{min(ratios):.3f}; {args.arch}, device {args.device or 'flagship'}{cfgs}; wall "
          f"{time.time() - t0:.0f} s")
    if not all(x["ok_aster"] and x["ok_aiter"] for x in results):
        sys.exit(1)


def _times(x, rate="tf", fmt=".1f"):
    """The aiter time, aiter rate, aster time and aster rate cells of a row."""
    return [f"{x['aiter_us']:.2f}", f"{x['aiter_' + rate]:{fmt}}", f"{x['aster_us']:.2f}",
            f"{x['aster_' + rate]:{fmt}}"]


def main_varlen(args):
    def row(x, ratio):
        h, hk, lens, causal = x["shape"]
        return ([f"{h}x{hk}", ",".join(map(str, lens)), "yes" if causal else "no"] +
                _times(x) + [f"{ratio:.3f}", f"{x['aiter_wg']} / {x['aster_wg']}"])
    _table(args, run_varlen, VARLEN_SHAPES,
           "| heads x kv_heads | sequence lengths | causal | aiter us | aiter TFLOP/s | aster us | "
           "aster TFLOP/s | aiter/aster | workgroups (aiter / aster) | emulation s (aiter / "
           "aster) | NumPy (aiter / aster) |", row, configs=False)


def main_decode(args):
    shapes = ([tuple(int(x) for x in t.split("x")) for t in args.shapes.split(",")]
              if args.shapes else DECODE_SHAPES)

    def row(x, ratio):
        b, h, hk, sk = x["shape"]
        return ([f"{b}x{h}x{hk}x{sk}"] + _times(x, "tbs", ".2f") +
                [str(x["splits"]), f"{ratio:.3f}", f"{x['aiter_wg']} / {x['aster_wg']}"])
    _table(args, run_decode, shapes,
           "| batch x heads x kv_heads x seq_k | aiter us | aiter TB/s | aster us | aster TB/s | "
           "splits | aiter/aster | workgroups (aiter / aster) | emulation s (aiter / aster) | "
           "NumPy (aiter / aster) |", row)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--shapes", help="comma-separated BxHxHKxS[c] (c: causal)")
    p.add_argument("--jobs", type=int, default=1, help="processes (at most 2 on a shared box)")
    p.add_argument("--device", default=None, help="timing model profile (default: the "
                   "arch's flagship, MI300X / MI355X)")
    p.add_argument("--arch", default="gfx942", choices=("gfx942", "gfx950"))
    p.add_argument("--decode", action="store_true", help="the decode table: aster's "
                   "split-KV decode against AMD's asm paged attention")
    p.add_argument("--varlen", action="store_true", help="variable sequence lengths packed in "
                   "one launch (cu_seqlens) against AMD's group-mode fmha_v3_fwd")
    args = p.parse_args()
    if args.decode:
        return main_decode(args)
    if args.varlen:
        return main_varlen(args)
    shapes = [_parse(x) for x in args.shapes.split(",")] if args.shapes else SHAPES

    def row(x, ratio):
        b, h, hk, sq, causal = x["shape"]
        return ([f"{b}x{h}x{hk}x{sq}", "yes" if causal else "no"] + _times(x) +
                [f"{ratio:.3f}", f"{x['aiter_wg']} / {x['aster_wg']}"])
    _table(args, run_one, shapes,
           "| batch x heads x kv_heads x seq | causal | aiter us | aiter TFLOP/s | aster us | "
           "aster TFLOP/s | aiter/aster | workgroups (aiter / aster) | emulation s "
           "(aiter / aster) | NumPy (aiter / aster) |", row)


if __name__ == "__main__":
    main()
