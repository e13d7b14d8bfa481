// RUN: aster-opt %s -amdgcn-regalloc | FileCheck %s
// A tied result is written into its source's register: it takes that
// register when the source dies at the op, and otherwise the source is first
// copied into the result's register.

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: amdgcn.kernel @dies
  // CHECK-SAME: copies = 0
  amdgcn.kernel @dies() {
    %c1 = arith.constant 1 : i32
    // CHECK: amdgcn.s_mov_b32 %{{.*}} : (i32) -> !amdgcn.sgpr<0>
    %a = amdgcn.s_mov_b32 %c1 : (i32) -> !amdgcn.sgpr<?>
    // CHECK: amdgcn.s_mov_b32 %{{.*}} : (i32) -> !amdgcn.sgpr<1>
    %b = amdgcn.s_mov_b32 %c1 : (i32) -> !amdgcn.sgpr<?>
    // CHECK: amdgcn.s_addk_i32 %{{.*}} {imm = 5 : i32} : (!amdgcn.sgpr<1>) -> !amdgcn.sgpr<1>
    %c = amdgcn.s_addk_i32 %b {imm = 5 : i32} : (!amdgcn.sgpr<?>) -> !amdgcn.sgpr<?>
    %d = amdgcn.s_add_u32 %a, %c : (!amdgcn.sgpr<?>, !amdgcn.sgpr<?>) -> !amdgcn.sgpr<?>
    amdgcn.s_endpgm
  }

  // CHECK-LABEL: amdgcn.kernel @stays_live
  // CHECK-SAME: copies = 1
  amdgcn.kernel @stays_live() {
    %c1 = arith.constant 1 : i32
    // CHECK: %[[B:.*]] = amdgcn.s_mov_b32 %{{.*}} : (i32) -> !amdgcn.sgpr<0>
    %b = amdgcn.s_mov_b32 %c1 : (i32) -> !amdgcn.sgpr<?>
    // CHECK: %[[R:.*]] = amdgcn.reg : !amdgcn.sgpr<0>
    // CHECK: amdgcn.s_mov_b32 %[[R]] : (!amdgcn.sgpr<0>) -> !amdgcn.sgpr<1>
    // CHECK: %[[T:.*]] = amdgcn.reg : !amdgcn.sgpr<1>
    // CHECK: amdgcn.s_addk_i32 %[[T]] {imm = 5 : i32} : (!amdgcn.sgpr<1>) -> !amdgcn.sgpr<1>
    %c = amdgcn.s_addk_i32 %b {imm = 5 : i32} : (!amdgcn.sgpr<?>) -> !amdgcn.sgpr<?>
    // CHECK: amdgcn.s_add_u32 %[[B]], {{.*}} : (!amdgcn.sgpr<0>, !amdgcn.sgpr<1>)
    %d = amdgcn.s_add_u32 %b, %c : (!amdgcn.sgpr<?>, !amdgcn.sgpr<?>) -> !amdgcn.sgpr<?>
    amdgcn.s_endpgm
  }

  // A pinned source: the result takes the pinned register when it is free
  // afterwards.
  // CHECK-LABEL: amdgcn.kernel @pinned_source
  amdgcn.kernel @pinned_source() {
    %s5 = amdgcn.reg : !amdgcn.sgpr<5>
    // CHECK: amdgcn.s_mulk_i32 %{{.*}} {imm = 3 : i32} : (!amdgcn.sgpr<5>) -> !amdgcn.sgpr<5>
    %c = amdgcn.s_mulk_i32 %s5 {imm = 3 : i32} : (!amdgcn.sgpr<5>) -> !amdgcn.sgpr<?>
    %d = amdgcn.s_add_u32 %c, %c : (!amdgcn.sgpr<?>, !amdgcn.sgpr<?>) -> !amdgcn.sgpr<?>
    amdgcn.s_endpgm
  }
}
