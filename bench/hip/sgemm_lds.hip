#include "common.h"
// C = A * B for n x n float matrices (n a multiple of 16): 16x16 tiles of A
// and B staged through LDS, one output element per work-item, block (16,16).
#define TILE 16
KERNEL sgemm_lds(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE + 1], Bs[TILE][TILE];
  uint tx = tid_x(), ty = tid_y();
  uint row = bid_y() * TILE + ty, col = bid_x() * TILE + tx;
  float acc = 0.f;
  for (int t = 0; t < n; t += TILE) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + col];
    syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc = __builtin_fmaf(As[ty][k], Bs[k][tx], acc);
    syncthreads();
  }
  C[row * n + col] = acc;
}
