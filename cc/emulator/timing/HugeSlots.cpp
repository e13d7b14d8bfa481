//===- HugeSlots.cpp - slots in huge host pages (HugeSlots.h) -------------===//
//
// A chunk is kChunk bytes (a multiple of 2 MiB, 2 MiB aligned) cut into
// slots of the size rounded up to 64 bytes; a free list under a mutex (the
// timing model takes and gives back waves in batches per launch).
//
//===----------------------------------------------------------------------===//
#include "emulator/timing/HugeSlots.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace aster::emu::timing {

namespace {
constexpr size_t kHuge = size_t(2) << 20;
constexpr size_t kChunk = 8 * kHuge;               ///< 16 MiB
constexpr size_t kRetainBytes = size_t(96) << 20;  ///< free slots kept backed by memory
} // namespace

#if defined(__linux__)
namespace {
/// `len` bytes (a multiple of 2 MiB) of zeroed memory starting on a 2 MiB
/// boundary, advised to be backed by huge pages (`small`: by 4 KiB pages):
/// one huge page more is mapped, then the unaligned head and the tail
/// beyond `len` unmapped.
void *mapHugeAligned(size_t len, bool small = false) {
  size_t span = len + kHuge;
  void *raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED)
    throw std::bad_alloc();
  uintptr_t a = reinterpret_cast<uintptr_t>(raw);
  uintptr_t b = (a + kHuge - 1) & ~(uintptr_t(kHuge) - 1);
  if (b > a)
    munmap(raw, b - a);
  if (b + len < a + span)
    munmap(reinterpret_cast<void *>(b + len), a + span - (b + len));
  madvise(reinterpret_cast<void *>(b), len, small ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
  return reinterpret_cast<void *>(b);
}
} // namespace
#endif

void *hugeZeroed(size_t bytes) {
#if defined(__linux__)
  // Bytes rounded up to whole huge pages.
  return mapHugeAligned((bytes + kHuge - 1) / kHuge * kHuge);
#else
  void *p = ::operator new(bytes, std::align_val_t(64));
  std::memset(p, 0, bytes);
  return p;
#endif
}

void hugeRelease(void *p, size_t bytes) {
  if (!p)
    return;
#if defined(__linux__)
  munmap(p, (bytes + kHuge - 1) / kHuge * kHuge);
#else
  ::operator delete(p, std::align_val_t(64));
#endif
}

HugeSlots::HugeSlots(size_t bytes)
    : slot_((bytes + 63) / 64 * 64), chunk_(std::max(kChunk, (slot_ + kHuge - 1) / kHuge * kHuge)) {}

bool HugeSlots::isSmall(const void *p) const {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto it = std::upper_bound(smallChunks_.begin(), smallChunks_.end(), a);
  return it != smallChunks_.begin() && a - *(it - 1) < chunk_;
}

void HugeSlots::grow(bool small) {
  void *p = nullptr;
#if defined(__linux__)
  p = mapHugeAligned(chunk_, small);
#else
  p = ::operator new(chunk_, std::align_val_t(64));
#endif
  char *c = static_cast<char *>(p);
  if (small)
    smallChunks_.insert(std::upper_bound(smallChunks_.begin(), smallChunks_.end(),
                                         reinterpret_cast<uintptr_t>(p)),
                        reinterpret_cast<uintptr_t>(p));
  Kind &k = kinds_[small];
  size_t n = chunk_ / slot_;
  // The last slot first: slots are taken from the list's end, lowest address first.
  for (size_t i = n; i-- > 0;)
    k.free.push_back(c + i * slot_);
  k.backed += n;
}

void *HugeSlots::take(bool small) {
  std::lock_guard<std::mutex> lk(m_);
  Kind &k = kinds_[small];
  if (k.free.empty())
    grow(small);
  void *p = k.free.back();
  k.free.pop_back();
  k.backed = std::min(k.backed, k.free.size());
  return p;
}

void HugeSlots::give(void *p) {
  std::lock_guard<std::mutex> lk(m_);
  Kind &k = kinds_[isSmall(p)];
  k.free.push_back(p);
  ++k.backed;
#if defined(__linux__)
  if (k.backed * slot_ > kRetainBytes) {
    // The memory of the longest-free backed slot goes back to the host.
    uintptr_t s = reinterpret_cast<uintptr_t>(k.free[k.free.size() - k.backed]);
    uintptr_t lo = (s + 4095) & ~uintptr_t(4095), hi = (s + slot_) & ~uintptr_t(4095);
    if (hi > lo)
      madvise(reinterpret_cast<void *>(lo), hi - lo, MADV_DONTNEED);
    --k.backed;
  }
#endif
}

} // namespace aster::emu::timing
