#include "common.h"
// Non-inlined device functions whose code needs waits and wait states
// (loads read right away, MFMA results read by VALU, VALU-written SGPRs read
// as v_readlane lane selects), called from kernels: the oracle of
// test_device_function_passes.py, which also runs them against NumPy.
typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef float float4 __attribute__((ext_vector_type(4)));

// Loads (global and LDS) read right away, and a store.
__attribute__((noinline)) __device__ float gather3(const float *p, int i, int n) {
  return p[i % n] + 2.0f * p[(i + 1) % n] - p[(i * 7) % n];
}

// An MFMA whose result a VALU reads at once (wait states LLVM pads).
__attribute__((noinline)) __device__ float4 mfma_scale(half4 a, half4 b, float s) {
  float4 z = {};
  float4 r = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, z, 0, 0, 0);
  return r * s;
}

// A lane select computed by a VALU and read into an SGPR.
__attribute__((noinline)) __device__ int lane_of(int v, int k) {
  int sel = __builtin_amdgcn_readfirstlane(k * 3 + 1) & 63;
  return __builtin_amdgcn_readlane(v, sel) + v;
}

KERNEL dev_gather(const float *in, float *out, int n) {
  int i = bid_x() * 64 + tid_x();
  out[i] = gather3(in, i, n);
}

// Row-major 16x16 A, B and D (the lane layout of mfma.hip): D = A B s.
KERNEL dev_mfma(const _Float16 *a, const _Float16 *b, float *d, float s) {
  uint l = tid_x();
  half4 fa, fb;
  for (int j = 0; j < 4; ++j) {
    fa[j] = a[(l % 16) * 16 + 4 * (l / 16) + j];
    fb[j] = b[(4 * (l / 16) + j) * 16 + l % 16];
  }
  float4 r = mfma_scale(fa, fb, s);
  for (int j = 0; j < 4; ++j)
    d[(4 * (l / 16) + j) * 16 + l % 16] = r[j];
}

KERNEL dev_lane(const int *in, int *out, int k) {
  uint l = tid_x();
  out[l] = lane_of(in[l], k);
}
