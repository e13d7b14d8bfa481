#include "common.h"
// Every work-item of a 3-D grid of 3-D blocks records its coordinates.
KERNEL grid3d(int *out, int gx, int gy) {
  uint bx = __builtin_amdgcn_workgroup_size_x(), by = __builtin_amdgcn_workgroup_size_y(),
       bz = __builtin_amdgcn_workgroup_size_z();
  uint x = bid_x() * bx + tid_x(), y = bid_y() * by + tid_y(), z = bid_z() * bz + tid_z();
  uint nx = gx * bx, ny = gy * by;
  uint lin = (z * ny + y) * nx + x;
  out[4 * lin + 0] = x;
  out[4 * lin + 1] = y;
  out[4 * lin + 2] = z;
  out[4 * lin + 3] = (tid_z() * by + tid_y()) * bx + tid_x();
}
