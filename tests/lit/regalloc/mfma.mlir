// RUN: aster-opt %s -amdgcn-regalloc | FileCheck %s
// An MFMA result may not partially overlap its sources but may be exactly the
// accumulator it replaces: accumulation chains stay in place.

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: amdgcn.kernel @chain
  // CHECK-SAME: agpr = 4 : i32, agpr_maxlive = 4 : i32
  amdgcn.kernel @chain() {
    %p = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.global_load_dwordx2 %p : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<?x2>
    amdgcn.s_waitcnt {vmcnt = 0 : i32}
    %acc = amdgcn.undef : !amdgcn.agpr<?x4>
    // CHECK: amdgcn.v_mfma_f32_16x16x16_f16 {{.*}} -> !amdgcn.agpr<[0:3]>
    %m0 = amdgcn.v_mfma_f32_16x16x16_f16 %a, %a, %acc : (!amdgcn.vgpr<?x2>, !amdgcn.vgpr<?x2>, !amdgcn.agpr<?x4>) -> !amdgcn.agpr<?x4>
    // CHECK: amdgcn.v_mfma_f32_16x16x16_f16 {{.*}}, !amdgcn.agpr<[0:3]>) -> !amdgcn.agpr<[0:3]>
    %m1 = amdgcn.v_mfma_f32_16x16x16_f16 %a, %a, %m0 : (!amdgcn.vgpr<?x2>, !amdgcn.vgpr<?x2>, !amdgcn.agpr<?x4>) -> !amdgcn.agpr<?x4>
    // A VGPR accumulator likewise.
    %vacc = amdgcn.undef : !amdgcn.vgpr<?x4>
    // CHECK: amdgcn.v_mfma_f32_16x16x16_f16 {{.*}} : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[2:5]>) -> !amdgcn.vgpr<[2:5]>
    %m2 = amdgcn.v_mfma_f32_16x16x16_f16 %a, %a, %vacc : (!amdgcn.vgpr<?x2>, !amdgcn.vgpr<?x2>, !amdgcn.vgpr<?x4>) -> !amdgcn.vgpr<?x4>
    amdgcn.s_endpgm
  }
}
