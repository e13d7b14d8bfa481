#include "common.h"
// Device globals in the code object: an atomic counter, an initialized
// table and a table of pointers (dynamic R_AMDGPU_RELATIVE64 relocations).
__device__ int gcount;
__device__ float table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__device__ int a0 = 10, a1 = 20, a2 = 30;
__device__ int *ptrs[3] = {&a0, &a1, &a2};

KERNEL globals(float *out, int *out2) {
  uint t = tid_x();
  __hip_atomic_fetch_add(&gcount, 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  syncthreads();
  out[t] = table[t % 8] + (float)__hip_atomic_load(&gcount, __ATOMIC_RELAXED,
                                                    __HIP_MEMORY_SCOPE_AGENT);
  out2[t] = *ptrs[t % 3];
}
