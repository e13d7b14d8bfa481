#include "common.h"
// gfx950 instructions through clang's builtins, for
// tests/py/test_emu_gfx950_ops.py (NumPy references there): v_prng_b32,
// the 16- and 8-bit sparse MFMAs, global_load_lds_dwordx4.
typedef _Float16 v8h __attribute__((ext_vector_type(8)));
typedef _Float16 v16h __attribute__((ext_vector_type(16)));
typedef __bf16 v8b __attribute__((ext_vector_type(8)));
typedef __bf16 v16b __attribute__((ext_vector_type(16)));
typedef float v4f __attribute__((ext_vector_type(4)));
typedef float v16f __attribute__((ext_vector_type(16)));
typedef int v4i __attribute__((ext_vector_type(4)));
typedef int v8i __attribute__((ext_vector_type(8)));
typedef int v16i __attribute__((ext_vector_type(16)));

// Three steps of the generator from each seed.
KERNEL prng950(const uint *seed, uint *out) {
  uint t = tid_x() + 64 * bid_x();
  uint x = seed[t];
  for (int i = 0; i < 3; ++i) {
    x = __builtin_amdgcn_prng_b32(x);
    out[3 * t + i] = x;
  }
}

// One wave: c[lane] = smfmac(a[lane], b[lane], c[lane], idx[lane]).
#define SP(NAME, BUILTIN, VA, VB, VC, CBSZ, ABID)                       \
  KERNEL NAME(const VA *a, const VB *b, VC *c, const int *idx) {        \
    uint t = tid_x();                                                   \
    c[t] = BUILTIN(a[t], b[t], c[t], idx[t], CBSZ, ABID);               \
  }
SP(sp16_f16, __builtin_amdgcn_smfmac_f32_16x16x64_f16, v8h, v16h, v4f, 0, 0)
SP(sp16_f16_set1, __builtin_amdgcn_smfmac_f32_16x16x64_f16, v8h, v16h, v4f, 0, 1)
SP(sp16_f16_cbsz, __builtin_amdgcn_smfmac_f32_16x16x64_f16, v8h, v16h, v4f, 1, 1)
SP(sp16_bf16, __builtin_amdgcn_smfmac_f32_16x16x64_bf16, v8b, v16b, v4f, 0, 0)
SP(sp32_f16, __builtin_amdgcn_smfmac_f32_32x32x32_f16, v8h, v16h, v16f, 0, 0)
SP(sp32_bf16_set1, __builtin_amdgcn_smfmac_f32_32x32x32_bf16, v8b, v16b, v16f, 0, 1)
// 8-bit: one index set (cbsz/abid given here must not matter).
SP(sp16_i8, __builtin_amdgcn_smfmac_i32_16x16x128_i8, v4i, v8i, v4i, 0, 0)
SP(sp16_i8_abid, __builtin_amdgcn_smfmac_i32_16x16x128_i8, v4i, v8i, v4i, 0, 1)
SP(sp32_i8, __builtin_amdgcn_smfmac_i32_32x32x64_i8, v4i, v8i, v16i, 0, 0)
SP(sp16_fp8_bf8, __builtin_amdgcn_smfmac_f32_16x16x128_fp8_bf8, v4i, v8i, v4f, 0, 0)
SP(sp32_bf8_fp8, __builtin_amdgcn_smfmac_f32_32x32x64_bf8_fp8, v4i, v8i, v16f, 0, 0)

// Direct-to-LDS loads of 3 and 4 dwords per lane (16-byte lane stride) into
// a marked tile: global_load_lds_dwordx3 into the first third,
// buffer_load_dwordx4 ... lds into the second, global_load_lds_dwordx4 into
// the last; the tile read back.
KERNEL lds_x3x4(const uint *in, uint *out) {
  __shared__ uint tile[768];
  uint t = tid_x();
  for (int i = 0; i < 12; ++i)
    tile[12 * t + i] = 0xdead0000u + 12 * t + i;
  syncthreads();
  __builtin_amdgcn_global_load_lds((void *)(in + 4 * t),
                                   (__attribute__((address_space(3))) void *)tile, 12, 0, 0);
  __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc((void *)in, 0, 0x7fffffff,
                                                               0x00020000);
  __builtin_amdgcn_raw_ptr_buffer_load_lds(r, (__attribute__((address_space(3))) void *)(tile + 256),
                                           16, (256 + 4 * t) * 4, 0, 0, 0);
  __builtin_amdgcn_global_load_lds((void *)(in + 512 + 4 * t),
                                   (__attribute__((address_space(3))) void *)(tile + 512), 16, 0, 0);
  __builtin_amdgcn_s_waitcnt(0);
  syncthreads();
  for (int i = 0; i < 12; ++i)
    out[12 * t + i] = tile[12 * t + i];
}
