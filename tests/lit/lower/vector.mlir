// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// vector ops: a 4-float load is one global_load_dwordx4 split into its
// words (amdgcn.part), elementwise arith per element, the broadcast scalar
// reused, the store one global_store_dwordx4 of the words (amdgcn.concat);
// LDS at a 16-byte-aligned offset uses ds_write_b128 / ds_read_b128; a
// reduction is a left fold.

// CHECK-LABEL: amdgcn.kernel @v
// CHECK: %[[X:.*]] = amdgcn.global_load_dwordx4 {{.*}} -> !amdgcn.vgpr<?x4>
// CHECK: amdgcn.part %[[X]][3] : !amdgcn.vgpr<?x4> -> !amdgcn.vgpr<?>
// CHECK-COUNT-4: amdgcn.v_mul_f32
// CHECK: %[[D:.*]] = amdgcn.concat {{.*}} -> !amdgcn.vgpr<?x4>
// CHECK: amdgcn.global_store_dwordx4 %{{.*}}, %[[D]]
// CHECK: amdgcn.ds_write_b128
// CHECK: amdgcn.ds_read_b128
// CHECK-COUNT-3: amdgcn.v_add_f32
// CHECK: amdgcn.s_endpgm
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @v(%s: f32, %x: memref<256xf32>, %y: memref<64xf32>)
        workgroup(%t: memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %i = arith.muli %tid, %c4 : index
      %v = vector.load %x[%i] : memref<256xf32>, vector<4xf32>
      %b = vector.broadcast %s : f32 to vector<4xf32>
      %p = arith.mulf %v, %b : vector<4xf32>
      vector.store %p, %x[%i] : memref<256xf32>, vector<4xf32>
      vector.store %p, %t[%i] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %u = vector.load %t[%i] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %r = vector.reduction <add>, %u : vector<4xf32> into f32
      memref.store %r, %y[%tid] : memref<64xf32>
      gpu.return
    }
  }
}
