//===- Float.cpp - fp8 conversions ----------------------------------------===//
#include "emulator/Float.h"

#include <cmath>

namespace aster::emu {

namespace {
struct Fp8Fmt {
  int mbits, bias;
  uint8_t maxCode;   // largest finite magnitude code
  uint8_t nan;       // NaN code (sign added for OCP)
  uint8_t overflow;  // non-saturating result of overflow and infinity
  bool ocp;          // signed zero, NaN/inf at the top of the code space
};
Fp8Fmt fmt(Fp8Kind k) {
  switch (k) {
  case Fp8Kind::E4M3FNUZ: return {3, 8, 0x7f, 0x80, 0x80, false};
  case Fp8Kind::E5M2FNUZ: return {2, 16, 0x7f, 0x80, 0x80, false};
  case Fp8Kind::E4M3FN: return {3, 7, 0x7e, 0x7f, 0x7f, true};
  case Fp8Kind::E5M2: break;
  }
  return {2, 15, 0x7b, 0x7f, 0x7c, true};
}
} // namespace

float fp8ToF32(uint8_t v, Fp8Kind k) {
  Fp8Fmt f = fmt(k);
  if (!f.ocp && v == 0x80)
    return std::nanf("");
  int ebits = 7 - f.mbits;
  int e = (v >> f.mbits) & ((1 << ebits) - 1);
  int m = v & ((1 << f.mbits) - 1);
  if (f.ocp && (v & 0x7f) > f.maxCode) {
    float r = (v & 0x7f) == f.overflow && f.overflow != f.nan ? INFINITY : std::nanf("");
    return (v & 0x80) ? -r : r;
  }
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
  uint8_t zero = fm.ocp ? sign : 0;
  uint8_t over = saturate ? uint8_t(sign | fm.maxCode)
                          : fm.ocp ? uint8_t(sign | fm.overflow) : fm.overflow;
  if (a > 0x7f800000u)
    return fm.ocp ? uint8_t(sign | fm.nan) : fm.nan;
  if (a == 0x7f800000u)
    return over;
  if (a == 0)
    return zero;
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
  if (stochastic) {
    // The random word's top 23 - mbits bits (S1[31:12] for E4M3, S1[31:11]
    // for E5M2) are added below the kept bits of the 24-bit significand,
    // aligned first to the format's smallest normal exponent (the bits
    // shifted out there do not count), and the sum is truncated; a carry
    // moves up the exponent (see f32ToFp8SR in Float.h for the sources).
    int align = te - e32;
    uint32_t m = align < 32 ? mant >> align : 0;
    q = (m + (rnd >> (9 + fm.mbits))) >> (23 - fm.mbits);
  } else if (drop >= 32) {
    q = 0;  // Value < 2^-1 ulp: rounds to zero.
  } else {
    q = mant >> drop;
    uint32_t rem = drop ? mant & ((1u << drop) - 1) : 0;
    if (drop) {
      uint32_t half = 1u << (drop - 1);
      if (rem > half || (rem == half && (q & 1u)))
        ++q;
    }
  }
  if (q == 0)
    return zero;
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
  if (code > fm.maxCode)
    return over;
  return uint8_t(sign | code);
}

uint8_t f32ToFp8(float f, Fp8Kind k, bool saturate) {
  return encodeFp8(f, k, saturate, false, 0);
}

uint8_t f32ToFp8SR(float f, uint32_t rnd, Fp8Kind k, bool saturate) {
  return encodeFp8(f, k, saturate, true, rnd);
}

double smallFloatToF64(unsigned v, unsigned eb, unsigned mb) {
  unsigned e = (v >> mb) & ((1u << eb) - 1), m = v & ((1u << mb) - 1);
  int bias = (1 << (eb - 1)) - 1;
  double x = e ? std::ldexp(double(m | 1u << mb), int(e) - bias - int(mb))
               : std::ldexp(double(m), 1 - bias - int(mb));
  return (v >> (eb + mb)) & 1 ? -x : x;
}

unsigned f64ToSmallFloat(double d, unsigned eb, unsigned mb) {
  unsigned sign = std::signbit(d) ? 1u << (eb + mb) : 0u;
  int bias = (1 << (eb - 1)) - 1, emax = (1 << eb) - 1 - bias, emin = 1 - bias;
  unsigned maxCode = (1u << (eb + mb)) - 1;
  double a = std::fabs(d);
  if (std::isinf(a))
    return sign | maxCode;
  if (a == 0)
    return sign;
  // The binade of `a` (at least the subnormal one) and `a` in units of that
  // binade's last mantissa bit, rounded to nearest even (exact scaling).
  int e = std::ilogb(a);
  int te = e < emin ? emin : e;
  double q = std::nearbyint(std::ldexp(a, int(mb) - te));
  if (q >= double(2u << mb)) {  // rounded up into the next binade
    q /= 2;
    ++te;
  }
  if (te > emax)
    return sign | maxCode;
  unsigned uq = unsigned(q);
  if (uq < (1u << mb))  // subnormal (te == emin) or zero
    return sign | uq;
  return sign | unsigned(te + bias) << mb | (uq - (1u << mb));
}

} // namespace aster::emu
