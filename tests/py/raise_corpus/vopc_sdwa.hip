#include "common.h"
// Compares of 16-bit halves and bytes of a dword: clang-22 -O3 (gfx942 and
// gfx950) folds the shift / extension into the compare's SDWA form, e.g.
//   v_cmp_lt_i32_sdwa s[0:1], sext(v4), sext(v2) src0_sel:WORD_1 src1_sel:WORD_1
//   v_cmp_gt_i16_sdwa s[0:1], v8, sext(v2) src0_sel:DWORD src1_sel:BYTE_0
//   v_cmp_neq_f16_sdwa s[0:1], v4, v2 src0_sel:WORD_1 src1_sel:DWORD
// and a select of 16-bit halves into v_cndmask_b32's SDWA form (maxh:
// `v_cndmask_b32_sdwa v4, v6, v8, vcc ... src1_sel:WORD_1`).
// tests/py/test_emu_vopc_sdwa.py runs them on the emulator against NumPy.
typedef char char4v __attribute__((ext_vector_type(4)));
typedef _Float16 half2v __attribute__((ext_vector_type(2)));
typedef _Float16 half4v __attribute__((ext_vector_type(4)));

KERNEL cmp16(const uint *a, const uint *b, uint *out) {
  uint t = bid_x() * 64 + tid_x();
  uint x = a[t], y = b[t];
  uint r = 0;
  r |= ((short)(x >> 16) < (short)(y >> 16)) << 0;
  r |= ((unsigned short)(x >> 16) != (unsigned short)y) << 1;
  r |= ((short)x >= (short)(y >> 16)) << 2;
  r |= ((unsigned short)(x >> 16) > (unsigned short)(y >> 16)) << 3;
  out[t] = r;
}

KERNEL cmp8(const char4v *a, const char4v *b, uint *out) {
  uint t = bid_x() * 64 + tid_x();
  char4v x = a[t], y = b[t];
  uint r = 0;
  r |= (x.y < y.y) << 0;
  r |= (x.z == y.w) << 1;
  r |= ((unsigned char)x.w > (unsigned char)y.x) << 2;
  r |= (x.w <= y.z) << 3;
  out[t] = r;
}

KERNEL cmpf16(const half2v *a, const half2v *b, uint *out) {
  uint t = bid_x() * 64 + tid_x();
  half2v x = a[t], y = b[t];
  uint r = 0;
  r |= (x.y < y.y) << 0;
  r |= (x.y != y.x) << 1;
  r |= __builtin_isnan(x.y) << 2;
  r |= !(x.x >= y.y) << 3;
  r |= (x.y == y.y) << 4;
  r |= __builtin_isunordered(x.y, y.y) << 5;
  out[t] = r;
}

KERNEL maxh(const half4v *a, const half4v *b, half4v *out) {
  uint t = bid_x() * 64 + tid_x();
  out[t] = __builtin_elementwise_maximum(a[t], b[t]);
}
