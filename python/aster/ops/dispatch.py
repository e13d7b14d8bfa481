"""`aster.ops.gemm`: C = A @ B (or A @ B.T) in f32 through a library kernel
chosen by a heuristic (or tuning results), on the emulator or a GPU.

The heuristic (`plan`; `choose` is its kernel), for each kernel of the
library matching (arch, dtype, trans_b, C format) and, for a split-K kernel
(`GemmConfig.split_k`: the splits add with buffer_atomic_add_f32, no zero
fill of C before the launch), each split factor up to MAX_SPLITS that
gives a distinct K chunk (`split_factors`) and both ways of starting C:
zwg = 1 (grid z = splits + 1, workgroup z = 0 zeroes its C tile) and
zwg = 0 (grid z = splits, split 0 stores and the others add once it has:
no zero workgroups, but the adders wait for split 0's store):

  1. A shape tuning found a winner for (configs.csv `tuned_for`) takes it
     (a split-K winner with its tuned split).
  2. Otherwise the smallest estimated device time (`estimate_us`) wins
     (ties: fewer wasted edge flops, then the larger tile).

`estimate` (needs: the entry's calibration, configs.csv wg_* columns from
`library.calibrate`: one workgroup alone at two K lengths on the timing
model; guarantees: whole-device cycles of the launch, the per-CU
placement and the waves of workgroups included):

  T        = ceil(M/tm) ceil(N/tn) output tiles; kchunk, splits from
             GemmConfig.kchunk; steps = K steps per workgroup (kchunk
             rounded up to the loop's unroll, so edge waste is paid)
  WGs      = [T zero workgroups (split-K, zwg)] + T x splits K workgroups, in
             dispatch order; workgroup g runs on CU g mod CUs, at most
             wg_per_cu resident per CU, the next one starting when one ends
             (the timing model's placement, cc/emulator/timing/README.md)
  K wg     = wg_fixed (zwg = 0 with 2+ splits: wg_fixed0, which includes
             the wait for split 0's store; zwg = 0 in one split: wg_fixed1,
             a workgroup that stores C and waits for its stores, no poll,
             no adds)
             + max(steps x step + load, steps x resident x wg_lds, bytes /
             HBM): wg_lds = the LDS busy cycles of one workgroup's step
             (the workgroups resident on a CU share its LDS; a floor, the
             probes' waits on memory overlapping it,
             `estimate_terms.lds_cycles`); step = max(wg_step,
             the CU's MFMA time per step shared by the workgroups resident
             on it, their A and B bytes of a step through the CU's vector
             memory pipeline, VMEM_BYTES_PER_CLK); load = the full-device probes' extra cycles at the
             launch's workgroups per CU (wg_load x that share below one
             per CU; between wg_load at one and wg_load_full at wg_per_cu;
             wg_load grown by wg_load_step per K step up to the longest
             probe's steps, `estimate_terms.probe_extra`, except for a
             split-K launch without zero workgroups, unlike the probe),
             once per workgroup, not per step (a split-K launch that only
             stores, one split without zero workgroups: the probes launched
             that way, wg_load1, wg_load1_step, wg_load1_full; the timing model's segment times of a
             stream-K launch show 60-step workgroups on every CU at
             wg_step, and scaling it by the steps ran 1.33-1.44x over on
             512x1024x4096 and 1216x1088x4096, 128x128 split-K tiles); bytes = the HBM
             bytes of A and B (each element once,
             the model's shared L2 / Infinity Cache) of the workgroups
             running at once; HBM = the profile's hbm_tb_s / clock
  zero wg  = wg_zero + C's bytes written by the zero workgroups at once / HBM
  front    = the cycles the first wave of K workgroups loses because its
             first loads (prefetch K steps of A and B per workgroup) lie
             on few of the 128 HBM channels (`hbm_spread.front_excess`:
             rows 2 KiB apart put a column of every row on 16 channels),
             over the same bytes spread on all of them
  cycles   = the latest CU's end + front + max(wg_drain, C's bytes stored
             by the last wave of workgroups / HBM) (a plain launch; a
             split-K launch in one split without zero workgroups: wg_drain1,
             its workgroups waiting for their stores;
             split-K adds at L2: wg_drain x workgroups resident per CU,
             + the turns a tile's adders running together take on its
             counter and C lines at L2 beyond the probe's one adder,
             `estimate_terms.adder_turns`)

`estimate_us` = launch_us + cycles / the clock under the launch's MFMA load
(the timing model's `effectiveMHz`: the profile's clock_mhz falling to
mfma_clock_mhz with the share of matrix cores busy, wg_mfma per step).
A library without calibration (calib=False) falls back to the earlier
per-workgroup formula, `estimate_uncalibrated`.
"""
import hashlib
import os
from dataclasses import dataclass

