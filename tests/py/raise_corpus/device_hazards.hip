#include "common.h"
// Device functions clang does not inline whose code LLVM pads with s_nops
// (MFMA results read right after), called from a kernel: for the
// amdgcn-hazards oracle on device functions (tests/py/test_raise.py).
typedef _Float16 v4h __attribute__((ext_vector_type(4)));
typedef float v4f __attribute__((ext_vector_type(4)));

__attribute__((noinline)) __device__ v4f tile_mfma(v4h a, v4h b, v4f c) {
  v4f d = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, c, 0, 0, 0);
  d = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, d, 0, 0, 0);
  return d * 2.0f;
}

__attribute__((noinline)) __device__ float lane_sum(float x) {
  int v = __builtin_amdgcn_readfirstlane(__builtin_bit_cast(int, x));
  return __builtin_bit_cast(float, v) + x;
}

KERNEL device_hazards(const v4h *a, const v4h *b, v4f *c, float *s) {
  uint t = tid_x();
  c[t] = tile_mfma(a[t], b[t], c[t]);
  s[t] = lane_sum(s[t]);
}
