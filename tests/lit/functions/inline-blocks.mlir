// RUN: aster-opt %s -amdgcn-inline | FileCheck %s
// RUN: aster-opt %s -amdgcn-inline -amdgcn-regalloc | aster-translate --mlir-to-asm | FileCheck %s --check-prefix=ASM
// A body with a loop (several blocks) goes between the two halves of the
// caller's block; its return becomes a branch to the rest, and the returned
// value is used there directly (one return). Called twice: two copies of
// the loop. With two returns, the rest takes the result as a block argument.

amdgcn.module @m target("gfx942") {
  amdgcn.func @sum_to(%n: !amdgcn.sgpr<?>, %x: !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %i0 = amdgcn.s_mov_b32 %c0 : (i32) -> !amdgcn.sgpr<?>
    cf.br ^loop(%i0, %x : !amdgcn.sgpr<?>, !amdgcn.vgpr<?>)
  ^loop(%i: !amdgcn.sgpr<?>, %acc: !amdgcn.vgpr<?>):
    %acc1 = amdgcn.v_add_u32 %i, %acc : (!amdgcn.sgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %i1 = amdgcn.s_add_u32 %i, %c1 : (!amdgcn.sgpr<?>, i32) -> !amdgcn.sgpr<?>
    amdgcn.s_cmp_lt_u32 %i1, %n : (!amdgcn.sgpr<?>, !amdgcn.sgpr<?>) -> ()
    amdgcn.s_cbranch_scc1 ^loop(%i1, %acc1 : !amdgcn.sgpr<?>, !amdgcn.vgpr<?>), ^exit
  ^exit:
    amdgcn.return %acc1 : !amdgcn.vgpr<?>
  }
  // Two returns: the larger of a and b (unsigned).
  amdgcn.func @pick(%a: !amdgcn.vgpr<?>, %b: !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?> {
    %vcc = amdgcn.v_cmp_gt_u32 %a, %b : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vcc
    amdgcn.s_cbranch_vccnz ^ra, ^rb
  ^rb:
    amdgcn.return %b : !amdgcn.vgpr<?>
  ^ra:
    amdgcn.return %a : !amdgcn.vgpr<?>
  }
  // CHECK-LABEL: amdgcn.kernel @k
  // ASM-LABEL: k:
  amdgcn.kernel @k() {
    %c5 = arith.constant 5 : i32
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    %n = amdgcn.s_mov_b32 %c5 : (i32) -> !amdgcn.sgpr<?>
    // CHECK: %[[X:.*]] = amdgcn.v_mov_b32
    %x = amdgcn.v_mov_b32 %v0 : (!amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    // CHECK-NEXT: cf.br ^[[E1:bb[0-9]+]]
    // CHECK: ^[[E1]]:
    // CHECK: amdgcn.s_mov_b32
    // CHECK-NEXT: cf.br ^[[L1:bb[0-9]+]]({{.*}}, %[[X]] :
    // CHECK: ^[[L1]]({{.*}}):
    // CHECK: %[[Y:.*]] = amdgcn.v_add_u32
    // CHECK: amdgcn.s_cbranch_scc1 ^[[L1]]({{.*}}), ^[[X1:bb[0-9]+]]
    // CHECK: ^[[X1]]:
    // CHECK-NEXT: cf.br ^[[R1:bb[0-9]+]]{{$}}
    // CHECK: ^[[R1]]:
    %y = amdgcn.call @sum_to(%n, %x) : (!amdgcn.sgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    // CHECK-NEXT: cf.br ^[[E2:bb[0-9]+]]
    // CHECK: ^[[E2]]:
    // CHECK: cf.br ^[[L2:bb[0-9]+]]({{.*}}, %[[Y]] :
    // CHECK: amdgcn.s_cbranch_scc1 ^[[L2]]
    %z = amdgcn.call @sum_to(%n, %y) : (!amdgcn.sgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    // CHECK: cf.br ^[[T:bb[0-9]+]]{{$}}
    // CHECK: ^[[T]]:
    // CHECK: amdgcn.s_cbranch_vccnz ^[[A:bb[0-9]+]], ^[[B:bb[0-9]+]]
    // CHECK: ^[[B]]:
    // CHECK-NEXT: cf.br ^[[J:bb[0-9]+]](%[[X]] : !amdgcn.vgpr<?>)
    // CHECK: ^[[A]]:
    // CHECK-NEXT: cf.br ^[[J]](%{{.*}} : !amdgcn.vgpr<?>)
    // CHECK: ^[[J]](%[[W:.*]]: !amdgcn.vgpr<?>):
    // CHECK: amdgcn.global_store_dword %{{.*}}, %[[W]]
    %w = amdgcn.call @pick(%z, %x) : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %p = amdgcn.reg : !amdgcn.vgpr<[2:3]>
    amdgcn.global_store_dword %p, %w : (!amdgcn.vgpr<[2:3]>, !amdgcn.vgpr<?>) -> ()
    amdgcn.s_endpgm
  }
  // Two loops, each branching back to its own label; the branches into the
  // body and out of it fall through (no s_branch).
  // ASM-NOT: s_branch
  // ASM: v_add_u32
  // ASM: s_cbranch_scc1 [[LOOP1:\.LBB[0-9_]+]]
  // ASM-NOT: s_branch
  // ASM: v_add_u32
  // ASM: s_cbranch_scc1 [[LOOP2:\.LBB[0-9_]+]]
  // ASM: s_cbranch_vccnz
  // ASM: s_branch
  // ASM: global_store_dword
  // ASM-NEXT: s_endpgm
}