import numpy as np

from ..generators.gemm import BLOCK_SCALE, BYTE_DTYPES, K_UNROLL, split_counters
from .gemm_operands import _OUT, _block_scales, _i8_pairs, _operand, _padded, _vector
from .library import CUS, PEAK_FLOP_PER_CLK_CU, Library, build_library
from .estimate_terms import LINE_BYTES, VMEM_BYTES_PER_CLK, adder_turns, probe_extra  # noqa: F401
from .estimate_terms import lds_cycles
from .estimate_terms import step_cycles as _step
from .stream_k_estimate import ATOMIC_C_BYTES_PER_ACCESS, estimate_stream_k  # noqa: F401

__all__ = ["split_counters", "loop_utilisation", "gemm", "choose", "plan", "candidates", "Plan",
           "estimate", "estimate_stream_k",
           "estimate_us", "estimate_uncalibrated",
           "kchunk", "default_library",
           "cache_dir", "split_factors", "MAX_SPLITS"]

HBM_BYTES_PER_CLK = 5.3e12 / 2.1e9
DEFAULT_UTILISATION = 0.75
MAX_SPLITS = 64
# A workgroup's fixed cost, WG_BASE + its C tile's bytes / WG_STORE_BYTES_PER_CLK:
# [model] fitted to the timing model (gfx942, bf16, trans_b split-K kernels run
# as one workgroup, K = 128..2048: 64x64 tiles 3.0k cycles + 1.22k per 128 of
# K, 128x128 tiles 4.7k + 3.1k per 128 of K)
WG_BASE = 2400
WG_STORE_BYTES_PER_CLK = 28
# Split-K in one launch (generators/gemm_splitk's protocol): [model]
# measured on the timing model (gfx942, bf16, trans_b): a split's wait for
# its tile's counter adds SPLIT_SYNC to each workgroup (1024^3 on 128x128
# tiles, 4 splits: 18.9k -> 20.0k cycles). The zero workgroups (one per
# output tile, 3.2k cycles on 64x64 tiles, 5.0k on 128x128, mostly the cold
# instruction cache) are not counted: where they push the launch past the
# CUs they cost little (1024^3, 128x128, 4 splits: 320 workgroups on 304
# CUs, 20.0k cycles; 3 splits: 256 workgroups, 21.0k).
SPLIT_SYNC = 1000
# A split-K launch without zero workgroups (zwg = 0) whose splits are all
# resident at once: its adders poll their counters while split 0 runs and
# then add together; each workgroup takes POLL_EXTRA times the calibrated
# wait-and-add (wg_fixed0 - wg_fixed, measured with one tile alone) longer
# ([model] the timing model's segment times of 768^3, bf16 64x64 tiles,
# MI300X: storing pieces 1.6k cycles slower than alone, adders done 2.2k
# after them against 1.1k alone; such launches ran 0.77-0.81 of their
# simulated cycles without the term: 768^3 with 2 splits on MI300X,
# 64x8192x1024 on MI355X, while 1216x1088x4096 in 3 splits of 128x128
# tiles ran 0.96: the cost does not grow with the splits' length).
POLL_EXTRA = 2


def wg_cycles(cfg):
    """The fixed cycles of one workgroup of `cfg` (setup, pipeline fill, stores)."""
    return WG_BASE + 4 * cfg.tile_m * cfg.tile_n / WG_STORE_BYTES_PER_CLK + \
        (SPLIT_SYNC if cfg.split_k else 0)


def loop_utilisation(entry):
    """The matrix-core utilisation of a kernel's K loop on one CU: the flops
    of one tile of its simulated reference shape (configs.csv ref_shape,
    ref_cycles; a single round of workgroups) over 2048 flop/clk x (its
    cycles - wg_cycles): the reference's whole-kernel utilisation
    (ref_utilisation) counts the workgroup's fixed cost, which `estimate`
    adds on its own. Without reference cycles (or for a reference of more
    than one round) the row's ref_utilisation (None: the default)."""
    cfg, row = entry.config, entry.row
    shapes = [s for s in str(row.get("ref_shape") or "").split(";") if s]
    cycles = [c for c in str(row.get("ref_cycles") or "").split(";") if c]
    if not shapes or len(shapes) != len(cycles):
        return entry.ref_utilisation
    m, n, k = (int(x) for x in shapes[-1].split("x"))
    gx, gy, _ = cfg.grid(m, n)
    loop = int(cycles[-1]) - wg_cycles(cfg)
    if gx * gy > CUS or loop <= 0:
        return entry.ref_utilisation
    return min(1.0, 2 * cfg.tile_m * cfg.tile_n * k / (PEAK_FLOP_PER_CLK_CU * loop))


