// RUN: aster-opt %s -amdgcn-waitcnt | aster-translate --mlir-to-asm | FileCheck %s
// Joins and loops: a block start merges all its predecessors (a result
// pending on any path is pending; the fewest accesses issued after it on
// any path decide the count), to a fixpoint around loops.

amdgcn.module @m target("gfx942") {
  // One path issues one more load after v4's: the other decides vmcnt(0).
  // CHECK-LABEL: join:
  // CHECK:      .LBB0_2:
  // CHECK-NEXT: s_waitcnt vmcnt(0)
  // CHECK-NEXT: v_mov_b32 v7, v4
  amdgcn.kernel @join() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<4>
    amdgcn.s_cbranch_scc1 ^bb2, ^bb1
  ^bb1:
    %b = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<5>
    cf.br ^bb2
  ^bb2:
    %v4 = amdgcn.reg : !amdgcn.vgpr<4>
    %x = amdgcn.v_mov_b32 %v4 : (!amdgcn.vgpr<4>) -> !amdgcn.vgpr<7>
    amdgcn.s_endpgm
  }

  // Both paths issue a load after v4's: vmcnt(1) is enough.
  // CHECK-LABEL: join_both:
  // CHECK:      .LBB1_3:
  // CHECK-NEXT: s_waitcnt vmcnt(1)
  // CHECK-NEXT: v_mov_b32 v7, v4
  amdgcn.kernel @join_both() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<4>
    amdgcn.s_cbranch_scc1 ^bb2, ^bb1
  ^bb1:
    %b = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<5>
    cf.br ^bb3
  ^bb2:
    %c = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<6>
    cf.br ^bb3
  ^bb3:
    %v4 = amdgcn.reg : !amdgcn.vgpr<4>
    %x = amdgcn.v_mov_b32 %v4 : (!amdgcn.vgpr<4>) -> !amdgcn.vgpr<7>
    amdgcn.s_endpgm
  }

  // Waited for on one path only: still waited for at the join.
  // CHECK-LABEL: waited_one_path:
  // CHECK:      s_waitcnt vmcnt(0)
  // CHECK-NEXT: v_mov_b32 v8, v4
  // CHECK:      .LBB2_2:
  // CHECK-NEXT: s_waitcnt vmcnt(0)
  // CHECK-NEXT: v_mov_b32 v7, v4
  amdgcn.kernel @waited_one_path() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<4>
    amdgcn.s_cbranch_scc1 ^bb2, ^bb1
  ^bb1:
    %y = amdgcn.v_mov_b32 %a : (!amdgcn.vgpr<4>) -> !amdgcn.vgpr<8>
    cf.br ^bb2
  ^bb2:
    %v4 = amdgcn.reg : !amdgcn.vgpr<4>
    %x = amdgcn.v_mov_b32 %v4 : (!amdgcn.vgpr<4>) -> !amdgcn.vgpr<7>
    amdgcn.s_endpgm
  }

  // A loop loading at the bottom of its body for the next iteration
  // (software pipelining): the read at the top waits through the back
  // edge for the load before the loop and the one at the bottom, counting
  // the store issued after the load.
  // CHECK-LABEL: loop:
  // CHECK:      global_load_dword v4, v[0:1], off
  // CHECK-NEXT: .LBB3_1:
  // CHECK-NEXT: s_waitcnt vmcnt(0)
  // CHECK-NEXT: v_add_u32 v5, v4, v5
  // CHECK-NEXT: global_load_dword v4, v[0:1], off
  // CHECK-NEXT: global_store_dword v[0:1], v5, off
  // CHECK-NEXT: s_cbranch_scc1 .LBB3_1
  amdgcn.kernel @loop() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<4>
    cf.br ^bb1
  ^bb1:
    %v4 = amdgcn.reg : !amdgcn.vgpr<4>
    %v5 = amdgcn.reg : !amdgcn.vgpr<5>
    %s = amdgcn.v_add_u32 %v4, %v5 : (!amdgcn.vgpr<4>, !amdgcn.vgpr<5>) -> !amdgcn.vgpr<5>
    %b = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<4>
    amdgcn.global_store_dword %v01, %s : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<5>) -> ()
    amdgcn.s_cbranch_scc1 ^bb1, ^bb2
  ^bb2:
    amdgcn.s_endpgm
  }

  // Loads read in the same iteration: the first waits for the one load
  // after it; nothing stays pending around the back edge.
  // CHECK-LABEL: loop_two_loads:
  // CHECK:      .LBB4_1:
  // CHECK-NEXT: global_load_dword v4, v[0:1], off
  // CHECK-NEXT: global_load_dword v6, v[0:1], off
  // CHECK-NEXT: s_waitcnt vmcnt(1)
  // CHECK-NEXT: v_add_u32 v5, v4, v5
  // CHECK-NEXT: s_waitcnt vmcnt(0)
  // CHECK-NEXT: v_add_u32 v5, v6, v5
  amdgcn.kernel @loop_two_loads() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    cf.br ^bb1
  ^bb1:
    %v5 = amdgcn.reg : !amdgcn.vgpr<5>
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<4>
    %b = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<6>
    %s = amdgcn.v_add_u32 %a, %v5 : (!amdgcn.vgpr<4>, !amdgcn.vgpr<5>) -> !amdgcn.vgpr<5>
    %t = amdgcn.v_add_u32 %b, %s : (!amdgcn.vgpr<6>, !amdgcn.vgpr<5>) -> !amdgcn.vgpr<5>
    amdgcn.s_cbranch_scc1 ^bb1, ^bb2
  ^bb2:
    amdgcn.s_endpgm
  }
}
