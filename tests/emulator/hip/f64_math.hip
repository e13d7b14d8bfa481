#include "common.h"
// Double precision: arithmetic, fma, division, square root, rounding and
// conversions.
#define NOUT 10
KERNEL f64_math(const double *a, const double *b, double *out, int n) {
  int i = bid_x() * 64 + tid_x();
  if (i >= n)
    return;
  double x = a[i], y = b[i];
  double *o = out + i * NOUT;
  o[0] = x * y + x;
  o[1] = __builtin_fma(x, y, -1.0);
  o[2] = x / y;
  o[3] = __builtin_sqrt(__builtin_fabs(y));
  o[4] = __builtin_fmin(x, y);
  o[5] = __builtin_floor(x);
  o[6] = (double)(int)(y * 3.0);
  o[7] = (double)(float)(x * 1.1);
  o[8] = __builtin_ceil(y);
  o[9] = x - y;
}
