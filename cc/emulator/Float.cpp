//===- Float.cpp - fp8 conversions ----------------------------------------===//
#include "emulator/Float.h"

#include <cmath>

namespace aster::emu {

namespace {
struct Fp8Fmt {
  int mbits, bias;
};
Fp8Fmt fmt(Fp8Kind k) {
  return k == Fp8Kind::E4M3FNUZ ? Fp8Fmt{3, 8} : Fp8Fmt{2, 16};
}
} // namespace

float fp8ToF32(uint8_t v, Fp8Kind k) {
  if (v == 0x80)
    return std::nanf("");
  Fp8Fmt f = fmt(k);
  int ebits = 7 - f.mbits;
  int e = (v >> f.mbits) & ((1 << ebits) - 1);
  int m = v & ((1 << f.mbits) - 1);
  float r = e == 0 ? std::ldexp(float(m), 1 - f.bias - f.mbits)
                   : std::ldexp(float(m | (1 << f.mbits)), e - f.bias - f.mbits);
  return (v & 0x80) ? -r : r;
}

/// Shared rounding: `q` is |f| scaled to units of the target's last mantissa
/// bit, as an integer part plus the discarded fraction in [0, 1).
static uint8_t encodeFp8(float f, Fp8Kind k, bool saturate, bool stochastic,
                         uint32_t rnd) {
  Fp8Fmt fm = fmt(k);
  uint32_t u = fbits(f);
  uint8_t sign = uint8_t((u >> 24) & 0x80u);
  uint32_t a = u & 0x7fffffffu;
  if (a > 0x7f800000u)
    return 0x80;
  uint8_t maxCode = 0x7f;
  if (a == 0x7f800000u)
    return saturate ? uint8_t(sign | maxCode) : 0x80;
  if (a == 0)
    return 0;
  int e32 = int(a >> 23) - 127;
  uint32_t mant = a & 0x7fffffu;
  if ((a >> 23) == 0) {  // f32 denormal: far below any fp8 value
    e32 = -126;
  } else {
    mant |= 0x800000u;
  }
  // Target exponent (clamped at the denormal range).
  int minExp = 1 - fm.bias;
  int te = e32 < minExp ? minExp : e32;
  // Bits of `mant` (value mant * 2^(e32-23)) below the target's last bit.
  int drop = (te - fm.mbits) - (e32 - 23);
  uint32_t q;
  if (drop >= 32) {
    q = 0;
    if (stochastic)
      return 0;
    // Value < 2^-1 ulp: rounds to zero.
  } else {
    q = mant >> drop;
    uint32_t rem = drop ? mant & ((1u << drop) - 1) : 0;
    if (stochastic) {
      uint32_t r = drop ? (rnd & ((1u << drop) - 1)) : 0;
      if (rem + r >= (1u << drop) && drop)
        ++q;
    } else if (drop) {
      uint32_t half = 1u << (drop - 1);
      if (rem > half || (rem == half && (q & 1u)))
        ++q;
    }
  }
  if (q == 0)
    return 0;
  // Re-normalize: q may have grown to 2^(mbits+1).
  int ebias = te + fm.bias;  // >= 1
  uint32_t implicit = 1u << fm.mbits;
  uint32_t code;
  if (q < implicit) {
    code = q;  // denormal (te == minExp)
  } else {
    while (q >= 2 * implicit) {
      q >>= 1;
      ++ebias;
    }
    code = uint32_t(ebias) << fm.mbits | (q - implicit);
  }
  if (code > maxCode)
    return saturate ? uint8_t(sign | maxCode) : 0x80;
  return uint8_t(sign | code);
}

uint8_t f32ToFp8(float f, Fp8Kind k, bool saturate) {
  return encodeFp8(f, k, saturate, false, 0);
}

uint8_t f32ToFp8SR(float f, uint32_t rnd, Fp8Kind k, bool saturate) {
  return encodeFp8(f, k, saturate, true, rnd);
}

} // namespace aster::emu
