// RUN: aster-opt %s -amdgcn-regalloc | FileCheck %s
// RUN: aster-opt %s -amdgcn-regalloc | aster-translate --mlir-to-asm | FileCheck %s --check-prefix=ASM
// RUN: aster-opt %s -amdgcn-regalloc="max-vgprs=2" | aster-translate --mlir-to-asm | FileCheck %s --check-prefix=SWAP
// Values carried around loops as block arguments: an argument takes the
// register of the value passed to it when it can (no move), and moves are
// inserted on the edge (split when critical) when it cannot.

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: amdgcn.kernel @sum
  // CHECK-SAME: copies = 0
  // ASM-LABEL: sum:
  amdgcn.kernel @sum() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c10 = arith.constant 10 : i32
    // CHECK: amdgcn.s_mov_b32 %{{.*}} : (i32) -> !amdgcn.sgpr<0>
    %i0 = amdgcn.s_mov_b32 %c0 : (i32) -> !amdgcn.sgpr<?>
    // CHECK: amdgcn.v_mov_b32 %{{.*}} : (i32) -> !amdgcn.vgpr<0>
    %acc0 = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<?>
    // CHECK: cf.br ^bb1(%{{.*}}, %{{.*}} : !amdgcn.sgpr<0>, !amdgcn.vgpr<0>)
    cf.br ^loop(%i0, %acc0 : !amdgcn.sgpr<?>, !amdgcn.vgpr<?>)
  // CHECK: ^bb1(%{{.*}}: !amdgcn.sgpr<0>, %{{.*}}: !amdgcn.vgpr<0>):
  ^loop(%i: !amdgcn.sgpr<?>, %acc: !amdgcn.vgpr<?>):
    // CHECK: amdgcn.v_add_u32 {{.*}} : (!amdgcn.sgpr<0>, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<0>
    %acc1 = amdgcn.v_add_u32 %i, %acc : (!amdgcn.sgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    // CHECK: amdgcn.s_add_u32 {{.*}} : (!amdgcn.sgpr<0>, i32) -> !amdgcn.sgpr<0>
    %i1 = amdgcn.s_add_u32 %i, %c1 : (!amdgcn.sgpr<?>, i32) -> !amdgcn.sgpr<?>
    amdgcn.s_cmp_lt_u32 %i1, %c10 : (!amdgcn.sgpr<?>, i32) -> ()
    // CHECK: amdgcn.s_cbranch_scc1 ^bb1(%{{.*}}, %{{.*}} : !amdgcn.sgpr<0>, !amdgcn.vgpr<0>), ^bb2
    amdgcn.s_cbranch_scc1 ^loop(%i1, %acc1 : !amdgcn.sgpr<?>, !amdgcn.vgpr<?>), ^exit
  ^exit:
    %p = amdgcn.reg : !amdgcn.vgpr<[2:3]>
    amdgcn.global_store_dword %p, %acc1 : (!amdgcn.vgpr<[2:3]>, !amdgcn.vgpr<?>) -> ()
    amdgcn.s_endpgm
  }
  // ASM:      s_mov_b32 s0, 0
  // ASM-NEXT: v_mov_b32 v0, 0
  // ASM-NEXT: .LBB0_1:
  // ASM-NEXT: v_add_u32 v0, s0, v0
  // ASM-NEXT: s_add_u32 s0, s0, 1
  // ASM-NEXT: s_cmp_lt_u32 s0, 10
  // ASM-NEXT: s_cbranch_scc1 .LBB0_1
  // ASM-NEXT: .LBB0_2:
  // ASM-NEXT: global_store_dword v[2:3], v0, off

  // Two values exchanged every iteration: the back edge is critical (the
  // branch also exits), so it is split and the exchange goes through a free
  // register there.
  // CHECK-LABEL: amdgcn.kernel @swap
  // CHECK-SAME: copies = 3
  // ASM-LABEL: swap:
  amdgcn.kernel @swap() {
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %a0 = amdgcn.v_mov_b32 %c1 : (i32) -> !amdgcn.vgpr<?>
    %b0 = amdgcn.v_mov_b32 %c2 : (i32) -> !amdgcn.vgpr<?>
    cf.br ^loop(%a0, %b0 : !amdgcn.vgpr<?>, !amdgcn.vgpr<?>)
  ^loop(%a: !amdgcn.vgpr<?>, %b: !amdgcn.vgpr<?>):
    %vcc = amdgcn.v_cmp_lt_u32 %a, %b : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vcc
    amdgcn.s_cbranch_vccnz ^loop(%b, %a : !amdgcn.vgpr<?>, !amdgcn.vgpr<?>), ^exit
  ^exit:
    %p = amdgcn.reg : !amdgcn.vgpr<[4:5]>
    amdgcn.global_store_dword %p, %a : (!amdgcn.vgpr<[4:5]>, !amdgcn.vgpr<?>) -> ()
    amdgcn.s_endpgm
  }
  // ASM:      .LBB1_1:
  // ASM-NEXT: v_cmp_lt_u32 vcc, v0, v1
  // ASM-NEXT: s_cbranch_vccnz .LBB1_3
  // ASM-NEXT: .LBB1_2:
  // ASM-NEXT: global_store_dword v[4:5], v0, off
  // ASM-NEXT: s_endpgm
  // ASM-NEXT: .LBB1_3:
  // ASM-NEXT: v_mov_b32 v2, v0
  // ASM-NEXT: v_mov_b32 v0, v1
  // ASM-NEXT: v_mov_b32 v1, v2
  // ASM-NEXT: s_branch .LBB1_1
  // With no third VGPR the exchange is one v_swap_b32.
  // SWAP-LABEL: swap:
  // SWAP:      .LBB1_3:
  // SWAP-NEXT: v_swap_b32 v0, v1
  // SWAP-NEXT: s_branch .LBB1_1
}
