// RUN: aster-opt %s -split-input-file -verify-diagnostics
// amdgcn.concat: virtual parts of the range's class, as many registers as it has.

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %c1 = arith.constant 1 : i32
    %a = amdgcn.v_mov_b32 %c1 : (i32) -> !amdgcn.vgpr<?>
    %s = amdgcn.s_mov_b32 %c1 : (i32) -> !amdgcn.sgpr<?>
    // expected-error @below {{parts must be virtual vgprs like the range, got '!amdgcn.sgpr<?>'}}
    %p = amdgcn.concat %a, %s : !amdgcn.vgpr<?>, !amdgcn.sgpr<?> -> !amdgcn.vgpr<?x2>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %c1 = arith.constant 1 : i32
    %a = amdgcn.v_mov_b32 %c1 : (i32) -> !amdgcn.vgpr<?>
    // expected-error @below {{parts hold 2 registers but the range has 4}}
    %p = amdgcn.concat %a, %a : !amdgcn.vgpr<?>, !amdgcn.vgpr<?> -> !amdgcn.vgpr<?x4>
    amdgcn.s_endpgm
  }
}
