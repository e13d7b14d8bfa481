#include "common.h"
// Non-inlined device functions (s_swappc/s_setpc and a stack in scratch),
// a switch and a row softmax with exp and division.
__attribute__((noinline)) __device__ int collatz_steps(int x) {
  int n = 0;
  while (x != 1 && n < 1000) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++n;
  }
  return n;
}

__attribute__((noinline)) __device__ float poly(float x, const float *coef, int n) {
  float r = 0.0f;
  for (int i = n - 1; i >= 0; --i)
    r = r * x + coef[i];
  return r;
}

__device__ int pick(int v) {
  switch (v & 7) {
  case 0: return v * 3;
  case 1: return v ^ 0x55;
  case 2: return v - 100;
  case 3: return v << 2;
  case 4: return -v;
  case 5: return v / 3;
  case 6: return v % 7;
  default: return 42;
  }
}

KERNEL calls(const int *in, const float *coef, int *out_i, float *out_f, int n) {
  int i = bid_x() * 64 + tid_x();
  if (i >= n)
    return;
  out_i[2 * i] = collatz_steps(in[i] % 1000 + 1);
  out_i[2 * i + 1] = pick(in[i]);
  out_f[i] = poly((float)(i % 10) * 0.1f, coef, 5);
}

// One row of 64 values per wave: softmax with a wave reduction in LDS.
KERNEL softmax64(const float *in, float *out) {
  __shared__ float red[64];
  uint t = tid_x();
  float v = in[bid_x() * 64 + t];
  red[t] = v;
  syncthreads();
  float m = red[0];
  for (int k = 1; k < 64; ++k)
    m = __builtin_fmaxf(m, red[k]);
  float e = __builtin_expf(v - m);
  syncthreads();
  red[t] = e;
  syncthreads();
  float s = 0.0f;
  for (int k = 0; k < 64; ++k)
    s += red[k];
  out[bid_x() * 64 + t] = e / s;
}
