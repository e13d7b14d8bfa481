// RUN: aster-opt %s -amdgcn-hazards | aster-translate --mlir-to-asm | FileCheck %s
// RUN: aster-opt %s -amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// VALU writes then dependent reads (gfx942): VGPR/AGPR then MFMA 2, exec
// then MFMA 4 (CDNA3 ISA guide); SGPR then VMEM 5, SGPR then v_readlane /
// v_writelane lane select 4, vcc then v_div_fmas 4 (gfx9 "manually inserted
// wait states" table); a store of more than 64 bits, then a VALU overwrites
// its data 2.

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: to_mfma:
  amdgcn.kernel @to_mfma() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    %a = amdgcn.reg : !amdgcn.agpr<[0:3]>
    %c1 = arith.constant 1 : i32
    // CHECK:      v_accvgpr_write_b32 a1, v2
    // CHECK-NEXT: s_nop 1
    // CHECK-NEXT: v_mfma_f32_16x16x16_f16 a[0:3], v[0:1], v[0:1], a[0:3]
    %w = amdgcn.v_accvgpr_write_b32 %v2 : (!amdgcn.vgpr<2>) -> !amdgcn.agpr<1>
    %m0 = amdgcn.v_mfma_f32_16x16x16_f16 %v01, %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:3]>) -> !amdgcn.agpr<[0:3]>
    // One instruction in between: s_nop 0.
    // CHECK:      v_mov_b32 v1, 1
    // CHECK-NEXT: s_mov_b32 s0, 1
    // CHECK-NEXT: s_nop 0
    // CHECK-NEXT: v_mfma_f32_16x16x16_f16 a[0:3], v[0:1], v[0:1], a[0:3]
    %x = amdgcn.v_mov_b32 %c1 : (i32) -> !amdgcn.vgpr<1>
    %s = amdgcn.s_mov_b32 %c1 : (i32) -> !amdgcn.sgpr<0>
    %m1 = amdgcn.v_mfma_f32_16x16x16_f16 %v01, %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:3]>) -> !amdgcn.agpr<[0:3]>
    // CHECK:      v_cmpx_eq_u32 vcc, v0, v2
    // CHECK-NEXT: s_nop 3
    // CHECK-NEXT: v_mfma_f32_16x16x16_f16
    %c = amdgcn.v_cmpx_eq_u32 %v0, %v2 : (!amdgcn.vgpr<0>, !amdgcn.vgpr<2>) -> !amdgcn.vcc
    %m2 = amdgcn.v_mfma_f32_16x16x16_f16 %v01, %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:3]>) -> !amdgcn.agpr<[0:3]>
    amdgcn.s_endpgm
  }

  // CHECK-LABEL: sgpr:
  amdgcn.kernel @sgpr() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    %s45 = amdgcn.reg : !amdgcn.sgpr<[4:5]>
    %s6 = amdgcn.reg : !amdgcn.sgpr<6>
    %c0 = arith.constant 0 : i32
    // CHECK:      v_readlane_b32 s5, v0, 0
    // CHECK-NEXT: s_nop 4
    // CHECK-NEXT: global_load_dword v3, v2, s[4:5]
    %r = amdgcn.v_readlane_b32 %v0, %c0 : (!amdgcn.vgpr<0>, i32) -> !amdgcn.sgpr<5>
    %l = amdgcn.global_load_dword %v2, %s45 : (!amdgcn.vgpr<2>, !amdgcn.sgpr<[4:5]>) -> !amdgcn.vgpr<3>
    // CHECK:      v_readlane_b32 s6, v0, 0
    // CHECK-NEXT: s_nop 3
    // CHECK-NEXT: v_readlane_b32 s7, v2, s6
    %r2 = amdgcn.v_readlane_b32 %v0, %c0 : (!amdgcn.vgpr<0>, i32) -> !amdgcn.sgpr<6>
    %r3 = amdgcn.v_readlane_b32 %v2, %s6 : (!amdgcn.vgpr<2>, !amdgcn.sgpr<6>) -> !amdgcn.sgpr<7>
    // The lane select of v_writelane, after one other instruction: 3 more.
    // CHECK:      v_readlane_b32 s6, v0, 0
    // CHECK-NEXT: v_mov_b32 v9, 0
    // CHECK-NEXT: s_nop 2
    // CHECK-NEXT: v_writelane_b32 v8, 0, s6
    %r4 = amdgcn.v_readlane_b32 %v0, %c0 : (!amdgcn.vgpr<0>, i32) -> !amdgcn.sgpr<6>
    %m = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<9>
    %v8 = amdgcn.reg : !amdgcn.vgpr<8>
    %w = amdgcn.v_writelane_b32 %c0, %s6, %v8 : (i32, !amdgcn.sgpr<6>, !amdgcn.vgpr<8>) -> !amdgcn.vgpr<8>
    // Any other VALU read of s6: 2 (gfx940 and later).
    // CHECK:      v_readlane_b32 s6, v0, 0
    // CHECK-NEXT: s_nop 1
    // CHECK-NEXT: v_add_u32 v10, s6, v0
    %r5 = amdgcn.v_readlane_b32 %v0, %c0 : (!amdgcn.vgpr<0>, i32) -> !amdgcn.sgpr<6>
    %a = amdgcn.v_add_u32 %s6, %v0 : (!amdgcn.sgpr<6>, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<10>
    amdgcn.s_endpgm
  }

  // gfx940 and later: VALU writes vcc, then v_cndmask reads it: 2; exec then
  // v_readfirstlane: 4; a VGPR then v_readlane reads it: 1.
  // CHECK-LABEL: forwarding:
  amdgcn.kernel @forwarding() {
    %v1 = amdgcn.reg : !amdgcn.vgpr<1>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    %vcc = amdgcn.reg : !amdgcn.vcc
    %c0 = arith.constant 0 : i32
    // CHECK:      v_cmp_eq_u32 vcc, v1, v2
    // CHECK-NEXT: s_nop 1
    // CHECK-NEXT: v_cndmask_b32 v3, v1, v2, vcc
    %c = amdgcn.v_cmp_eq_u32 %v1, %v2 : (!amdgcn.vgpr<1>, !amdgcn.vgpr<2>) -> !amdgcn.vcc
    %m = amdgcn.v_cndmask_b32 %v1, %v2, %vcc : (!amdgcn.vgpr<1>, !amdgcn.vgpr<2>, !amdgcn.vcc) -> !amdgcn.vgpr<3>
    // CHECK:      v_cmpx_eq_u32 vcc, v1, v2
    // CHECK-NEXT: s_nop 3
    // CHECK-NEXT: v_readfirstlane_b32 s0, v1
    %x = amdgcn.v_cmpx_eq_u32 %v1, %v2 : (!amdgcn.vgpr<1>, !amdgcn.vgpr<2>) -> !amdgcn.vcc
    %r = amdgcn.v_readfirstlane_b32 %v1 : (!amdgcn.vgpr<1>) -> !amdgcn.sgpr<0>
    // CHECK:      v_mov_b32 v4, 0
    // CHECK-NEXT: s_nop 0
    // CHECK-NEXT: v_readlane_b32 s1, v4, 0
    %y = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<4>
    %v4 = amdgcn.reg : !amdgcn.vgpr<4>
    %l = amdgcn.v_readlane_b32 %v4, %c0 : (!amdgcn.vgpr<4>, i32) -> !amdgcn.sgpr<1>
    amdgcn.s_endpgm
  }

  // CHECK-LABEL: div_fmas:
  amdgcn.kernel @div_fmas() {
    %v1 = amdgcn.reg : !amdgcn.vgpr<1>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    // CHECK:      v_cmp_eq_u32 vcc, v1, v2
    // CHECK-NEXT: s_nop 3
    // CHECK-NEXT: v_div_fmas_f32 v3, v1, v1, v1
    %c = amdgcn.v_cmp_eq_u32 %v1, %v2 : (!amdgcn.vgpr<1>, !amdgcn.vgpr<2>) -> !amdgcn.vcc
    %d = amdgcn.v_div_fmas_f32 %v1, %v1, %v1 : (!amdgcn.vgpr<1>, !amdgcn.vgpr<1>, !amdgcn.vgpr<1>) -> !amdgcn.vgpr<3>
    amdgcn.s_endpgm
  }

  // CHECK-LABEL: wide_store:
  amdgcn.kernel @wide_store() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %d = amdgcn.reg : !amdgcn.vgpr<[4:7]>
    %d2 = amdgcn.reg : !amdgcn.vgpr<[4:5]>
    %c0 = arith.constant 0 : i32
    // CHECK:      global_store_dwordx4 v[0:1], v[4:7], off
    // CHECK-NEXT: s_nop 1
    // CHECK-NEXT: v_mov_b32 v7, 0
    amdgcn.global_store_dwordx4 %v01, %d : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[4:7]>) -> ()
    %x = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<7>
    // 64 bits of data: no hazard.
    // CHECK:      global_store_dwordx2 v[0:1], v[4:5], off
    // CHECK-NEXT: v_mov_b32 v4, 0
    amdgcn.global_store_dwordx2 %v01, %d2 : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[4:5]>) -> ()
    %y = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<4>
    amdgcn.s_endpgm
  }

  // SALU writes m0, then an LDS add-TID read or an LDS DMA load: 1.
  // CHECK-LABEL: m0:
  amdgcn.kernel @m0() attributes {lds = 1024 : i32} {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %c0 = arith.constant 0 : i32
    // CHECK:      s_mov_b32 m0, 0
    // CHECK-NEXT: s_nop 0
    // CHECK-NEXT: ds_read_addtid_b32 v2
    %m = amdgcn.s_mov_b32 %c0 : (i32) -> !amdgcn.m0
    %r = amdgcn.ds_read_addtid_b32 : () -> !amdgcn.vgpr<2>
    // CHECK:      s_mov_b32 m0, 0
    // CHECK-NEXT: s_nop 0
    // CHECK-NEXT: global_load_lds_dword v[0:1], off
    %m2 = amdgcn.s_mov_b32 %c0 : (i32) -> !amdgcn.m0
    amdgcn.global_load_lds_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> ()
    amdgcn.s_endpgm
  }
}
