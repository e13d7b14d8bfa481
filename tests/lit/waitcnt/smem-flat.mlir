// RUN: aster-opt %s -amdgcn-waitcnt | aster-translate --mlir-to-asm | FileCheck %s
// SMEM returns out of order: its results need lgkmcnt(0). LDS reads before
// it still count in order (SMEM after an LDS read does not make the read
// wait for more). FLAT counts on vmcnt and lgkmcnt and may reach LDS: its
// results need vmcnt(0) and lgkmcnt(0); it does not count as an in-order
// access for the loads before it.

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: smem:
  // CHECK:      s_load_dwordx2 s[2:3], s[0:1], 0x0
  // CHECK-NEXT: s_load_dword s4, s[0:1], 0x8
  // CHECK-NEXT: s_waitcnt lgkmcnt(0)
  // CHECK-NEXT: s_add_u32 s5, s2, 1
  amdgcn.kernel @smem() {
    %s01 = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %p = amdgcn.s_load_dwordx2 %s01, %c0 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<[2:3]>
    %q = amdgcn.s_load_dword %s01, %c8 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<4>
    %s2 = amdgcn.reg : !amdgcn.sgpr<2>
    %x = amdgcn.s_add_u32 %s2, %c1 : (!amdgcn.sgpr<2>, i32) -> !amdgcn.sgpr<5>
    amdgcn.s_endpgm
  }

  // CHECK-LABEL: lds_then_smem:
  // CHECK:      ds_read_b32 v4, v2
  // CHECK-NEXT: ds_read_b32 v5, v2 offset:4
  // CHECK-NEXT: s_load_dword s4, s[0:1], 0x8
  // CHECK-NEXT: s_waitcnt lgkmcnt(1)
  // CHECK-NEXT: v_mov_b32 v6, v4
  // CHECK-NEXT: s_waitcnt lgkmcnt(0)
  // CHECK-NEXT: v_mov_b32 v7, s4
  amdgcn.kernel @lds_then_smem() {
    %s01 = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    %c8 = arith.constant 8 : i32
    %a = amdgcn.ds_read_b32 %v2 : (!amdgcn.vgpr<2>) -> !amdgcn.vgpr<4>
    %b = amdgcn.ds_read_b32 %v2 {offset = 4 : i32} : (!amdgcn.vgpr<2>) -> !amdgcn.vgpr<5>
    %q = amdgcn.s_load_dword %s01, %c8 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<4>
    %x = amdgcn.v_mov_b32 %a : (!amdgcn.vgpr<4>) -> !amdgcn.vgpr<6>
    %y = amdgcn.v_mov_b32 %q : (!amdgcn.sgpr<4>) -> !amdgcn.vgpr<7>
    amdgcn.s_endpgm
  }

  // CHECK-LABEL: flat:
  // CHECK:      global_load_dword v4, v[0:1], off
  // CHECK-NEXT: flat_load_dword v5, v[0:1]
  // CHECK-NEXT: global_load_dword v6, v[0:1], off
  // CHECK-NEXT: s_waitcnt vmcnt(1)
  // CHECK-NEXT: v_mov_b32 v7, v4
  // CHECK-NEXT: s_waitcnt vmcnt(0) lgkmcnt(0)
  // CHECK-NEXT: v_mov_b32 v8, v5
  amdgcn.kernel @flat() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<4>
    %b = amdgcn.flat_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<5>
    %c = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<6>
    %x = amdgcn.v_mov_b32 %a : (!amdgcn.vgpr<4>) -> !amdgcn.vgpr<7>
    %y = amdgcn.v_mov_b32 %b : (!amdgcn.vgpr<5>) -> !amdgcn.vgpr<8>
    amdgcn.s_endpgm
  }

  // An s_load into m0, read implicitly by an LDS instruction.
  // CHECK-LABEL: implicit_m0:
  // CHECK:      s_load_dword m0, s[0:1], 0x0
  // CHECK-NEXT: s_waitcnt lgkmcnt(0)
  // CHECK-NEXT: ds_read_addtid_b32 v4
  amdgcn.kernel @implicit_m0() {
    %s01 = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    %c0 = arith.constant 0 : i32
    %m = amdgcn.s_load_dword %s01, %c0 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.m0
    %a = amdgcn.ds_read_addtid_b32 : () -> !amdgcn.vgpr<4>
    amdgcn.s_endpgm
  }
}
