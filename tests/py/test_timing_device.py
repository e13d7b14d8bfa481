"""Device profiles and the launch-level effects of the timing model, each
isolated by a kernel that does little else: the launch's fixed cost, the
XCDs' workgroup dispatchers, wave start-up, scalar- and instruction-cache
misses, atomics at L2, the drain of stores at the end of a kernel, memory
latency under load and the engine clock under MFMA load.

Expected values come from outside the model where one exists: AMD's data
sheets and white papers (CU and XCD counts, clocks, HBM bandwidth), AMD's
smallest measured kernel time in the amd-aiter wheel's tuned tables (3.63 us,
a8w8_blockscale_tuned_gemm.csv: an empty kernel must cost less), and the
sums the kernels compute; the other checks are the direction and size of an
effect that the model's own parameters (Params.h) state."""
import numpy as np
import pytest

import aster
from aster import a, s, v
from aster.timing import default_device, devices

# AMD's smallest measured kernel time (aiter a8w8_blockscale_tuned_gemm.csv,
# M=16 N=7168 K=256: 3.6287 us on 256 CUs, 3.6821 us on 304): a launch that
# does nothing costs less.
AMD_SMALLEST_US = 3.6287


def empty(block=64):
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(block, 1, 1))
    k.s_endpgm()
    return m


def test_device_profiles_from_data_sheets():
    d = devices()
    assert {"mi300x", "mi308x", "mi325x", "mi355x"} <= set(d)
    # CDNA3 white paper: 304 CUs in 8 XCDs, 2100 MHz, 4 MiB L2 per XCD, 5.3 TB/s
    x = d["mi300x"]
    assert (x["target"], x["cus"], x["xcds"], x["clock_mhz"]) == ("gfx942", 304, 8, 2100)
    assert x["l2_bytes_per_xcd"] == 4 << 20 and x["hbm_peak_tb_s"] == 5.3
    # achievable: 4.2 TB/s measured by AMD's roofline benchmark (ROCm/legacy-rocm-build#5070)
    assert x["hbm_tb_s"] == pytest.approx(4.2, abs=0.01)
    # MI325X data sheet: 304 CUs, 6 TB/s HBM3E; MI355X: 256 CUs, 2400 MHz, 8 TB/s, 160 KiB LDS
    assert d["mi325x"]["cus"] == 304 and d["mi325x"]["hbm_peak_tb_s"] == 6.0
    y = d["mi355x"]
    assert (y["target"], y["cus"], y["xcds"], y["clock_mhz"]) == ("gfx950", 256, 8, 2400)
    assert y["hbm_peak_tb_s"] == 8.0 and y["lds_bytes_per_cu"] == 160 << 10
    for p in d.values():
        assert p["hbm_tb_s"] < p["hbm_peak_tb_s"]
    assert d["mi308x"]["cus"] == 80 and d["mi308x"]["target"] == "gfx942"
    for p in d.values():
        assert 0 < p["mfma_clock_mhz"] < p["clock_mhz"] and p["launch_us"] > 0
    assert default_device("gfx942") == "mi300x" and default_device("gfx950") == "mi355x"


def test_device_argument():
    r = aster.launch(empty(), "k", 1, 64, [], timing=True)
    assert r.trace.device == "mi300x" and r.microseconds > 0
    r = aster.launch(empty(), "k", 1, 64, [], timing=True, device="mi308x")
    assert r.trace.device == "mi308x"
    with pytest.raises(ValueError, match="mi300x"):
        aster.launch(empty(), "k", 1, 64, [], timing=True, device="mi999")
    with pytest.raises(aster.EmulatorError, match="gfx950"):
        aster.launch(empty(), "k", 1, 64, [], timing=True, device="mi355x")


