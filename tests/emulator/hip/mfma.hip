#include "common.h"
// Matrix core instructions, one wave each. Matrices are row-major in memory;
// every lane loads its fragment per the gfx942 register layouts:
//   A (M x K): lane = i + M * (k / kpl), element k % kpl  (kpl = K*M/64)
//   B (K x N): lane = j + N * (k / kpl)
//   D 16x16 (f32/i32): lane = j + 16 * (i / 4), register i % 4
//   D 32x32: lane = j + 32 * ((i / 4) % 2), register 4 * (i / 8) + i % 4
//   D 16x16 f64: lane = j + 16 * (i % 4), register i / 4
typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef short short4 __attribute__((ext_vector_type(4)));
typedef float float4 __attribute__((ext_vector_type(4)));
typedef float float16 __attribute__((ext_vector_type(16)));
typedef int int4 __attribute__((ext_vector_type(4)));
typedef int int16 __attribute__((ext_vector_type(16)));
typedef double double4 __attribute__((ext_vector_type(4)));

__device__ inline void store16x16(float *d, float4 acc, uint l) {
  for (int r = 0; r < 4; ++r)
    d[(4 * (l / 16) + r) * 16 + l % 16] = acc[r];
}
__device__ inline void store32x32(float *d, float16 acc, uint l) {
  for (int r = 0; r < 16; ++r)
    d[(8 * (r / 4) + 4 * (l / 32) + r % 4) * 32 + l % 32] = acc[r];
}

KERNEL mfma_f16_16x16x16(const _Float16 *a, const _Float16 *b, const float *c, float *d) {
  uint l = tid_x();
  half4 fa, fb;
  for (int j = 0; j < 4; ++j) {
    fa[j] = a[(l % 16) * 16 + 4 * (l / 16) + j];
    fb[j] = b[(4 * (l / 16) + j) * 16 + l % 16];
  }
  float4 acc;
  for (int r = 0; r < 4; ++r)
    acc[r] = c[(4 * (l / 16) + r) * 16 + l % 16];
  acc = __builtin_amdgcn_mfma_f32_16x16x16f16(fa, fb, acc, 0, 0, 0);
  store16x16(d, acc, l);
}

KERNEL mfma_f16_32x32x8(const _Float16 *a, const _Float16 *b, float *d) {
  uint l = tid_x();
  half4 fa, fb;
  for (int j = 0; j < 4; ++j) {
    fa[j] = a[(l % 32) * 8 + 4 * (l / 32) + j];
    fb[j] = b[(4 * (l / 32) + j) * 32 + l % 32];
  }
  float16 acc = {};
  acc = __builtin_amdgcn_mfma_f32_32x32x8f16(fa, fb, acc, 0, 0, 0);
  store32x32(d, acc, l);
}

KERNEL mfma_bf16_16x16x16(const short *a, const short *b, float *d) {
  uint l = tid_x();
  short4 fa, fb;
  for (int j = 0; j < 4; ++j) {
    fa[j] = a[(l % 16) * 16 + 4 * (l / 16) + j];
    fb[j] = b[(4 * (l / 16) + j) * 16 + l % 16];
  }
  float4 acc = {};
  acc = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(fa, fb, acc, 0, 0, 0);
  store16x16(d, acc, l);
}

KERNEL mfma_bf16_32x32x8(const short *a, const short *b, float *d) {
  uint l = tid_x();
  short4 fa, fb;
  for (int j = 0; j < 4; ++j) {
    fa[j] = a[(l % 32) * 8 + 4 * (l / 32) + j];
    fb[j] = b[(4 * (l / 32) + j) * 32 + l % 32];
  }
  float16 acc = {};
  acc = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(fa, fb, acc, 0, 0, 0);
  store32x32(d, acc, l);
}

KERNEL mfma_i8_16x16x32(const signed char *a, const signed char *b, int *d) {
  uint l = tid_x();
  long fa = 0, fb = 0;
  for (int j = 0; j < 8; ++j) {
    fa |= (long)(unsigned char)a[(l % 16) * 32 + 8 * (l / 16) + j] << (8 * j);
    fb |= (long)(unsigned char)b[(8 * (l / 16) + j) * 16 + l % 16] << (8 * j);
  }
  int4 acc = {};
  acc = __builtin_amdgcn_mfma_i32_16x16x32_i8(fa, fb, acc, 0, 0, 0);
  for (int r = 0; r < 4; ++r)
    d[(4 * (l / 16) + r) * 16 + l % 16] = acc[r];
}

KERNEL mfma_i8_32x32x16(const signed char *a, const signed char *b, int *d) {
  uint l = tid_x();
  long fa = 0, fb = 0;
  for (int j = 0; j < 8; ++j) {
    fa |= (long)(unsigned char)a[(l % 32) * 16 + 8 * (l / 32) + j] << (8 * j);
    fb |= (long)(unsigned char)b[(8 * (l / 32) + j) * 32 + l % 32] << (8 * j);
  }
  int16 acc = {};
  acc = __builtin_amdgcn_mfma_i32_32x32x16_i8(fa, fb, acc, 0, 0, 0);
  for (int r = 0; r < 16; ++r)
    d[(8 * (r / 4) + 4 * (l / 32) + r % 4) * 32 + l % 32] = acc[r];
}

