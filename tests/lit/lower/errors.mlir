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
// gpu.all_reduce reduces 32- and 64-bit values (not i16).
// CHECK: errors.mlir:[[@LINE+7]]:14: error: 'gpu.all_reduce' op cannot be lowered to amdgcn: only reductions of 32- and 64-bit values are lowered
module attributes {gpu.container_module} {
  gpu.module @m2 {
    gpu.func @k(%x: memref<64xi32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xi32>
      %h = arith.trunci %v : i32 to i16
      %r16 = gpu.all_reduce add %h uniform {} : (i16) -> i16
      %r = arith.extsi %r16 : i16 to i32
      memref.store %r, %x[%i] : memref<64xi32>
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