def test_empty_and_one_workgroup_kernels_cost_a_launch():
    """An empty kernel costs the launch (launch_us) and little more, below
    the smallest time AMD measured for a real kernel; so does one over 1000
    workgroups of 4 waves (the dispatchers start them in 500 cycles)."""
    one = aster.launch(empty(), "k", 1, 64, [], timing=True)
    launch_us = devices()["mi300x"]["launch_us"]
    assert launch_us <= one.microseconds < AMD_SMALLEST_US
    many = aster.launch(empty(256), "k", 1000, 256, [], timing=True)
    assert many.cycles >= max(one.cycles, 1000 * 4 // 8)
    assert many.microseconds < AMD_SMALLEST_US


# Published launch costs on MI300-class GPUs. Both are host-side: the time
# from a launch call to the next (Kog AI, "Building a single-kernel,
# latency-optimized LLM inference engine on AMD MI300X GPUs", blog.kog.ai,
# 2026: about 4.5 us of launch-plus-cleanup per kernel on MI300X) or to the
# host seeing its completion (pytorch/FBGEMM pull request 6219: 16.9 us per
# small launch followed by a synchronize, bare-metal MI325X). AMD's tuned
# tables, which the model is compared with, time kernels on the device
# (aiter test_common.perftest: the profiler's device time of each kernel),
# where AMD's smallest real kernel took 3.63 us: we follow the device time,
# so a launch costs less than both host-side figures and than that kernel.
KOG_LAUNCH_US = 4.5
FBGEMM_ROUND_TRIP_US = 16.9


def test_empty_and_one_workgroup_kernels_against_published_launch_costs():
    d = devices()
    for device, target in (("mi300x", "gfx942"), ("mi325x", "gfx942"), ("mi355x", "gfx950")):
        m = aster.Module(target)
        k = m.kernel("k", block=(64, 1, 1))
        k.s_endpgm()
        zero = aster.launch(m, "k", 1, 64, [], timing=True, device=device)
        # 1 workgroup of 4 waves doing a little work: a load and a store
        m = aster.Module(target)
        k = m.kernel("k", args=[("x", aster.ptr(np.float32))], block=(256, 1, 1))
        k.load_arg("x", s[4:6])
        k.v_lshlrev_b32(v[1], 2, v[0])
        k.s_waitcnt(lgkmcnt=0)
        k.global_load_dword(v[2], v[1], s[4:6])
        k.s_waitcnt(vmcnt=0)
        k.v_add_f32(v[2], 1.0, v[2])
        k.global_store_dword(v[1], v[2], s[4:6])
        k.s_endpgm()
        x = np.zeros(256, np.float32)
        one = aster.launch(m, "k", 1, 256, [x], timing=True, device=device)
        assert (x == 1).all()
        for r in (zero, one):
            assert d[device]["launch_us"] <= r.microseconds < AMD_SMALLEST_US
            assert r.microseconds < KOG_LAUNCH_US < FBGEMM_ROUND_TRIP_US
        # the workgroup's memory round trips cost something, not much
        assert zero.microseconds < one.microseconds < zero.microseconds + 2


def test_where_the_time_went():
    """summary()["where"] splits the wall time, microseconds adding up to
    r.microseconds, into the launch, dispatch, issue, waits named by memory
    level (a load that went to HBM is an `hbm` wait; one from LDS `lds`),
    the drain and the clock."""
    m = aster.Module("gfx942")
    k = m.kernel("k", args=[("x", aster.ptr(np.float32))], block=(64, 1, 1), lds=256)
    k.load_arg("x", s[4:6])
    k.v_lshlrev_b32(v[1], 2, v[0])
    k.s_waitcnt(lgkmcnt=0)
    k.global_load_dword(v[2], v[1], s[4:6])
    k.s_waitcnt(vmcnt=0)
    k.ds_write_b32(v[1], v[2])
    k.ds_read_b32(v[3], v[1])
    k.s_waitcnt(lgkmcnt=0)
    k.global_store_dword(v[1], v[3], s[4:6])
    k.s_endpgm()
    r = aster.launch(m, "k", 1, 64, [np.zeros(64, np.float32)], timing=True)
    w = r.trace.summary()["where"]
    total = (w["launch"] + w["dispatch"] + w["issue"] + sum(w["wait"].values()) + w["drain"]
             + w["clock"])
    assert total == pytest.approx(r.microseconds)
    lat = devices()["mi300x"]["latency_cycles"]
    assert w["wait"]["hbm"] * 2100 >= lat[3] * 0.9       # the load's HBM latency
    assert w["wait"]["lds"] > 0 and "l2" not in w["wait"]
    assert w["launch"] == devices()["mi300x"]["launch_us"] and w["drain"] > 0
    assert r.trace.waves[0]["waited_for"]["hbm"] == pytest.approx(w["wait"]["hbm"] * 2100)


def test_dispatch_rate_per_xcd():
    """Each XCD's dispatcher starts one wave per cycle: 4096 empty
    workgroups of 4 waves on 8 XCDs take at least 4096 * 4 / 8 cycles, and
    the waves' wait shows as `dispatch` stalls."""
    r = aster.launch(empty(256), "k", 4096, 256, [], timing=True)
    assert r.cycles >= 4096 * 4 // 8
    assert r.trace.summary()["stalls"]["dispatch"] > 0


def test_wave_start_before_first_instruction():
    d = devices()["mi300x"]
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(64, 1, 1))
    k.v_mov_b32(v[0], 0)
    k.s_endpgm()
    r = aster.launch(m, "k", 1, 64, [], timing=True)
    assert r.trace.events["issue"].min() >= d["wave_dispatch_cycles"] + d["wave_start_cycles"]


