"""HBM channels: the model serves HBM traffic per channel, with the address
map AMD's Linux driver publishes for MI300-class memory (UMC 12.0,
drivers/gpu/drm/amd/amdgpu/umc_v12_0.{h,c}: 128 channels in 256-byte blocks,
physical address bits 8..14, bits 12..14 XORed with bits 19..21, 26..28,
33..35 and 40..42 in NPS1; cc/emulator/timing/HbmChannels.h). Each channel
has 1/128 of the device's HBM bandwidth (MI300X: 4.2 TB/s measured by AMD's
roofline benchmark, ROCm/legacy-rocm-build#5070; 5.3 TB/s peak, "128
channel interleaved HBM3 memory interface" in AMD's MI300X launch deck).

A stream of 256-byte blocks 32 KiB apart (128 x 256 bytes, a power of two)
keeps address bits 8..18 fixed: by the driver's map only the hash of bits
19..21 changes its channel, so within 64 MiB it uses 8 channels, 8/128 of
the bandwidth. The same blocks 33 x 256 bytes apart (odd) walk every channel.
A linear stream is served at the device's bandwidth as before
(tests/py/test_timing.py: test_streaming_bandwidth_near_hbm_peak,
test_all_cus_streaming_distinct_data_share_hbm_peak).
"""
import numpy as np
import pytest

import aster
from aster import s, v
from aster.timing import devices

BLOCK = 256   # bytes per channel block (umc_v12_0: ADDR_OF_256B_BLOCK)
LOADS = 4     # global_load_dwordx4 per wave, 4 blocks each


def strided(stride, groups, device="mi300x"):
    """Workgroup g (one wave) reads LOADS x 4 blocks of 256 bytes, block i
    of the launch at byte i x stride: lanes 16j..16j+15 of a load read block
    j of it, 16 bytes each. Returns the launch and the bytes read."""
    m = aster.Module("gfx950" if device == "mi355x" else "gfx942")
    k = m.kernel("k", args=[("x", aster.ptr(np.float32)), ("out", aster.ptr(np.float32))],
                 block=(64, 1, 1))
    k.load_arg("x", s[4:6])
    k.load_arg("out", s[6:8])
    wg = k.workgroup_id("x")
    k.s_mul_i32(s[8], wg, LOADS * 4 * stride)      # the workgroup's first block
    k.v_lshrrev_b32(v[2], 4, v[0])                 # block j of a load: lane / 16
    k.s_mov_b32(s[10], stride)
    k.v_mul_lo_u32(v[2], s[10], v[2])
    k.v_and_b32(v[1], 15, v[0])
    k.v_lshlrev_b32(v[1], 4, v[1])                 # 16 bytes per lane in its block
    k.v_add_u32(v[1], v[1], v[2])
    k.v_add_u32(v[1], s[8], v[1])
    k.s_waitcnt(lgkmcnt=0)
    for i in range(LOADS):
        k.global_load_dwordx4(v[4 + 4 * i:8 + 4 * i], v[1], s[4:6])
        k.v_add_u32(v[1], 4 * stride, v[1])
    k.v_mov_b32(v[3], 0)
    k.s_waitcnt(vmcnt=0)
    for i in range(LOADS):
        k.v_add_f32(v[3], v[3], v[4 + 4 * i])
    k.s_lshl_b32(s[9], wg, 8)
    k.s_add_u32(s[6], s[6], s[9])
    k.s_addc_u32(s[7], s[7], 0)
    k.v_lshlrev_b32(v[1], 2, v[0])
    k.global_store_dword(v[1], v[3], s[6:8])
    k.s_endpgm()
    blocks = groups * LOADS * 4
    x = np.ones(blocks * stride // 4, np.float32)
    out = np.zeros(groups * 64, np.float32)
    r = aster.launch(m, "k", groups, 64, [x, out], timing=True, device=device)
    assert (out == LOADS).all()
    return r, blocks * BLOCK


def hbm_gbs(r, nbytes, device):
    """Bytes per second from the first load to the end of the launch."""
    mhz = devices()[device]["clock_mhz"]
    first = r.trace.issues("global_load").min()
    return nbytes / ((r.cycles - first) / (mhz * 1e6)) / 1e9


@pytest.mark.parametrize("device", ["mi300x", "mi355x"])
def test_power_of_two_stride_uses_eight_of_128_channels(device):
    """2048 blocks 32 KiB apart from 128 workgroups: all from HBM, on 8
    channels (the hash of bits 19..21), at most 8/128 of the device's HBM
    bandwidth and at least 0.6 of it (the rest: one latency); 33 x 256
    bytes apart the same blocks spread over the 128 channels and come more
    than 2.5x faster (latency-bound)."""
    tbs = devices()[device]["hbm_tb_s"]
    pow2, nbytes = strided(128 * BLOCK, 128, device)
    assert pow2.trace.summary()["memory_lines"]["hbm"] >= nbytes // 128
    eight = 8 / 128 * tbs * 1000
    assert 0.6 * eight < hbm_gbs(pow2, nbytes, device) <= eight
    odd, _ = strided(33 * BLOCK, 128, device)
    assert odd.trace.summary()["memory_lines"]["hbm"] >= nbytes // 128
    assert hbm_gbs(odd, nbytes, device) > 2.5 * hbm_gbs(pow2, nbytes, device)


def test_stride_within_a_channel_block_is_linear():
    """Blocks 256 bytes apart are a linear stream: 16 consecutive blocks
    are 16 channels (bits 8..11), no channel serves two of one 4 KiB; the
    launch takes as long as with the odd stride."""
    lin, nbytes = strided(BLOCK, 64)
    odd, _ = strided(33 * BLOCK, 64)
    assert lin.cycles == pytest.approx(odd.cycles, rel=0.1)
