// RUN: aster-opt %s -amdgcn-regalloc | aster-translate --mlir-to-asm | FileCheck %s
// RUN: aster-opt %s -amdgcn-regalloc | aster-translate --mlir-to-hsaco -o %t.hsaco
// After allocation the descriptor's register counts come from the registers
// allocated: out[tid] = tid + n with virtual registers only.

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k(out: !amdgcn.ptr<i32>, n: i32) attributes {block = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %c8 = arith.constant 8 : i32
    %kp = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    %tid = amdgcn.reg : !amdgcn.vgpr<0>
    %ptr = amdgcn.s_load_dwordx2 %kp, %c0 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<?x2>
    %n = amdgcn.s_load_dword %kp, %c8 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<?>
    %off = amdgcn.v_lshlrev_b32 %c2, %tid : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    amdgcn.s_waitcnt {lgkmcnt = 0 : i32}
    %val = amdgcn.v_add_u32 %n, %tid : (!amdgcn.sgpr<?>, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    amdgcn.global_store_dword %off, %val, %ptr : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.sgpr<?x2>) -> ()
    amdgcn.s_endpgm
  }
}
// CHECK:      s_load_dwordx2 s[2:3], s[0:1], 0x0
// CHECK-NEXT: s_load_dword s0, s[0:1], 0x8
// CHECK-NEXT: v_lshlrev_b32 v1, 2, v0
// CHECK-NEXT: s_waitcnt lgkmcnt(0)
// CHECK-NEXT: v_add_u32 v0, s0, v0
// CHECK-NEXT: global_store_dword v1, v0, s[2:3]
// CHECK: .amdhsa_next_free_vgpr 2
// CHECK: .amdhsa_next_free_sgpr 4
// CHECK: .amdhsa_accum_offset 4
