//===- MemOps.h - per-lane data movement shared by the memory families ----===//
//
// Global/flat/scratch, buffer and LDS instructions differ in how they form
// addresses; what they do with the data is the same and lives here: load
// kinds (dwords, sub-dword with extension, d16 halves), stores, atomics.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_MEMOPS_H
#define ASTER_EMULATOR_MEMOPS_H

#include "emulator/MemAccess.h"

namespace aster::emu {

/// What a load does with the bytes it reads.
struct LoadKind {
  uint8_t bytes;    ///< 1, 2, 4, 8, 12, 16
  bool sext;        ///< sub-dword: sign-extend
  uint8_t d16;      ///< 0: whole register, 1: low half, 2: high half
};

/// Writes the loaded value of lane `l` into the destination registers.
EMU_INLINE void loadToRegs(Wave &w, const Opnd &dst, unsigned l, const uint8_t *p, LoadKind k) {
  if (k.bytes >= 4) {
    for (unsigned i = 0; i < k.bytes / 4u; ++i)
      vdst(w, dst, i)[l] = ld32(p + 4 * i);
    return;
  }
  uint32_t v = k.bytes == 1 ? (k.sext ? uint32_t(int32_t(int8_t(p[0]))) : p[0])
                            : (k.sext ? uint32_t(int32_t(int16_t(p[0] | p[1] << 8)))
                                      : uint32_t(p[0] | p[1] << 8));
  uint32_t &d = vdst(w, dst)[l];
  if (k.d16 == 0)
    d = v;
  else if (k.d16 == 1)
    d = (d & 0xffff0000u) | (v & 0xffffu);
  else
    d = (d & 0xffffu) | (v << 16);
}

/// Stores `bytes` of lane `l` from the data registers (`hi`: the high half
/// of the first register, for *_d16_hi stores).
EMU_INLINE void regsToMem(Wave &w, const Opnd &data, unsigned l, uint8_t *p, unsigned bytes,
                          bool hi) {
  if (bytes >= 4) {
    for (unsigned i = 0; i < bytes / 4u; ++i)
      st32(p + 4 * i, (data.kind == OpKind::S || data.kind == OpKind::Imm)
                          ? sget(w, data, i)
                          : vdst(w, data, i)[l]);
    return;
  }
  uint32_t v = data.isVector() ? vdst(w, data)[l] : sget(w, data);
  if (hi)
    v >>= 16;
  p[0] = uint8_t(v);
  if (bytes == 2)
    p[1] = uint8_t(v >> 8);
}

/// Atomic operations.
enum class AtomOp : uint8_t {
  Swap, CmpSwap, Add, Sub, SMin, UMin, SMax, UMax, And, Or, Xor, Inc, Dec,
  FAdd, FMin, FMax, PkAddF16, PkAddBF16
};

/// Applies `op` at `p` (naturally aligned, 4 or 8 bytes) with `data` (and
/// `cmp` for CmpSwap); returns the old value. Uses host atomics when the
/// launch runs workgroups on several threads.
uint64_t atomicRMW(uint8_t *p, unsigned bytes, AtomOp op, uint64_t data, uint64_t cmp,
                   bool threaded);

} // namespace aster::emu

#endif
