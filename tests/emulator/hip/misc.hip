#include "common.h"
typedef _Float16 half2 __attribute__((ext_vector_type(2)));
typedef short short2 __attribute__((ext_vector_type(2)));
// Assorted instruction patterns: byte/short conversions (SDWA), dot
// products, DPP broadcasts, 64-bit and CAS-loop atomics, f64 atomics.
KERNEL misc(const uint *in, int *out, double *dsum, u64 *maxbits, float *fmax) {
  uint t = tid_x();
  uint v = in[t];
  int *o = out + 8 * t;
  o[0] = (int)(float)(unsigned char)(v >> 8) + (int)(float)(signed char)(v >> 16);
  o[1] = __builtin_amdgcn_sdot4((int)v, (int)in[63 - t], 5, false);
  half2 a = {(_Float16)(int)(v & 15), (_Float16)(int)((v >> 4) & 15)};
  half2 b = {(_Float16)2.0f, (_Float16)-1.0f};
  o[2] = (int)__builtin_amdgcn_fdot2(a, b, 0.5f, false);
  o[3] = __builtin_amdgcn_update_dpp(0, (int)v, 0x142, 0xa, 0xf, false);  // row_bcast:15
  o[4] = __builtin_amdgcn_mov_dpp((int)v, 0x140, 0xf, 0xf, true);        // row_mirror
  o[5] = (int)(unsigned short)(v * 3u) + (short)(v >> 3);
  o[6] = __builtin_amdgcn_udot4(v, in[t ^ 1], 7u, false);
  o[7] = __builtin_amdgcn_readlane((int)v, 63);
  __hip_atomic_fetch_add(dsum, (double)(v & 255), __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  __hip_atomic_fetch_max(maxbits, ((u64)v << 32) | t, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  // float max through a compare-and-swap loop
  float f = (float)(v % 1000) * 0.5f;
  uint old = __hip_atomic_load((uint *)fmax, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  while (__builtin_bit_cast(float, old) < f) {
    uint want = __builtin_bit_cast(uint, f);
    if (__hip_atomic_compare_exchange_strong((uint *)fmax, &old, want, __ATOMIC_RELAXED,
                                             __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT))
      break;
  }
}
