// RUN: aster-translate --mlir-to-asm %s | FileCheck %s
// Table features in the assembly: tied sources are not printed, returning
// atomics print LLVM's mnemonic with sc0, SMEM offsets are hex.

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() attributes {block = array<i32: 64, 1, 1>} {
    %v1 = amdgcn.reg : !amdgcn.vgpr<1>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    %v4 = amdgcn.reg : !amdgcn.vgpr<4>
    %v23 = amdgcn.reg : !amdgcn.vgpr<[2:3]>
    %s01 = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    %r = amdgcn.reg : !amdgcn.sgpr<[4:7]>
    %s8 = amdgcn.reg : !amdgcn.sgpr<8>
    %c = arith.constant 32 : i32
    // CHECK: v_fmac_f32 v1, v2, v2
    %0 = amdgcn.v_fmac_f32 %v2, %v2, %v1 : (!amdgcn.vgpr<2>, !amdgcn.vgpr<2>, !amdgcn.vgpr<1>) -> !amdgcn.vgpr<1>
    // CHECK-NEXT: global_atomic_add v1, v[2:3], v4, off offset:16 sc0
    %1 = amdgcn.global_atomic_add_rtn %v23, %v4 {offset = 16 : i32} : (!amdgcn.vgpr<[2:3]>, !amdgcn.vgpr<4>) -> !amdgcn.vgpr<1>
    // CHECK-NEXT: buffer_atomic_add v1, v2, s[4:7], s8 offen sc0
    %2 = amdgcn.buffer_atomic_add_rtn %v2, %r, %s8, %v1 {offen} : (!amdgcn.vgpr<2>, !amdgcn.sgpr<[4:7]>, !amdgcn.sgpr<8>, !amdgcn.vgpr<1>) -> !amdgcn.vgpr<1>
    // CHECK-NEXT: s_load_dword s8, s[0:1], 0x20
    %3 = amdgcn.s_load_dword %s01, %c : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<8>
    // CHECK-NEXT: v_pk_add_f16 v1, v2, v2 op_sel_hi:[0,1]
    %4 = amdgcn.v_pk_add_f16 %v2, %v2 {op_sel_hi = 2 : i32} : (!amdgcn.vgpr<2>, !amdgcn.vgpr<2>) -> !amdgcn.vgpr<1>
    // CHECK-NEXT: s_waitcnt vmcnt(0)
    amdgcn.s_waitcnt {vmcnt = 0 : i32, lgkmcnt = 15 : i32}
    // CHECK-NEXT: s_endpgm
    amdgcn.s_endpgm
  }
}
