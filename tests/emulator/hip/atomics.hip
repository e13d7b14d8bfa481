#include "common.h"
// Global atomics: a histogram (int add), a counter handing out slots
// (returning add), max and a float add of integer-valued floats.
KERNEL atomics(const int *in, int *hist, int *counter, int *slots, int *maxv, float *fsum,
               int n) {
  int i = bid_x() * 64 + tid_x();
  if (i >= n)
    return;
  int v = in[i];
  __hip_atomic_fetch_add(&hist[v & 15], 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  int slot = __hip_atomic_fetch_add(counter, 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  slots[slot] = 1;
  __hip_atomic_fetch_max(maxv, v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  __hip_atomic_fetch_add(fsum, (float)(v & 7), __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
}