def test_first_scalar_load_misses_the_scalar_cache():
    """The first load of the kernel arguments goes to L2 and beyond (the
    kernarg segment is not in the scalar cache); the second load of the same
    line hits."""
    m = aster.Module("gfx942")
    k = m.kernel("k", args=[("x", aster.ptr(np.float32))], block=(64, 1, 1))
    k.load_arg("x", s[4:6])
    k.s_waitcnt(lgkmcnt=0)
    k.load_arg("x", s[6:8])
    k.s_waitcnt(lgkmcnt=0)
    k.s_endpgm()
    r = aster.launch(m, "k", 1, 64, [np.zeros(1, np.float32)], timing=True)
    ev = r.trace.events[[r.trace.mnemonic(i).startswith("s_load") for i in r.trace.events["inst"]]]
    lat = devices()["mi300x"]["latency_cycles"]
    assert ev["dur"][0] >= lat[1]           # at least an L2 access
    assert ev["dur"][1] < lat[1]            # a scalar-cache hit
    assert r.trace.scalar_misses >= 1


def straight(n):
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(64, 1, 1))
    k.v_mov_b32(v[1], 0)
    for _ in range(n):
        k.v_add_u32(v[1], v[0], v[1])
    k.s_endpgm()
    return m


def test_large_unrolled_kernel_misses_the_instruction_cache():
    """80 KiB of straight-line code, more than the 64 KiB instruction cache:
    the launch starts with the first 64 KiB of it in the cache (the code of
    the last launch, Params::codeWarm), and every 64-byte line after that is
    fetched from L2 or beyond once, the wave waiting for some of them
    (`fetch` stalls); 16 KiB of code fits and misses nothing."""
    n = 20480                                 # v_add_u32 (VOP2): 4 bytes each
    big = aster.launch(straight(n), "k", 1, 64, [], timing=True)
    assert big.trace.icache_misses >= (n * 4 - 64 * 1024) // 64
    assert big.trace.summary()["stalls"]["fetch"] > 0
    # Issue alone is 4 cycles per VALU; the misses make it slower.
    assert big.cycles > 4 * n + 0.05 * 4 * n
    small = aster.launch(straight(4096), "k", 1, 64, [], timing=True)
    assert small.trace.icache_misses == 0
    assert small.trace.summary()["stalls"]["fetch"] == 0


def test_code_stays_in_the_instruction_cache_between_launches():
    """AMD's Composable Kernel times kernels with cold code only by running
    a kernel of s_icache_inv before each timed launch
    (include/ck/utility/flush_icache.hpp, ROCm/composable_kernel): the
    instruction caches keep a kernel's code from one launch to the next,
    and aiter's perftest (aiter/test_common.py), which timed the kernels of
    bench/bench_fidelity.py, flushes nothing between its warm-up and timed
    launches. 64 workgroups on 64 CUs (32 instruction caches) run 16 KiB of
    straight-line code without an instruction-cache miss, at the issue rate
    (4 cycles per VALU) plus the launch's start."""
    r = aster.launch(straight(4096), "k", 64, 64, [], timing=True)
    assert r.trace.icache_misses == 0
    assert r.trace.summary()["stalls"]["fetch"] == 0
    assert r.cycles < 4 * 4096 * 1.05 + 200


def atomics(groups, same_line):
    m = aster.Module("gfx942")
    k = m.kernel("k", args=[("x", aster.ptr(np.float32))], block=(64, 1, 1))
    k.load_arg("x", s[4:6])
    wg = k.workgroup_id("x")
    k.v_lshlrev_b32(v[1], 2, v[0])                # lane * 4: one 256-byte block
    if not same_line:
        k.s_lshl_b32(s[8], wg, 8)
        k.v_add_u32(v[1], s[8], v[1])
    k.v_mov_b32(v[2], 1.0)
    k.s_waitcnt(lgkmcnt=0)
    k.global_atomic_add_f32(v[1], v[2], s[4:6])
    k.s_endpgm()
    x = np.zeros(64 * (1 if same_line else groups), np.float32)
    r = aster.launch(m, "k", groups, 64, [x], timing=True)
    return r, x


