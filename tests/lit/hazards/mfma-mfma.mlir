// RUN: aster-opt %s -amdgcn-hazards | aster-translate --mlir-to-asm | FileCheck %s
// MFMA result, then another MFMA reads it (gfx942, CDNA3 ISA guide XDL
// tables): as exactly the same srcC registers none (2 after a 2-pass MFMA);
// overlapping srcC passes + 1; as srcA/B passes + 3.

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: chain:
  amdgcn.kernel @chain() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.reg : !amdgcn.agpr<[0:3]>
    // CHECK:      v_mfma_f32_16x16x16_f16 a[0:3], v[0:1], v[0:1], a[0:3]
    // CHECK-NEXT: v_mfma_f32_16x16x16_f16 a[0:3], v[0:1], v[0:1], a[0:3]
    %m0 = amdgcn.v_mfma_f32_16x16x16_f16 %v01, %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:3]>) -> !amdgcn.agpr<[0:3]>
    %m1 = amdgcn.v_mfma_f32_16x16x16_f16 %v01, %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:3]>) -> !amdgcn.agpr<[0:3]>
    // After a 2-pass MFMA, even the same srcC needs 2.
    // CHECK-NEXT: v_mfma_f32_4x4x4_16b_f16 a[0:3], v[0:1], v[0:1], a[0:3]
    // CHECK-NEXT: s_nop 1
    // CHECK-NEXT: v_mfma_f32_4x4x4_16b_f16 a[0:3], v[0:1], v[0:1], a[0:3]
    %m2 = amdgcn.v_mfma_f32_4x4x4_16b_f16 %v01, %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:3]>) -> !amdgcn.agpr<[0:3]>
    %m3 = amdgcn.v_mfma_f32_4x4x4_16b_f16 %v01, %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:3]>) -> !amdgcn.agpr<[0:3]>
    amdgcn.s_endpgm
  }

  // CHECK-LABEL: overlap_srcc:
  amdgcn.kernel @overlap_srcc() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.reg : !amdgcn.agpr<[0:3]>
    %a2 = amdgcn.reg : !amdgcn.agpr<[2:5]>
    // 16x16x16 f16 is 4 passes: 5.
    // CHECK:      v_mfma_f32_16x16x16_f16 a[0:3]
    // CHECK-NEXT: s_nop 4
    // CHECK-NEXT: v_mfma_f32_16x16x16_f16 a[2:5], v[0:1], v[0:1], a[2:5]
    %m0 = amdgcn.v_mfma_f32_16x16x16_f16 %v01, %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:3]>) -> !amdgcn.agpr<[0:3]>
    %m1 = amdgcn.v_mfma_f32_16x16x16_f16 %v01, %v01, %a2 : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[2:5]>) -> !amdgcn.agpr<[2:5]>
    amdgcn.s_endpgm
  }

  // CHECK-LABEL: src_ab:
  amdgcn.kernel @src_ab() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v = amdgcn.reg : !amdgcn.vgpr<[4:19]>
    %v45 = amdgcn.reg : !amdgcn.vgpr<[4:5]>
    %a = amdgcn.reg : !amdgcn.agpr<[0:15]>
    // 32x32x8 f16 is 8 passes: 11 before srcA reads its result.
    // CHECK:      v_mfma_f32_32x32x8_f16 v[4:19]
    // CHECK-NEXT: v_mov_b32 v30, v0
    // CHECK-NEXT: s_nop 9
    // CHECK-NEXT: v_mfma_f32_32x32x8_f16 a[0:15], v[4:5], v[0:1], a[0:15]
    %m0 = amdgcn.v_mfma_f32_32x32x8_f16 %v01, %v01, %v : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[4:19]>) -> !amdgcn.vgpr<[4:19]>
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    %x = amdgcn.v_mov_b32 %v0 : (!amdgcn.vgpr<0>) -> !amdgcn.vgpr<30>
    %m1 = amdgcn.v_mfma_f32_32x32x8_f16 %v45, %v01, %a : (!amdgcn.vgpr<[4:5]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:15]>) -> !amdgcn.agpr<[0:15]>
    amdgcn.s_endpgm
  }

  // Overwriting an MFMA result (WAW) needs passes + 3; overwriting what it
  // reads as srcC (WAR) needs passes - 1 (4 passes: 3).
  // CHECK-LABEL: overwrite:
  amdgcn.kernel @overwrite() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v = amdgcn.reg : !amdgcn.vgpr<[4:7]>
    %w = amdgcn.reg : !amdgcn.vgpr<[8:11]>
    %c0 = arith.constant 0 : i32
    // CHECK:      v_mfma_f32_16x16x16_f16 v[4:7], v[0:1], v[0:1], v[4:7]
    // CHECK-NEXT: s_nop 6
    // CHECK-NEXT: v_mov_b32 v5, 0
    %m0 = amdgcn.v_mfma_f32_16x16x16_f16 %v01, %v01, %v : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[4:7]>) -> !amdgcn.vgpr<[4:7]>
    %x = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<5>
    // The v_mov of v5 just before is a VALU write of srcC: 2 (s_nop 1).
    // CHECK-NEXT: s_nop 1
    // CHECK-NEXT: v_mfma_f32_16x16x16_f16 v[8:11], v[0:1], v[0:1], v[4:7]
    // CHECK-NEXT: s_nop 2
    // CHECK-NEXT: v_mov_b32 v6, 0
    %m1 = amdgcn.v_mfma_f32_16x16x16_f16 %v01, %v01, %v : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[4:7]>) -> !amdgcn.vgpr<[8:11]>
    %y = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<6>
    amdgcn.s_endpgm
  }

  // f64 MFMA (DGEMM): 16x16x4 result then VALU read 11, memory read 18.
  // CHECK-LABEL: dgemm:
  amdgcn.kernel @dgemm() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v = amdgcn.reg : !amdgcn.vgpr<[4:11]>
    %v45 = amdgcn.reg : !amdgcn.vgpr<[4:5]>
    // CHECK:      v_mfma_f64_16x16x4_f64 v[4:11]
    // CHECK-NEXT: s_nop 10
    // CHECK-NEXT: v_add_f64 v[20:21], v[4:5], v[4:5]
    %m0 = amdgcn.v_mfma_f64_16x16x4_f64 %v01, %v01, %v : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[4:11]>) -> !amdgcn.vgpr<[4:11]>
    %x = amdgcn.v_add_f64 %v45, %v45 : (!amdgcn.vgpr<[4:5]>, !amdgcn.vgpr<[4:5]>) -> !amdgcn.vgpr<[20:21]>
    // CHECK:      v_mfma_f64_16x16x4_f64 v[4:11]
    // CHECK-NEXT: s_nop 15
    // CHECK-NEXT: s_nop 1
    // CHECK-NEXT: global_store_dwordx2 v[0:1], v[4:5], off
    %m1 = amdgcn.v_mfma_f64_16x16x4_f64 %v01, %v01, %v : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[4:11]>) -> !amdgcn.vgpr<[4:11]>
    amdgcn.global_store_dwordx2 %v01, %v45 : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[4:5]>) -> ()
    amdgcn.s_endpgm
  }
}
