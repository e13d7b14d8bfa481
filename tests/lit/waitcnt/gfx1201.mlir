// RUN: aster-opt %s -amdgcn-waitcnt | aster-translate --mlir-to-asm | FileCheck %s
// gfx1201: separate counters, one s_wait_<counter> per counter (loads
// loadcnt, stores storecnt, LDS dscnt, SMEM kmcnt, which returns out of
// order).

amdgcn.module @m1201 target("gfx1201") {
  // CHECK-LABEL: split:
  // CHECK:      s_load_b32 s4, s[0:1], 0x0
  // CHECK-NEXT: global_load_b32 v4, v[0:1], off
  // CHECK-NEXT: global_store_b32 v[0:1], v2, off
  // CHECK-NEXT: global_load_b32 v5, v[0:1], off
  // CHECK-NEXT: ds_load_b32 v6, v2
  // CHECK-NEXT: s_wait_loadcnt 0x1
  // CHECK-NEXT: v_mov_b32 v7, v4
  // CHECK-NEXT: s_wait_dscnt 0x0
  // CHECK-NEXT: s_wait_kmcnt 0x0
  // CHECK-NEXT: v_add_nc_u32 v8, s4, v6
  amdgcn.kernel @split() {
    %s01 = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    %c0 = arith.constant 0 : i32
    %q = amdgcn.s_load_b32 %s01, %c0 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<4>
    %a = amdgcn.global_load_b32 %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<4>
    amdgcn.global_store_b32 %v01, %v2 : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<2>) -> ()
    %b = amdgcn.global_load_b32 %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<5>
    %c = amdgcn.ds_load_b32 %v2 : (!amdgcn.vgpr<2>) -> !amdgcn.vgpr<6>
    %x = amdgcn.v_mov_b32 %a : (!amdgcn.vgpr<4>) -> !amdgcn.vgpr<7>
    %y = amdgcn.v_add_nc_u32 %q, %c : (!amdgcn.sgpr<4>, !amdgcn.vgpr<6>) -> !amdgcn.vgpr<8>
    amdgcn.s_endpgm
  }
}
