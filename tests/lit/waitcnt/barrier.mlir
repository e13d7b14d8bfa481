// RUN: aster-opt %s -amdgcn-waitcnt | aster-translate --mlir-to-asm | FileCheck %s
// s_barrier: LDS accesses in flight complete first (lgkmcnt(0)): writes, so
// that the data one wave wrote is there for the others after the barrier,
// and reads, so that another wave's write after the barrier cannot reach
// them first. Global stores and s_endpgm need no wait.

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: barrier:
  // CHECK:      ds_write_b32 v2, v3
  // CHECK-NEXT: global_store_dword v[0:1], v3, off
  // CHECK-NEXT: s_waitcnt lgkmcnt(0)
  // CHECK-NEXT: s_barrier
  // CHECK-NEXT: ds_read_b32 v4, v2
  // CHECK-NEXT: global_store_dword v[0:1], v3, off
  // CHECK-NEXT: s_waitcnt lgkmcnt(0)
  // CHECK-NEXT: s_barrier
  // CHECK-NEXT: global_store_dword v[0:1], v3, off
  // CHECK-NEXT: s_barrier
  // CHECK-NEXT: s_endpgm
  amdgcn.kernel @barrier() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    %v3 = amdgcn.reg : !amdgcn.vgpr<3>
    amdgcn.ds_write_b32 %v2, %v3 : (!amdgcn.vgpr<2>, !amdgcn.vgpr<3>) -> ()
    amdgcn.global_store_dword %v01, %v3 : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<3>) -> ()
    amdgcn.s_barrier
    %a = amdgcn.ds_read_b32 %v2 : (!amdgcn.vgpr<2>) -> !amdgcn.vgpr<4>
    amdgcn.global_store_dword %v01, %v3 : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<3>) -> ()
    amdgcn.s_barrier
    amdgcn.global_store_dword %v01, %v3 : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<3>) -> ()
    amdgcn.s_barrier
    amdgcn.s_endpgm
  }
}


