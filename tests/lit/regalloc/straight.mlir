// RUN: aster-opt %s -amdgcn-regalloc | FileCheck %s
// Straight-line code on virtual registers uses exactly MaxLive registers:
// a register is reused as soon as its value's last use has been read.

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: amdgcn.kernel @chain
  // CHECK-SAME: allocated
  // CHECK-SAME: regalloc = {agpr = 0 : i32, agpr_maxlive = 0 : i32, copies = 0 : i32, scratch_bytes = 0 : i32, scratch_spills = 0 : i32, sgpr = 0 : i32, sgpr_maxlive = 0 : i32, spill_nops = 0 : i32, spills = 0 : i32, vgpr = 3 : i32, vgpr_maxlive = 3 : i32}
  amdgcn.kernel @chain() {
    %c1 = arith.constant 1 : i32
    // CHECK: amdgcn.v_mov_b32 %{{.*}} : (i32) -> !amdgcn.vgpr<0>
    %a = amdgcn.v_mov_b32 %c1 : (i32) -> !amdgcn.vgpr<?>
    // CHECK: amdgcn.v_mov_b32 %{{.*}} : (i32) -> !amdgcn.vgpr<1>
    %b = amdgcn.v_mov_b32 %c1 : (i32) -> !amdgcn.vgpr<?>
    // CHECK: amdgcn.v_add_u32 {{.*}} : (!amdgcn.vgpr<0>, !amdgcn.vgpr<1>) -> !amdgcn.vgpr<2>
    %c = amdgcn.v_add_u32 %a, %b : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    // %a dies here: its register is the result's.
    // CHECK: amdgcn.v_add_u32 {{.*}} : (!amdgcn.vgpr<0>, !amdgcn.vgpr<2>) -> !amdgcn.vgpr<0>
    %d = amdgcn.v_add_u32 %a, %c : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    // CHECK: amdgcn.v_add_u32 {{.*}} : (!amdgcn.vgpr<1>, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<0>
    %e = amdgcn.v_add_u32 %b, %d : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    // CHECK: amdgcn.v_add_u32 {{.*}} : (!amdgcn.vgpr<0>, !amdgcn.vgpr<2>) -> !amdgcn.vgpr<0>
    %f = amdgcn.v_add_u32 %e, %c : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    // CHECK: amdgcn.v_mov_b32 {{.*}} : (!amdgcn.vgpr<0>) -> !amdgcn.vgpr<0>
    %g = amdgcn.v_mov_b32 %f : (!amdgcn.vgpr<?>) -> !amdgcn.vgpr<0>
    amdgcn.s_endpgm
  }

  // Scalar values: SGPRs from s0; a dead result still needs a register at
  // its write but frees it right after.
  // CHECK-LABEL: amdgcn.kernel @scalar
  // CHECK-SAME: sgpr = 2 : i32, sgpr_maxlive = 2 : i32
  amdgcn.kernel @scalar() {
    %c1 = arith.constant 1 : i32
    // CHECK: amdgcn.s_mov_b32 %{{.*}} : (i32) -> !amdgcn.sgpr<0>
    %a = amdgcn.s_mov_b32 %c1 : (i32) -> !amdgcn.sgpr<?>
    // CHECK: amdgcn.s_mov_b32 %{{.*}} : (i32) -> !amdgcn.sgpr<1>
    %dead = amdgcn.s_mov_b32 %c1 : (i32) -> !amdgcn.sgpr<?>
    // CHECK: amdgcn.s_add_u32 {{.*}} -> !amdgcn.sgpr<1>
    %b = amdgcn.s_add_u32 %a, %c1 : (!amdgcn.sgpr<?>, i32) -> !amdgcn.sgpr<?>
    // CHECK: amdgcn.s_add_u32 {{.*}} : (!amdgcn.sgpr<0>, !amdgcn.sgpr<1>) -> !amdgcn.sgpr<0>
    %c = amdgcn.s_add_u32 %a, %b : (!amdgcn.sgpr<?>, !amdgcn.sgpr<?>) -> !amdgcn.sgpr<?>
    amdgcn.s_endpgm
  }
}
