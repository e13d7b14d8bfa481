"""The estimate of a stream-K launch (`GemmConfig.stream_k` kernels run over
`generators.gemm.stream_k_table`'s ranges): `estimate_stream_k`, which
`dispatch.estimate_us` calls for them; its per-step terms are
`estimate_terms`' (as `dispatch.estimate`'s)."""
import heapq

import numpy as np

from ..generators.gemm import BYTE_DTYPES, K_UNROLL
from .estimate_terms import lds_cycles, probe_extra, step_cycles
from .library import CUS

__all__ = ["estimate_stream_k", "ATOMIC_C_BYTES_PER_ACCESS"]

# An adding workgroup's atomic line accesses at its XCD's L2, as bytes of its
# f32 C tile per access: [model] the timing model's atomic line counter
# (Trace.mem_lines["atomic"]): 524288 for the 512 adding 64x64 workgroups of
# the MI355X split-K probe (library.calibrate, every CU busy: 1024 per 16 KiB
# tile), 1.09M for the 896 adders of 64 x 8192 x 1024 in 1024 stream-K ranges
# (1221 each). The adds alone are a quarter of that (the 16x16 MFMA layout:
# each buffer_atomic_add_f32 covers 4 rows of 64 B); the rest are the
# adder's polls of its tile's counter (returning atomics) while it waits.
ATOMIC_C_BYTES_PER_ACCESS = 16


def estimate_stream_k(cfg, m, n, k, groups, calib, cus=CUS, hbm=None, l2=None, xcds=8):
    """(cycles, MFMA SIMD-cycles) of a stream-K launch (`stream_k` kernels,
    `generators.gemm.stream_k_table` with `groups` ranges), laid out as the
    timing model runs it: row i of the table on CU i mod CUs, wg_per_cu
    resident, the next starting when one ends (list scheduling in row
    order). A row (segment) of s K steps takes
      fixed + max(s x step + load, s x the resident segments' LDS
                  (`lds_cycles`), its share of A and B's bytes at HBM)
    with fixed = wg_fixed for a tile's first segment (it stores), wg_fixed0
    for an adder, step as `estimate`'s, load = the full-device probe's extra
    cycles at the segment's steps (`probe_extra`), once per segment (not
    per step: segments of 60 K steps on every CU run at wg_step,
    1216x1088x4096 on MI300X), and the bytes share = A and B's bytes
    (each element once) x s / every segment's steps, times the segments
    running at once; + the first wave's front on few HBM
    channels (`hbm_spread.excess`, as `estimate`). An adder cannot add before its tile's
    first segment has stored: it ends at the latest of its own end and the
    first's end + add, add = wg_fixed0 - wg_fixed (the adder's atomic
    epilogue over a store) x (1 + adders / 32) (a tile's adders take turns
    on its lines at L2: 63 adders of one 64x64 tile end up to 4.7k cycles
    after its first segment, 128x128x16384). The launch ends at the latest
    segment + the adds' drain (add; wg_drain where no segment adds), and no
    sooner than the first segment to end + the atomic line accesses of the
    busiest XCD's adders (ATOMIC_C_BYTES_PER_ACCESS) at `l2` line accesses
    per clock (the profile's l2_tb_s_per_xcd: 16 lines of 128 B; None: not
    charged; xcds: the profile's). The stream-K kernel's full-device probe
    has one segment per tile, so its wg_load_full measures no adds: without
    this term 64 x 8192 x 1024 in 1024 ranges on MI355X (8 segments of 2 K
    steps per tile, 4 per CU, 112 adders per XCD) was estimated at 0.69 of
    its simulated cycles (0.89 with it).
    [model] structure and the two factors from the timing model's segment
    times (start, end per workgroup) of 1216x1088x4096, 768^3 and
    128x128x16384 (bf16, 64x64 tiles, MI300X)."""
    from ..generators.gemm import stream_k_table
    from .library import k_per_step
    hbm = hbm or 4.2e12 / 2.1e9
    tab = stream_k_table(cfg, m, n, k, groups)
    rows = len(tab)
    slots = max(1, int(calib["wg_per_cu"]))
    resident = max(1, min(slots, -(-rows // cus)))
    busy = min(rows, cus * slots) / cus
    step = step_cycles(cfg, calib, resident)
    lds = lds_cycles(calib, resident)
    unit = K_UNROLL * k_per_step(cfg)
    esz = 1 if cfg.dtype in BYTE_DTYPES else 2
    ab = (m + n) * k * esz
    gx, gy, _ = cfg.grid(m, n)
    all_steps = gx * gy * -(-k // unit) * K_UNROLL
    at_once = min(rows, cus * slots)
    fixed0 = calib["wg_fixed0"] or calib["wg_fixed"]
    add0 = max(0.0, fixed0 - calib["wg_fixed"])
    total = 0
    span = 0.0
    first_end = {}
    ends = [[0.0] * slots for _ in range(min(cus, rows))]
    for i, r in enumerate(tab.tolist()):
        steps = -(-r[3] // unit) * K_UNROLL
        total += steps
        extra = probe_extra(calib, busy, slots, steps)
        loop = max(steps * step + extra, steps * lds, ab * steps / all_steps * at_once / hbm)
        heap = ends[i % cus]
        start = heap[0]
        if r[4]:
            end = start + calib["wg_fixed"] + loop
            first_end[(r[0], r[1])] = end
        else:
            add = add0 * (1 + r[5] / 32)
            end = max(start + fixed0 + loop, first_end.get((r[0], r[1]), 0.0) + add)
        heapq.heapreplace(heap, end)
        span = max(span, end)
    adds = bool((tab[:, 5] > 0).any())
    # the adders' atomic line accesses (their adds and polls) through their
    # XCD's L2, l2 line accesses per clock: the busiest XCD's, from the end
    # of the first segment to end (row i on CU i mod cus, CU c on XCD c mod
    # xcds: the timing model's placement)
    if l2 and adds:
        per_xcd = np.zeros(xcds)
        for i in np.nonzero(tab[:, 4] == 0)[0]:
            per_xcd[(i % cus) % xcds] += 1
        acc = per_xcd.max() * cfg.tile_m * cfg.tile_n * 4 / ATOMIC_C_BYTES_PER_ACCESS
        span = max(span, min(first_end.values()) + acc / l2)
    # the first wave's first loads on few HBM channels (hbm_spread), as `estimate`
    from .hbm_spread import excess
    w = tab[:cus * slots].astype(np.int64)
    k0 = w[:, 2]
    k1 = np.minimum(k0 + cfg.prefetch * k_per_step(cfg), k0 + w[:, 3])
    span += excess(m, n, k, cfg.tile_m, cfg.tile_n, bool(cfg.trans_b), esz, hbm,
                   w[:, 0], w[:, 1], k0, k1)
    return span + (add0 if adds else calib["wg_drain"]), calib["wg_mfma"] * total
