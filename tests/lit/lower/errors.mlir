// RUN: not aster-opt %s --amdgcn-lower --split-input-file 2>&1 | FileCheck %s
// An op amdgcn-lower cannot lower is an error at the op, naming it.

// CHECK: errors.mlir:[[@LINE+7]]:12: error: 'arith.remf' op cannot be lowered to amdgcn
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xf32>
      %w = memref.load %x[%i] : memref<64xf32>
      %r = arith.remf %v, %w : f32
      memref.store %r, %x[%i] : memref<64xf32>
      gpu.return
    }
  }
}

// -----
// Unstructured control flow: the error is at the first branch.
// CHECK: errors.mlir:[[@LINE+8]]:7: error: 'cf.cond_br' op cannot be lowered to amdgcn: unstructured control flow
module attributes {gpu.container_module} {
  gpu.module @m2 {
    gpu.func @k(%x: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%i] : memref<64xf32>
      %p = arith.cmpi eq, %i, %c0 : index
      cf.cond_br %p, ^bb1, ^bb2
    ^bb1:
      memref.store %v, %x[%c0] : memref<64xf32>
      cf.br ^bb2
    ^bb2:
      gpu.return
    }
  }
}

// -----
// i64 division is not lowered yet (the other i64 arithmetic is): an error
// at the op, while the casts and the multiply around it lower.
// CHECK: errors.mlir:[[@LINE+7]]:12: error: 'arith.divsi' op cannot be lowered to amdgcn: i64 division and remainder are not lowered yet
module attributes {gpu.container_module} {
  gpu.module @m64 {
    gpu.func @k(%x: memref<64xi32>) kernel {
      %i = gpu.thread_id x
      %a = arith.index_cast %i : index to i64
      %m = arith.muli %a, %a : i64
      %r = arith.divsi %m, %a : i64
      %t = arith.trunci %r : i64 to i32
      memref.store %t, %x[%i] : memref<64xi32>
      gpu.return
    }
  }
}
