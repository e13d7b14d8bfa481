#include "common.h"
// gfx950 (CDNA4) MFMA shapes, compiled with --offload-arch=gfx950. One wave
// each; A is M x K and B is K x N row-major; lane l holds row (A) / column
// (B) l % M of K-group l / M, 8 (f16/bf16) or 16 (i8) consecutive k values.
typedef _Float16 half8 __attribute__((ext_vector_type(8)));
typedef __bf16 bf16x8 __attribute__((ext_vector_type(8)));
typedef float float4 __attribute__((ext_vector_type(4)));
typedef float float16 __attribute__((ext_vector_type(16)));
typedef int int4 __attribute__((ext_vector_type(4)));

KERNEL mfma950_f16_16x16x32(const _Float16 *a, const _Float16 *b, const float *c, float *d) {
  uint l = tid_x();
  half8 fa, fb;
  for (int j = 0; j < 8; ++j) {
    fa[j] = a[(l % 16) * 32 + 8 * (l / 16) + j];
    fb[j] = b[(8 * (l / 16) + j) * 16 + l % 16];
  }
  float4 acc;
  for (int r = 0; r < 4; ++r)
    acc[r] = c[(4 * (l / 16) + r) * 16 + l % 16];
  acc = __builtin_amdgcn_mfma_f32_16x16x32_f16(fa, fb, acc, 0, 0, 0);
  for (int r = 0; r < 4; ++r)
    d[(4 * (l / 16) + r) * 16 + l % 16] = acc[r];
}

KERNEL mfma950_bf16_32x32x16(const __bf16 *a, const __bf16 *b, float *d) {
  uint l = tid_x();
  bf16x8 fa, fb;
  for (int j = 0; j < 8; ++j) {
    fa[j] = a[(l % 32) * 16 + 8 * (l / 32) + j];
    fb[j] = b[(8 * (l / 32) + j) * 32 + l % 32];
  }
  float16 acc = {};
  acc = __builtin_amdgcn_mfma_f32_32x32x16_bf16(fa, fb, acc, 0, 0, 0);
  for (int r = 0; r < 16; ++r)
    d[(8 * (r / 4) + 4 * (l / 32) + r % 4) * 32 + l % 32] = acc[r];
}

// Lane l's i8 fragments of A (M x K) and B (K x N = M): 16 consecutive k,
// four per register.
__attribute__((device)) static void i8_fragments(const signed char *a, const signed char *b,
                                                 int M, int K, int4 &fa, int4 &fb) {
  uint l = tid_x();
  for (int w = 0; w < 4; ++w) {
    uint x = 0, y = 0;
    for (int j = 0; j < 4; ++j) {
      int k = 16 * (l / M) + 4 * w + j;
      x |= uint((unsigned char)(a[(l % M) * K + k])) << (8 * j);
      y |= uint((unsigned char)(b[k * M + l % M])) << (8 * j);
    }
    fa[w] = int(x);
    fb[w] = int(y);
  }
}

KERNEL mfma950_i8_16x16x64(const signed char *a, const signed char *b, int *d) {
  uint l = tid_x();
  int4 fa, fb;
  i8_fragments(a, b, 16, 64, fa, fb);
  int4 acc = {};
  acc = __builtin_amdgcn_mfma_i32_16x16x64_i8(fa, fb, acc, 0, 0, 0);
  for (int r = 0; r < 4; ++r)
    d[(4 * (l / 16) + r) * 16 + l % 16] = acc[r];
}

typedef int int16 __attribute__((ext_vector_type(16)));
KERNEL mfma950_i8_32x32x32(const signed char *a, const signed char *b, int *d) {
  uint l = tid_x();
  int4 fa, fb;
  i8_fragments(a, b, 32, 32, fa, fb);
  int16 acc = {};
  acc = __builtin_amdgcn_mfma_i32_32x32x32_i8(fa, fb, acc, 0, 0, 0);
  for (int r = 0; r < 16; ++r)
    d[(8 * (r / 4) + 4 * (l / 32) + r % 4) * 32 + l % 32] = acc[r];
}

// Ordinary code compiled for gfx950: loads, VALU, stores.
KERNEL saxpy950(const float *x, float *y, float a, int n) {
  uint i = bid_x() * 256 + tid_x();
  if (i < uint(n))
    y[i] = a * x[i] + y[i];
}

// Code clang emits gfx950-only instructions for: bf16 <-> f32 conversions
// (v_cvt_f32_bf16, v_cvt_pk_bf16_f32), f32 -> f16 pairs (v_cvt_pk_f16_f32)
// and three-input bit logic (v_bitop3_b32).
typedef float float2 __attribute__((ext_vector_type(2)));
typedef _Float16 half2 __attribute__((ext_vector_type(2)));
typedef __bf16 bf16x2 __attribute__((ext_vector_type(2)));
KERNEL convert950(const float *x, const __bf16 *b, float *widened, bf16x2 *bpairs,
                  half2 *hpairs, uint *bits, int n) {
  uint i = bid_x() * 256 + tid_x();
  if (i >= uint(n))
    return;
  widened[i] = (float)b[i] * 2.0f;
  float2 p = {x[2 * i], x[2 * i + 1]};
  bpairs[i] = __builtin_convertvector(p, bf16x2);
  hpairs[i] = __builtin_convertvector(p, half2);
  uint u = __builtin_bit_cast(uint, x[2 * i]), v = __builtin_bit_cast(uint, x[2 * i + 1]);
  bits[i] = (u & v) | (~u & i) ^ (v | 0x0f0f0f0fu);
}

// fp8 on gfx950 is OCP E4M3FN (gfx942's is E4M3FNUZ): byte 0 of x to f32.
KERNEL fp8cvt950(const uint *x, float *y) {
  uint i = bid_x() * 64 + tid_x();
  y[i] = __builtin_amdgcn_cvt_f32_fp8(x[i], 0);
}
