#include "common.h"
// gfx950 transposing LDS reads through clang's builtins, for
// tests/py/test_emu_ds_transpose.py (NumPy references there). One wave:
// the 4 KiB tile is filled from `in` (lane t writes words 16t..16t+15),
// then every lane reads twice, at tile + addr[t] and tile + addr[t] + OFF
// (OFF lands in the instruction's offset field); out holds lane t's two
// results, WORDS dwords each, at 2 * WORDS * t.
typedef short v4s __attribute__((ext_vector_type(4)));
typedef int v2i __attribute__((ext_vector_type(2)));
typedef int v3i __attribute__((ext_vector_type(3)));
#define LDS __attribute__((address_space(3)))

#define TR(NAME, BUILTIN, VT, WORDS, OFF)                                  \
  KERNEL NAME(const uint *in, const uint *addr, uint *out) {             \
    __shared__ uint tile[1024];                                           \
    uint t = tid_x();                                                     \
    for (int i = 0; i < 16; ++i)                                          \
      tile[16 * t + i] = in[16 * t + i];                                  \
    syncthreads();                                                        \
    LDS char *p = (LDS char *)tile + addr[t];                             \
    VT r0 = BUILTIN((LDS VT *)p);                                         \
    VT r1 = BUILTIN((LDS VT *)(p + OFF));                                 \
    uint w0[WORDS], w1[WORDS];                                            \
    __builtin_memcpy(w0, &r0, 4 * WORDS);                                 \
    __builtin_memcpy(w1, &r1, 4 * WORDS);                                 \
    for (int i = 0; i < WORDS; ++i) {                                     \
      out[2 * WORDS * t + i] = w0[i];                                     \
      out[2 * WORDS * t + WORDS + i] = w1[i];                             \
    }                                                                     \
  }
TR(tr_b16, __builtin_amdgcn_ds_read_tr16_b64_v4i16, v4s, 2, 128)
TR(tr_b8, __builtin_amdgcn_ds_read_tr8_b64_v2i32, v2i, 2, 128)
TR(tr_b4, __builtin_amdgcn_ds_read_tr4_b64_v2i32, v2i, 2, 128)
TR(tr_b6, __builtin_amdgcn_ds_read_tr6_b96_v3i32, v3i, 3, 256)

// The same read with only the lanes whose addr is even taking part (EXEC
// not full: the document leaves that undefined).
KERNEL tr_b16_partial(const uint *in, const uint *addr, uint *out) {
  __shared__ uint tile[1024];
  uint t = tid_x();
  for (int i = 0; i < 16; ++i)
    tile[16 * t + i] = in[16 * t + i];
  syncthreads();
  if ((addr[t] & 8) == 0) {
    v4s r = __builtin_amdgcn_ds_read_tr16_b64_v4i16((LDS v4s *)((LDS char *)tile + addr[t]));
    __builtin_memcpy(out + 2 * t, &r, 8);
  }
}
