//===- ScaleCvt.h - helpers of the gfx950 scaled conversions --------------===//
//
// Shared by SemScaleCvt.cpp (round to nearest even) and SemScaleCvtSR.cpp
// (stochastic rounding): the wide formats, the per-lane scale exponents and
// bit fields of register tuples.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_SCALECVT_H
#define ASTER_EMULATOR_SCALECVT_H

#include "emulator/Semantics.h"

namespace aster::emu::scalecvt {

enum Wide : unsigned { W_F32, W_F16, W_BF16 };
constexpr unsigned wideBits(unsigned w) { return w == W_F32 ? 32 : 16; }
double wideToF64(unsigned w, u32 v);
u32 f64ToWide(unsigned w, double d);
/// Small-format code (0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4) of x / 2^k,
/// rounded to nearest even; false for a NaN into fp6/bf6/fp4.
bool toSmall(unsigned fmt, double x, int k, unsigned &out);
/// Per-lane scale exponents (e - 127) of source `o`; fails on e = 255.
bool scaleExponents(Wave &w, const Inst &in, const Opnd &o, int *k);
/// Fails (and returns false) if any of the first n sources has neg/abs.
bool noSourceMods(Wave &w, const Inst &in, unsigned n);
/// Bits [bit, bit + n) of lane l of the register tuple `o` (n <= 32).
u32 bitsAt(Wave &w, const Opnd &o, unsigned l, unsigned bit, unsigned n);
/// Sets bits [bit, bit + n) of the word array `words` to v.
void setBits(u32 *words, unsigned bit, unsigned n, u32 v);
/// Registers a conversion (VALU, no SDWA, no clamp/omod; `readsDst` when it
/// writes part of vdst).
inline void addConversion(SemTable &t, const char *name, SemFn f, uint16_t ty, bool readsDst) {
  t.push_back({name, f, 1, ICls::VALU,
               uint16_t(SF_NO_SDWA | SF_NO_CLAMP | (readsDst ? SF_READS_DST : 0)), ty});
}

} // namespace aster::emu::scalecvt

#endif
