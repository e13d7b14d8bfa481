// RUN: not aster-opt %s --amdgcn-lower 2>&1 | FileCheck %s
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
