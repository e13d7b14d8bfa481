#include "common.h"
// A per-work-item array written and read at runtime-computed indices lives
// in scratch (private) memory.
KERNEL scratch_array(const int *idx, int *out, int n) {
  int i = bid_x() * 64 + tid_x();
  int local[200];
  for (int k = 0; k < 200; ++k)
    local[k] = k * i + 1;
  for (int k = 0; k < 16; ++k)
    local[idx[(i + k) % n] % 200] += k;
  int acc = 0;
  for (int k = 0; k < 8; ++k)
    acc += local[idx[(i * 3 + k) % n] % 200];
  out[i] = acc;
}
