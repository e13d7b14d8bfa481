#include "common.h"
// gfx950 scaled conversions through clang's builtins, for
// tests/py/test_emu_scale_cvt.py (NumPy / ml_dtypes references there).
typedef short v2s __attribute__((ext_vector_type(2)));
typedef float v2f __attribute__((ext_vector_type(2)));
typedef _Float16 v2h __attribute__((ext_vector_type(2)));
typedef unsigned v6u __attribute__((ext_vector_type(6)));
typedef float v16f __attribute__((ext_vector_type(16)));
typedef float v32f __attribute__((ext_vector_type(32)));

// Four floats to fp8 (two per word, op_sel[3] picks the word) and back.
KERNEL round950(const float *x, const float *sc, uint *packed, float *back) {
  uint t = tid_x() + 64 * bid_x();
  float s = sc[t];
  v2s o = {0, 0};
  o = __builtin_amdgcn_cvt_scalef32_pk_fp8_f32(o, x[4 * t], x[4 * t + 1], s, false);
  o = __builtin_amdgcn_cvt_scalef32_pk_fp8_f32(o, x[4 * t + 2], x[4 * t + 3], s, true);
  uint p = __builtin_bit_cast(uint, o);
  packed[t] = p;
  v2f lo = __builtin_amdgcn_cvt_scalef32_pk_f32_fp8(p, s, false);
  v2f hi = __builtin_amdgcn_cvt_scalef32_pk_f32_fp8(p, s, true);
  back[4 * t] = lo.x;
  back[4 * t + 1] = lo.y;
  back[4 * t + 2] = hi.x;
  back[4 * t + 3] = hi.y;
}

// Two floats to fp4 into byte 2 of a word; that byte back to two halves;
// byte 1 of the word (fp8) to the high half of a zeroed pair.
KERNEL fp4_950(const float *a, const float *sc, const uint *words, uint *out) {
  uint t = tid_x() + 64 * bid_x();
  float s = sc[t];
  uint w = words[t];
  uint r = __builtin_amdgcn_cvt_scalef32_pk_fp4_f32(w, a[2 * t], a[2 * t + 1], s, 2);
  out[3 * t] = r;
  v2h h = __builtin_amdgcn_cvt_scalef32_pk_f16_fp4(r, s, 2);
  out[3 * t + 1] = __builtin_bit_cast(uint, h);
  v2h z = {0, 0};
  z = __builtin_amdgcn_cvt_scalef32_f16_fp8(z, w, s, 1, true);
  out[3 * t + 2] = __builtin_bit_cast(uint, z);
}

// 32 floats (two vectors of 16, interleaved) to fp6 and back.
KERNEL fp6_950(const float *a, const float *sc, v6u *packed, v32f *back) {
  uint t = tid_x() + 64 * bid_x();
  v16f lo, hi;
  for (int i = 0; i < 16; ++i) {
    lo[i] = a[32 * t + i];
    hi[i] = a[32 * t + 16 + i];
  }
  v6u p = __builtin_amdgcn_cvt_scalef32_2xpk16_fp6_f32(lo, hi, sc[t]);
  packed[t] = p;
  back[t] = __builtin_amdgcn_cvt_scalef32_pk32_f32_fp6(p, sc[t]);
}
