#include "common.h"
// Cross-lane operations: ds_bpermute, readlane/readfirstlane, mbcnt,
// ballot, DPP row shifts and a wave-wide reduction.
KERNEL waveops(const int *in, int *out) {
  uint t = tid_x();
  int v = in[bid_x() * 64 + t];
  int rot = __builtin_amdgcn_ds_bpermute(((t + 5) & 63) << 2, v);
  int first = __builtin_amdgcn_readfirstlane(v);
  int l17 = __builtin_amdgcn_readlane(v, 17);
  uint lanes = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
  u64 odd = __builtin_amdgcn_ballot_w64((v & 1) != 0);
  int shr = __builtin_amdgcn_update_dpp(-1, v, 0x111, 0xf, 0xf, false);  // row_shr:1
  int sum = v;
  for (int off = 32; off > 0; off >>= 1)
    sum += __builtin_amdgcn_ds_bpermute(((t + off) & 63) << 2, sum);
  int *o = out + (bid_x() * 64 + t) * 8;
  o[0] = rot;
  o[1] = first;
  o[2] = l17;
  o[3] = (int)lanes;
  o[4] = (int)(odd >> (t & 32));
  o[5] = shr;
  o[6] = sum;
  o[7] = __builtin_amdgcn_ds_swizzle(v, 0x041f);  // BITMASK_PERM: lane ^ 1
}
