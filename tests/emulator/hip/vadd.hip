#include "common.h"
// c[i] = a[i] + b[i] for i < n; the grid may overshoot n.
KERNEL vadd(const float *a, const float *b, float *c, int n) {
  int i = bid_x() * 256 + tid_x();
  if (i < n)
    c[i] = a[i] + b[i];
}
