"""Kernels of amdgcn-lower's suite for linalg ops inside kernels (the cases
of lower_suite.py's form). Each work-item runs its linalg op on its own
subview (the usual split of a kernel's work); amdgcn-lower rewrites the op
to loops with upstream's linalg-to-loops (cc/lower/LowerLinalg.cpp), LLVM's
build runs mlir-opt-22 --convert-linalg-to-loops on the same source, and
both must equal NumPy (tests/py/test_lower_linalg.py; bench/bench_lower.py).
Matmul inputs are small integers in f32: every sum is exact, in any order.
"""
import numpy as np

from lower_suite import Case, module

CASES = []


def _ints(r, shape, lo=-4, hi=5):
    return r.integers(lo, hi, shape).astype(np.float32)


# 1. Elementwise linalg.generic on a row subview: y = x * alpha + bias
#    (bias broadcast along the row by its indexing map).
CASES.append(Case("linalg_generic_axpb", "axpb", module("""
    gpu.func @axpb(%x: memref<64x16xf32>, %bias: memref<16xf32>, %y: memref<64x16xf32>,
                   %alpha: f32) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %xr = memref.subview %x[%tid, 0][1, 16][1, 1]
          : memref<64x16xf32> to memref<16xf32, strided<[1], offset: ?>>
      %yr = memref.subview %y[%tid, 0][1, 16][1, 1]
          : memref<64x16xf32> to memref<16xf32, strided<[1], offset: ?>>
      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>,
                                       affine_map<(d0) -> (d0)>],
                      iterator_types = ["parallel"]}
          ins(%xr, %bias : memref<16xf32, strided<[1], offset: ?>>, memref<16xf32>)
          outs(%yr : memref<16xf32, strided<[1], offset: ?>>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %m = arith.mulf %a, %alpha : f32
        %s = arith.addf %m, %b : f32
        linalg.yield %s : f32
      }
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [_ints(r, (64, 16)), _ints(r, 16), np.zeros((64, 16), np.float32),
               np.float32(3.0)],
    lambda a: {2: a[0] * a[3] + a[1]}))


# 2. linalg.fill + linalg.matmul per work-item: row `tid` of C = A @ B
#    (A row 1x32, B 32x16, C row 1x16 as subviews).
CASES.append(Case("linalg_matmul_rows", "mm", module("""
    gpu.func @mm(%A: memref<64x32xf32>, %B: memref<32x16xf32>, %C: memref<64x16xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %zero = arith.constant 0.0 : f32
      %a = memref.subview %A[%tid, 0][1, 32][1, 1]
          : memref<64x32xf32> to memref<1x32xf32, strided<[32, 1], offset: ?>>
      %c = memref.subview %C[%tid, 0][1, 16][1, 1]
          : memref<64x16xf32> to memref<1x16xf32, strided<[16, 1], offset: ?>>
      linalg.fill ins(%zero : f32) outs(%c : memref<1x16xf32, strided<[16, 1], offset: ?>>)
      linalg.matmul ins(%a, %B : memref<1x32xf32, strided<[32, 1], offset: ?>>, memref<32x16xf32>)
                    outs(%c : memref<1x16xf32, strided<[16, 1], offset: ?>>)
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [_ints(r, (64, 32)), _ints(r, (32, 16)), np.full((64, 16), 7, np.float32)],
    lambda a: {2: a[0] @ a[1]}))


# 3. linalg.batch_matmul per work-item: batch tid / 8, row tid % 8 of
#    C[b] = A[b] @ B[b] (4 batches of 8x8x8), dynamic batch count.
CASES.append(Case("linalg_batch_matmul", "bmm", module("""
    gpu.func @bmm(%A: memref<?x8x8xf32>, %B: memref<?x8x8xf32>, %C: memref<?x8x8xf32>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %tid = gpu.thread_id x
      %c8 = arith.constant 8 : index
      %b = arith.divui %tid, %c8 : index
      %r = arith.remui %tid, %c8 : index
      %a = memref.subview %A[%b, %r, 0][1, 1, 8][1, 1, 1]
          : memref<?x8x8xf32> to memref<1x1x8xf32, strided<[64, 8, 1], offset: ?>>
      %bb = memref.subview %B[%b, 0, 0][1, 8, 8][1, 1, 1]
          : memref<?x8x8xf32> to memref<1x8x8xf32, strided<[64, 8, 1], offset: ?>>
      %c = memref.subview %C[%b, %r, 0][1, 1, 8][1, 1, 1]
          : memref<?x8x8xf32> to memref<1x1x8xf32, strided<[64, 8, 1], offset: ?>>
      linalg.batch_matmul
          ins(%a, %bb : memref<1x1x8xf32, strided<[64, 8, 1], offset: ?>>,
                        memref<1x8x8xf32, strided<[64, 8, 1], offset: ?>>)
          outs(%c : memref<1x1x8xf32, strided<[64, 8, 1], offset: ?>>)
      gpu.return
    }"""), (1, 1, 1), (32, 1, 1),
    lambda r: [_ints(r, (4, 8, 8)), _ints(r, (4, 8, 8)), _ints(r, (4, 8, 8))],
    lambda a: {2: a[2] + a[0] @ a[1]}))


# 4. A reduction linalg.generic (parallel, reduction): each work-item's
#    sum of squares of its row, and a transposed copy through linalg.transpose.
CASES.append(Case("linalg_reduce_transpose", "rt", module("""
    gpu.func @rt(%x: memref<64x8xf32>, %s: memref<64xf32>, %t: memref<8x64xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %xr = memref.subview %x[%tid, 0][1, 8][1, 1]
          : memref<64x8xf32> to memref<1x8xf32, strided<[8, 1], offset: ?>>
      %sr = memref.subview %s[%tid][1][1] : memref<64xf32> to memref<1xf32, strided<[1], offset: ?>>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                       affine_map<(d0, d1) -> (d0)>],
                      iterator_types = ["parallel", "reduction"]}
          ins(%xr : memref<1x8xf32, strided<[8, 1], offset: ?>>)
          outs(%sr : memref<1xf32, strided<[1], offset: ?>>) {
      ^bb0(%a: f32, %acc: f32):
        %q = arith.mulf %a, %a : f32
        %n = arith.addf %acc, %q : f32
        linalg.yield %n : f32
      }
      %tc = memref.subview %t[0, %tid][8, 1][1, 1]
          : memref<8x64xf32> to memref<8x1xf32, strided<[64, 1], offset: ?>>
      linalg.transpose ins(%xr : memref<1x8xf32, strided<[8, 1], offset: ?>>)
                       outs(%tc : memref<8x1xf32, strided<[64, 1], offset: ?>>) permutation = [1, 0]
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [_ints(r, (64, 8)), np.ones(64, np.float32), np.zeros((8, 64), np.float32)],
    lambda a: {1: 1 + (a[0] * a[0]).sum(axis=1), 2: a[0].T}))
