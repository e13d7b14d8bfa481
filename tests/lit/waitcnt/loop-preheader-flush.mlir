// RUN: aster-opt %s -amdgcn-waitcnt | aster-translate --mlir-to-asm | FileCheck %s
// A loop that stores (vmcnt counts stores on gfx942) and reads a VGPR loaded
// before it: vmcnt(0) once at the end of the preheader, not in every
// iteration (where the read would also wait for the loop's own earlier
// stores). LLVM's SIInsertWaitcnts does the same (shouldFlushVmCnt, its
// first case: the loop has vector-memory stores, no vector-memory loads,
// and a use of a VGPR loaded outside it).

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: flush:
  // CHECK:      global_load_dword v4, v[0:1], off
  // CHECK-NEXT: s_waitcnt vmcnt(0)
  // CHECK-NEXT: .LBB0_1:
  // CHECK-NEXT: v_add_u32 v5, v4, v5
  // CHECK-NEXT: global_store_dword v[0:1], v5, off
  // CHECK-NEXT: s_cbranch_scc1 .LBB0_1
  amdgcn.kernel @flush() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<4>
    cf.br ^bb1
  ^bb1:
    %v4 = amdgcn.reg : !amdgcn.vgpr<4>
    %v5 = amdgcn.reg : !amdgcn.vgpr<5>
    %s = amdgcn.v_add_u32 %v4, %v5 : (!amdgcn.vgpr<4>, !amdgcn.vgpr<5>) -> !amdgcn.vgpr<5>
    amdgcn.global_store_dword %v01, %s : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<5>) -> ()
    amdgcn.s_cbranch_scc1 ^bb1, ^bb2
  ^bb2:
    amdgcn.s_endpgm
  }

  // A load in the loop: no flush (LLVM's second case, loads whose values
  // the loop does not read, is not taken); the read waits in the loop.
  // CHECK-LABEL: no_flush_with_load:
  // CHECK:      .LBB1_1:
  // CHECK-NEXT: s_waitcnt vmcnt(0)
  // CHECK-NEXT: v_add_u32 v5, v4, v5
  amdgcn.kernel @no_flush_with_load() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<4>
    cf.br ^bb1
  ^bb1:
    %v4 = amdgcn.reg : !amdgcn.vgpr<4>
    %v5 = amdgcn.reg : !amdgcn.vgpr<5>
    %s = amdgcn.v_add_u32 %v4, %v5 : (!amdgcn.vgpr<4>, !amdgcn.vgpr<5>) -> !amdgcn.vgpr<5>
    %b = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<6>
    amdgcn.global_store_dword %v01, %s : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<5>) -> ()
    amdgcn.s_cbranch_scc1 ^bb1, ^bb2
  ^bb2:
    amdgcn.s_endpgm
  }
}
