// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// A loop carrying a tensor updated in place, materialized back into the
// buffer it came from: after bufferization and the scf canonicalization the
// copy of the loop's result is a linalg.copy of y's row onto itself, which
// LowerTensors.cpp erases (LLVM's -O3 drops that load / store pair too). One
// loop is left: two loads, one store, one backward branch.

// CHECK-LABEL: amdgcn.kernel @rec
// CHECK: amdgcn.global_load_dword
// CHECK: amdgcn.global_load_dword
// CHECK: amdgcn.global_store_dword
// CHECK: amdgcn.s_cbranch_scc1
// CHECK-NOT: amdgcn.global_load_dword
// CHECK-NOT: amdgcn.global_store_dword
// CHECK-NOT: amdgcn.s_cbranch_scc1
// CHECK: amdgcn.s_endpgm
#str = strided<[1], offset: ?>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @rec(%x: memref<64x8xf32>, %y: memref<64x8xf32>) kernel {
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %half = arith.constant 0.5 : f32
      %xs = memref.subview %x[%i, 0] [1, 8] [1, 1] : memref<64x8xf32> to memref<8xf32, #str>
      %ys = memref.subview %y[%i, 0] [1, 8] [1, 1] : memref<64x8xf32> to memref<8xf32, #str>
      %tx = bufferization.to_tensor %xs restrict : memref<8xf32, #str> to tensor<8xf32>
      %ty = bufferization.to_tensor %ys restrict writable : memref<8xf32, #str> to tensor<8xf32>
      %r = scf.for %k = %c1 to %c8 step %c1 iter_args(%a = %ty) -> (tensor<8xf32>) {
        %km1 = arith.subi %k, %c1 : index
        %p = tensor.extract %a[%km1] : tensor<8xf32>
        %xv = tensor.extract %tx[%k] : tensor<8xf32>
        %h = arith.mulf %p, %half : f32
        %n = arith.addf %h, %xv : f32
        %b = tensor.insert %n into %a[%k] : tensor<8xf32>
        scf.yield %b : tensor<8xf32>
      }
      bufferization.materialize_in_destination %r in restrict writable %ys
          : (tensor<8xf32>, memref<8xf32, #str>) -> ()
      gpu.return
    }
  }
}
