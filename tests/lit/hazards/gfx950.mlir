// RUN: aster-opt %s -amdgcn-hazards | aster-translate --mlir-to-asm | FileCheck %s
// gfx950 needs one more wait state than gfx942 after a write by an MFMA of
// more than 2 passes, and for an overlapping srcC read (LLVM
// GCNHazardRecognizer, gfx950 cases).

amdgcn.module @m950 target("gfx950") {
  // CHECK-LABEL: read_950:
  amdgcn.kernel @read_950() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.reg : !amdgcn.agpr<[0:15]>
    %a0 = amdgcn.reg : !amdgcn.agpr<0>
    %a2 = amdgcn.reg : !amdgcn.agpr<[2:17]>
    // 32x32x8 f16: 8 passes, then a VALU read: 12.
    // CHECK:      v_mfma_f32_32x32x8_f16 a[0:15]
    // CHECK-NEXT: s_nop 11
    // CHECK-NEXT: v_accvgpr_read_b32 v2, a0
    %m = amdgcn.v_mfma_f32_32x32x8_f16 %v01, %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:15]>) -> !amdgcn.agpr<[0:15]>
    %r = amdgcn.v_accvgpr_read_b32 %a0 : (!amdgcn.agpr<0>) -> !amdgcn.vgpr<2>
    // Overlapping srcC, right after: 8 + 2 = 10.
    // CHECK:      v_mfma_f32_32x32x8_f16 a[0:15]
    // CHECK-NEXT: s_nop 9
    // CHECK-NEXT: v_mfma_f32_32x32x8_f16 a[2:17], v[0:1], v[0:1], a[2:17]
    %m1 = amdgcn.v_mfma_f32_32x32x8_f16 %v01, %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:15]>) -> !amdgcn.agpr<[0:15]>
    %m2 = amdgcn.v_mfma_f32_32x32x8_f16 %v01, %v01, %a2 : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[2:17]>) -> !amdgcn.agpr<[2:17]>
    amdgcn.s_endpgm
  }
}
