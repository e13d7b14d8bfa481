#include "common.h"
// The word/byte-select forms of the gfx942 fp8/bf8 conversions: op_sel of
// v_cvt_pk_*8_f32 (which 16-bit word of vdst gets the pair), the byte of
// v_cvt_sr_*8_f32, and the SDWA byte/word source select of v_cvt_f32_*8 and
// v_cvt_pk_f32_*8. Every write keeps the other bits of the old value.
typedef float float2 __attribute__((ext_vector_type(2)));
KERNEL fp8_select(const float *x, const uint *rnd, uint *out, int n) {
  int i = bid_x() * 64 + tid_x();
  if (i >= n)
    return;
  float v = x[i];
  uint old = 0x5A5A5A5Au;
  uint hi = (uint)__builtin_amdgcn_cvt_pk_fp8_f32(v, -v, (int)old, true);
  uint lo = (uint)__builtin_amdgcn_cvt_pk_bf8_f32(v, 2.0f, (int)old, false);
  uint *o = out + 8 * i;
  o[0] = hi;                                                         // fp8(v), fp8(-v) in word 1
  o[1] = lo;                                                         // bf8(v), bf8(2) in word 0
  o[2] = (uint)__builtin_amdgcn_cvt_sr_fp8_f32(v, (int)rnd[i], (int)old, 2);  // byte 2
  o[3] = (uint)__builtin_amdgcn_cvt_sr_bf8_f32(v, (int)rnd[i], (int)old, 3);  // byte 3
  o[4] = __builtin_bit_cast(uint, __builtin_amdgcn_cvt_f32_fp8((int)hi, 3));  // fp8(-v) back
  o[5] = __builtin_bit_cast(uint, __builtin_amdgcn_cvt_f32_bf8((int)lo, 1));  // bf8(2) back
  *(float2 *)(o + 6) = __builtin_amdgcn_cvt_pk_f32_fp8((int)hi, true);       // word 1
}
