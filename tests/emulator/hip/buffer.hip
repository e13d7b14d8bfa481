#include "common.h"
// Raw buffer loads/stores through a resource descriptor whose num_records
// (in bytes) is smaller than the buffer: out-of-range loads return 0 and
// out-of-range stores are dropped.
KERNEL buffer_ops(int *in, int *out, int records) {
  uint t = tid_x();
  __amdgpu_buffer_rsrc_t rin = __builtin_amdgcn_make_buffer_rsrc(in, 0, records, 0x00020000);
  __amdgpu_buffer_rsrc_t rout = __builtin_amdgcn_make_buffer_rsrc(out, 0, records, 0x00020000);
  int v = (int)__builtin_amdgcn_raw_buffer_load_b32(rin, t * 4, 0, 0);
  __builtin_amdgcn_raw_buffer_store_b32((uint)(v * 2 + 1), rout, t * 4, 0, 0);
}
