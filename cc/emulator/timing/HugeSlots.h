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
// hugeNew<T>(true): a slot in 4 KiB pages instead (MADV_NOHUGEPAGE), for
// waves that touch a small part of their state ([host]: a wave of a kernel
// of 4 VGPRs touches ~20 KiB of its ~166 KiB; in a huge page the host
// zeroes all of it, and a 1024-workgroup vector_add's 4096 waves cost 680
// MiB of zeroed pages per launch). The slot goes back to the pool it came
// from (give: looked up by address).
//
// Free slots are kept for reuse; beyond kRetainBytes of them their memory
// goes back to the host (MADV_DONTNEED; the address range stays).
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_TIMING_HUGESLOTS_H
#define ASTER_EMULATOR_TIMING_HUGESLOTS_H

#include <cstddef>
#include <cstdint>
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

/// Slots of one size cut from 2 MiB-aligned chunks of huge pages, or
/// (`small`) of 4 KiB pages.
class HugeSlots {
public:
  explicit HugeSlots(size_t bytes);
  void *take(bool small = false);
  void give(void *p);

private:
  size_t slot_;
  std::mutex m_;
  struct Kind {
    std::vector<void *> free;  ///< most recently given back last
    size_t backed = 0;         ///< free[size - backed ...) still have their memory
  } kinds_[2];                 ///< [0] huge pages, [1] 4 KiB pages
  std::vector<uintptr_t> smallChunks_;  ///< starts of the 4 KiB-page chunks, sorted
  size_t chunk_ = 0;                    ///< bytes per chunk
  void grow(bool small);
  bool isSmall(const void *p) const;
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

template <class T> T *hugeNew(bool small = false) {
  static_assert(alignof(T) <= 64, "slots are 64-byte aligned");
  return new (hugeSlotsFor<T>().take(small)) T;
}

} // namespace aster::emu::timing

#endif
