#include "common.h"
// Device globals clang refers to by relocation: a __constant__ lookup table
// (.rodata), an initialised table reached through the GOT (default
// visibility), a table of pointers into the lookup table (dynamic
// relocations), a histogram and a counter updated with atomics (.bss).
__attribute__((constant)) float lut[16] = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f,
                                           -1.f, -2.f, -3.f, -4.f, -5.f, -6.f, -7.f, -8.f};
__attribute__((visibility("default"))) __device__ int scale[4] = {1, 2, 3, 4};
__device__ const float *rows[2] = {&lut[0], &lut[8]};
__device__ int hist[8];
__device__ unsigned counter;

// One workgroup of 64: out[i] = lut[j] * scale[j & 3] + rows[j >> 3][j & 7]
// for j = idx[i] & 15; counts[k] = how many j had j & 7 == k, counts[8] = n.
KERNEL lookup(const int *idx, float *out, int *counts, int n) {
  uint t = tid_x();
  if ((int)t < n) {
    int j = idx[t] & 15;
    out[t] = lut[j] * (float)scale[j & 3] + rows[j >> 3][j & 7];
    __hip_atomic_fetch_add(&hist[j & 7], 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    __hip_atomic_fetch_add(&counter, 1u, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  }
  syncthreads();
  if (t < 8)
    counts[t] = __hip_atomic_load(&hist[t], __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  if (t == 8)
    counts[8] = (int)__hip_atomic_load(&counter, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
