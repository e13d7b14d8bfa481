//===- HbmChannels.h - which HBM channel serves an address ----------------===//
//
// MI300-class GPUs (MI300X, MI308X, MI325X; MI355X) interleave physical
// memory over 128 HBM channels (8 stacks of 16) in 256-byte blocks: AMD's
// MI300X launch slides ("128 channel interleaved HBM3 memory interface",
// ServeTheHome's report of AMD's Advancing AI 2023 deck) and AMD's Linux
// driver, which turns a channel's error address back into the physical
// address for page retirement (drivers/gpu/drm/amd/amdgpu/umc_v12_0.{h,c},
// the UMC 12.0 of MI300 and of the HBM3E parts; `umc_v12_0_convert_error_
// address`: pa = ADDR_OF_32KB_BLOCK(na) | ADDR_OF_256B_BLOCK(channel_index)
// | OFFSET_IN_256B_BLOCK(na), then UMC_V12_0_SET_CHANNEL_HASH). In NPS1
// (the default memory partition mode, the one AMD's tuners ran in):
//
//   * physical address bits 8..11 are channel index bits 0..3;
//   * bits 12, 13, 14 (CH4..CH6 in the driver) are channel index bits 5, 6,
//     4, each XORed with higher address bits (the "64K", "2M", "1G" and
//     "1T" channel hashes, all enabled in UMC_V12_0_HASH_*; the "4K" hash is
//     off):
//       bit 12 ^ 20 ^ 27 ^ 34 ^ 41,  bit 13 ^ 21 ^ 28 ^ 35 ^ 42,
//       bit 14 ^ 19 ^ 26 ^ 33 ^ 40.
//
// So a 4 KiB block lies on 16 channels, and blocks 64 KiB apart land on the
// same 16 channels unless bits 19.. differ: a power-of-two stride of 64 KiB
// or more concentrates a stream on few channels, a stride of 56 KiB spreads
// it (bits 13..15 change).
//
// Needs: a byte address as the GPU's physical address. The model uses the
// emulator's (virtual) address ([model]): the GPU maps VRAM in fragments of
// 2 MiB or more, so bits 0..20 (the 256-byte interleave and the 64K hash)
// are the physical ones; bits 21 and up only permute the channels.
// Guarantees: a channel in [0, kHbmChannels), O(1), the same channel for the
// two 128-byte lines of a 256-byte block.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_TIMING_HBMCHANNELS_H
#define ASTER_EMULATOR_TIMING_HBMCHANNELS_H

#include <cstdint>

namespace aster::emu::timing {

/// HBM channels of every profile: 8 stacks of 16 (7 channel index bits in
/// umc_v12_0's address map; MI300X launch: "128 channel").
constexpr unsigned kHbmChannels = 128;

/// The channel (in [0, 128)) serving byte address `a` in NPS1.
///
///   CH4 = bit 12 ^ 20 ^ 27 ^ 34 ^ 41 (index bit 5)
///   CH5 = bit 13 ^ 21 ^ 28 ^ 35 ^ 42 (index bit 6)
///   CH6 = bit 14 ^ 19 ^ 26 ^ 33 ^ 40 (index bit 4)
///
/// [host] The hash bits above bit 14 are 7 apart: y = a ^ a >> 7 ^ a >> 14
/// ^ a >> 21 holds bit 20 ^ 27 ^ 34 ^ 41 at bit 20, bit 21 ^ 28 ^ 35 ^ 42 at
/// 21 and bit 19 ^ 26 ^ 33 ^ 40 at 19, so that CH4, CH5 and CH6 are bits 12,
/// 13 and 14 of a ^ y >> 8, a ^ y >> 8 and a ^ y >> 5 (~20 host
/// instructions, not ~45 bit by bit: one per HBM line of a launch;
/// tests/py/test_timing_hbm_hash.py checks it bit by bit).
inline unsigned hbmChannel(uint64_t a) {
  uint64_t y = a ^ a >> 7 ^ a >> 14 ^ a >> 21;
  unsigned low = unsigned(a >> 8) & 15u;                 // CH0..CH3
  unsigned ch45 = unsigned((a ^ y >> 8) >> 12) & 3u;     // CH4, CH5: index bits 5, 6
  unsigned ch6 = unsigned((a ^ y >> 5) >> 14) & 1u;      // CH6: index bit 4
  return low | ch6 << 4 | ch45 << 5;
}

} // namespace aster::emu::timing

#endif
