// RUN: aster-opt %s -amdgcn-schedule | FileCheck %s
// Nothing crosses a fence (s_waitcnt, s_barrier, s_nop, amdgcn.sched_barrier);
// a region after sched_barrier {freeze} keeps its order; memory order per
// address space: a store passes no earlier load or store of its space, a
// load no earlier store, while LDS and global accesses pass each other.

amdgcn.module @m target("gfx942") {
  // The loads after each fence stay after it, their readers after them.
  // CHECK-LABEL: amdgcn.kernel @fences
  // CHECK:      amdgcn.v_add_u32
  // CHECK-NEXT: amdgcn.s_waitcnt
  // CHECK-NEXT: amdgcn.global_load_dword
  // CHECK-NEXT: amdgcn.v_add_u32
  // CHECK-NEXT: amdgcn.s_barrier
  // CHECK-NEXT: amdgcn.global_load_dword
  // CHECK-NEXT: amdgcn.v_add_u32
  // CHECK-NEXT: amdgcn.s_nop
  // CHECK-NEXT: amdgcn.global_load_dword
  // CHECK-NEXT: amdgcn.v_add_u32
  // CHECK-NEXT: amdgcn.sched_barrier
  // CHECK-NEXT: amdgcn.global_load_dword
  // CHECK-NEXT: amdgcn.s_endpgm
  amdgcn.kernel @fences() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    %c1 = arith.constant 1 : i32
    %x0 = amdgcn.v_add_u32 %v2, %c1 : (!amdgcn.vgpr<2>, i32) -> !amdgcn.vgpr<?>
    amdgcn.s_waitcnt {vmcnt = 0 : i32}
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<?>
    %x1 = amdgcn.v_add_u32 %v2, %c1 : (!amdgcn.vgpr<2>, i32) -> !amdgcn.vgpr<?>
    amdgcn.s_barrier
    %b = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<?>
    %x2 = amdgcn.v_add_u32 %v2, %c1 : (!amdgcn.vgpr<2>, i32) -> !amdgcn.vgpr<?>
    amdgcn.s_nop {imm = 0 : i32}
    %c = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<?>
    %x3 = amdgcn.v_add_u32 %v2, %c1 : (!amdgcn.vgpr<2>, i32) -> !amdgcn.vgpr<?>
    amdgcn.sched_barrier
    %d = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<?>
    amdgcn.s_endpgm
  }

  // Frozen: the VALU op stays before the load it would otherwise follow.
  // CHECK-LABEL: amdgcn.kernel @frozen
  // CHECK:      amdgcn.sched_barrier {freeze}
  // CHECK-NEXT: amdgcn.v_add_u32
  // CHECK-NEXT: amdgcn.global_load_dword
  // CHECK-NEXT: amdgcn.sched_barrier
  // CHECK-NEXT: amdgcn.global_load_dword
  // CHECK-NEXT: amdgcn.v_add_u32
  amdgcn.kernel @frozen() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    %c1 = arith.constant 1 : i32
    amdgcn.sched_barrier {freeze}
    %x0 = amdgcn.v_add_u32 %v2, %c1 : (!amdgcn.vgpr<2>, i32) -> !amdgcn.vgpr<?>
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<?>
    amdgcn.sched_barrier
    %x1 = amdgcn.v_add_u32 %v2, %c1 : (!amdgcn.vgpr<2>, i32) -> !amdgcn.vgpr<?>
    %b = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<?>
    amdgcn.s_endpgm
  }

  // Memory: the global load (250 cycles) goes first among what it may
  // pass: it passes the LDS store (another space) but not the global store
  // before it; the LDS load stays after the LDS store.
  // CHECK-LABEL: amdgcn.kernel @memory
  // CHECK:      amdgcn.global_store_dword %{{.*}}, %{{.*}} : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<3>)
  // CHECK-NEXT: amdgcn.global_load_dword
  // CHECK-NEXT: amdgcn.ds_write_b32
  // CHECK-NEXT: amdgcn.ds_read_b32
  // CHECK-NEXT: amdgcn.global_store_dword
  amdgcn.kernel @memory() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    %v3 = amdgcn.reg : !amdgcn.vgpr<3>
    amdgcn.ds_write_b32 %v2, %v3 : (!amdgcn.vgpr<2>, !amdgcn.vgpr<3>) -> ()
    amdgcn.global_store_dword %v01, %v3 : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<3>) -> ()
    %g = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<?>
    %l = amdgcn.ds_read_b32 %v2 : (!amdgcn.vgpr<2>) -> !amdgcn.vgpr<?>
    amdgcn.global_store_dword %v01, %g : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<?>) -> ()
    amdgcn.s_endpgm
  }

  // Hardware registers: v5 is read, then overwritten, then read again: the
  // overwrite stays between its readers (write after read, read after write).
  // CHECK-LABEL: amdgcn.kernel @pinned
  // CHECK:      amdgcn.global_load_dword
  // CHECK-NEXT: amdgcn.v_add_u32 %{{.*}}, %{{.*}} : (!amdgcn.vgpr<5>
  // CHECK-NEXT: amdgcn.v_mov_b32 {{.*}} -> !amdgcn.vgpr<5>
  // CHECK-NEXT: amdgcn.v_add_u32 %{{.*}}, %{{.*}} : (!amdgcn.vgpr<5>
  amdgcn.kernel @pinned() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v5 = amdgcn.reg : !amdgcn.vgpr<5>
    %c1 = arith.constant 1 : i32
    %x = amdgcn.v_add_u32 %v5, %c1 : (!amdgcn.vgpr<5>, i32) -> !amdgcn.vgpr<?>
    %w = amdgcn.v_mov_b32 %c1 : (i32) -> !amdgcn.vgpr<5>
    %y = amdgcn.v_add_u32 %v5, %c1 : (!amdgcn.vgpr<5>, i32) -> !amdgcn.vgpr<?>
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<?>
    amdgcn.s_endpgm
  }
}

