#include "common.h"
// Wave reductions the way libraries write them: DPP row shifts, row
// broadcasts and swizzles through __builtin_amdgcn_update_dpp / mov_dpp.
KERNEL dpp_reduce_sum(const float *in, float *out) {
  uint t = tid_x();
  float v = in[bid_x() * 64 + t];
  v += __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(0, __builtin_bit_cast(int, v), 0x111, 0xf, 0xf, false));  // row_shr:1
  v += __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(0, __builtin_bit_cast(int, v), 0x112, 0xf, 0xf, false));  // row_shr:2
  v += __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(0, __builtin_bit_cast(int, v), 0x114, 0xf, 0xe, false));  // row_shr:4
  v += __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(0, __builtin_bit_cast(int, v), 0x118, 0xf, 0xc, false));  // row_shr:8
  v += __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(0, __builtin_bit_cast(int, v), 0x142, 0xa, 0xf, false));  // row_bcast:15
  v += __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(0, __builtin_bit_cast(int, v), 0x143, 0xc, 0xf, false));  // row_bcast:31
  out[bid_x() * 64 + t] = v;
}

KERNEL dpp_controls(const int *in, int *out) {
  uint t = tid_x();
  int v = in[bid_x() * 64 + t];
  int *o = out + (bid_x() * 64 + t) * 8;
  o[0] = __builtin_amdgcn_mov_dpp(v, 0x1b, 0xf, 0xf, true);    // quad_perm:[3,2,1,0]
  o[1] = __builtin_amdgcn_mov_dpp(v, 0x101, 0xf, 0xf, false);  // row_shl:1
  o[2] = __builtin_amdgcn_mov_dpp(v, 0x121, 0xf, 0xf, false);  // row_ror:1
  o[3] = __builtin_amdgcn_mov_dpp(v, 0x130, 0xf, 0xf, false);  // wave_shl:1
  o[4] = __builtin_amdgcn_mov_dpp(v, 0x138, 0xf, 0xf, false);  // wave_shr:1
  o[5] = __builtin_amdgcn_mov_dpp(v, 0x140, 0xf, 0xf, false);  // row_mirror
  o[6] = __builtin_amdgcn_mov_dpp(v, 0x141, 0xf, 0xf, false);  // row_half_mirror
  o[7] = __builtin_amdgcn_update_dpp(7, v, 0x134, 0xf, 0xf, true);  // wave_rol:1
}
