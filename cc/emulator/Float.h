//===- Float.h - small floating-point formats, bit-exact ------------------===//
//
// Conversions between f32 and f16 / bf16 / fp8 (gfx942's E4M3FNUZ and
// E5M2FNUZ, gfx950's OCP E4M3FN and E5M2) the way the hardware converts:
// round to nearest even unless stated, denormals kept, NaN quieted.
//
//===----------------------------------------------------------------------===//
#ifndef ASTER_EMULATOR_FLOAT_H
#define ASTER_EMULATOR_FLOAT_H

#include <cstdint>
#include <cmath>
#include <limits>
#include <cstring>

namespace aster::emu {

inline uint32_t fbits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float bitsf(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

/// Exact f16 -> f32.
/// IEEE-754 minNum/maxNum as the VALU computes them: a NaN operand yields
/// the other operand, and -0 orders below +0.
template <class T> T fmin_(T a, T b) {
  if (a != a) return b;
  if (b != b) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <class T> T fmax_(T a, T b) {
  if (a != a) return b;
  if (b != b) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
/// IEEE-754 2019 minimum/maximum (gfx950's v_minimum3/v_maximum3, LLVM's
/// llvm.minimum/llvm.maximum): a NaN operand gives a (quiet) NaN, and -0
/// orders below +0.
template <class T> T fminimum_(T a, T b) {
  if (a != a || b != b) return std::numeric_limits<T>::quiet_NaN();
  return fmin_(a, b);
}
template <class T> T fmaximum_(T a, T b) {
  if (a != a || b != b) return std::numeric_limits<T>::quiet_NaN();
  return fmax_(a, b);
}

inline float f16ToF32(uint16_t h) {
  // Integer masks instead of branches, so that loops over it vectorize:
  // exponent and mantissa moved to their f32 place and scaled by 2^112 give
  // normal and subnormal values exactly; infinities and NaNs (quieted) are
  // selected by mask.
  uint32_t em = h & 0x7fffu, sign = uint32_t(h & 0x8000u) << 16;
  uint32_t scaled = fbits(bitsf(em << 13) * 0x1p112f);
  uint32_t special = 0x7f800000u | (em << 13) | (uint32_t((em & 0x3ffu) != 0) << 22);
  uint32_t isSpecial = 0u - uint32_t(em >= 0x7c00u);
  return bitsf((scaled & ~isSpecial) | (special & isSpecial) | sign);
}

/// f32 -> f16, round to nearest even.
inline uint16_t f32ToF16(float f) {
  uint32_t u = fbits(f);
  uint32_t sign = (u >> 16) & 0x8000u;
  uint32_t a = u & 0x7fffffffu;
  if (a >= 0x7f800000u)  // inf / NaN (quiet, keep the top payload bits)
    return uint16_t(sign | (a > 0x7f800000u ? 0x7e00u | ((a >> 13) & 0x3ffu) : 0x7c00u));
  if (a >= 0x477ff000u)  // rounds to >= 65520: infinity
    return uint16_t(sign | 0x7c00u);
  if (a >= 0x38800000u) {  // normal result
    uint32_t r = a - 0x38000000u;
    r = (r + 0xfffu + ((r >> 13) & 1u)) >> 13;
    return uint16_t(sign | r);
  }
  // Denormal or zero: units of 2^-24.
  uint32_t e = a >> 23;
  if (e < 102)  // < 2^-25: rounds to zero
    return uint16_t(sign);
  uint32_t mant = (a & 0x7fffffu) | 0x800000u;
  uint32_t shift = 126 - e;  // 14..24
  uint32_t r = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
  if (rem > half || (rem == half && (r & 1u)))
    ++r;
  return uint16_t(sign | r);
}

/// f32 -> f16, round toward zero (v_cvt_pkrtz_f16_f32).
inline uint16_t f32ToF16RTZ(float f) {
  uint32_t u = fbits(f);
  uint32_t sign = (u >> 16) & 0x8000u;
  uint32_t a = u & 0x7fffffffu;
  if (a >= 0x7f800000u)
    return uint16_t(sign | (a > 0x7f800000u ? 0x7e00u | ((a >> 13) & 0x3ffu) : 0x7c00u));
  if (a >= 0x47800000u)  // >= 65536: largest finite
    return uint16_t(sign | 0x7bffu);
  if (a >= 0x38800000u)
    return uint16_t(sign | ((a - 0x38000000u) >> 13));
  uint32_t e = a >> 23;
  if (e < 103)
    return uint16_t(sign);
  uint32_t mant = (a & 0x7fffffu) | 0x800000u;
  return uint16_t(sign | (mant >> (126 - e)));
}

/// f64 -> f32 rounded to odd (truncated, the last bit set when inexact):
/// a second rounding of the result to a format of at most 22 significant
/// bits (f16, bf16) is then the single rounding of `d`.
inline float f64ToF32Odd(double d) {
  float f = float(d);
  if (double(f) != d && d == d) {
    if (__builtin_fabs(double(f)) > __builtin_fabs(d))
      f = __builtin_nextafterf(f, 0.0f);
    f = bitsf(fbits(f) | 1u);
  }
  return f;
}

/// f64 -> f16 with a single rounding (to nearest even).
inline uint16_t f64ToF16(double d) { return f32ToF16(f64ToF32Odd(d)); }

inline float bf16ToF32(uint16_t h) { return bitsf(uint32_t(h) << 16); }
/// f32 -> bf16, round to nearest even; NaN quieted.
inline uint16_t f32ToBF16(float f) {
  uint32_t u = fbits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((u >> 16) | 0x40u);
  return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
/// f64 -> bf16 with a single rounding (to nearest even).
inline uint16_t f64ToBF16(double d) { return f32ToBF16(f64ToF32Odd(d)); }

/// fp8 formats. gfx942's FNUZ ones (bias 8 / 16): no infinities, no
/// negative zero, NaN = 0x80. gfx950's OCP ones (OCP 8-bit floating point
/// specification 1.0): E4M3FN (bias 7, no infinities, S.1111.111 is NaN,
/// largest 448) and E5M2 (bias 15, IEEE-like: exponent 31 is inf/NaN,
/// largest 57344); both have a negative zero.
enum class Fp8Kind : uint8_t { E4M3FNUZ, E5M2FNUZ, E4M3FN, E5M2 };
float fp8ToF32(uint8_t v, Fp8Kind k);
/// f32 -> fp8, round to nearest even. NaN gives NaN (0x80 FNUZ, S.1111111
/// OCP). Values that round beyond the largest finite one and infinities
/// give, unless `saturate`, the OCP non-saturating results: NaN for the
/// formats without infinities (0x80 FNUZ, S.1111.111 E4M3FN), infinity for
/// E5M2; `saturate` clamps them to the largest finite value of their sign.
/// Zero and underflow keep the sign in the OCP formats.
uint8_t f32ToFp8(float f, Fp8Kind k, bool saturate);
/// f32 -> fp8 with stochastic rounding (v_cvt_sr_fp8_f32 / _bf8_f32): the
/// random word's bits [31:9+m] (m the mantissa bits: S1[31:12] for fp8,
/// S1[31:11] for bf8, as the CDNA4 ISA pseudo-code selects them) are added
/// to the 24-bit significand just below the bits the format keeps (after
/// aligning it to the format's smallest normal exponent, dropping the bits
/// shifted out), and the sum is truncated; a carry raises the exponent.
/// This is AMD's rocjitsu emulator's f32_to_binary_float_sr. The ISA
/// pseudo-code instead wraps the mantissa sum and then rounds to nearest
/// even, which would change values fp8 represents exactly and bias the
/// mean by half an ulp; AMD's hardware test of v_cvt_sr_fp8_f32 on gfx950
/// (quack, test_sr_exact_grid_values_unchanged / _brackets_value /
/// _unbiased) asserts neither happens, so the rocjitsu reading is used.
uint8_t f32ToFp8SR(float f, uint32_t rnd, Fp8Kind k, bool saturate);

/// The OCP 6- and 4-bit floats (OCP Microscaling Formats specification 1.0):
/// FP6 E2M3, BF6 E3M2, FP4 E2M1 -- `eb` exponent bits with bias
/// 2^(eb-1) - 1, `mb` mantissa bits, a sign, no infinities or NaN.
double smallFloatToF64(unsigned v, unsigned eb, unsigned mb);
/// Finite or infinite `d` -> the small float, round to nearest even;
/// magnitudes beyond the largest finite value (infinities included) give
/// the largest finite value of their sign, zero and underflow keep the sign.
/// `d` must not be NaN (the formats have none).
unsigned f64ToSmallFloat(double d, unsigned eb, unsigned mb);

/// gfx950's element formats as the f8f6f4 MFMAs' cbsz/blgp number them:
/// 0 fp8 (E4M3FN), 1 bf8 (E5M2), 2 fp6 (E2M3), 3 bf6 (E3M2), 4 fp4 (E2M1).
inline unsigned ocpBits(unsigned fmt) { return fmt < 2 ? 8 : fmt < 4 ? 6 : 4; }
inline double ocpToF64(unsigned fmt, unsigned v) {
  switch (fmt) {
  case 0: return fp8ToF32(uint8_t(v), Fp8Kind::E4M3FN);
  case 1: return fp8ToF32(uint8_t(v), Fp8Kind::E5M2);
  case 2: return smallFloatToF64(v, 2, 3);
  case 3: return smallFloatToF64(v, 3, 2);
  default: return smallFloatToF64(v, 2, 1);
  }
}

} // namespace aster::emu

#endif
