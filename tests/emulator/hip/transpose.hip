#include "common.h"
// out = in^T for a rows x cols matrix, 16x16 tiles through LDS (2-D blocks,
// 2-D grid). The +1 column of padding avoids LDS bank conflicts.
KERNEL transpose(const float *in, float *out, int rows, int cols) {
  __shared__ float tile[16][17];
  int x = bid_x() * 16 + tid_x(), y = bid_y() * 16 + tid_y();
  if (x < cols && y < rows)
    tile[tid_y()][tid_x()] = in[y * cols + x];
  syncthreads();
  int ox = bid_y() * 16 + tid_x(), oy = bid_x() * 16 + tid_y();
  if (ox < rows && oy < cols)
    out[oy * rows + ox] = tile[tid_x()][tid_y()];
}