KERNEL mfma_f32_32x32x2(const float *a, const float *b, float *d) {
  uint l = tid_x();
  float fa = a[(l % 32) * 2 + l / 32], fb = b[(l / 32) * 32 + l % 32];
  float16 acc = {};
  acc = __builtin_amdgcn_mfma_f32_32x32x2f32(fa, fb, acc, 0, 0, 0);
  store32x32(d, acc, l);
}

KERNEL mfma_f32_16x16x4(const float *a, const float *b, float *d) {
  uint l = tid_x();
  float fa = a[(l % 16) * 4 + l / 16], fb = b[(l / 16) * 16 + l % 16];
  float4 acc = {};
  acc = __builtin_amdgcn_mfma_f32_16x16x4f32(fa, fb, acc, 0, 0, 0);
  store16x16(d, acc, l);
}

KERNEL mfma_fp8_16x16x32(const unsigned char *a, const unsigned char *b, float *d) {
  uint l = tid_x();
  long fa = 0, fb = 0;
  for (int j = 0; j < 8; ++j) {
    fa |= (long)a[(l % 16) * 32 + 8 * (l / 16) + j] << (8 * j);
    fb |= (long)b[(8 * (l / 16) + j) * 16 + l % 16] << (8 * j);
  }
  float4 acc = {};
  acc = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(fa, fb, acc, 0, 0, 0);
  store16x16(d, acc, l);
}

KERNEL mfma_f64_16x16x4(const double *a, const double *b, double *d) {
  uint l = tid_x();
  double fa = a[(l % 16) * 4 + l / 16], fb = b[(l / 16) * 16 + l % 16];
  double4 acc = {};
  acc = __builtin_amdgcn_mfma_f64_16x16x4f64(fa, fb, acc, 0, 0, 0);
  for (int r = 0; r < 4; ++r)
    d[(4 * r + l % 64 / 16) * 16 + l % 16] = acc[r];
}

// A loop of MFMAs: D (64 x 64) = A (64 x K) * B (K x 64), 4 waves per
// workgroup, each wave owns a 32 x 32 quadrant made of four 16x16 tiles and
// walks K in steps of 16.
KERNEL mfma_gemm_loop(const _Float16 *a, const _Float16 *b, float *d, int K) {
  uint l = tid_x() % 64, w = tid_x() / 64;
  uint row0 = 32 * (w / 2), col0 = 32 * (w % 2);
  float4 acc[2][2] = {};
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int ti = 0; ti < 2; ++ti)
      for (int tj = 0; tj < 2; ++tj) {
        half4 fa, fb;
        for (int j = 0; j < 4; ++j) {
          fa[j] = a[(row0 + 16 * ti + l % 16) * K + k0 + 4 * (l / 16) + j];
          fb[j] = b[(k0 + 4 * (l / 16) + j) * 64 + col0 + 16 * tj + l % 16];
        }
        acc[ti][tj] = __builtin_amdgcn_mfma_f32_16x16x16f16(fa, fb, acc[ti][tj], 0, 0, 0);
      }
  }
  for (int ti = 0; ti < 2; ++ti)
    for (int tj = 0; tj < 2; ++tj)
      for (int r = 0; r < 4; ++r)
        d[(row0 + 16 * ti + 4 * (l / 16) + r) * 64 + col0 + 16 * tj + l % 16] = acc[ti][tj][r];
}

// Multi-block MFMAs. Blocks are stored one after another: A[b] (M x K),
// B[b] (K x N), D[b] (M x N). For these K-per-lane layouts the A/B lane is
// b * M + i (resp. b * N + j).
typedef float float32v __attribute__((ext_vector_type(32)));
KERNEL mfma_f16_4x4x4_16b(const _Float16 *a, const _Float16 *b, float *d, int cbsz_abid) {
  uint l = tid_x(), blk = l / 4;
  half4 fa, fb;
  for (int j = 0; j < 4; ++j) {
    fa[j] = a[blk * 16 + (l % 4) * 4 + j];
    fb[j] = b[blk * 16 + j * 4 + l % 4];
  }
  float4 acc = {};
  if (cbsz_abid)
    acc = __builtin_amdgcn_mfma_f32_4x4x4f16(fa, fb, acc, 1, 1, 0);
  else
    acc = __builtin_amdgcn_mfma_f32_4x4x4f16(fa, fb, acc, 0, 0, 0);
  // D block blk: lane blk * 4 + j, register i.
  for (int r = 0; r < 4; ++r)
    d[blk * 16 + r * 4 + l % 4] = acc[r];
}

KERNEL mfma_f16_32x32x4_2b(const _Float16 *a, const _Float16 *b, float *d) {
  uint l = tid_x(), blk = l / 32;
  half4 fa, fb;
  for (int j = 0; j < 4; ++j) {
    fa[j] = a[blk * 128 + (l % 32) * 4 + j];
    fb[j] = b[blk * 128 + j * 32 + l % 32];
  }
  float32v acc = {};
  acc = __builtin_amdgcn_mfma_f32_32x32x4f16(fa, fb, acc, 0, 0, 0);
  // D block q: registers 16 q + r, 32x32 layout.
  for (int q = 0; q < 2; ++q)
    for (int r = 0; r < 16; ++r)
      d[q * 1024 + (8 * (r / 4) + 4 * (l / 32) + r % 4) * 32 + l % 32] = acc[16 * q + r];
}
