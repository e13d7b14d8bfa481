#include "common.h"
// gfx950 stochastic-rounding conversions through clang's builtins, for
// tests/py/test_emu_sr_cvt.py (references there).
typedef __bf16 v2bf __attribute__((ext_vector_type(2)));
typedef _Float16 v2h __attribute__((ext_vector_type(2)));
typedef float v2f __attribute__((ext_vector_type(2)));
typedef unsigned v6u __attribute__((ext_vector_type(6)));
typedef float v32f __attribute__((ext_vector_type(32)));

// x to bf16 (high half of a zeroed pair) and f16 (low half); x / scale to
// fp8 in byte 2 and {x, -x} to fp4 in byte 1 of 0x5a5a5a5a; 32 multiples
// of x to fp6.
KERNEL sr_cvt(const float *x, const uint *r, const float *sc, uint *out, v6u *o6) {
  uint t = tid_x() + 64 * bid_x();
  v2bf b = {0, 0};
  b = __builtin_amdgcn_cvt_sr_bf16_f32(b, x[t], r[t], true);
  v2h h = {0, 0};
  h = __builtin_amdgcn_cvt_sr_f16_f32(h, x[t], r[t], false);
  out[4 * t] = __builtin_bit_cast(uint, b);
  out[4 * t + 1] = __builtin_bit_cast(uint, h);
  out[4 * t + 2] = __builtin_amdgcn_cvt_scalef32_sr_fp8_f32(0x5a5a5a5a, x[t], r[t], sc[t], 2);
  v2f p = {x[t], -x[t]};
  out[4 * t + 3] = __builtin_amdgcn_cvt_scalef32_sr_pk_fp4_f32(0x5a5a5a5a, p, r[t], sc[t], 1);
  v32f a;
  for (int i = 0; i < 32; ++i)
    a[i] = x[t] * (i + 1);
  o6[t] = __builtin_amdgcn_cvt_scalef32_sr_pk32_fp6_f32(a, r[t], sc[t]);
}
