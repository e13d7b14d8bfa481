#include "common.h"
// Reductions across a block: readlane/readfirstlane, ballot, LDS tree with
// barriers, and an atomic to finish.
KERNEL block_max(const int *in, int *out, int n) {
  __shared__ int part[16];
  uint t = tid_x();
  uint i = bid_x() * 1024 + t;
  int v = i < (uint)n ? in[i] : -2147483647;
  for (int off = 32; off > 0; off >>= 1) {
    int o = __builtin_amdgcn_ds_bpermute(((t + off) & 63) << 2, v);
    v = v > o ? v : o;
  }
  if ((t & 63) == 0)
    part[t >> 6] = v;
  syncthreads();
  if (t < 16) {
    int w = part[t];
    for (int k = 0; k < 16; ++k)
      w = w > __builtin_amdgcn_readlane(w, k) ? w : __builtin_amdgcn_readlane(w, k);
    if (t == 0)
      __hip_atomic_fetch_max(out, w, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  }
}