def test_atomics_to_one_line_serialise_at_l2():
    """64 workgroups add 1.0 with global_atomic_add_f32 into the same 64
    floats (two lines), or each into its own: the sums are right, atomics to
    one line take their turn at L2 (at least 64 x atomic_line_cycles),
    distinct lines go in parallel."""
    same, x = atomics(64, True)
    assert (x == 64).all()
    apart, y = atomics(64, False)
    assert (y == 1).all()
    assert same.trace.mem_lines["atomic"] == 2 * 64
    assert same.cycles > apart.cycles
    assert same.cycles - apart.cycles >= 63 * 16 * 0.9


def test_stores_drain_at_kernel_end():
    """A kernel whose last instruction is a store ends when L2 took it: the
    launch lasts past its last wave's end (`drain`)."""
    m = aster.Module("gfx942")
    k = m.kernel("k", args=[("x", aster.ptr(np.float32))], block=(64, 1, 1))
    k.load_arg("x", s[4:6])
    k.v_lshlrev_b32(v[1], 2, v[0])
    k.s_waitcnt(lgkmcnt=0)
    k.global_store_dword(v[1], v[0], s[4:6])
    k.s_endpgm()
    r = aster.launch(m, "k", 1, 64, [np.zeros(64, np.float32)], timing=True)
    assert r.trace.drain_cycles > 0
    assert r.trace.time()["drain"] > 0


def loads(groups):
    """Each wave reads 16 distinct lines per load (dwordx4) x 8 loads."""
    m = aster.Module("gfx942")
    k = m.kernel("k", args=[("x", aster.ptr(np.float32))], block=(64, 1, 1))
    k.load_arg("x", s[4:6])
    wg = k.workgroup_id("x")
    k.s_lshl_b32(s[8], wg, 13)                    # 8 KiB per workgroup
    k.v_lshlrev_b32(v[1], 4, v[0])
    k.v_add_u32(v[1], s[8], v[1])
    k.s_waitcnt(lgkmcnt=0)
    for i in range(8):
        k.global_load_dwordx4(v[4 + 4 * i:8 + 4 * i], v[1], s[4:6])
        k.v_add_u32(v[1], 1024, v[1])
    k.s_waitcnt(vmcnt=0)
    k.s_endpgm()
    r = aster.launch(m, "k", groups, 64, [np.zeros(groups * 2048, np.float32)], timing=True)
    ev = r.trace.events
    return ev["dur"][[r.trace.mnemonic(i).startswith("global_load") for i in ev["inst"]]]


def test_memory_latency_grows_with_load():
    """One wave's loads from HBM take about HBM's latency; 8 waves on each of
    304 CUs asking at once queue for its bandwidth: their loads take longer."""
    alone = loads(1)
    busy = loads(8 * 304)
    hbm = devices()["mi300x"]["latency_cycles"][3]
    assert np.median(alone) < 1.5 * hbm
    assert np.median(busy) > 1.5 * np.median(alone)


def mfma_chain(n=256):
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(256, 1, 1))
    for r in range(4):
        k.v_mov_b32(v[r], 0)
    for r in range(16):
        k.v_accvgpr_write_b32(a[r], 0)
    for _ in range(n):
        k.v_mfma_f32_32x32x8_f16(a[0:16], v[0:2], v[2:4], a[0:16])
    k.s_endpgm()
    return m


def test_clock_drops_under_mfma_load():
    """Every matrix core of the device busy: the launch runs near the
    profile's clock under MFMA load; a kernel without MFMAs at peak."""
    d = devices()["mi300x"]
    r = aster.launch(mfma_chain(), "k", 304, 256, [], timing=True)
    t = r.trace
    assert t.mfma_utilization > 0.8
    assert t.effective_mhz < d["clock_mhz"] - 0.8 * (d["clock_mhz"] - d["mfma_clock_mhz"])
    assert r.microseconds == pytest.approx(d["launch_us"] + r.cycles / t.effective_mhz)
    assert t.time()["clock"] > 0
    plain = aster.launch(straight(64), "k", 304, 64, [], timing=True)
    assert plain.trace.effective_mhz == d["clock_mhz"]
