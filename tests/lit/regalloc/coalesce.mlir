// RUN: aster-opt %s -amdgcn-regalloc | FileCheck %s
// A move between virtual registers whose source dies there puts both in one
// register and disappears; one whose source stays live is kept.

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: amdgcn.kernel @copies
  amdgcn.kernel @copies() {
    %c1 = arith.constant 1 : i32
    // CHECK: %[[A:.*]] = amdgcn.v_mov_b32 %{{.*}} : (i32) -> !amdgcn.vgpr<0>
    %a = amdgcn.v_mov_b32 %c1 : (i32) -> !amdgcn.vgpr<?>
    // CHECK-NEXT: %[[S:.*]] = amdgcn.s_mov_b32 %{{.*}} : (i32) -> !amdgcn.sgpr<0>
    %s = amdgcn.s_mov_b32 %c1 : (i32) -> !amdgcn.sgpr<?>
    // Both moves vanish: their sources die there.
    %b = amdgcn.v_mov_b32 %a : (!amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %t = amdgcn.s_mov_b32 %s : (!amdgcn.sgpr<?>) -> !amdgcn.sgpr<?>
    // CHECK-NEXT: %[[C:.*]] = amdgcn.v_add_u32 %[[S]], %[[A]] : (!amdgcn.sgpr<0>, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<0>
    %c = amdgcn.v_add_u32 %t, %b : (!amdgcn.sgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    // A move whose source stays live is a real copy.
    // CHECK-NEXT: %[[D:.*]] = amdgcn.v_mov_b32 %[[C]] : (!amdgcn.vgpr<0>) -> !amdgcn.vgpr<1>
    %d = amdgcn.v_mov_b32 %c : (!amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    // CHECK-NEXT: amdgcn.v_add_u32 %[[C]], %[[D]]
    %e = amdgcn.v_add_u32 %c, %d : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    // CHECK-NEXT: amdgcn.s_endpgm
    amdgcn.s_endpgm
  }
}
