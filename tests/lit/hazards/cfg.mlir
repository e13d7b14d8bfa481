// RUN: aster-opt %s -amdgcn-hazards | aster-translate --mlir-to-asm | FileCheck %s
// Across branches: a block start takes the worst case over the tails of all
// its predecessors (loops included).

amdgcn.module @m target("gfx942") {
  // The MFMA ends the entry block; the read opens the next one.
  // CHECK-LABEL: fallthrough:
  amdgcn.kernel @fallthrough() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.reg : !amdgcn.agpr<[0:3]>
    %a0 = amdgcn.reg : !amdgcn.agpr<0>
    // CHECK:      v_mfma_f32_16x16x16_f16 a[0:3]
    // CHECK-NEXT: .LBB0_1:
    // CHECK-NEXT: s_nop 6
    // CHECK-NEXT: v_accvgpr_read_b32 v2, a0
    %m = amdgcn.v_mfma_f32_16x16x16_f16 %v01, %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:3]>) -> !amdgcn.agpr<[0:3]>
    cf.br ^bb1
  ^bb1:
    %r = amdgcn.v_accvgpr_read_b32 %a0 : (!amdgcn.agpr<0>) -> !amdgcn.vgpr<2>
    amdgcn.s_endpgm
  }

  // Two predecessors at different distances: the nearer one decides (from
  // ^bb1 the s_cbranch and one v_mov are between, from ^bb2 the s_cbranch
  // and three; cf.br counts 0, as it may emit nothing).
  // CHECK-LABEL: join:
  amdgcn.kernel @join() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.reg : !amdgcn.agpr<[0:3]>
    %a0 = amdgcn.reg : !amdgcn.agpr<0>
    %c0 = arith.constant 0 : i32
    %m = amdgcn.v_mfma_f32_16x16x16_f16 %v01, %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:3]>) -> !amdgcn.agpr<[0:3]>
    amdgcn.s_cbranch_scc1 ^bb2, ^bb1
  ^bb1:
    %x = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<10>
    cf.br ^bb3
  ^bb2:
    %y = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<11>
    %z = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<12>
    %w = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<13>
    cf.br ^bb3
  ^bb3:
    // 7 needed; from ^bb1: the s_cbranch and one v_mov (2) are between.
    // CHECK:      s_nop 4
    // CHECK-NEXT: v_accvgpr_read_b32 v2, a0
    %r = amdgcn.v_accvgpr_read_b32 %a0 : (!amdgcn.agpr<0>) -> !amdgcn.vgpr<2>
    amdgcn.s_endpgm
  }

  // A loop: the MFMA at the end of the body reaches the read at its top
  // through the back edge.
  // CHECK-LABEL: loop:
  amdgcn.kernel @loop() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.reg : !amdgcn.agpr<[0:3]>
    %a0 = amdgcn.reg : !amdgcn.agpr<0>
    cf.br ^bb1
  ^bb1:
    // CHECK:      .LBB2_1:
    // CHECK-NEXT: s_nop 5
    // CHECK-NEXT: v_accvgpr_read_b32 v2, a0
    // CHECK-NEXT: v_mfma_f32_16x16x16_f16 a[0:3]
    // CHECK-NEXT: s_cbranch_scc1 .LBB2_1
    %r = amdgcn.v_accvgpr_read_b32 %a0 : (!amdgcn.agpr<0>) -> !amdgcn.vgpr<2>
    %m = amdgcn.v_mfma_f32_16x16x16_f16 %v01, %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:3]>) -> !amdgcn.agpr<[0:3]>
    amdgcn.s_cbranch_scc1 ^bb1, ^bb2
  ^bb2:
    // The exit path: the branch counts 1, so 6 more.
    // CHECK:      s_nop 5
    // CHECK-NEXT: v_accvgpr_read_b32 v3, a0
    %r2 = amdgcn.v_accvgpr_read_b32 %a0 : (!amdgcn.agpr<0>) -> !amdgcn.vgpr<3>
    amdgcn.s_endpgm
  }
}
