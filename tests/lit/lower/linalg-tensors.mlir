// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// linalg on tensors in a kernel: upstream's one-shot bufferization inside
// amdgcn-lower. The to_tensor of x's row is read in place (global loads);
// the tensor.empty becomes a private alloca (16 bytes of scratch: the
// generic's stores go to scratch), copied out to y's row by a linalg.copy's
// loop (scratch loads, global stores). No tensor or bufferization op is left.

// CHECK-LABEL: amdgcn.kernel @rows
// CHECK-SAME: private_segment = 16
// CHECK-NOT: tensor
// CHECK-NOT: bufferization
// CHECK: amdgcn.global_load_dword
// CHECK: amdgcn.v_mul_f32
// CHECK: amdgcn.scratch_store_dword_nosaddr
// CHECK: amdgcn.s_cbranch_scc1
// CHECK: amdgcn.scratch_load_dword_nosaddr
// CHECK: amdgcn.global_store_dword
// CHECK: amdgcn.s_endpgm
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @rows(%x: memref<64x4xf32>, %y: memref<64x4xf32>, %a: f32) kernel {
      %i = gpu.thread_id x
      %xs = memref.subview %x[%i, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, strided<[1], offset: ?>>
      %ys = memref.subview %y[%i, 0] [1, 4] [1, 1] : memref<64x4xf32> to memref<4xf32, strided<[1], offset: ?>>
      %t = bufferization.to_tensor %xs restrict : memref<4xf32, strided<[1], offset: ?>> to tensor<4xf32>
      %e = tensor.empty() : tensor<4xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                           iterator_types = ["parallel"]}
          ins(%t : tensor<4xf32>) outs(%e : tensor<4xf32>) {
        ^bb0(%v: f32, %o: f32):
          %m = arith.mulf %v, %a : f32
          linalg.yield %m : f32
      } -> tensor<4xf32>
      bufferization.materialize_in_destination %r in restrict writable %ys
          : (tensor<4xf32>, memref<4xf32, strided<[1], offset: ?>>) -> ()
      gpu.return
    }
  }
}
