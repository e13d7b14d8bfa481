#include "common.h"
typedef _Float16 half;
typedef _Float16 half2 __attribute__((ext_vector_type(2)));
// Half precision: scalar arithmetic, fma, conversions to and from float and
// int, and packed (2 x f16) arithmetic.
#define NOUT 12
KERNEL f16_math(const half *a, const half *b, const half *c, half *out, float *fout, int n) {
  int i = bid_x() * 64 + tid_x();
  if (i >= n)
    return;
  half x = a[i], y = b[i], z = c[i];
  half *o = out + i * NOUT;
  o[0] = x + y;
  o[1] = x * y;
  o[2] = x - z;
  o[3] = __builtin_fmaf16(x, y, z);
  o[4] = x > y ? x : y;
  o[5] = (half)((float)x * 0.3f);
  o[6] = (half)(int)(y * (half)10.0f);
  half2 p = {x, y}, q = {y, z};
  half2 r = p * q + q;
  o[7] = r.x;
  o[8] = r.y;
  half2 s = p + q;
  o[9] = s.x;
  o[10] = s.y;
  o[11] = (half)(unsigned short)(z < (half)0 ? -z : z);
  fout[2 * i] = (float)x * (float)y;
  fout[2 * i + 1] = (float)(x / y);
}
