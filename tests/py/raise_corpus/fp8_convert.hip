#include "common.h"
// fp8 / bf8 conversions (gfx942: FNUZ formats; gfx950: OCP) and packed
// float math, as quantising kernels use them.
KERNEL fp8_quant(const float *in, int *out, float scale) {
  uint t = tid_x();
  const float *p = in + (bid_x() * 64 + t) * 4;
  int w = 0;
  w = __builtin_amdgcn_cvt_pk_fp8_f32(p[0] * scale, p[1] * scale, w, false);
  w = __builtin_amdgcn_cvt_pk_fp8_f32(p[2] * scale, p[3] * scale, w, true);
  out[bid_x() * 64 + t] = w;
}

KERNEL fp8_dequant(const int *in, float *out) {
  uint t = tid_x();
  int w = in[bid_x() * 64 + t];
  float *o = out + (bid_x() * 64 + t) * 4;
  o[0] = __builtin_amdgcn_cvt_f32_fp8(w, 0);
  o[1] = __builtin_amdgcn_cvt_f32_fp8(w, 1);
  o[2] = __builtin_amdgcn_cvt_f32_bf8(w, 2);
  o[3] = __builtin_amdgcn_cvt_f32_bf8(w, 3);
}
