//===- Memory.h - the emulated global address space ----------------------===//
//
// During a launch, device memory is a sorted set of regions (buffers, the
// kernarg segment, the dispatch packet, the code object image). An access
// is valid only when it lies entirely inside one region. A buffer's region
// may end in `slack` bytes (Device::allocate's slack): readable zeros that
// a write may not touch.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_MEMORY_H
#define ASTER_EMULATOR_MEMORY_H

#include <cstdint>
#include <string>
#include <vector>

namespace aster::emu {

/// Fixed apertures of the emulated flat address space.
constexpr uint64_t kSharedAperture = 0x0001000000000000ull;
constexpr uint64_t kPrivateAperture = 0x0002000000000000ull;
constexpr uint64_t kApertureSize = 1ull << 32;
/// Where the code object's loadable image is mapped (its relocations are
/// applied for this base when it is loaded).
constexpr uint64_t kImageBase = 0x0000700000000000ull;

struct Region {
  uint64_t base = 0, size = 0;
  uint8_t *data = nullptr;
  bool writable = true;
  std::string name;
  uint64_t slack = 0;  ///< the last `slack` of the `size` bytes are read-only
  bool contains(uint64_t addr, uint64_t n) const {
    return addr >= base && addr - base <= size && n <= size - (addr - base);
  }
  /// True when [addr, addr + n), inside the region, may be written.
  bool canWrite(uint64_t addr, uint64_t n) const {
    return writable && addr - base + n <= size - slack;
  }
};

class AddressSpace {
public:
  /// Regions must not overlap; call before the launch starts.
  void add(const Region &r);
  /// The region holding [addr, addr + n), or nullptr.
  const Region *find(uint64_t addr, uint64_t n) const;
  /// A description of where `addr` is relative to the closest regions, for
  /// error messages.
  std::string describe(uint64_t addr, uint64_t n) const;
  const std::vector<Region> &regions() const { return regions_; }

private:
  std::vector<Region> regions_;  ///< sorted by base
};

} // namespace aster::emu

#endif