amdgcn.module @m2 target("gfx942") {
  // Disambiguation: the same address value, bytes apart (a store of 4
  // bytes at 0, a load at 4) do not alias, so the load (the start of the
  // longest path) goes first; at the same offset, or through another
  // address value, a load stays after the store.
  // CHECK-LABEL: amdgcn.kernel @apart
  // CHECK:      %[[A:.*]] = amdgcn.v_add_u32
  // CHECK:      amdgcn.ds_read_b32 %[[A]] {offset = 4 : i32}
  // CHECK:      amdgcn.ds_write_b32 %[[A]], %{{.*}} :
  // CHECK-DAG:  amdgcn.ds_read_b32 %[[A]] :
  // CHECK-DAG:  amdgcn.ds_read_b32 %{{.*}} {offset = 4 : i32}
  amdgcn.kernel @apart() {
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    %c1 = arith.constant 1 : i32
    %a = amdgcn.v_add_u32 %v2, %c1 : (!amdgcn.vgpr<2>, i32) -> !amdgcn.vgpr<?>
    %b = amdgcn.v_add_u32 %v2, %c1 : (!amdgcn.vgpr<2>, i32) -> !amdgcn.vgpr<?>
    amdgcn.ds_write_b32 %a, %v2 : (!amdgcn.vgpr<?>, !amdgcn.vgpr<2>) -> ()
    %x = amdgcn.ds_read_b32 %a : (!amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %y = amdgcn.ds_read_b32 %a {offset = 4 : i32} : (!amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %z = amdgcn.ds_read_b32 %b {offset = 4 : i32} : (!amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %s0 = amdgcn.v_add_u32 %y, %c1 : (!amdgcn.vgpr<?>, i32) -> !amdgcn.vgpr<?>
    %s1 = amdgcn.v_add_u32 %s0, %c1 : (!amdgcn.vgpr<?>, i32) -> !amdgcn.vgpr<?>
    amdgcn.s_endpgm
  }
}
