// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// Work-item and workgroup ids, block_dim from the dispatch packet, kernel
// arguments in MLIR's ROCDL convention (static identity memrefs: one
// pointer each; an f32 scalar in place).

// CHECK-LABEL: amdgcn.kernel @k(arg0: f32, arg1: !amdgcn.ptr<f32>)
// CHECK-SAME: sgpr_setup = ["dispatch_ptr", "kernarg_ptr", "workgroup_id_x"]
// CHECK-DAG: %[[DISPATCH:.*]] = amdgcn.reg : !amdgcn.sgpr<[0:1]>
// CHECK-DAG: %[[KERNARG:.*]] = amdgcn.reg : !amdgcn.sgpr<[2:3]>
// CHECK-DAG: %[[WG:.*]] = amdgcn.reg : !amdgcn.sgpr<4>
// CHECK-DAG: %[[TID:.*]] = amdgcn.reg : !amdgcn.vgpr<0>
// the block size: u16 at byte 4 of the dispatch packet
// CHECK-DAG: %[[W:.*]] = amdgcn.s_load_dword %[[DISPATCH]], %c4_i32
// CHECK-DAG: %[[BD:.*]] = amdgcn.s_and_b32 %[[W]], %c65535_i32
// CHECK-DAG: amdgcn.s_load_dword %[[KERNARG]], %c0_i32
// CHECK-DAG: amdgcn.s_load_dwordx2 %[[KERNARG]], %c8_i32
// uniform: workgroup id * block size on the scalar unit
// CHECK: amdgcn.s_mul_i32 %[[WG]], %[[BD]] : {{.*}} -> !amdgcn.sgpr<?>
// divergent: + thread id on the vector unit
// CHECK: amdgcn.v_add_u32 %{{.*}}, %[[TID]] : {{.*}} -> !amdgcn.vgpr<?>
// CHECK: amdgcn.global_store_dword
// CHECK: amdgcn.s_endpgm
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%s: f32, %y: memref<256xf32>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %o = arith.muli %b, %d : index
      %i = arith.addi %o, %t : index
      memref.store %s, %y[%i] : memref<256xf32>
      gpu.return
    }
  }
}
