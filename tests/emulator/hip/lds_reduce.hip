#include "common.h"
// Sum of 256 values per workgroup (4 waves) through LDS with barriers.
KERNEL lds_reduce(const float *in, float *out) {
  __shared__ float buf[256];
  uint t = tid_x();
  buf[t] = in[bid_x() * 256 + t];
  syncthreads();
  for (uint s = 128; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
    syncthreads();
  }
  if (t == 0)
    out[bid_x()] = buf[0];
}
