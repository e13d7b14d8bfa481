// RUN: aster-opt %s -amdgcn-hazards="only=scratch_store_dwordx4,v_accvgpr_read_b32" | aster-translate --mlir-to-asm | FileCheck %s
// With `only` (insertHazardNops' mayPad: the allocator passes "is spill
// code"), a hazard is padded when either of its two instructions is one of
// those; others keep their distance.

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: k:
  amdgcn.kernel @k() attributes {private_segment = 64 : i32} {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    %v3 = amdgcn.reg : !amdgcn.vgpr<3>
    %a = amdgcn.reg : !amdgcn.agpr<[0:3]>
    %a0 = amdgcn.reg : !amdgcn.agpr<0>
    %s0 = amdgcn.reg : !amdgcn.sgpr<0>
    // The second instruction is listed (a spill store of an MFMA result).
    // CHECK:      v_mfma_f32_16x16x16_f16 a[0:3]
    // CHECK-NEXT: s_nop 6
    // CHECK-NEXT: scratch_store_dwordx4 off, a[0:3], s0
    %m = amdgcn.v_mfma_f32_16x16x16_f16 %v01, %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:3]>) -> !amdgcn.agpr<[0:3]>
    amdgcn.scratch_store_dwordx4 %a, %s0 : (!amdgcn.agpr<[0:3]>, !amdgcn.sgpr<0>) -> ()
    // The first one is listed (a reload read by the program's MFMA).
    // CHECK-NEXT: v_accvgpr_read_b32 v2, a0
    // CHECK-NEXT: s_nop 1
    // CHECK-NEXT: v_mfma_f32_16x16x16_f16 a[0:3], v[2:3], v[0:1], a[0:3]
    %r = amdgcn.v_accvgpr_read_b32 %a0 : (!amdgcn.agpr<0>) -> !amdgcn.vgpr<2>
    %v23 = amdgcn.reg : !amdgcn.vgpr<[2:3]>
    %m2 = amdgcn.v_mfma_f32_16x16x16_f16 %v23, %v01, %a : (!amdgcn.vgpr<[2:3]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:3]>) -> !amdgcn.agpr<[0:3]>
    // Neither is listed: the program's own hazard is left as written.
    // CHECK-NEXT: v_add_u32 v3, v2, v2
    // CHECK-NEXT: s_nop 0
    // CHECK-NEXT: v_mfma_f32_16x16x16_f16 a[0:3], v[2:3], v[0:1], a[0:3]
    %x = amdgcn.v_add_u32 %v2, %v2 : (!amdgcn.vgpr<2>, !amdgcn.vgpr<2>) -> !amdgcn.vgpr<3>
    amdgcn.s_nop {imm = 0 : i32}
    %m3 = amdgcn.v_mfma_f32_16x16x16_f16 %v23, %v01, %a : (!amdgcn.vgpr<[2:3]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:3]>) -> !amdgcn.agpr<[0:3]>
    amdgcn.s_endpgm
  }
}
