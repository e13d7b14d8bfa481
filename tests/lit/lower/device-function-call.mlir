// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-inline --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// A func.func with a body in the gpu.module, called by a kernel with
// func.call: lowered to an amdgcn.func (before the kernel, though defined
// after it), the call an amdgcn.call passing the memref argument's pointer
// (the kernel argument's SGPR pair) and the value in a VGPR.

// CHECK: amdgcn.func @g(%{{.*}}: !amdgcn.sgpr<?x2{{.*}}>, %{{.*}}: !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
// CHECK: amdgcn.v_mul_f32
// CHECK: amdgcn.return
// CHECK-LABEL: amdgcn.kernel @k
// CHECK: %[[P:.*]] = amdgcn.s_load_dwordx2
// CHECK: amdgcn.call @g(%[[P]], %{{.*}}) : (!amdgcn.sgpr<?x2, align 2>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xf32>
      %r = func.call @g(%x, %v) : (memref<64xf32>, f32) -> f32
      memref.store %r, %x[%i] : memref<64xf32>
      gpu.return
    }
    func.func @g(%p: memref<64xf32>, %v: f32) -> f32 {
      %c1 = arith.constant 1 : index
      %w = memref.load %p[%c1] : memref<64xf32>
      %r = arith.mulf %v, %w : f32
      return %r : f32
    }
  }
}
