// RUN: aster-opt %s -amdgcn-regalloc | FileCheck %s
// RUN: aster-opt %s -amdgcn-regalloc="max-agprs=4" | FileCheck %s --check-prefix=SPILL
// A 16x16 MFMA accumulator read through parts: each part names registers of
// the range where it is read (a0..a3 here), and the range stays in place
// while its parts are read. Under max-agprs=4 the range is spilled whole and
// only the part read is reloaded (one register, at its byte offset).

// CHECK-LABEL: amdgcn.kernel @k
// CHECK: v_mfma_f32_16x16x4_f32 {{.*}} -> !amdgcn.agpr<[0:3]>
// CHECK: v_accvgpr_read_b32 {{.*}} : (!amdgcn.agpr<1>) -> !amdgcn.vgpr
// CHECK: v_accvgpr_read_b32 {{.*}} : (!amdgcn.agpr<3>) -> !amdgcn.vgpr
// CHECK-NOT: amdgcn.part
// SPILL: scratch_store_dwordx4 {{.*}} : (!amdgcn.agpr<[0:3]>
// SPILL: scratch_load_dword {{.*}}offset = 4 : i32{{.*}} -> !amdgcn.agpr<
// SPILL: scratch_load_dword {{.*}}offset = 12 : i32{{.*}} -> !amdgcn.agpr<
amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() attributes {block = array<i32: 64, 1, 1>} {
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    %c0 = arith.constant 0 : i32
    %acc = amdgcn.v_mfma_f32_16x16x4_f32 %v0, %v0, %c0 : (!amdgcn.vgpr<0>, !amdgcn.vgpr<0>, i32) -> !amdgcn.agpr<?x4>
    %other = amdgcn.v_mfma_f32_16x16x4_f32 %v0, %v0, %c0 : (!amdgcn.vgpr<0>, !amdgcn.vgpr<0>, i32) -> !amdgcn.agpr<?x4>
    %p1 = amdgcn.part %acc[1] : !amdgcn.agpr<?x4> -> !amdgcn.agpr<?>
    %x = amdgcn.v_accvgpr_read_b32 %p1 : (!amdgcn.agpr<?>) -> !amdgcn.vgpr<?>
    %p3 = amdgcn.part %acc[3] : !amdgcn.agpr<?x4> -> !amdgcn.agpr<?>
    %y = amdgcn.v_accvgpr_read_b32 %p3 : (!amdgcn.agpr<?>) -> !amdgcn.vgpr<?>
    %q = amdgcn.part %other[2] : !amdgcn.agpr<?x4> -> !amdgcn.agpr<?x2>
    %z = amdgcn.v_add_u32 %x, %y : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    amdgcn.s_endpgm
  }
}
