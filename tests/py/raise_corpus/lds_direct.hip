#include "common.h"
// Direct-to-LDS loads (global_load_lds_dword, buffer_load_dword ... lds): the
// LDS address is M0 (wave-uniform) + 4 * lane, so each wave passes its own
// part of the tile; then a permuted read back.
KERNEL global_to_lds(int *in, int *out) {
  __shared__ int tile[256];
  uint t = tid_x();
  __builtin_amdgcn_global_load_lds((void *)(in + bid_x() * 256 + t),
                                   (__attribute__((address_space(3))) void *)(tile + (t & ~63u)),
                                   4, 0, 0);
  __builtin_amdgcn_s_waitcnt(0);
  syncthreads();
  out[bid_x() * 256 + t] = tile[(t * 17) & 255];
}

KERNEL buffer_to_lds(int *in, int *out) {
  __shared__ int tile[256];
  uint t = tid_x();
  __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc(in, 0, 0x7fffffff, 0x00020000);
  __builtin_amdgcn_raw_ptr_buffer_load_lds(r,
                                           (__attribute__((address_space(3))) void *)(tile + (t & ~63u)), 4,
                                           (bid_x() * 256 + t) * 4, 0, 0, 0);
  __builtin_amdgcn_s_waitcnt(0);
  syncthreads();
  out[bid_x() * 256 + t] = tile[255 - t];
}
