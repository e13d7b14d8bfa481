// RUN: aster-opt %s -amdgcn-regalloc="max-vgprs=3" | FileCheck %s
// With too few VGPRs, the value whose next use is furthest away is kept in
// an AGPR: written once after its definition, read back before each use.

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: amdgcn.kernel @pressure
  // CHECK-SAME: agpr = 1 : i32
  // CHECK-SAME: spills = 1 : i32, vgpr = 3 : i32
  amdgcn.kernel @pressure() {
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    // CHECK: %[[A:.*]] = amdgcn.v_mov_b32 %{{.*}} : (i32) -> !amdgcn.vgpr<0>
    // CHECK-NEXT: %[[S:.*]] = amdgcn.v_accvgpr_write_b32 %[[A]] : (!amdgcn.vgpr<0>) -> !amdgcn.agpr<0>
    %a = amdgcn.v_mov_b32 %c1 : (i32) -> !amdgcn.vgpr<?>
    %b = amdgcn.v_mov_b32 %c2 : (i32) -> !amdgcn.vgpr<?>
    %c = amdgcn.v_mov_b32 %c3 : (i32) -> !amdgcn.vgpr<?>
    %d = amdgcn.v_mov_b32 %c4 : (i32) -> !amdgcn.vgpr<?>
    %bc = amdgcn.v_add_u32 %b, %c : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %bcd = amdgcn.v_add_u32 %bc, %d : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    // CHECK: %[[R:.*]] = amdgcn.v_accvgpr_read_b32 %[[S]] : (!amdgcn.agpr<0>) -> !amdgcn.vgpr<
    // CHECK-NEXT: amdgcn.v_add_u32 %[[R]],
    %all = amdgcn.v_add_u32 %a, %bcd : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    amdgcn.s_endpgm
  }
}
