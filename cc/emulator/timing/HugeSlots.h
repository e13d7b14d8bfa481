//===- HugeSlots.h - the timing model's wave state in huge host pages -----===//
//
// Needs: nothing (any thread may take and give back slots).
// Guarantees: hugeNew<T>() returns a default-constructed T (members without
// initialisers left as they are: the register arrays of a Wave, as `new
// Wave`), HugePtr<T> destroys it and keeps its slot; a slot lies in memory
// the host is asked to back with 2 MiB pages (madvise(MADV_HUGEPAGE)).
// [host]: a timed launch keeps every CU's waves alive at once (a Wave is
// ~166 KiB, its timing state TWave ~17 KiB; a 2048^3 GEMM has 1024 of each
// alive): with 4 KiB pages nearly every register access of a wave missed
// the host's TLB. The model never sees where a wave lives: cycles,
// results and reports do not depend on it.
//
// hugeZeroed: large arrays (tags, line maps) in huge pages too.
//
// Free slots are kept for reuse; beyond kRetainBytes of them their memory
// goes back to the host (MADV_DONTNEED; the address range stays).
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_TIMING_HUGESLOTS_H
#define ASTER_EMULATOR_TIMING_HUGESLOTS_H

#include <cstddef>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

namespace aster::emu::timing {

/// `bytes` of zeroed memory the host is asked to back with 2 MiB pages
/// (mapped anew: the host zeroes it; for large arrays the model looks up
/// at random: the L2 tags, the Infinity Cache's line map), and its release.
void *hugeZeroed(size_t bytes);
void hugeRelease(void *p, size_t bytes);

/// Slots of one size cut from 2 MiB-aligned chunks of huge pages.
class HugeSlots {
public:
  explicit HugeSlots(size_t bytes);
  void *take();
  void give(void *p);

private:
  size_t slot_;
  std::mutex m_;
  std::vector<void *> free_;  ///< most recently given back last
  size_t backed_ = 0;         ///< free_[size - backed_ ...) still have their memory
  void grow();
};

template <class T> HugeSlots &hugeSlotsFor() {
  static HugeSlots *s = new HugeSlots(sizeof(T));  // never destroyed: freed at exit too
  return *s;
}

template <class T> struct HugeDelete {
  void operator()(T *p) const {
    if (p) {
      p->~T();
      hugeSlotsFor<T>().give(p);
    }
  }
};
template <class T> using HugePtr = std::unique_ptr<T, HugeDelete<T>>;

template <class T> T *hugeNew() {
  static_assert(alignof(T) <= 64, "slots are 64-byte aligned");
  return new (hugeSlotsFor<T>().take()) T;
}

} // namespace aster::emu::timing

#endif
