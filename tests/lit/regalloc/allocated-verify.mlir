// RUN: aster-opt %s -split-input-file -verify-diagnostics
// A kernel marked `allocated` (by amdgcn-regalloc) must hold no virtual
// register: the verifier checks the pass's guarantee.

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() attributes {allocated} {
    %c1 = arith.constant 1 : i32
    // expected-error @below {{uses a virtual register in a kernel marked `allocated`}}
    %a = amdgcn.v_mov_b32 %c1 : (i32) -> !amdgcn.vgpr<?>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  // expected-error @below {{has a virtual block argument but is marked `allocated`}}
  amdgcn.kernel @k() attributes {allocated} {
    cf.br ^bb1
  ^bb1:
    amdgcn.s_endpgm
  ^bb2(%x: !amdgcn.vgpr<?>):
    amdgcn.s_endpgm
  }
}

// -----

// Successor operands must match the block arguments.
amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %c1 = arith.constant 1 : i32
    %a = amdgcn.s_mov_b32 %c1 : (i32) -> !amdgcn.sgpr<?>
    // expected-error @below {{passes 1 operands to successor #0, which has 0 arguments}}
    amdgcn.s_cbranch_scc1 ^bb1(%a : !amdgcn.sgpr<?>), ^bb1
  ^bb1:
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %c1 = arith.constant 1 : i32
    %a = amdgcn.s_mov_b32 %c1 : (i32) -> !amdgcn.sgpr<?>
    // expected-error @below {{successor operand #0 of type '!amdgcn.sgpr<?>' does not match block argument type '!amdgcn.vgpr<?>'}}
    amdgcn.s_branch ^bb1(%a : !amdgcn.sgpr<?>)
  ^bb1(%x: !amdgcn.vgpr<?>):
    amdgcn.s_endpgm
  }
}
