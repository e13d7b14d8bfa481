//===- MemAccess.h - address translation for memory instructions ---------===//
#ifndef ASTER_EMULATOR_MEMACCESS_H
#define ASTER_EMULATOR_MEMACCESS_H

#include "emulator/Semantics.h"

#include <string>

namespace aster::emu {

/// Host pointer for [addr, addr + n) in global memory, or nullptr if the
/// range is not inside one region (or the region is read-only for a write).
EMU_INLINE uint8_t *xlate(Wave &w, uint64_t addr, unsigned n, bool write) {
  const Region *r = w.lastRegion;
  if (!r || !r->contains(addr, n)) {
    r = w.L->mem.find(addr, n);
    if (!r)
      return nullptr;
    w.lastRegion = r;
  }
  if (write && !r->canWrite(addr, n))
    return nullptr;
  return r->data + (addr - r->base);
}

/// Fails the wave with an out-of-bounds (or read-only) message. `lane` < 0
/// for scalar accesses.
void memFault(Wave &w, const Inst &in, int lane, uint64_t addr, unsigned n, bool write,
              const char *what);

/// Per-lane addresses of a global ('g'), flat ('f') or scratch ('s')
/// instruction (active lanes), as its semantic forms them; for the timing
/// model, which looks at them before the instruction executes.
void vmemLaneAddrs(Wave &w, const Inst &in, char family, uint64_t *addr);
/// Same for a MUBUF instruction; false if the resource cannot be used.
bool bufferLaneAddrs(Wave &w, const Inst &in, uint64_t *addr);

/// LDS bounds failure (strict mode).
void ldsFault(Wave &w, const Inst &in, unsigned lane, uint64_t addr, unsigned n);

/// Reads/writes of little-endian values.
EMU_INLINE uint32_t ld32(const uint8_t *p) { uint32_t v; std::memcpy(&v, p, 4); return v; }
EMU_INLINE void st32(uint8_t *p, uint32_t v) { std::memcpy(p, &v, 4); }

/// The fields of a buffer resource descriptor (V#, four SGPRs) the emulator
/// uses: 48-bit base, stride, num_records, and the fourth dword.
struct BufferRsrc {
  uint64_t base;
  uint32_t stride, numRecords, word3;
  bool swizzled;
};
EMU_INLINE BufferRsrc readRsrc(const Wave &w, const Opnd &rs) {
  uint32_t d0 = sget(w, rs, 0), d1 = sget(w, rs, 1);
  return {d0 | uint64_t(d1 & 0xffff) << 32, (d1 >> 16) & 0x3fff, sget(w, rs, 2),
          sget(w, rs, 3), bool(d1 >> 31)};
}

} // namespace aster::emu

#endif
