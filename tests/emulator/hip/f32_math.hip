#include "common.h"
// Single-precision arithmetic, division, square root, rounding, min/max,
// conversions and the hardware transcendental approximations.
#define NOUT 16
KERNEL f32_math(const float *a, const float *b, float *out, int n) {
  int i = bid_x() * 64 + tid_x();
  if (i >= n)
    return;
  float x = a[i], y = b[i];
  float *o = out + i * NOUT;
  o[0] = x / y;
  o[1] = __builtin_sqrtf(__builtin_fabsf(x));
  o[2] = __builtin_fmaf(x, y, 1.5f);
  o[3] = __builtin_fminf(x, y);
  o[4] = __builtin_fmaxf(x, y);
  o[5] = __builtin_floorf(x);
  o[6] = __builtin_ceilf(y);
  o[7] = (float)(int)(x * 7.0f);
  o[8] = __builtin_truncf(x * 3.3f);
  o[9] = __builtin_rintf(y * 2.5f);
  o[10] = (float)(unsigned)__builtin_fabsf(x * 100.0f);
  o[11] = __builtin_copysignf(x, y);
  o[12] = __builtin_ldexpf(x, (int)(y) % 8);
  o[13] = __builtin_amdgcn_rcpf(y);
  o[14] = __builtin_amdgcn_exp2f(y * 0.1f);
  o[15] = __builtin_amdgcn_logf(__builtin_fabsf(x) + 1.0f);
}
