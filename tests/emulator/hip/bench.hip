#include "common.h"
// VALU-heavy loops for measuring emulation speed.
KERNEL valu_bench(float *out, int iters) {
  uint t = bid_x() * 256 + tid_x();
  float a = t * 0.001f, b = 1.0001f, c = 0.5f, d = 0.25f;
  int x = (int)t, y = 7;
  for (int i = 0; i < iters; ++i) {
    a = __builtin_fmaf(a, b, c);
    c = __builtin_fmaf(c, d, a);
    d = d * 0.999f + 0.001f;
    b = __builtin_fmaxf(b * 0.9999f, 0.5f);
    x = (x * 1103515245 + 12345) ^ (x >> 3);
    y += x & 15;
  }
  out[t] = a + b + c + d + (float)(x + y);
}
