//===- Memory.h - LDS banks and the vector memory hierarchy ---------------===//
//
// LDS: 32 banks of 4 bytes, 128 bytes per clock per CU ([ISA], [WP]). An
// instruction's lanes go through the banks in groups of 128 bytes (32 lanes
// of b32, 16 of b64, 8 of b128); a group takes as many clocks as the most
// distinct dwords any bank holds in it (lanes reading the same dword share
// it: broadcast). The ideal is one clock per group.
//
// Global memory: unique 128-byte lines per instruction go through the CU's
// vector L1 (32 KiB), its XCD's L2 (4 MiB), the Infinity Cache (MALL, any
// line touched before in the launch) or HBM. Each level has a latency and a
// bandwidth; the shared levels' bandwidth is divided evenly among the CUs
// in use (Params.h). Stores write through to L2 without allocating in L1.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_TIMING_MEMORY_H
#define ASTER_EMULATOR_TIMING_MEMORY_H

#include "emulator/timing/Params.h"

#include <cstdint>
#include <unordered_set>
#include <vector>

namespace aster::emu::timing {

/// Clocks the LDS needs for one instruction: `dwords[l * per + i]` is the
/// i-th dword address (byte address / 4) of lane l; lanes not in `exec` do
/// not access. Returns {cycles, ideal cycles}.
std::pair<unsigned, unsigned> ldsBankCycles(const uint32_t *dwords, unsigned per,
                                            uint64_t exec, unsigned banks);

/// A set-associative cache of line tags with LRU replacement.
class TagCache {
public:
  void init(uint64_t bytes, unsigned lineBytes, unsigned ways);
  void clear();
  /// True on a hit; a miss allocates the line when `allocate`.
  bool access(uint64_t line, bool allocate);

private:
  unsigned sets_ = 0, ways_ = 0;
  std::vector<uint64_t> tags_;   ///< line + 1, 0 = empty
  std::vector<uint32_t> stamp_;
  uint32_t clock_ = 0;
};

/// Where a line was found.
enum Level : uint8_t { L1, L2, MALL, HBM };

class GlobalMemory {
public:
  GlobalMemory(const Params &p, unsigned cusUsed);
  /// Starts CU `cu` (its L1 empty, its bandwidth cursors at 0).
  void beginCU(unsigned cu);
  /// An access of `lines` (unique line numbers) issued at `start` by the
  /// current CU; returns its completion cycle. `lineCount` gets the lines
  /// per level (for the summary).
  uint64_t access(const uint64_t *lines, unsigned n, bool store, uint64_t start,
                  uint64_t *lineCount);
  /// Cycles the CU's vector memory pipeline spends on n lines.
  unsigned pipeCycles(unsigned n) const;

private:
  const Params &P;
  TagCache l1_;
  std::vector<TagCache> l2_;  ///< one per XCD
  std::unordered_set<uint64_t> mall_;
  unsigned xcd_ = 0;
  double l2Share_, mallShare_, hbmShare_;  ///< cycles per line for this CU
  double l2Free_ = 0, mallFree_ = 0, hbmFree_ = 0;
};

} // namespace aster::emu::timing

#endif
