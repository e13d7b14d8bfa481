// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// A static subview folds into immediates: element (i, j) of the window at
// [4, 8] with column step 2 is byte 4 * (136 + 32 i + 2 j) of the source,
// the 544-byte offset in the instruction's offset field. A dynamic subview
// reads its offsets from the arguments and the stride from the descriptor
// (s_load_dword of the descriptor's stride, s_mul_i32 uniform). expand_shape
// and collapse_shape only change the strides (no instruction of their own).

// CHECK-LABEL: amdgcn.kernel @static
// CHECK: amdgcn.global_load_dword {{.*}}offset = 544
// CHECK: amdgcn.global_store_dword
// CHECK-LABEL: amdgcn.kernel @dynamic
// CHECK: amdgcn.s_mul_i32
// CHECK: amdgcn.global_load_dword
// CHECK-LABEL: amdgcn.kernel @reshape
// CHECK-NOT: amdgcn.s_mul_i32
// CHECK: amdgcn.global_load_dword
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @static(%x: memref<16x32xf32>, %y: memref<8x8xf32>) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %w = memref.subview %x[4, 8][8, 8][1, 2]
          : memref<16x32xf32> to memref<8x8xf32, strided<[32, 2], offset: 136>>
      %v = memref.load %w[%c0, %c0] : memref<8x8xf32, strided<[32, 2], offset: 136>>
      memref.store %v, %y[%c0, %i] : memref<8x8xf32>
      gpu.return
    }
    gpu.func @dynamic(%x: memref<?x?xf32>, %y: memref<?xf32>, %o: index) kernel {
      %i = gpu.thread_id x
      %w = memref.subview %x[%o, %o][4, 4][1, 1]
          : memref<?x?xf32> to memref<4x4xf32, strided<[?, 1], offset: ?>>
      %v = memref.load %w[%i, %i] : memref<4x4xf32, strided<[?, 1], offset: ?>>
      memref.store %v, %y[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @reshape(%x: memref<4x8x8xf32>, %y: memref<256xf32>) kernel {
      %i = gpu.thread_id x
      %c = memref.collapse_shape %x [[0, 1], [2]] : memref<4x8x8xf32> into memref<32x8xf32>
      %e = memref.expand_shape %y [[0, 1]] output_shape [32, 8] : memref<256xf32> into memref<32x8xf32>
      %c1 = arith.constant 1 : index
      %v = memref.load %c[%i, %c1] : memref<32x8xf32>
      memref.store %v, %e[%i, %c1] : memref<32x8xf32>
      gpu.return
    }
  }
}
