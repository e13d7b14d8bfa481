"""amdgcn-lower's linalg on tensors inside kernels (issue 26 item 2, linalg:
tensors made of memref arguments with bufferization.to_tensor, linalg ops on
them, the result written back with bufferization.materialize_in_destination),
in lower_suite.py's Case form: each built by aster and by LLVM, both checked
against NumPy.

Both builds bufferize with the same upstream passes (one-shot-bufferize with
linalg.copy copies, promote-buffers-to-stack: cc/lower/LowerTensors.cpp and
aster.lowering.llvm), then make loops of the linalg ops.
"""
import numpy as np

from lower_suite import Case, module

CASES = []

_STR = "strided<[1], offset: ?>"


# 1. An elementwise linalg.generic per work-item on its row of 4 (a subview
#    made a tensor), into a tensor.empty (a new 16-byte buffer: an alloca),
#    the result materialized in the row of y (a linalg.copy, then loops).
CASES.append(Case("tensor_generic_rows", "rows", module(f"""
    gpu.func @rows(%x: memref<64x4xf32>, %y: memref<64x4xf32>, %a: f32, %b: f32) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %xs = memref.subview %x[%i, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, {_STR}>
      %ys = memref.subview %y[%i, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, {_STR}>
      %t = bufferization.to_tensor %xs restrict : memref<4xf32, {_STR}> to tensor<4xf32>
      %e = tensor.empty() : tensor<4xf32>
      %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                           iterator_types = ["parallel"]}}
          ins(%t : tensor<4xf32>) outs(%e : tensor<4xf32>) {{
        ^bb0(%v: f32, %o: f32):
          %m = arith.mulf %v, %a : f32
          %s = arith.addf %m, %b : f32
          linalg.yield %s : f32
      }} -> tensor<4xf32>
      bufferization.materialize_in_destination %r in restrict writable %ys
          : (tensor<4xf32>, memref<4xf32, {_STR}>) -> ()
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal((64, 4)).astype(np.float32), np.zeros((64, 4), np.float32),
               np.float32(1.5), np.float32(-0.25)],
    lambda a: {1: a[0] * np.float32(1.5) + np.float32(-0.25)}, tol=1e-6))

_TSTR = "strided<[8, 1], offset: ?>"
_BSTR = "strided<[16, 1], offset: ?>"


# 2. A 16 x 16 = (16 x 8) (8 x 16) matmul, one 4 x 4 tile per work-item:
#    linalg.fill of a tensor.empty (64 bytes: an alloca), linalg.matmul on
#    tensors of A's and B's subviews, the tile materialized in C's subview.
def _matmul_expect(a):
    return {2: (a[0].astype(np.float64) @ a[1].astype(np.float64)).astype(np.float32)}


CASES.append(Case("tensor_fill_matmul_tiles", "mm", module(f"""
    gpu.func @mm(%a: memref<16x8xf32>, %b: memref<8x16xf32>, %c: memref<16x16xf32>) kernel
        attributes {{known_block_size = array<i32: 16, 1, 1>}} {{
      %i = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %ti = arith.divui %i, %c4 : index
      %tj = arith.remui %i, %c4 : index
      %r0 = arith.muli %ti, %c4 : index
      %c0i = arith.muli %tj, %c4 : index
      %as = memref.subview %a[%r0, 0] [4, 8] [1, 1] : memref<16x8xf32> to memref<4x8xf32, {_TSTR}>
      %bs = memref.subview %b[0, %c0i] [8, 4] [1, 1] : memref<8x16xf32> to memref<8x4xf32, {_BSTR}>
      %cs = memref.subview %c[%r0, %c0i] [4, 4] [1, 1] : memref<16x16xf32> to memref<4x4xf32, {_BSTR}>
      %ta = bufferization.to_tensor %as restrict : memref<4x8xf32, {_TSTR}> to tensor<4x8xf32>
      %tb = bufferization.to_tensor %bs restrict : memref<8x4xf32, {_BSTR}> to tensor<8x4xf32>
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<4x4xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
      %p = linalg.matmul ins(%ta, %tb : tensor<4x8xf32>, tensor<8x4xf32>)
                         outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
      bufferization.materialize_in_destination %p in restrict writable %cs
          : (tensor<4x4xf32>, memref<4x4xf32, {_BSTR}>) -> ()
      gpu.return
    }}"""), (1, 1, 1), (16, 1, 1),
    lambda r: [r.integers(-4, 4, (16, 8)).astype(np.float32),
               r.integers(-4, 4, (8, 16)).astype(np.float32), np.zeros((16, 16), np.float32)],
    _matmul_expect))


# 3. In place: y's row as the generic's outs (a writable to_tensor), y = max(y,
#    x) * 2 written back to the same memref (no new buffer, no copy), then a
#    linalg.reduce of the row (sum, a tensor<f32>) extracted to a scalar.
def _inplace_expect(a):
    y = np.maximum(a[1], a[0]) * np.float32(2)
    return {1: y, 2: y.astype(np.float64).sum(axis=1).astype(np.float32)}


CASES.append(Case("tensor_inplace_reduce", "ip", module(f"""
    gpu.func @ip(%x: memref<64x8xf32>, %y: memref<64x8xf32>, %s: memref<64xf32>) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %xs = memref.subview %x[%i, 0] [1, 8] [1, 1] : memref<64x8xf32> to memref<8xf32, {_STR}>
      %ys = memref.subview %y[%i, 0] [1, 8] [1, 1] : memref<64x8xf32> to memref<8xf32, {_STR}>
      %tx = bufferization.to_tensor %xs restrict : memref<8xf32, {_STR}> to tensor<8xf32>
      %ty = bufferization.to_tensor %ys restrict writable : memref<8xf32, {_STR}> to tensor<8xf32>
      %two = arith.constant 2.0 : f32
      %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                           iterator_types = ["parallel"]}}
          ins(%tx : tensor<8xf32>) outs(%ty : tensor<8xf32>) {{
        ^bb0(%v: f32, %o: f32):
          %m = arith.maximumf %v, %o : f32
          %d = arith.mulf %m, %two : f32
          linalg.yield %d : f32
      }} -> tensor<8xf32>
      bufferization.materialize_in_destination %r in restrict writable %ys
          : (tensor<8xf32>, memref<8xf32, {_STR}>) -> ()
      %zero = arith.constant 0.0 : f32
      %init = tensor.from_elements %zero : tensor<f32>
      %sum = linalg.reduce ins(%r : tensor<8xf32>) outs(%init : tensor<f32>) dimensions = [0]
        (%v: f32, %acc: f32) {{
          %t = arith.addf %v, %acc : f32
          linalg.yield %t : f32
        }}
      %sv = tensor.extract %sum[] : tensor<f32>
      memref.store %sv, %s[%i] : memref<64xf32>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.integers(-8, 8, (64, 8)).astype(np.float32),
               r.integers(-8, 8, (64, 8)).astype(np.float32), np.zeros(64, np.float32)],
    _inplace_expect))


