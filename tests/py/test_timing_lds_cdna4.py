"""gfx950's LDS: 64 banks (256 bytes per clock) and ds_read_b128 in 4 phases of 16 lanes.

AMD's ROCm blog "FP8 GEMM Optimization on AMD CDNA4 Architecture" (2026,
ROCm/rocm-blogs, blogs/software-tools-optimization/cdna4-gemm-kernels, Table
1, from AMD's CDNA4 and CDNA3 ISA guides) gives CDNA4 64 LDS banks and 256
bytes/clock of LDS read bandwidth (CDNA3: 32 and 128), and its "LDS Access"
section the lanes ds_read_b128 serves together on CDNA4: 0-3 + 12-15 + 20-23
+ 24-27, 4-7 + 8-11 + 16-19 + 28-31, and the same + 32. AMD's profiler
configuration (ROCm/rocprofiler-compute, gfx950
0200_system-speed-of-light.yaml, "Theoretical LDS Bandwidth") still counts
128 bytes per CU per clock for gfx950; we follow the ISA's bank count, which
the blog cites. (With it, AMD's gfx950 f4gemm kernels read their LDS tiles
without a conflict: bench/bench_fidelity.py family f4gemm.)"""
import numpy as np

from test_timing_lds_phases import ds_b128

CDNA4_PHASES = [[q + i for q in quads for i in range(4)]
                for h in (0, 32) for quads in ((0, 12, 20, 24), (4, 8, 16, 28))
                for quads in [tuple(q + h for q in quads)]]


def phase_addresses():
    """Lane -> byte address: phase p's 16 lanes read the 16 16-byte pieces
    of LDS row p (256 bytes: each of 64 banks once)."""
    addr = np.zeros(64, np.uint32)
    for p, lanes in enumerate(CDNA4_PHASES):
        for j, lane in enumerate(lanes):
            addr[lane] = p * 256 + j * 16
    return addr


def read_b128(target, device, addr):
    """(conflict factor, LDS cycles) of one ds_read_b128 at `addr`."""
    r = ds_b128("read", addr, target, device)
    return r.trace.summary()["lds_conflict_factor"], r.trace.lds_cycles


def test_phases_cover_the_wave_once():
    assert sorted(sum(CDNA4_PHASES, [])) == list(range(64))


def test_gfx950_read_b128_in_cdna4_phases_is_conflict_free():
    factor, cycles = read_b128("gfx950", "mi355x", phase_addresses())
    assert factor == 1
    assert cycles == 4                  # 1 KiB at 256 bytes per clock


def test_the_same_pattern_conflicts_on_cdna3():
    """On gfx942 (32 banks, 8-lane phases 0-3 + 20-23, ...) lanes 0-3 and
    20-23 read offsets 0-63 and 128-191 of row 0: the same 16 banks."""
    factor, cycles = read_b128("gfx942", "mi300x", phase_addresses())
    assert factor == 2
    assert cycles == 16


def test_consecutive_read_b128_takes_4_cycles_on_gfx950_8_on_gfx942():
    addr = np.arange(64, dtype=np.uint32) * 16
    assert read_b128("gfx950", "mi355x", addr) == (1, 4)
    assert read_b128("gfx942", "mi300x", addr) == (1, 8)
