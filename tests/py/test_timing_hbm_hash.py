"""The timing model's HBM channel of an address (HbmChannels.h, computed with
folded shifts for speed) against the NPS1 channel map written out bit by bit
as AMD's Linux driver states it (drivers/gpu/drm/amd/amdgpu/umc_v12_0.{h,c}:
channel index bits 0..3 are address bits 8..11; index bits 5, 6 and 4 are
address bits 12, 13 and 14, each XORed with the enabled 64K/2M/1G/1T hash
bits: 12 ^ 20 ^ 27 ^ 34 ^ 41, 13 ^ 21 ^ 28 ^ 35 ^ 42, 14 ^ 19 ^ 26 ^ 33 ^ 40).
"""
import numpy as np

import aster._emu as emu


def reference(a):
    a = a.astype(np.uint64)

    def bit(i):
        return (a >> np.uint64(i)) & np.uint64(1)

    low = (a >> np.uint64(8)) & np.uint64(15)
    ch4 = bit(12) ^ bit(20) ^ bit(27) ^ bit(34) ^ bit(41)
    ch5 = bit(13) ^ bit(21) ^ bit(28) ^ bit(35) ^ bit(42)
    ch6 = bit(14) ^ bit(19) ^ bit(26) ^ bit(33) ^ bit(40)
    return (low | ch6 << np.uint64(4) | ch4 << np.uint64(5) | ch5 << np.uint64(6)).astype(np.uint8)


def test_every_hash_bit_alone_and_random_addresses():
    """Each address bit 0..63 alone, then 200000 random 64-bit addresses:
    the model's channel is the driver's, bit for bit (a wrong shift in the
    fold would move some hash bit to another channel bit)."""
    single = np.uint64(1) << np.arange(64, dtype=np.uint64)
    rng = np.random.default_rng(7)
    rand = rng.integers(0, 2**63, size=200000, dtype=np.uint64) * np.uint64(2) + \
        rng.integers(0, 2, size=200000, dtype=np.uint64)
    for a in (single, rand):
        got = emu.timing_hbm_channels(a)
        assert np.array_equal(got, reference(a))
    # (the hash bits do move channels: not a map that ignores them)
    assert len(set(emu.timing_hbm_channels(single).tolist())) > 4
