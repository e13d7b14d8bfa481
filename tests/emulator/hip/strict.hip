#include "common.h"
// Kernels that misbehave, for the strict-mode and safety checks.

// Writes LDS at a caller-chosen offset (out of range for large offsets).
KERNEL lds_oob(int *out, int offset) {
  __shared__ int buf[64];
  uint t = tid_x();
  buf[t + offset] = (int)t;
  syncthreads();
  out[t] = buf[t];
}

// Traps when asked to.
KERNEL trap_if(const int *flag, int *out) {
  if (flag[tid_x()])
    __builtin_trap();
  out[tid_x()] = 1;
}

// Dynamically sized LDS (LaunchOptions::dynamicLdsBytes).
extern __shared__ float dyn[];
KERNEL dyn_lds(const float *in, float *out, int n) {
  uint t = tid_x();
  for (int k = t; k < n; k += 64)
    dyn[k] = in[k] * 2.0f;
  syncthreads();
  out[t] = dyn[(t * 7) % n];
}