def split_factors(cfg, k):
    """The distinct split factors (1 to MAX_SPLITS) of a split-K kernel on K:
    one per K chunk length (a multiple of the kernel's K unroll)."""
    unroll = K_UNROLL * cfg.tile_k
    out = []
    for kc in range(unroll, -(-k // unroll) * unroll + 1, unroll):
        sk = -(-k // kc)
        if sk <= MAX_SPLITS and (not out or sk != out[-1]):
            out.append(sk)
    return out


def kchunk(cfg, k, splits):
    """(K elements per split, splits actually launched): GemmConfig.kchunk."""
    return cfg.kchunk(k, splits)


def estimate_uncalibrated(cfg, m, n, k, utilisation=None, splits=1, cus=CUS):
    """(estimated cycles, wasted fraction of the computed flops) without a
    calibration: rounds x (wg_cycles + max(compute, memory)), rounds =
    ceil(T splits / CUs), compute = 2 tm tn kchunk / (2048 flop/clk x u),
    memory = 2 (tm + tn) kchunk bytes over each busy CU's share of 5.3 TB/s."""
    gx, gy, _ = cfg.grid(m, n)
    kc, sk = kchunk(cfg, k, splits)
    tiles = gx * gy * sk
    rounds = -(-tiles // cus)
    u = utilisation or DEFAULT_UTILISATION
    compute = 2 * cfg.tile_m * cfg.tile_n * kc / (PEAK_FLOP_PER_CLK_CU * u)
    busy = min(tiles, cus)
    memory = 2 * (cfg.tile_m + cfg.tile_n) * kc / (HBM_BYTES_PER_CLK / busy)
    done = tiles * cfg.tile_m * cfg.tile_n * kc
    return rounds * (wg_cycles(cfg) + max(compute, memory)), 1 - (m * n * k) / done


def _waste(cfg, m, n, k, splits):
    gx, gy, _ = cfg.grid(m, n)
    kc, sk = kchunk(cfg, k, splits)
    return 1 - (m * n * k) / (gx * gy * sk * cfg.tile_m * cfg.tile_n * kc)


def _cu_end(zero, work, nz, nc, slots):
    """When a CU that runs nz zero workgroups (`zero` cycles each) and then
    nc K workgroups (`work` cycles) with `slots` resident at once is done."""
    import heapq
    free = [0.0] * max(1, min(slots, nz + nc))
    end = 0.0
    for d in [zero] * nz + [work] * nc:
        t = heapq.heappop(free) + d
        end = max(end, t)
        heapq.heappush(free, t)
    return end


def _per_cu(first, count, cus):
    """{(how many of workgroups first .. first + count - 1 land on a CU):
    [CUs]} for placement g mod cus, as the counts for CU 0 .. cus - 1."""
    base, extra = divmod(count, cus)
    counts = np.full(cus, base, np.int64)
    if extra:
        idx = (np.arange(extra) + first) % cus
        counts[idx] += 1
    return counts


def _front(cfg, m, n, k, kc, sk, nz, resident, hbm):
    """The cycles the first wave of K workgroups (the first `resident` of
    them: the nz zero workgroups dispatched before them take a few
    thousand cycles, wg_zero, so the K workgroups that take their places
    start while the first wave's loads still queue) loses to its first
    loads lying on few HBM channels (hbm_spread.front_excess)."""
    from .hbm_spread import front_excess
    from .library import k_per_step
    wave = min(-(-m // cfg.tile_m) * -(-n // cfg.tile_n) * sk, resident)
    if wave <= 0:
        return 0.0
    esz = 1 if cfg.dtype in BYTE_DTYPES else 2
    window = cfg.prefetch * k_per_step(cfg)
    return front_excess(m, n, k, cfg.tile_m, cfg.tile_n, bool(cfg.trans_b), esz, kc, sk,
                        window, wave, 0, float(hbm))


def estimate(cfg, m, n, k, utilisation=None, splits=1, cus=CUS, calib=None, hbm=None,
             detail=False, zwg=1):
    """(estimated whole-device cycles, wasted fraction of the computed flops)
    of one kernel on an M x N x K problem with `splits` K splits (the module
    doc). calib: the entry's calibration (`Entry.calibration`; None: the
    uncalibrated formula); hbm: HBM bytes per cycle (the device profile's;
    default MI300X's 4.2 TB/s at 2.1 GHz). detail: also a dict of the terms.
    zwg: a split-K launch with zero workgroups (1) or split 0 storing (0)."""
    if not calib:
        return estimate_uncalibrated(cfg, m, n, k, utilisation, splits, cus)
    from .library import k_per_step
    hbm = hbm or 4.2e12 / 2.1e9
    gx, gy, _ = cfg.grid(m, n)
    T = gx * gy
    kc, sk = kchunk(cfg, k, splits)
    ks = k_per_step(cfg)
    steps = -(-kc // (K_UNROLL * ks)) * K_UNROLL
    nz = T if cfg.split_k and zwg else 0
    nc = T * sk
    slots = max(1, int(calib["wg_per_cu"]))
    # a step under load (wg_load: the full-device probe's extra cycles over
    # its CALIB_STEPS[0] steps, in proportion to the workgroups resident per
    # CU; the probe of a split-K kernel adds atomically, so a launch that
    # only stores, one split without zero workgroups, pays none), and the
    # CU's MFMA time per step, shared by the K workgroups resident at once
    resident = max(1, min(slots, -(-nc // cus)))
    busy = min(nz + nc, cus * slots) / cus
    adds = not cfg.split_k or zwg or sk > 1
    step = _step(cfg, calib, resident)
    # the probe's extra cycles, once per workgroup (module doc); their growth
    # per K step as the probe measured it, on a launch with zero workgroups
    # (split-K) or a plain one: a zwg = 0 launch's adders wait for split 0's
    # store instead (wg_fixed0, POLL_EXTRA; MI300X 128x128 in 2 and 3 splits
    # on 384x6144x1024 and 1216x1088x4096 ran 1.06x over with the growth)
    grows = not cfg.split_k or zwg
    load = probe_extra(calib, busy, slots, steps if grows else None) if adds else 0.0
    # one split without zero workgroups only stores (no poll, no adds; a
    # library built before the wg_*1 columns charges it as an adding launch)
    store1 = bool(cfg.split_k and not zwg and sk == 1 and calib.get("wg_fixed1"))
    if store1:
        # the probes launched that way (wg_load1*: every workgroup stores
        # its C tile and waits for the stores)
        load = probe_extra(dict(wg_load=calib["wg_load1"], wg_load_full=calib["wg_load1_full"],
                                wg_load_step=calib["wg_load1_step"]), busy, slots, steps)
    esz = 1 if cfg.dtype in BYTE_DTYPES else 2
    ab = (m + n) * k * esz                            # A and B, each element once
    at_once = min(nc, cus * slots)
    loop = max(steps * step + load, steps * lds_cycles(calib, resident), ab * at_once / nc / hbm)
    # without zero workgroups the adding splits wait for split 0's store; a
    # storing one split: wg_fixed1
    fixed = calib["wg_fixed0"] if cfg.split_k and not zwg and sk > 1 else \
        calib["wg_fixed1"] if store1 else calib["wg_fixed"]
    work = fixed + loop
    if cfg.split_k and not zwg and sk > 1 and nc <= cus * slots:
        # every split resident at once: the adders poll their counters
        # (returning atomics at L2) while split 0 runs, which slows it, and
        # then add into its tile together (POLL_EXTRA)
        work += POLL_EXTRA * (fixed - calib["wg_fixed"])
    c_bytes = m * n * (4 if cfg.out == "f32" and cfg.dtype not in BYTE_DTYPES else 2)
    zero = calib["wg_zero"] + c_bytes * min(1.0, cus * slots / T) / hbm if nz else 0.0
    zc, cc = _per_cu(0, nz, cus), _per_cu(nz, nc, cus)
    ends = {}
    for a, b in zip(zc.tolist(), cc.tolist()):
        if (a, b) not in ends:
            ends[(a, b)] = _cu_end(zero, work, a, b, slots)
    span = max(ends.values())
    # the first wave's first loads on few HBM channels (hbm_spread)
    front = _front(cfg, m, n, k, kc, sk, nz, cus * slots, hbm)
    span += front
    # (a storing split waits for its stores before it ends: wg_drain1)
    drain = calib["wg_drain1"] if store1 else \
        calib["wg_drain"] * max(1.0, busy) if cfg.split_k else \
        max(calib["wg_drain"], c_bytes * min(1.0, cus * slots / T) / hbm)
    if cfg.split_k and (zwg or sk > 1):    # a tile's adders take turns on its lines
        drain += adder_turns(sk + zwg - 1, nz + nc, cus * slots)
    cycles = span + drain
    waste = _waste(cfg, m, n, k, splits)
    if detail:
        return cycles, waste, dict(steps=steps, step=step, loop=loop, work=work, zero=zero,
                                   span=span, drain=drain, front=front,
                                   mfma=calib["wg_mfma"] * steps * nc)
    return cycles, waste


def estimate_us(cfg, m, n, k, splits=1, calib=None, profile=None, utilisation=None, zwg=1):
    """(estimated microseconds, cycles, wasted fraction) of one launch on the
    device `profile` (`devices.profile`; None: the arch's flagship): the
    profile's launch_us + cycles at the clock under the launch's MFMA load
    (the module doc)."""
    from .devices import profile as _profile
    p = profile or _profile(cfg.arch)
    cus = int(p["cus"])
    hbm = p["hbm_tb_s"] * 1e12 / (p["clock_mhz"] * 1e6)
    if cfg.stream_k:        # splits: the stream-K ranges (groups)
        l2 = p["l2_tb_s_per_xcd"] * 1e12 / (p["clock_mhz"] * 1e6) / LINE_BYTES
        cyc, mfma = estimate_stream_k(cfg, m, n, k, splits, calib, cus, hbm, l2,
                                      int(p["xcds"]))
        util = min(1.0, mfma / (cyc * 4 * cus))
        mhz = p["clock_mhz"] - (p["clock_mhz"] - p["mfma_clock_mhz"]) * util
        return p["launch_us"] + cyc / mhz, cyc, _waste(cfg, m, n, k, 1)
    if not calib:
        cyc, waste = estimate_uncalibrated(cfg, m, n, k, utilisation, splits, cus)
        return p["launch_us"] + cyc / p["clock_mhz"], cyc, waste
    cyc, waste, d = estimate(cfg, m, n, k, utilisation, splits, cus, calib, hbm, detail=True,
                             zwg=zwg)
    util = min(1.0, d["mfma"] / (cyc * 4 * cus))
    mhz = p["clock_mhz"] - (p["clock_mhz"] - p["mfma_clock_mhz"]) * util
    return p["launch_us"] + cyc / mhz, cyc, waste


@dataclass(frozen=True)
class Plan:
    """What `gemm` launches: a library Entry, its K split (1 for a plain
    kernel), the K elements per split, and the estimated cycles and
    microseconds; zwg: a split-K launch's zero workgroups (1: z = 0 zeroes
    C; 0: split 0 stores, no zero workgroups)."""
    entry: object
    splits: int
    kchunk: int
    cycles: float
    us: float = 0.0
    zwg: int = 1
    convert: str = ""       # "bf16" / "f16": an f32 split-K kernel into a
    #                         workspace, then aster.ops.gemm_convert into C

    @property
    def name(self):
        if self.entry.config.stream_k:      # splits: the stream-K ranges
            return self.entry.name + f"/st{self.splits}"
        return self.entry.name + (f"/sk{self.splits}{'' if self.zwg else 'n'}"
                                  if self.entry.config.split_k else "") + \
            (f"+cvt_{self.convert}" if self.convert else "")


def plan(library, m, n, k, *, dtype="f16", trans_b=False, arch="gfx942", cus=None,
         out=None, device=None, block_scale=False):
    """The Plan the heuristic picks for an M x N x K GEMM (module doc); out:
    C's format ("f32", "bf16", "f16"; default f32, bf16 for i8); device: the
    timing model's profile to estimate on (None: the arch's flagship); cus
    overrides its compute units; block_scale: among the block-scale fp8
    kernels (gfx950 ofp8) instead of the others."""
    return candidates(library, m, n, k, dtype=dtype, trans_b=trans_b, arch=arch, cus=cus,
                      out=out, device=device, block_scale=block_scale)[0]


def candidates(library, m, n, k, *, dtype="f16", trans_b=False, arch="gfx942", cus=None,
               out=None, device=None, block_scale=False):
    """Every launch `plan` weighs (the same arguments), best first: the
    tuned winner alone where there is one, else each kernel, K split and
    zwg by estimated device time (ties as `plan` breaks them)."""
    from .devices import profile as _profile
    prof = dict(_profile(arch, device))
    if cus:
        prof["cus"] = cus
    byte8 = dtype in BYTE_DTYPES
    out = out or ("bf16" if byte8 else "f32")
    cands = library.find(arch=arch, dtype=dtype, trans_b=trans_b,
                         out=None if byte8 else out, block_scale=bool(block_scale))
    if not cands:
        raise ValueError(f"the library {library.directory} has no {dtype} "
                         f"{'block-scale ' if block_scale else ''}kernel for {arch} "
                         f"with trans_b={trans_b} and {out} out")
    tuned = [e for e in cands if (m, n, k) in e.tuned_for]
    opts = []
    if out in ("bf16", "f16") and not byte8 and not tuned:
        # 16-bit C by split-K: the f32 split-K kernels into a workspace (two
        # or more splits) and the conversion's launch (gemm_convert)
        from .gemm_convert import estimate_us as convert_us
        cvt = convert_us(m, n, prof)
        for e in library.find(arch=arch, dtype=dtype, trans_b=trans_b, out="f32",
                              block_scale=False):
            cal = e.calibration
            if not e.config.split_k or e.config.stream_k or not cal:
                continue
            for s in split_factors(e.config, k):
                kc, sk = kchunk(e.config, k, s)
                if sk < 2:
                    continue
                for z in ((1, 0) if cal["wg_fixed0"] else (1,)):
                    us, t, waste = estimate_us(e.config, m, n, k, s, cal, prof,
                                               loop_utilisation(e), zwg=z)
                    opts.append(((us + cvt, waste, -e.config.tile_m * e.config.tile_n, True,
                                  sk, -z), Plan(e, sk, kc, t, us + cvt, z, out)))
    for e in tuned or cands:
        fixed = e.tuned_splits.get((m, n, k)) if tuned else None
        if e.config.stream_k:       # ranges: one or every resident slot per CU
            if not e.calibration:
                continue
            slots = max(1, int(e.calibration["wg_per_cu"]))
            for g in sorted({int(prof["cus"]), int(prof["cus"]) * slots}):
                us, t, waste = estimate_us(e.config, m, n, k, g, e.calibration, prof)
                opts.append(((us, waste, -e.config.tile_m * e.config.tile_n, True, g, 0),
                             Plan(e, g, 0, t, us, 0)))
            continue
        for s in ((fixed,) if fixed else split_factors(e.config, k) if e.config.split_k
                  else (1,)):
            kc, sk = kchunk(e.config, k, s)
            cal = e.calibration
            for z in ((1, 0) if e.config.split_k and cal and cal["wg_fixed0"] else (1,)):
                us, t, waste = estimate_us(e.config, m, n, k, s, cal, prof,
                                           loop_utilisation(e), zwg=z)
                opts.append(((us, waste, -e.config.tile_m * e.config.tile_n, e.config.split_k,
                              sk, -z), Plan(e, sk, kc, t, us, z)))
    opts.sort(key=lambda o: o[0])
    return [o[1] for o in opts]


def choose(library, m, n, k, *, dtype="f16", trans_b=False, arch="gfx942", device=None):
    """The library Entry the heuristic picks for an M x N x K GEMM."""
    return plan(library, m, n, k, dtype=dtype, trans_b=trans_b, arch=arch, device=device).entry


def cache_dir():
    """Where the default library lives: $ASTER_CACHE_DIR or ~/.cache/aster,
    in a folder named after the hash of the sources that make the library's
    contents (ops/library.py, the generator generators/gemm*.py, the
    nanokernels it calls) and of aster's compiled extension (a changed
    generator or a rebuilt aster builds a new library; a changed dispatch
    does not)."""
    root = os.environ.get("ASTER_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "aster")
    h = hashlib.sha256()
    here = os.path.dirname(os.path.abspath(__file__))
    pkg = os.path.dirname(here)
    gen, nk = os.path.join(pkg, "generators"), os.path.join(pkg, "nanokernels")
    srcs = [os.path.join(here, "library.py")]
    srcs += [os.path.join(gen, f) for f in sorted(os.listdir(gen))
             if f.startswith("gemm") and f.endswith(".py")]
    srcs += [os.path.join(nk, f) for f in sorted(os.listdir(nk)) if f.endswith(".py")]
    for p in srcs:
        with open(p, "rb") as f:
            h.update(f.read())
    from .. import _aster
    st = os.stat(_aster.__file__)       # a rebuilt aster builds a new library
    h.update(f"{os.path.basename(_aster.__file__)} {st.st_size} {st.st_mtime_ns}".encode())
    return os.path.join(root, f"gemm-{h.hexdigest()[:16]}")


_DEFAULT = {}


def default_library():
    """The default library (`default_configs()`), built once per user into
    cache_dir() and loaded from there afterwards."""
    d = cache_dir()
    lib = _DEFAULT.get(d)
    if lib is None:
        try:
            lib = Library(d)
        except FileNotFoundError:
            tmp = f"{d}.tmp{os.getpid()}"
            build_library(tmp, workers=min(4, os.cpu_count() or 1))
            try:
                os.replace(tmp, d)
            except OSError:             # another process finished first
                import shutil
                shutil.rmtree(tmp, ignore_errors=True)
            lib = Library(d)
        _DEFAULT[d] = lib
    return lib


def gemm(A, B, *, trans_b=False, out=None, backend="emu", timing=False, config=None,
         library=None, arch="gfx942", splits=None, scale_a=None, scale_b=None, bias=None,
         out_dtype=None, device=None, block_scale=None):
    """C = A @ B (B is K x N) or A @ B.T (trans_b: B is N x K), in float32.

    A, B: float16 or bfloat16 NumPy arrays (the same dtype), or int8 (a8w8,
    trans_b only: C = bf16(A @ B.T * scale_a[m] * scale_b[n] + bias[n]),
    scale_a (M values) and scale_b (N) float32, bias (N) optional).
    block_scale=128 (OCP fp8 `float8_e4m3fn` A and B, arch="gfx950",
    trans_b; the operation of AMD's gfx950 block-scale fp8 GEMM,
    aster.aiter.gemm_blockscale): C = bf16(sum over K blocks kb of 128:
    scale_a[m, kb] scale_b[n // 128, kb] (A[m, kb] . B[n, kb])), scale_a
    float32 [M, ceil(K / 128)], scale_b float32 [ceil(N / 128), ceil(K / 128)];
    no bias.
    out_dtype: C's dtype for 16-bit inputs: float32 (default) or the
    inputs' own (bfloat16 / float16: rounded to nearest even; by the 16-bit
    kernels, or, where the estimate says it is faster, by an f32 split-K
    kernel into a workspace and a conversion launch, aster.ops.gemm_convert:
    r.plan.convert, r.convert, r.total_us).
    out: an optional
    float32 C-contiguous M x N array to write into. config: a kernel name
    (or Entry) of the library to use instead of the heuristic (`choose`).
    library: an aster.ops.Library (default: `default_library()`). splits: the
    K split of a split-K `config` (default 1). With timing, r.plan is the Plan.
    backend: "emu" (aster's emulator) or "hip" (a ROCm GPU: the same code
    object and argument buffer). timing=True (emulator) returns (C,
    LaunchResult) with the simulated cycles and microseconds on `device` (a
    profile of aster.timing.devices(); None: the arch's flagship)."""
    from ..runtime import launch
    da, db = _operand(A, "A"), _operand(B, "B")
    if da != db:
        raise TypeError(f"gemm: A and B must have the same dtype, got {A.dtype} and {B.dtype}")
    m, k = A.shape
    n, kb = (B.shape if trans_b else B.shape[::-1])
    if kb != k:
        raise ValueError(f"gemm: inner dimensions differ: A is {A.shape}, B is {B.shape}"
                         f"{' (trans_b)' if trans_b else ''}")
    if 0 in (m, n, k):
        raise ValueError(f"gemm: empty operands (A {A.shape}, B {B.shape})")
    if max(m * k, n * k, m * n * 2) * 2 >= 2**31:
        raise ValueError("gemm: each matrix must be smaller than 2 GiB")
    i8 = da in BYTE_DTYPES
    if block_scale is not None:
        if block_scale != BLOCK_SCALE:
            raise ValueError(f"gemm: block_scale must be {BLOCK_SCALE} (or None), "
                             f"got {block_scale!r}")
        if da != "ofp8" or arch != "gfx950" or not trans_b or bias is not None:
            raise ValueError("gemm: block_scale needs float8_e4m3fn A and B, arch='gfx950', "
                             "trans_b=True and no bias")
        bscales = _block_scales(scale_a, scale_b, m, n, k)
    if i8 and not trans_b:
        raise ValueError("gemm: int8 (a8w8) operands need trans_b=True (B is N x K)")
    if not i8 and (scale_a is not None or scale_b is not None or bias is not None):
        raise ValueError("gemm: scale_a, scale_b and bias are for int8 operands")
    names = {v: key for key, v in _OUT.items()}
    want = np.dtype(out_dtype) if out_dtype is not None else \
        (_OUT["bf16"] if i8 else _OUT["f32"])
    if want not in names or (i8 and want != _OUT["bf16"]) or \
            (not i8 and names[want] not in ("f32", da)):
        raise ValueError(f"gemm: out_dtype {out_dtype} is not available for {da} inputs "
                         f"(float32 or {da}{'; int8: bfloat16' if i8 else ''})")
    out_dt = want
    if out is not None:
        if not isinstance(out, np.ndarray) or out.dtype != out_dt or out.shape != (m, n) \
                or not out.flags.c_contiguous or not out.flags.writeable:
            raise ValueError(f"gemm: out must be a writeable C-contiguous {out_dt} array of "
                             f"shape {(m, n)}")
    lib = library if library is not None else default_library()
    if config is None:
        p = plan(lib, m, n, k, dtype=da, trans_b=trans_b, arch=arch, out=names[want],
                 device=device, block_scale=block_scale is not None)
    else:
        entry = config if not isinstance(config, str) else lib.entry(config, arch)
        c = entry.config
        cvt = "" if i8 or c.out == names[want] or not (c.split_k and c.out == "f32") \
            else names[want]        # a 16-bit C from an f32 split-K kernel: convert after
        if (c.dtype, c.trans_b, c.arch) != (da, trans_b, arch) or \
                (not i8 and not cvt and c.out != names[want]) or \
                c.block_scale != (block_scale is not None):
            raise ValueError(f"gemm: kernel {entry.name} is for {c.dtype}, trans_b={c.trans_b}, "
                             f"{c.arch}; this call needs {da}, trans_b={trans_b}, {arch}")
        s = splits or 1
        if s < 1 or (s > 1 and not c.split_k):
            raise ValueError(f"gemm: splits={splits} needs a split-K kernel (not {entry.name})")
        if c.stream_k:      # splits: the stream-K ranges (default: one per CU)
            from .devices import profile as _profile
            p = Plan(entry, splits or int(_profile(arch, device)["cus"]), 0, 0.0, zwg=0,
                     convert=cvt)
        else:
            kc, sk = kchunk(c, k, s)
            p = Plan(entry, sk, kc, 0.0, convert=cvt)
    cfg = p.entry.config
    c_arr = out if out is not None else np.empty((m, n), out_dt)
    c_final = c_arr
    if p.convert:           # the split-K kernel adds into an f32 workspace
        c_arr = np.empty((m, n), np.float32)
    if block_scale is not None:
        args = [_i8_pairs(A), _i8_pairs(B), c_arr.view(np.uint16), m, n, -(-k // 2), *bscales]
    elif i8:
        args = [_i8_pairs(A), _i8_pairs(B), c_arr.view(np.uint16), m, n, -(-k // 2),
                _vector(scale_a, m, "scale_a", None), _vector(scale_b, n, "scale_b", None),
                _vector(bias, n, "bias", 0.0)]
    else:
        args = [_padded(A), _padded(B),
                c_arr if c_arr.dtype == np.float32 else c_arr.view(np.uint16),
                m, n, k]
    grid = cfg.grid(m, n, p.splits, p.zwg)
    if cfg.stream_k:        # the work table of p.splits ranges; one workgroup per row
        from ..generators.gemm import stream_k_table
        gx, gy, _ = cfg.grid(m, n)
        tab = stream_k_table(cfg, m, n, k, p.splits)
        args += [tab, split_counters(gx * gy * cfg.waves)]
        grid = (len(tab), 1, 1)
    elif cfg.split_k:       # no zero fill: the first split to finish stores (store_splitk)
        gx, gy, _ = cfg.grid(m, n)
        args += [p.kchunk, split_counters(gx * gy * cfg.waves), p.splits, p.zwg]
    r = launch(lib.code(p.entry), cfg.name, grid=grid, block=cfg.block,
               args=args, backend=backend, timing=timing, device=device)
    rc = None
    if p.convert:
        from . import gemm_convert
        rc = gemm_convert.run(c_arr, c_final, p.convert, arch=arch, timing=timing,
                              device=device, backend=backend)
    if timing:
        # r: the GEMM kernel's launch; r.convert: the conversion's (or None);
        # r.total_us: the device time of both
        r.plan, r.convert = p, rc
        r.total_us = r.microseconds + (rc.microseconds if rc is not None else 0.0)
        return c_final, r
    return c_final
