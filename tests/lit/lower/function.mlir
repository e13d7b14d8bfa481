// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// A non-kernel gpu.func becomes an amdgcn.func: scalar parameters and
// results in virtual VGPRs, a static memref as its pointer (an SGPR pair);
// gpu.return is amdgcn.return.

// CHECK-LABEL: amdgcn.func @f(%{{.*}}: !amdgcn.sgpr<?x2{{.*}}>, %{{.*}}: !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
// CHECK: amdgcn.global_load_dword
// CHECK: amdgcn.v_add_f32
// CHECK: amdgcn.return %{{.*}} : !amdgcn.vgpr<?>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @f(%p: memref<16xf32>, %x: f32) -> f32 {
      %c0 = arith.constant 0 : index
      %v = memref.load %p[%c0] : memref<16xf32>
      %r = arith.addf %v, %x : f32
      gpu.return %r : f32
    }
  }
}
