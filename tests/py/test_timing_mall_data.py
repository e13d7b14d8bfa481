"""Data that starts in the Infinity Cache (MALL): aster.launch(data_in_mall=True).

AMD's tuners time a kernel with aiter's perftest (aiter/test_common.py in
the amd-aiter wheel): 101 timed launches that rotate copies of the tensor
arguments, min(101, cache_size / inputSize) of them. Where all copies fit in
the memory-side Infinity Cache (256 MiB on MI300X and MI355X, CDNA3 / CDNA4
white papers), each launch finds its data there, not in HBM: the timing
model then serves a launch's first touch of a line from the MALL (its
latency, 219 ns on Chips and Cheese's MI300X pointer chase, and bandwidth)
instead of HBM (362 ns). bench/bench_fidelity.py sets it for the f4gemm
rows whose rotation fits (f4gemm.perftest_footprint).
"""
import re

import numpy as np
import pytest

import aster
from aster import s, v
from aster.aiter import f4gemm, wheel
from aster.timing import devices


def one_load(data_in_mall, device="mi300x"):
    """One wave loads 1 KiB (8 lines) once and waits for it."""
    m = aster.Module("gfx942")
    k = m.kernel("k", args=[("x", aster.ptr(np.float32))], block=(64, 1, 1))
    k.load_arg("x", s[4:6])
    k.v_lshlrev_b32(v[1], 4, v[0])
    k.s_waitcnt(lgkmcnt=0)
    k.global_load_dwordx4(v[4:8], v[1], s[4:6])
    k.s_waitcnt(vmcnt=0)
    k.s_endpgm()
    return aster.launch(m, "k", 1, 64, [np.zeros(256, np.float32)], timing=True,
                        device=device, data_in_mall=data_in_mall)


@pytest.mark.parametrize("device", ["mi300x", "mi325x"])
def test_first_touch_comes_from_the_mall(device):
    """The 8 lines come from HBM by default and from the MALL with
    data_in_mall: the launch is shorter by exactly the HBM latency less the
    MALL's (760 - 460 cycles at 2100 MHz), nothing else changes."""
    cold, warm = one_load(False, device), one_load(True, device)
    assert cold.trace.mem_lines["hbm"] == 8 and cold.trace.mem_lines["mall"] == 0
    assert warm.trace.mem_lines["mall"] == 8 and warm.trace.mem_lines["hbm"] == 0
    _, _, mall, hbm = devices()[device]["latency_cycles"]
    assert cold.cycles - warm.cycles == hbm - mall


def test_mall_capacity_of_the_profiles():
    """256 MiB on every profile (CDNA3 white paper for MI300X; MI325X's;
    CDNA4 white paper for MI355X; MI308X has MI300X's memory dies)."""
    assert {d["mall_bytes"] for d in devices().values()} == {256 << 20}


def test_data_in_mall_needs_timing_and_a_bool():
    with pytest.raises(ValueError, match="needs timing=True"):
        aster.launch(aster.Module("gfx942"), "k", 1, 64, [], data_in_mall=True)
    with pytest.raises(ValueError, match="data_in_mall must be a bool"):
        aster.launch(aster.Module("gfx942"), "k", 1, 64, [], timing=True, data_in_mall="yes")


def test_perftest_rotation_is_what_the_wheel_does():
    """The footprint follows the wheel's perftest: 101 timed launches, the
    number of copies from L2_cache_size * 64 * 128 over the tensors' bytes
    (+ 1). If AMD changes that code, this fails."""
    src = wheel.wheel_file("aiter/test_common.py").read_text()
    assert re.search(r"def perftest\(\s*num_iters=101", src)
    assert '"L2_cache_size", 4096 * 1024) * 64 * 128' in src
    assert "num = int((cache_size + inputSize - 1) // inputSize)" in src
    assert "num = min(num, num_iters)" in src
    tune = wheel.wheel_file(
        "aiter_meta/csrc/ck_gemm_a4w4_blockscale/gemm_a4w4_blockscale_tune.py").read_text()
    assert "out_ck = torch.empty((m + 255) // 256 * 256, n, dtype=dtype" in tune


def test_perftest_footprint_of_tuned_rows():
    """8x512x7168: A 28672 B, B 1835008, scales 57344 + 114688, out 262144
    (+1): 2297857 bytes x 101 copies = 232 MB, inside 256 MiB; 1x1280x8192
    (B 5 MiB, out 2.5 MiB) x 101 is not; a huge shape gets fewer copies."""
    assert f4gemm.perftest_footprint(8, 512, 7168) == 101 * 2297857
    assert f4gemm.perftest_footprint(8, 512, 7168) <= 256 << 20
    assert f4gemm.perftest_footprint(1, 1280, 8192) > 256 << 20
    big = f4gemm.perftest_footprint(32768, 8192, 28672)
    assert big < 101 * 32768 * 28672


def test_f4gemm_row_with_data_in_mall_is_faster():
    """The cheapest tuned row that fits (64x192x1024, 32x128, 4 workgroups)
    waits on the MALL instead of HBM: shorter, with no HBM line."""
    _, cold = f4gemm.run("32x128", 64, 192, 1024)
    _, warm = f4gemm.run("32x128", 64, 192, 1024, data_in_mall=True)
    assert warm.trace.mem_lines["hbm"] == 0 < cold.trace.mem_lines["hbm"]
    assert warm.microseconds < cold.microseconds
