#include "common.h"
// Kernels for the instruction forms the table gained as rows (raising
// issue items 5-6): LDS 64-bit atomics (__hip_atomic builtins on shared
// memory), s_sendmsg, VSKIP. tests/py/test_emu_rows.py checks them
// against NumPy.
#define WG __HIP_MEMORY_SCOPE_WORKGROUP
#define R __ATOMIC_RELAXED

// in: 64 operands x, then 8 x 64 initial slot values; dout: f64 the same.
// Each lane works on its own slot (returned old values are the initial ones)
// and on 8 shared slots (the final values do not depend on the lane order).
KERNEL ds64(const long *in, long *out, const double *din, double *dout) {
  __shared__ long s[8 * 64 + 16];
  __shared__ double sd[2 * 64 + 8];
  uint t = tid_x();
  long x = in[t];
  for (int k = 0; k < 8; ++k)
    s[k * 64 + t] = in[64 + k * 64 + t];
  if (t < 16)
    s[8 * 64 + t] = in[t] ^ 0x5555;
  double y = din[t];
  sd[t] = din[64 + t];
  sd[64 + t] = din[128 + t];
  if (t < 8)
    sd[128 + t] = din[t];
  syncthreads();
  long r[8];
  r[0] = __hip_atomic_fetch_or(&s[t], x, R, WG);
  r[1] = __hip_atomic_fetch_xor(&s[64 + t], x, R, WG);
  r[2] = __hip_atomic_fetch_and(&s[128 + t], x, R, WG);
  r[3] = __hip_atomic_fetch_sub(&s[192 + t], x, R, WG);
  r[4] = __hip_atomic_fetch_min(&s[256 + t], x, R, WG);
  r[5] = __hip_atomic_fetch_max(&s[320 + t], x, R, WG);
  long e = (t & 1) ? ~x : x;
  __hip_atomic_compare_exchange_strong(&s[384 + t], &e, x + 1, R, R, WG);
  r[6] = e;
  r[7] = (long)__hip_atomic_exchange(&s[448 + t], x, R, WG);
  // Not returning: contended slots.
  __hip_atomic_fetch_or(&s[512 + (t & 7)], x, R, WG);
  __hip_atomic_fetch_xor(&s[520 + (t & 7)], x, R, WG);
  __hip_atomic_fetch_and(&s[512 + (t & 7)], ~(1L << (t & 31)), R, WG);
  __hip_atomic_fetch_min(&s[520 + (t & 7)], x, R, WG);
  double q0 = __hip_atomic_fetch_min(&sd[t], y, R, WG);
  double q1 = __hip_atomic_fetch_max(&sd[64 + t], y, R, WG);
  __hip_atomic_fetch_max(&sd[128 + (t & 7)], y, R, WG);
  syncthreads();
  for (int k = 0; k < 8; ++k) {
    out[k * 64 + t] = s[k * 64 + t];
    out[512 + k * 64 + t] = r[k];
  }
  if (t < 16)
    out[1024 + t] = s[512 + t];
  dout[t] = sd[t];
  dout[64 + t] = sd[64 + t];
  dout[128 + t] = q0;
  dout[192 + t] = q1;
  if (t < 8)
    dout[256 + t] = sd[128 + t];
}

// s_sendmsg sendmsg(MSG_INTERRUPT) with m0 = x: informs the host only.
KERNEL sendmsg_interrupt(int *out, int x) {
  __builtin_amdgcn_s_sendmsg(1, x);
  out[tid_x()] = x + 1;
}
// A geometry-shader message: not meaningful in a compute kernel.
KERNEL sendmsg_gs(int *out) {
  __builtin_amdgcn_s_sendmsg(2 | 1 << 4, 0);
  out[tid_x()] = 1;
}
