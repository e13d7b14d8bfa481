// RUN: aster-opt %s -amdgcn-regalloc | FileCheck %s
// Ranges take the lowest free start that satisfies the target's alignment
// (gfx942: VGPR/AGPR pairs even, SGPR pairs 2, quads and more 4) and the
// type's own `align`.

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: amdgcn.kernel @ranges
  amdgcn.kernel @ranges() {
    %c0 = arith.constant 0 : i32
    // CHECK: amdgcn.s_mov_b32 %{{.*}} : (i32) -> !amdgcn.sgpr<0>
    %s = amdgcn.s_mov_b32 %c0 : (i32) -> !amdgcn.sgpr<?>
    // CHECK: amdgcn.s_mov_b64 %{{.*}} : (i32) -> !amdgcn.sgpr<[2:3]>
    %p = amdgcn.s_mov_b64 %c0 : (i32) -> !amdgcn.sgpr<?x2>
    // CHECK: amdgcn.s_load_dwordx4 {{.*}} -> !amdgcn.sgpr<[4:7]>
    %q = amdgcn.s_load_dwordx4 %p, %c0 : (!amdgcn.sgpr<?x2>, i32) -> !amdgcn.sgpr<?x4>
    // CHECK: amdgcn.s_load_dwordx2 {{.*}} -> !amdgcn.sgpr<[8:9]>
    %r = amdgcn.s_load_dwordx2 %p, %c0 : (!amdgcn.sgpr<?x2>, i32) -> !amdgcn.sgpr<?x2, align 8>
    amdgcn.s_waitcnt {lgkmcnt = 0 : i32}
    // CHECK: amdgcn.v_mov_b32 %{{.*}} : (i32) -> !amdgcn.vgpr<0>
    %v = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<?>
    // CHECK: amdgcn.v_mov_b64 %{{.*}} : (!amdgcn.sgpr<[8:9]>) -> !amdgcn.vgpr<[2:3]>
    %a = amdgcn.v_mov_b64 %r : (!amdgcn.sgpr<?x2, align 8>) -> !amdgcn.vgpr<?x2>
    // CHECK: amdgcn.global_load_dwordx4 {{.*}} -> !amdgcn.vgpr<[4:7]>
    %d = amdgcn.global_load_dwordx4 %a : (!amdgcn.vgpr<?x2>) -> !amdgcn.vgpr<?x4>
    amdgcn.s_waitcnt {vmcnt = 0 : i32}
    %x = amdgcn.v_add_u32 %s, %v : (!amdgcn.sgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    amdgcn.global_store_dword %a, %x : (!amdgcn.vgpr<?x2>, !amdgcn.vgpr<?>) -> ()
    amdgcn.global_store_dwordx4 %a, %d : (!amdgcn.vgpr<?x2>, !amdgcn.vgpr<?x4>) -> ()
    amdgcn.s_endpgm
  }
}
