// RUN: not aster-translate --mlir-to-asm %s -split-input-file 2>&1 | FileCheck %s
// After allocation a branch passes each value in its block argument's
// register; a branch that still needs a move, or a virtual register, is a
// diagnostic at the branch. The kernel verifier checks the pass's guarantee.

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %c1 = arith.constant 1 : i32
    %a = amdgcn.v_mov_b32 %c1 : (i32) -> !amdgcn.vgpr<1>
    // CHECK: :5: error: 'amdgcn.s_branch' op passes '!amdgcn.vgpr<1>' to block argument #0 of type '!amdgcn.vgpr<2>': after register allocation they must be the same register
    amdgcn.s_branch ^bb1(%a : !amdgcn.vgpr<1>)
  ^bb1(%x: !amdgcn.vgpr<2>):
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %c1 = arith.constant 1 : i32
    %a = amdgcn.s_mov_b32 %c1 : (i32) -> !amdgcn.sgpr<3>
    // CHECK: :5: error: 'amdgcn.s_branch' op passes a virtual register to a block argument; run register allocation before translating to assembly
    amdgcn.s_branch ^bb1(%a : !amdgcn.sgpr<3>)
  ^bb1(%x: !amdgcn.sgpr<?>):
    amdgcn.s_endpgm
  }
}
