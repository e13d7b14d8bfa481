#include "common.h"
// Kernels whose MFMA results (and VALU-written SGPRs) are read right away,
// so that LLVM's hazard recognizer must pad them with s_nop: the oracle of
// test_hazards_oracle.py. Only compiled and disassembled, never run.
typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef float float4 __attribute__((ext_vector_type(4)));
typedef float float16 __attribute__((ext_vector_type(16)));
typedef int int4 __attribute__((ext_vector_type(4)));
typedef double double4 __attribute__((ext_vector_type(4)));

// 8 passes (gfx942): stored straight away.
KERNEL store_32x32x8(const half4 *a, float16 *d) {
  uint l = tid_x();
  float16 z = {};
  d[l] = __builtin_amdgcn_mfma_f32_32x32x8f16(a[l], a[l + 64], z, 0, 0, 0);
}
// 4 passes: a VALU reads the result.
KERNEL valu_16x16x16(const half4 *a, float4 *d, float s) {
  uint l = tid_x();
  float4 z = {};
  float4 r = __builtin_amdgcn_mfma_f32_16x16x16f16(a[l], a[l + 64], z, 0, 0, 0);
  d[l] = r * s;
}
// 2 passes.
KERNEL valu_4x4x4(const half4 *a, float4 *d, float s) {
  uint l = tid_x();
  float4 z = {};
  float4 r = __builtin_amdgcn_mfma_f32_4x4x4f16(a[l], a[l + 64], z, 0, 0, 0);
  d[l] = r + s;
}
// 16 passes (f32 inputs).
KERNEL store_32x32x2_f32(const float *a, float16 *d) {
  uint l = tid_x();
  float16 z = {};
  d[l] = __builtin_amdgcn_mfma_f32_32x32x2f32(a[l], a[l + 64], z, 0, 0, 0);
}
// 8 passes (16x16 f32 inputs).
KERNEL valu_16x16x4_f32(const float *a, float4 *d, float s) {
  uint l = tid_x();
  float4 z = {};
  float4 r = __builtin_amdgcn_mfma_f32_16x16x4f32(a[l], a[l + 64], z, 0, 0, 0);
  d[l] = r * s;
}
// An i8 MFMA result fed to the next MFMA as srcA, and accumulated into.
KERNEL chain_i8(const long *a, int4 *d) {
  uint l = tid_x();
  int4 z = {};
  int4 r = __builtin_amdgcn_mfma_i32_16x16x32_i8(a[l], a[l + 64], z, 0, 0, 0);
  long x = ((long)(unsigned)r[1] << 32) | (unsigned)r[0];
  int4 q = __builtin_amdgcn_mfma_i32_16x16x32_i8(x, a[l], r, 0, 0, 0);
  d[l] = __builtin_amdgcn_mfma_i32_16x16x32_i8(x, a[l], q, 0, 0, 0);
}
// f64 MFMA (DGEMM), stored and read by a VALU.
KERNEL f64_16x16x4(const double *a, double4 *d, double s) {
  uint l = tid_x();
  double4 z = {};
  double4 r = __builtin_amdgcn_mfma_f64_16x16x4f64(a[l], a[l + 64], z, 0, 0, 0);
  d[l] = r * s;
}
// A VALU-written SGPR (v_readlane) as a lane select and in an address.
KERNEL lanes(const int *p, int *d) {
  uint l = tid_x();
  int v = p[l];
  int lane = __builtin_amdgcn_readlane(v, 0);
  int w = __builtin_amdgcn_readlane(v, lane);
  d[l] = w + p[__builtin_amdgcn_readlane(v, 1)];
}
// s_setreg then s_getreg / s_setreg of the same hardware register (MODE).
KERNEL setreg_getreg(int *d, int x) {
  __builtin_amdgcn_s_setreg(1 | 0 << 6 | 3 << 11, x);
  d[0] = __builtin_amdgcn_s_getreg(1 | 0 << 6 | 3 << 11);
}
KERNEL setreg_setreg(int *d, int x) {
  __builtin_amdgcn_s_setreg(1 | 0 << 6 | 3 << 11, x);
  __builtin_amdgcn_s_setreg(1 | 0 << 6 | 3 << 11, x + 1);
  d[0] = 1;
}
// An SALU write of m0 (the message payload), then s_sendmsg / s_sendmsghalt.
KERNEL sendmsg_m0(int *d, int x) {
  __builtin_amdgcn_s_sendmsg(1, x);
  __builtin_amdgcn_s_sendmsghalt(1, x + 1);
  d[0] = 2;
}
