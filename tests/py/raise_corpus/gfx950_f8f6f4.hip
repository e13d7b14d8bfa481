#include "common.h"
// gfx950 scaled f8f6f4 MFMAs (__builtin_amdgcn_mfma_scale_*): one kernel per
// (A format cbsz, B format blgp, scale byte of A, scale byte of B); one wave.
// tests/py/test_emu_f8f6f4.py checks them against NumPy / ml_dtypes.
typedef int v8i __attribute__((ext_vector_type(8)));
typedef float v4f __attribute__((ext_vector_type(4)));
typedef float v16f __attribute__((ext_vector_type(16)));

#define S16(NAME, FA, FB, OA, OB)                                                          \
  KERNEL NAME(v8i *a, v8i *b, v4f *c, int *sa, int *sb, v4f *out) {                        \
    uint t = tid_x();                                                                      \
    out[t] = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a[t], b[t], c[t], FA, FB, OA, \
                                                              sa[t], OB, sb[t]);           \
  }
#define S32(NAME, FA, FB, OA, OB)                                                         \
  KERNEL NAME(v8i *a, v8i *b, v16f *c, int *sa, int *sb, v16f *out) {                     \
    uint t = tid_x();                                                                     \
    out[t] = __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4(a[t], b[t], c[t], FA, FB, OA, \
                                                             sa[t], OB, sb[t]);           \
  }

S16(s16_0_0_0_0, 0, 0, 0, 0)
S16(s16_1_2_1_2, 1, 2, 1, 2)
S16(s16_2_4_3_1, 2, 4, 3, 1)
S16(s16_3_1_2_3, 3, 1, 2, 3)
S16(s16_4_4_0_0, 4, 4, 0, 0)
S16(s16_4_3_1_1, 4, 3, 1, 1)
S32(s32_0_3_1_0, 0, 3, 1, 0)
S32(s32_4_0_0_2, 4, 0, 0, 2)
S32(s32_2_2_3_3, 2, 2, 3, 3)
S32(s32_1_4_2_1, 1, 4, 2, 1)
