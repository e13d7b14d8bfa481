#include "common.h"
// 32- and 64-bit integer arithmetic: division and remainder (signed and
// unsigned), high multiplies, shifts, bit counts, min/max.
#define NOUT 16
KERNEL int_math(const int *a, const int *b, int *out, int n) {
  int i = bid_x() * 64 + tid_x();
  if (i >= n)
    return;
  int x = a[i], y = b[i];
  uint ux = (uint)x, uy = (uint)y;
  long long lx = (long long)x * 123457, ly = (long long)y - 99;
  int *o = out + i * NOUT;
  o[0] = y ? x / y : 0;
  o[1] = y ? x % y : 0;
  o[2] = uy ? (int)(ux / uy) : 0;
  o[3] = uy ? (int)(ux % uy) : 0;
  o[4] = (int)(((long long)x * y) >> 32);
  o[5] = (int)(((unsigned long long)ux * uy) >> 32);
  o[6] = x << (y & 31);
  o[7] = x >> (y & 31);
  o[8] = (int)(ux >> (uy & 31));
  o[9] = __builtin_popcount(ux);
  o[10] = ux ? __builtin_clz(ux) : 32;
  o[11] = x < y ? x : y;
  o[12] = (int)(ux > uy ? ux : uy);
  o[13] = (int)(lx * ly >> 7);
  o[14] = ly ? (int)(lx / ly) : 0;
  o[15] = (int)__builtin_bitreverse32(ux) ^ (x * y);
}
