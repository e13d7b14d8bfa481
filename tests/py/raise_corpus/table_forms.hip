#include "common.h"
// Instruction forms the table gained for raising and the emulator: DPP
// row_newbcast, v_add_i32/v_sub_i32 clamp, v_pack_b32_f16, v_fma_mix_f32
// with neg, fp8/bf8 conversions into a word/byte (op_sel), ds_swizzle_b32
// patterns, s_getreg_b32, s_sendmsg, buffer loads into LDS of 1, 2 and 4
// bytes. tests/py/test_emu_table_forms.py checks them against NumPy.
typedef _Float16 half2 __attribute__((ext_vector_type(2)));

KERNEL newbcast(int *in, int *out) {
  uint t = bid_x() * 64 + tid_x();
  int x = in[t];
  out[t] = __builtin_amdgcn_update_dpp(-1, x, 0x153, 0xf, 0xf, false);
  out[t + 256] = __builtin_amdgcn_update_dpp(-1, x, 0x15e, 0xa, 0xf, false);
}

KERNEL sat_add(int *a, int *b, int *out) {
  uint t = bid_x() * 64 + tid_x();
  out[2 * t] = __builtin_elementwise_add_sat(a[t], b[t]);
  out[2 * t + 1] = __builtin_elementwise_sub_sat(a[t], b[t]);
}

KERNEL pack_halves(float *a, half2 *b, half2 *out) {
  uint t = bid_x() * 64 + tid_x();
  half2 y = b[t];
  _Float16 p = (_Float16)a[t] * y.y;
  _Float16 q = y.x + y.y;
  half2 r = {p, q};
  half2 s = {y.y, -p};
  out[2 * t] = r;
  out[2 * t + 1] = s;
}

KERNEL mix(_Float16 *a, _Float16 *b, float *c, float *out) {
  uint t = bid_x() * 64 + tid_x();
  out[t] = __builtin_fmaf(-(float)a[t], (float)b[t], c[t]);
}

KERNEL pk_fp8(float *a, float *b, int *old, int *out) {
  uint t = bid_x() * 64 + tid_x();
  int o = old[t];
  out[2 * t] = __builtin_amdgcn_cvt_pk_fp8_f32(a[t], b[t], o, true);
  out[2 * t + 1] = __builtin_amdgcn_cvt_pk_bf8_f32(a[t], b[t], o, false);
}

KERNEL sr_fp8(float *a, int *old, int *out) {
  uint t = bid_x() * 64 + tid_x();
  int o = old[t];
  out[4 * t] = __builtin_amdgcn_cvt_sr_fp8_f32(a[t], t * 77, o, 0);
  out[4 * t + 1] = __builtin_amdgcn_cvt_sr_fp8_f32(a[t], t * 77, o, 1);
  out[4 * t + 2] = __builtin_amdgcn_cvt_sr_bf8_f32(a[t], t * 77, o, 2);
  out[4 * t + 3] = __builtin_amdgcn_cvt_sr_bf8_f32(a[t], t * 77, o, 3);
}

KERNEL swizzle(int *in, int *out) {
  uint t = bid_x() * 64 + tid_x();
  int x = in[t];
  out[4 * t] = __builtin_amdgcn_ds_swizzle(x, 0x801b);
  out[4 * t + 1] = __builtin_amdgcn_ds_swizzle(x, 0x041f);
  out[4 * t + 2] = __builtin_amdgcn_ds_swizzle(x, 0x00f8);
  out[4 * t + 3] = __builtin_amdgcn_ds_swizzle(x, 0x281e);
}

KERNEL getreg(int *out) { out[tid_x()] = __builtin_amdgcn_s_getreg(1 | 0 << 6 | 7 << 11); }

KERNEL sendmsg(int *out) {
  __builtin_amdgcn_s_sendmsg(1, 0);
  out[tid_x()] = 1;
}

// One wave: bytes, shorts and dwords of `in` into LDS, then back out.
KERNEL buffer_lds_sizes(unsigned char *in, int *out) {
  __shared__ int tile[3 * 64];
  uint t = tid_x();
  __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc(in, 0, 1024, 0x00020000);
  typedef __attribute__((address_space(3))) void *lds_ptr;
  __builtin_amdgcn_raw_ptr_buffer_load_lds(r, (lds_ptr)tile, 1, t * 3, 0, 0, 0);
  __builtin_amdgcn_raw_ptr_buffer_load_lds(r, (lds_ptr)(tile + 64), 2, t * 6, 0, 0, 0);
  __builtin_amdgcn_raw_ptr_buffer_load_lds(r, (lds_ptr)(tile + 128), 4, t * 16 + 4, 0, 0, 0);
  __builtin_amdgcn_s_waitcnt(0);
  syncthreads();
  out[t] = tile[t];
  out[64 + t] = tile[64 + t];
  out[128 + t] = tile[128 + t];
}

// A uniform dynamic index into a register vector: VGPR index mode
// (s_set_gpr_idx_on ... gpr_idx(DST) / (SRC0)).
typedef float v16f __attribute__((ext_vector_type(16)));
KERNEL vgpr_index(v16f *in, int s, int r, v16f *out, float *picked) {
  uint t = tid_x();
  v16f v = in[t];
  picked[t] = v[r & 15];
  v[s & 15] = 5.0f;
  out[t] = v;
}
