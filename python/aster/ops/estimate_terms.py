"""The calibrated per-workgroup terms that `dispatch.estimate` and
`stream_k_estimate.estimate_stream_k` share: a K step with workgroups
resident together (`step_cycles`), their LDS shared (`lds_cycles`), the full-device probes' extra cycles
(`probe_extra`), the turns a split-K tile's adders take on its lines at
L2 (`adder_turns`), and the L2 facts they charge."""
from ..generators.gemm import BYTE_DTYPES
from .library import CALIB_STEPS

__all__ = ["VMEM_BYTES_PER_CLK", "LINE_BYTES", "ATOMIC_LINE_CYCLES", "step_cycles",
           "lds_cycles", "probe_extra", "adder_turns"]

# The timing model's facts these terms charge, read from its device profile
# (aster.timing.devices(); sources in cc/emulator/timing/Params.h), the same
# on every profile:
# - VMEM_BYTES_PER_CLK: the CU's vector-memory pipeline (l1BytesPerClk, [WP]:
#   AMD's CDNA3 white paper, 64 B/clk/CU). Workgroups resident on one CU
#   queue their global loads on it: a K step takes at least their tiles' A
#   and B bytes of one step at this rate (16x64 tiles, 4 per CU on MI355X:
#   4 x 10 KiB per step > 599 cycles alone).
# - LINE_BYTES: a cache line (lineBytes).
# - ATOMIC_LINE_CYCLES: an atomic holds the line it updates at L2 this long;
#   atomics to one line (a split-K tile's counter, its C lines) take turns
#   (atomicLineCycles, [model]: Memory.cpp serialises them per line).
def _model_fact(key):
    from .devices import DEVICE, profile
    values = {profile(arch)[key] for arch in DEVICE}
    if len(values) != 1:  # (the terms take one value for every device)
        raise RuntimeError(f"timing profiles differ in {key}: {sorted(values)}")
    return values.pop()


VMEM_BYTES_PER_CLK = _model_fact("l1_bytes_per_clk")
LINE_BYTES = _model_fact("line_bytes")
ATOMIC_LINE_CYCLES = _model_fact("atomic_line_cycles")


def step_cycles(cfg, calib, resident):
    """A K workgroup's cycles per K step with `resident` of them on its CU:
    the calibrated step alone (wg_step), the CU's MFMA time shared (wg_mfma
    SIMD-cycles over 4 SIMDs) or its vector-memory pipeline shared
    (VMEM_BYTES_PER_CLK), whichever is longest."""
    from .library import k_per_step
    esz = 1 if cfg.dtype in BYTE_DTYPES else 2
    vmem = (cfg.tile_m + cfg.tile_n) * k_per_step(cfg) * esz / VMEM_BYTES_PER_CLK
    return max(calib["wg_step"], resident * calib["wg_mfma"] / 4, resident * vmem)


def lds_cycles(calib, resident):
    """The least cycles per K step of `resident` K workgroups sharing their
    CU's LDS: wg_lds each (the LDS busy cycles of one workgroup's step
    alone, the timing model's unit_busy, `library.calibrate`: the writes of
    the step's A and B tiles and every wave's fragment reads, at the LDS
    bandwidth and bank conflicts the model gives; 288 cycles for the 32x64
    tile on both devices, so three resident take 864 per step where one
    alone takes 608 on MI355X). A floor under the loop, not added to the
    probes' extra cycles: the waits on memory those measure overlap with
    the LDS serving the other workgroups (0: a library built before the
    column)."""
    return resident * calib.get("wg_lds", 0.0)


def probe_extra(calib, busy, slots, steps=None):
    """The full-device probes' extra cycles of a workgroup of `steps` K
    steps with `busy` workgroups per CU (wg_load x that share below one per
    CU; between wg_load at one and wg_load_full at `slots`, wg_per_cu).
    wg_load grows by wg_load_step per K step beyond CALIB_STEPS[0] (the
    queues every K step's loads meet under load), up to CALIB_STEPS[1]
    steps, the longest probe (not extrapolated: MI355X 128x128 split-K
    probe, one workgroup per CU, 489 / 888 / 1069 / 1297 extra cycles at 4
    / 8 / 12 / 16 steps, so the growth slows). wg_load_full is charged as
    probed (the same probe with every slot busy saturates: 6652 / 8141 /
    8532 / 8196). Never below 0. steps None: at CALIB_STEPS[0]."""
    more = 0 if steps is None else min(steps, CALIB_STEPS[1]) - CALIB_STEPS[0]
    one = max(0.0, calib["wg_load"] + more * calib.get("wg_load_step", 0.0))
    if busy <= 1 or slots == 1:
        return one * busy
    return one + (busy - 1) / (slots - 1) * (calib["wg_load_full"] - one)


def adder_turns(adders, wgs, slots):
    """The cycles a split-K launch's last adder of a tile ends later than
    its first (beyond the calibration probe's one adder per tile): the
    tile's `adders` that run together (all of them where the launch's
    `wgs` workgroups fit its `slots`, else their share) take turns at L2,
    ATOMIC_LINE_CYCLES each, two per adder on each line they share: on
    its wave's counter line the poll that sees the store and the
    increment, on each line of the C tile two half-line adds (16x16 MFMA
    layout; one on 32x32, whose counter line is then the longer queue)."""
    together = min(adders, -(-adders * slots // wgs))
    return ATOMIC_LINE_CYCLES * 2 * max(0, together - 1)
