// RUN: aster-opt %s -amdgcn-waitcnt | aster-translate --mlir-to-asm | FileCheck %s
// Loads straight to LDS (global_load_lds_dword) count on vmcnt: an LDS
// access or s_barrier after them waits for them (vmcnt, in order with the
// other VMEM accesses).
// CHECK-LABEL: lds_dma:
// CHECK:      global_load_lds_dword v[0:1], off
// CHECK-NEXT: global_load_dword v4, v[0:1], off
// CHECK-NEXT: s_waitcnt vmcnt(1)
// CHECK-NEXT: ds_read_b32 v5, v2
// CHECK-NEXT: global_load_lds_dword v[0:1], off
// CHECK-NEXT: s_waitcnt vmcnt(0) lgkmcnt(0)
// CHECK-NEXT: s_barrier
amdgcn.module @m target("gfx942") {
  amdgcn.kernel @lds_dma() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    amdgcn.global_load_lds_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> ()
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<4>
    %b = amdgcn.ds_read_b32 %v2 : (!amdgcn.vgpr<2>) -> !amdgcn.vgpr<5>
    amdgcn.global_load_lds_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> ()
    amdgcn.s_barrier
    amdgcn.s_endpgm
  }
}
