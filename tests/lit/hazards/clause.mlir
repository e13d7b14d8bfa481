// RUN: aster-opt %s -amdgcn-hazards | aster-translate --mlir-to-asm | FileCheck %s
// Soft clauses (consecutive VMEM, or consecutive SMEM, instructions) may be
// replayed with XNACK: one that would make its clause read a register the
// clause writes, or a store after loads in the clause, is split off by one
// wait state (LLVM GCNHazardRecognizer::checkSoftClauseHazards).

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: vmem:
  amdgcn.kernel @vmem() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v23 = amdgcn.reg : !amdgcn.vgpr<[2:3]>
    %v45 = amdgcn.reg : !amdgcn.vgpr<[4:5]>
    %v7 = amdgcn.reg : !amdgcn.vgpr<7>
    // Independent loads stay one clause.
    // CHECK:      global_load_dword v6, v[0:1], off
    // CHECK-NEXT: global_load_dword v7, v[2:3], off
    // CHECK-NEXT: s_nop 0
    // CHECK-NEXT: global_load_dword v0, v[4:5], off
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<6>
    %b = amdgcn.global_load_dword %v23 : (!amdgcn.vgpr<[2:3]>) -> !amdgcn.vgpr<7>
    // Writes v0, which the first load of the clause reads.
    %c = amdgcn.global_load_dword %v45 : (!amdgcn.vgpr<[4:5]>) -> !amdgcn.vgpr<0>
    // CHECK-NEXT: s_waitcnt vmcnt(0)
    // CHECK-NEXT: global_load_dword v8, v[4:5], off
    // CHECK-NEXT: s_nop 0
    // CHECK-NEXT: global_store_dword v[2:3], v7, off
    amdgcn.s_waitcnt {vmcnt = 0 : i32}
    %d = amdgcn.global_load_dword %v45 : (!amdgcn.vgpr<[4:5]>) -> !amdgcn.vgpr<8>
    amdgcn.global_store_dword %v23, %v7 : (!amdgcn.vgpr<[2:3]>, !amdgcn.vgpr<7>) -> ()
    amdgcn.s_endpgm
  }

  // CHECK-LABEL: smem:
  amdgcn.kernel @smem() {
    %s01 = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    %s23 = amdgcn.reg : !amdgcn.sgpr<[2:3]>
    %c0 = arith.constant 0 : i32
    // CHECK:      s_load_dwordx2 s[2:3], s[0:1], 0x0
    // CHECK-NEXT: s_nop 0
    // CHECK-NEXT: s_load_dword s4, s[2:3], 0x0
    %p = amdgcn.s_load_dwordx2 %s01, %c0 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<[2:3]>
    %q = amdgcn.s_load_dword %s23, %c0 : (!amdgcn.sgpr<[2:3]>, i32) -> !amdgcn.sgpr<4>
    amdgcn.s_endpgm
  }
}
