"""Where workgroups run and what the memory beyond the XCD costs, each
isolated by a small kernel:

* workgroups go to the XCDs in turn (AMD: "on MI300 series GPUs, workgroups
  are typically scheduled round-robin across XCDs", ROCm/composable_kernel
  pull request 3652; the XCD remapping of CK's stream-K exists to undo it),
  so neighbouring workgroups reading the same lines miss in their own L2s;
* the Infinity Cache and HBM sit on the I/O dies, outside the shader clock:
  their latencies are times (Chips and Cheese, "Testing AMD's Giant MI300X":
  ~219 ns and ~362 ns), so more cycles on the 2400 MHz MI355X than on the
  2100 MHz MI300X; L1 and L2 (on the XCD) keep their cycles;
* the engine clock under a dense GEMM: AMD's measured median clocks (ROCm
  blog "Measuring Max-Achievable FLOPs - Part 2", MAF results: MI300X bf16
  1207 MHz at 708.0 TFLOP/s, MI325X bf16 1447 MHz at 840.8 TFLOP/s) on the
  model's line from the peak clock.
"""
import numpy as np
import pytest

import aster
from aster import s, v
from aster.timing import devices


def same_lines(groups):
    """Every workgroup reads the same 1 KiB (8 lines) once."""
    m = aster.Module("gfx942")
    k = m.kernel("k", args=[("x", aster.ptr(np.float32))], block=(64, 1, 1))
    k.load_arg("x", s[4:6])
    k.v_lshlrev_b32(v[1], 4, v[0])
    k.s_waitcnt(lgkmcnt=0)
    k.global_load_dwordx4(v[4:8], v[1], s[4:6])
    k.s_waitcnt(vmcnt=0)
    k.s_endpgm()
    return aster.launch(m, "k", groups, 64, [np.zeros(256, np.float32)], timing=True)


def test_neighbouring_workgroups_run_on_different_xcds():
    """8 workgroups reading the same 8 lines run on the 8 XCDs: each XCD's
    L2 misses them (one fetch from HBM, then the Infinity Cache), none hits
    in L2. With 16 workgroups, 8 and 0 share XCD 0 (and so on): the second
    eight find the lines in their L2."""
    eight = same_lines(8).trace.mem_lines
    assert eight["l2"] == 0
    assert eight["hbm"] + eight["mall"] == 8 * 8
    sixteen = same_lines(16).trace.mem_lines
    assert sixteen["hbm"] + sixteen["mall"] == 8 * 8
    assert sixteen["l2"] == 8 * 8


def test_fabric_latencies_are_times():
    """MI300X: 460 and 760 cycles at 2100 MHz (219 and 362 ns); MI355X at
    2400 MHz: the same times, 526 and 869 cycles; L1 and L2 unchanged."""
    d = devices()
    l1, l2, mall, hbm = d["mi300x"]["latency_cycles"]
    assert (mall, hbm) == (460, 760)
    y = d["mi355x"]["latency_cycles"]
    assert (y[0], y[1]) == (l1, l2)
    assert y[2] == round(219 * 2.4) and y[3] == round(362 * 2.4)
    assert y[3] / 2400 == pytest.approx(hbm / 2100, rel=0.002)


@pytest.mark.parametrize("device, mhz, tflops", [("mi300x", 1207, 708.0),
                                                 ("mi325x", 1447, 840.8)])
def test_clock_under_gemm_load_matches_amds_measured_median(device, mhz, tflops):
    """AMD's MAF GEMM kept the matrix cores tflops / (1307.4 x mhz / 2100)
    busy (0.942 on MI300X, 0.933 on MI325X) at a median of `mhz`: at that
    utilisation the model's clock is that median (within 1 MHz)."""
    p = devices()[device]
    util = tflops / (1307.4 * mhz / 2100)
    model = p["clock_mhz"] - (p["clock_mhz"] - p["mfma_clock_mhz"]) * util
    assert model == pytest.approx(mhz, abs=1.0)
