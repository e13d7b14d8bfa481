// RUN: aster-opt %s -split-input-file -amdgcn-regalloc -verify-diagnostics
// Bad input to register allocation: a diagnostic at the offending op.

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %c1 = arith.constant 1 : i32
    // expected-note @below {{the value pinned to s1 is defined here}}
    %x = amdgcn.s_mov_b32 %c1 : (i32) -> !amdgcn.sgpr<1>
    // expected-error @below {{overwrites s1, which still holds a pinned value used later}}
    %y = amdgcn.s_mov_b64 %c1 : (i32) -> !amdgcn.sgpr<[0:1]>
    %z = amdgcn.s_add_u32 %x, %x : (!amdgcn.sgpr<1>, !amdgcn.sgpr<1>) -> !amdgcn.sgpr<?>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %c1 = arith.constant 1 : i32
    %p = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    // expected-error @below {{names s[100:103] but the target has 102 sgprs}}
    %x = amdgcn.s_load_dwordx4 %p, %c1 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<[100:103]>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %c1 = arith.constant 1 : i32
    %s0 = amdgcn.reg : !amdgcn.sgpr<0>
    %p = amdgcn.s_mov_b64 %c1 : (i32) -> !amdgcn.sgpr<?x2>
    // expected-error @below {{needs a free range of 4 sgprs (aligned to 128) but 2 of the 102 allowed are live here and pinned registers block the rest}}
    %q = amdgcn.s_load_dwordx4 %p, %c1 : (!amdgcn.sgpr<?x2>, i32) -> !amdgcn.sgpr<?x4, align 128>
    %r = amdgcn.s_add_u32 %s0, %s0 : (!amdgcn.sgpr<0>, !amdgcn.sgpr<0>) -> !amdgcn.sgpr<?>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %c1 = arith.constant 1 : i32
    // expected-error @below {{cannot be register-allocated}}
    %x = arith.addi %c1, %c1 : i32
    amdgcn.s_endpgm
  }
}

// -----

// Undefined or non-dominating uses are caught by the verifier before the pass.
amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %c1 = arith.constant 1 : i32
    // expected-error @below {{operand #0 does not dominate this use}}
    %q = amdgcn.s_add_u32 %p, %c1 : (!amdgcn.sgpr<?>, i32) -> !amdgcn.sgpr<?>
    // expected-note @below {{operand defined here}}
    %p = amdgcn.s_mov_b32 %c1 : (i32) -> !amdgcn.sgpr<?>
    amdgcn.s_endpgm
  }
}