# 4. A loop carrying a tensor (scf.for iter_args): row i of y is a writable
#    tensor updated in place by tensor.extract / tensor.insert, y[k] =
#    y[k - 1] * 0.5 + x[k] for k = 1..7 (the loop carries its buffer after
#    bufferization; upstream's scf canonicalization drops that carry).
def _recurrence_expect(a):
    x, y = a[0].astype(np.float64), a[1].astype(np.float64).copy()
    for k in range(1, 8):
        y[:, k] = y[:, k - 1] * 0.5 + x[:, k]
    return {1: y.astype(np.float32)}


CASES.append(Case("tensor_loop_recurrence", "rec", module(f"""
    gpu.func @rec(%x: memref<64x8xf32>, %y: memref<64x8xf32>) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %half = arith.constant 0.5 : f32
      %xs = memref.subview %x[%i, 0] [1, 8] [1, 1] : memref<64x8xf32> to memref<8xf32, {_STR}>
      %ys = memref.subview %y[%i, 0] [1, 8] [1, 1] : memref<64x8xf32> to memref<8xf32, {_STR}>
      %tx = bufferization.to_tensor %xs restrict : memref<8xf32, {_STR}> to tensor<8xf32>
      %ty = bufferization.to_tensor %ys restrict writable : memref<8xf32, {_STR}> to tensor<8xf32>
      %r = scf.for %k = %c1 to %c8 step %c1 iter_args(%a = %ty) -> (tensor<8xf32>) {{
        %km1 = arith.subi %k, %c1 : index
        %p = tensor.extract %a[%km1] : tensor<8xf32>
        %xv = tensor.extract %tx[%k] : tensor<8xf32>
        %h = arith.mulf %p, %half : f32
        %n = arith.addf %h, %xv : f32
        %b = tensor.insert %n into %a[%k] : tensor<8xf32>
        scf.yield %b : tensor<8xf32>
      }}
      bufferization.materialize_in_destination %r in restrict writable %ys
          : (tensor<8xf32>, memref<8xf32, {_STR}>) -> ()
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.integers(-8, 8, (64, 8)).astype(np.float32),
               r.integers(-8, 8, (64, 8)).astype(np.float32)],
    _recurrence_expect))


# 5. vector.transfer_read / transfer_write on tensors (vector's bufferization
#    models): y's row = x's row * 2 + y's row through vector<4xf32>.
CASES.append(Case("tensor_vector_transfer", "vt", module(f"""
    gpu.func @vt(%x: memref<64x4xf32>, %y: memref<64x4xf32>) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %xs = memref.subview %x[%i, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, {_STR}>
      %ys = memref.subview %y[%i, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, {_STR}>
      %tx = bufferization.to_tensor %xs restrict : memref<4xf32, {_STR}> to tensor<4xf32>
      %ty = bufferization.to_tensor %ys restrict writable : memref<4xf32, {_STR}> to tensor<4xf32>
      %p = arith.constant 0.0 : f32
      %two = arith.constant dense<2.0> : vector<4xf32>
      %v = vector.transfer_read %tx[%c0], %p {{in_bounds = [true]}} : tensor<4xf32>, vector<4xf32>
      %u = vector.transfer_read %ty[%c0], %p {{in_bounds = [true]}} : tensor<4xf32>, vector<4xf32>
      %w = vector.fma %v, %two, %u : vector<4xf32>
      %r = vector.transfer_write %w, %ty[%c0] {{in_bounds = [true]}} : vector<4xf32>, tensor<4xf32>
      bufferization.materialize_in_destination %r in restrict writable %ys
          : (tensor<4xf32>, memref<4xf32, {_STR}>) -> ()
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.integers(-8, 8, (64, 4)).astype(np.float32),
               r.integers(-8, 8, (64, 4)).astype(np.float32)],
    lambda a: {1: a[0] * np.float32(2) + a[1]}))
