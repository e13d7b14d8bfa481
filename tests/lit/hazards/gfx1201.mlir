// RUN: aster-opt %s -amdgcn-hazards | aster-translate --mlir-to-asm | FileCheck %s
// gfx1201 has no hazard rules yet: the pass leaves its kernels unchanged.

amdgcn.module @m1201 target("gfx1201") {
  // CHECK-LABEL: rdna:
  // CHECK-NEXT: v_mov_b32 v1, 0
  // CHECK-NEXT: v_mov_b32 v2, v1
  amdgcn.kernel @rdna() {
    %c0 = arith.constant 0 : i32
    %x = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<1>
    %y = amdgcn.v_mov_b32 %x : (!amdgcn.vgpr<1>) -> !amdgcn.vgpr<2>
    amdgcn.s_endpgm
  }
}
