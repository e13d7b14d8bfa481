// RUN: aster-opt %s -split-input-file -verify-diagnostics
// amdgcn.part: a part of a virtual range, of its class, inside it, aligned.

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    %c0 = arith.constant 0 : i32
    %acc = amdgcn.v_mfma_f32_16x16x4_f32 %v0, %v0, %c0 : (!amdgcn.vgpr<0>, !amdgcn.vgpr<0>, i32) -> !amdgcn.agpr<?x4>
    // expected-error @below {{a part of 2 agprs must be aligned to 2: offset 1 in a range aligned to 2 cannot be}}
    %p = amdgcn.part %acc[1] : !amdgcn.agpr<?x4> -> !amdgcn.agpr<?x2>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    %c0 = arith.constant 0 : i32
    %acc = amdgcn.v_mfma_f32_16x16x4_f32 %v0, %v0, %c0 : (!amdgcn.vgpr<0>, !amdgcn.vgpr<0>, i32) -> !amdgcn.agpr<?x4>
    // expected-error @below {{registers 3..4 are not all in a range of 4}}
    %p = amdgcn.part %acc[3] : !amdgcn.agpr<?x4> -> !amdgcn.agpr<?x2>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    %c0 = arith.constant 0 : i32
    %acc = amdgcn.v_mfma_f32_16x16x4_f32 %v0, %v0, %c0 : (!amdgcn.vgpr<0>, !amdgcn.vgpr<0>, i32) -> !amdgcn.agpr<?x4>
    // expected-error @below {{part must be of the source's class (agpr), got '!amdgcn.vgpr<?>'}}
    %p = amdgcn.part %acc[0] : !amdgcn.agpr<?x4> -> !amdgcn.vgpr<?>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %r = amdgcn.reg : !amdgcn.vgpr<[0:3]>
    // expected-error @below {{takes and gives virtual registers}}
    %p = amdgcn.part %r[0] : !amdgcn.vgpr<[0:3]> -> !amdgcn.vgpr<?>
    amdgcn.s_endpgm
  }
}
