// RUN: not aster-translate --mlir-to-asm %s 2>&1 | FileCheck %s
// Virtual registers cannot reach the assembly printer.

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    // CHECK: errors.mlir:[[@LINE+1]]:10: error: 'amdgcn.v_add_u32' op destination 'vdst' is a virtual register; run register allocation before translating to assembly
    %0 = amdgcn.v_add_u32 %v0, %v0 : (!amdgcn.vgpr<0>, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    amdgcn.s_endpgm
  }
}
