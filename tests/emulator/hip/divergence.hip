#include "common.h"
// Each lane loops a lane-dependent number of times, with an early exit and
// a data-dependent branch inside the loop.
KERNEL divergent_loop(const int *in, int *out, int n) {
  int i = bid_x() * 128 + tid_x();
  if (i >= n)
    return;
  int x = in[i];
  int acc = 0;
  int trips = i % 37;
  for (int k = 0; k < trips; ++k) {
    if ((x + k) & 1)
      acc += x * k;
    else
      acc ^= (k << 3);
    if (acc > 100000)
      break;
  }
  out[i] = acc;
}
