// RUN: aster-opt %s -amdgcn-regalloc | FileCheck %s
// Pinned registers are kept and block their register while they are live:
// from the kernel start (v0 holds the work-item id) or their write to their
// last read, and at every write.

amdgcn.module @m target("gfx942") {
  // v[4:5] is read but never written: busy from the start (MaxLive counts it).
  // CHECK-LABEL: amdgcn.kernel @around_pinned
  // CHECK-SAME: vgpr = 6 : i32, vgpr_maxlive = 4 : i32
  amdgcn.kernel @around_pinned() {
    %c1 = arith.constant 1 : i32
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    // v0 is read below, so it is live from the start: the first value gets v1.
    // CHECK: amdgcn.v_mov_b32 %{{.*}} : (i32) -> !amdgcn.vgpr<1>
    %a = amdgcn.v_mov_b32 %c1 : (i32) -> !amdgcn.vgpr<?>
    // CHECK: amdgcn.v_add_u32 {{.*}} : (!amdgcn.vgpr<0>, !amdgcn.vgpr<1>) -> !amdgcn.vgpr<2>
    %w = amdgcn.v_add_u32 %v0, %a : (!amdgcn.vgpr<0>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<2>
    // v0 is dead now (never read again): it can be reused.
    // CHECK: amdgcn.v_add_u32 {{.*}} : (!amdgcn.vgpr<1>, !amdgcn.vgpr<2>) -> !amdgcn.vgpr<0>
    %b = amdgcn.v_add_u32 %a, %w : (!amdgcn.vgpr<?>, !amdgcn.vgpr<2>) -> !amdgcn.vgpr<?>
    // CHECK: amdgcn.v_add_u32 {{.*}} : (!amdgcn.vgpr<0>, !amdgcn.vgpr<1>) -> !amdgcn.vgpr<0>
    %c = amdgcn.v_add_u32 %b, %a : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %p = amdgcn.reg : !amdgcn.vgpr<[4:5]>
    amdgcn.global_store_dword %p, %c : (!amdgcn.vgpr<[4:5]>, !amdgcn.vgpr<?>) -> ()
    amdgcn.s_endpgm
  }

  // A value live across a write of a pinned register does not take it, even
  // if the pinned result is never read.
  // CHECK-LABEL: amdgcn.kernel @across_write
  amdgcn.kernel @across_write() {
    %c1 = arith.constant 1 : i32
    // CHECK: amdgcn.v_mov_b32 %{{.*}} : (i32) -> !amdgcn.vgpr<1>
    %a = amdgcn.v_mov_b32 %c1 : (i32) -> !amdgcn.vgpr<?>
    // CHECK: amdgcn.v_mov_b32 %{{.*}} : (i32) -> !amdgcn.vgpr<0>
    %x = amdgcn.v_mov_b32 %c1 : (i32) -> !amdgcn.vgpr<0>
    // CHECK: amdgcn.v_add_u32 {{.*}} : (!amdgcn.vgpr<1>, !amdgcn.vgpr<1>) -> !amdgcn.vgpr<0>
    %b = amdgcn.v_add_u32 %a, %a : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %p = amdgcn.reg : !amdgcn.vgpr<[4:5]>
    amdgcn.global_store_dword %p, %b : (!amdgcn.vgpr<[4:5]>, !amdgcn.vgpr<?>) -> ()
    amdgcn.s_endpgm
  }

  // Kernel-argument SGPRs read through amdgcn.reg stay untouched until read.
  // CHECK-LABEL: amdgcn.kernel @kernarg
  amdgcn.kernel @kernarg(out: !amdgcn.ptr<i32>) {
    %c1 = arith.constant 1 : i32
    %c0 = arith.constant 0 : i32
    // CHECK: amdgcn.s_mov_b32 %{{.*}} : (i32) -> !amdgcn.sgpr<2>
    %a = amdgcn.s_mov_b32 %c1 : (i32) -> !amdgcn.sgpr<?>
    %kp = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    // s[0:1] is read for the last time here, so the result may reuse it.
    // CHECK: amdgcn.s_load_dwordx2 {{.*}} : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<[0:1]>
    %ptr = amdgcn.s_load_dwordx2 %kp, %c0 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<?x2>
    amdgcn.s_waitcnt {lgkmcnt = 0 : i32}
    %b = amdgcn.s_add_u32 %a, %c1 : (!amdgcn.sgpr<?>, i32) -> !amdgcn.sgpr<?>
    %v = amdgcn.v_mov_b32 %b : (!amdgcn.sgpr<?>) -> !amdgcn.vgpr<?>
    %z = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<?>
    amdgcn.global_store_dword %z, %v, %ptr : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.sgpr<?x2>) -> ()
    amdgcn.s_endpgm
  }
}
