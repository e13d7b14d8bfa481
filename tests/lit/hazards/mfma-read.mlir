// RUN: aster-opt %s -amdgcn-hazards | aster-translate --mlir-to-asm | FileCheck %s
// RUN: aster-opt %s -amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// An MFMA result read by a VALU (v_accvgpr_read_b32 too) or a memory
// instruction needs passes + 3 wait states on gfx942 (CDNA3 ISA guide, XDL
// write VGPR then VALU / VMEM read): 2-pass 5, 4-pass 7, 8-pass 11,
// 16-pass 19. Instructions and s_nops already in between count.

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: read_8pass:
  amdgcn.kernel @read_8pass() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.reg : !amdgcn.agpr<[0:15]>
    %a0 = amdgcn.reg : !amdgcn.agpr<0>
    // CHECK:      v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[0:1], a[0:15]
    // CHECK-NEXT: s_nop 10
    // CHECK-NEXT: v_accvgpr_read_b32 v2, a0
    %m = amdgcn.v_mfma_f32_32x32x8_f16 %v01, %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:15]>) -> !amdgcn.agpr<[0:15]>
    %r = amdgcn.v_accvgpr_read_b32 %a0 : (!amdgcn.agpr<0>) -> !amdgcn.vgpr<2>
    amdgcn.s_endpgm
  }

  // Independent instructions and existing s_nops count: 3 + 4 + 1 = 8 of
  // the 11, so s_nop 2 makes the rest.
  // CHECK-LABEL: counted:
  amdgcn.kernel @counted() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.reg : !amdgcn.agpr<[0:15]>
    %a5 = amdgcn.reg : !amdgcn.agpr<5>
    %c1 = arith.constant 1 : i32
    // CHECK:      v_mfma_f32_32x32x8_f16
    // CHECK-NEXT: v_mov_b32 v10, 1
    // CHECK-NEXT: v_mov_b32 v11, 1
    // CHECK-NEXT: s_mov_b32 s0, 1
    // CHECK-NEXT: s_nop 3
    // CHECK-NEXT: s_nop 0
    // CHECK-NEXT: s_nop 2
    // CHECK-NEXT: v_accvgpr_read_b32 v2, a5
    %m = amdgcn.v_mfma_f32_32x32x8_f16 %v01, %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:15]>) -> !amdgcn.agpr<[0:15]>
    %x = amdgcn.v_mov_b32 %c1 : (i32) -> !amdgcn.vgpr<10>
    %y = amdgcn.v_mov_b32 %c1 : (i32) -> !amdgcn.vgpr<11>
    %s = amdgcn.s_mov_b32 %c1 : (i32) -> !amdgcn.sgpr<0>
    amdgcn.s_nop {imm = 3 : i32}
    amdgcn.s_nop {imm = 0 : i32}
    %r = amdgcn.v_accvgpr_read_b32 %a5 : (!amdgcn.agpr<5>) -> !amdgcn.vgpr<2>
    amdgcn.s_endpgm
  }

  // Enough distance already: nothing is inserted.
  // CHECK-LABEL: enough:
  amdgcn.kernel @enough() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.reg : !amdgcn.agpr<[0:15]>
    %a15 = amdgcn.reg : !amdgcn.agpr<15>
    // CHECK:      v_mfma_f32_32x32x8_f16
    // CHECK-NEXT: s_nop 7
    // CHECK-NEXT: s_nop 2
    // CHECK-NEXT: v_accvgpr_read_b32 v2, a15
    %m = amdgcn.v_mfma_f32_32x32x8_f16 %v01, %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:15]>) -> !amdgcn.agpr<[0:15]>
    amdgcn.s_nop {imm = 7 : i32}
    amdgcn.s_nop {imm = 2 : i32}
    %r = amdgcn.v_accvgpr_read_b32 %a15 : (!amdgcn.agpr<15>) -> !amdgcn.vgpr<2>
    amdgcn.s_endpgm
  }

  // A register the MFMA did not write: no wait.
  // CHECK-LABEL: unrelated:
  amdgcn.kernel @unrelated() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.reg : !amdgcn.agpr<[0:15]>
    %a16 = amdgcn.reg : !amdgcn.agpr<16>
    // CHECK:      v_mfma_f32_32x32x8_f16
    // CHECK-NEXT: v_accvgpr_read_b32 v2, a16
    %m = amdgcn.v_mfma_f32_32x32x8_f16 %v01, %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:15]>) -> !amdgcn.agpr<[0:15]>
    %r = amdgcn.v_accvgpr_read_b32 %a16 : (!amdgcn.agpr<16>) -> !amdgcn.vgpr<2>
    amdgcn.s_endpgm
  }

  // Passes from the shape: 16x16x16 f16 4 passes (7), 4x4x4_16b 2 passes
  // (5), 32x32x2 f32 16 passes (19), 16x16x4 f32 8 passes (11).
  // CHECK-LABEL: passes:
  amdgcn.kernel @passes() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    %v4 = amdgcn.reg : !amdgcn.vgpr<[4:7]>
    %v8 = amdgcn.reg : !amdgcn.vgpr<[8:23]>
    %v4_0 = amdgcn.reg : !amdgcn.vgpr<4>
    %v8_0 = amdgcn.reg : !amdgcn.vgpr<8>
    // CHECK:      v_mfma_f32_16x16x16_f16 v[4:7]
    // CHECK-NEXT: s_nop 6
    // CHECK-NEXT: v_add_u32 v30, v4, v4
    %m1 = amdgcn.v_mfma_f32_16x16x16_f16 %v01, %v01, %v4 : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[4:7]>) -> !amdgcn.vgpr<[4:7]>
    %x1 = amdgcn.v_add_u32 %v4_0, %v4_0 : (!amdgcn.vgpr<4>, !amdgcn.vgpr<4>) -> !amdgcn.vgpr<30>
    // CHECK:      v_mfma_f32_4x4x4_16b_f16 v[4:7]
    // CHECK-NEXT: s_nop 4
    // CHECK-NEXT: v_add_u32 v30, v4, v4
    %m2 = amdgcn.v_mfma_f32_4x4x4_16b_f16 %v01, %v01, %v4 : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[4:7]>) -> !amdgcn.vgpr<[4:7]>
    %x2 = amdgcn.v_add_u32 %v4_0, %v4_0 : (!amdgcn.vgpr<4>, !amdgcn.vgpr<4>) -> !amdgcn.vgpr<30>
    // CHECK:      v_mfma_f32_32x32x2_f32 v[8:23]
    // CHECK-NEXT: s_nop 15
    // CHECK-NEXT: s_nop 2
    // CHECK-NEXT: v_add_u32 v30, v8, v8
    %m3 = amdgcn.v_mfma_f32_32x32x2_f32 %v0, %v0, %v8 : (!amdgcn.vgpr<0>, !amdgcn.vgpr<0>, !amdgcn.vgpr<[8:23]>) -> !amdgcn.vgpr<[8:23]>
    %x3 = amdgcn.v_add_u32 %v8_0, %v8_0 : (!amdgcn.vgpr<8>, !amdgcn.vgpr<8>) -> !amdgcn.vgpr<30>
    // CHECK:      v_mfma_f32_16x16x4_f32 v[4:7]
    // CHECK-NEXT: s_nop 10
    // CHECK-NEXT: v_add_u32 v30, v4, v4
    %m4 = amdgcn.v_mfma_f32_16x16x4_f32 %v0, %v0, %v4 : (!amdgcn.vgpr<0>, !amdgcn.vgpr<0>, !amdgcn.vgpr<[4:7]>) -> !amdgcn.vgpr<[4:7]>
    %x4 = amdgcn.v_add_u32 %v4_0, %v4_0 : (!amdgcn.vgpr<4>, !amdgcn.vgpr<4>) -> !amdgcn.vgpr<30>
    amdgcn.s_endpgm
  }

  // Memory reads: store data (global, scratch with AGPR data) and LDS write
  // data, right after the MFMA: 11 each (8 passes).
  // CHECK-LABEL: stores:
  amdgcn.kernel @stores() attributes {private_segment = 64 : i32} {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    %a = amdgcn.reg : !amdgcn.agpr<[0:15]>
    %a03 = amdgcn.reg : !amdgcn.agpr<[0:3]>
    %v = amdgcn.reg : !amdgcn.vgpr<[16:31]>
    %v16 = amdgcn.reg : !amdgcn.vgpr<[16:19]>
    %v20 = amdgcn.reg : !amdgcn.vgpr<20>
    %s0 = amdgcn.reg : !amdgcn.sgpr<0>
    // CHECK:      v_mfma_f32_32x32x8_f16 v[16:31]
    // CHECK-NEXT: s_nop 10
    // CHECK-NEXT: global_store_dwordx4 v[0:1], v[16:19], off
    %m1 = amdgcn.v_mfma_f32_32x32x8_f16 %v01, %v01, %v : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[16:31]>) -> !amdgcn.vgpr<[16:31]>
    amdgcn.global_store_dwordx4 %v01, %v16 : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[16:19]>) -> ()
    // CHECK:      v_mfma_f32_32x32x8_f16 a[0:15]
    // CHECK-NEXT: s_nop 10
    // CHECK-NEXT: scratch_store_dwordx4 off, a[0:3], s0
    %m2 = amdgcn.v_mfma_f32_32x32x8_f16 %v01, %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:15]>) -> !amdgcn.agpr<[0:15]>
    amdgcn.scratch_store_dwordx4 %a03, %s0 : (!amdgcn.agpr<[0:3]>, !amdgcn.sgpr<0>) -> ()
    // CHECK:      v_mfma_f32_32x32x8_f16 v[16:31]
    // CHECK-NEXT: s_nop 10
    // CHECK-NEXT: ds_write_b32 v2, v20
    %m3 = amdgcn.v_mfma_f32_32x32x8_f16 %v01, %v01, %v : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[16:31]>) -> !amdgcn.vgpr<[16:31]>
    amdgcn.ds_write_b32 %v2, %v20 : (!amdgcn.vgpr<2>, !amdgcn.vgpr<20>) -> ()
    amdgcn.s_endpgm
  }
}
