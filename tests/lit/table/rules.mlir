// RUN: aster-opt %s -split-input-file -verify-diagnostics
// The table's operand rules that tie operands and modifiers together:
// tied sources, MUBUF offen/idxen, the gfx9 literal-only-in-e32 rule, the
// constant bus with implicit vcc, MFMA register files, fixed modifiers.

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %v1 = amdgcn.reg : !amdgcn.vgpr<1>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    %v3 = amdgcn.reg : !amdgcn.vgpr<3>
    // expected-error @below {{source 'vdst_in' is the old value of destination 'vdst' and must be the same register, got v3 and v1}}
    %0 = amdgcn.v_fmac_f32 %v1, %v2, %v3 : (!amdgcn.vgpr<1>, !amdgcn.vgpr<2>, !amdgcn.vgpr<3>) -> !amdgcn.vgpr<1>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %v1 = amdgcn.reg : !amdgcn.vgpr<1>
    %r = amdgcn.reg : !amdgcn.sgpr<[4:7]>
    %s = amdgcn.reg : !amdgcn.sgpr<8>
    // expected-error @below {{source 'vaddr' needs an addressing flag (offen or idxen)}}
    %0 = amdgcn.buffer_load_dword %v1, %r, %s : (!amdgcn.vgpr<1>, !amdgcn.sgpr<[4:7]>, !amdgcn.sgpr<8>) -> !amdgcn.vgpr<2>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %r = amdgcn.reg : !amdgcn.sgpr<[4:7]>
    %s = amdgcn.reg : !amdgcn.sgpr<8>
    // expected-error @below {{offen/idxen need the source 'vaddr'}}
    %0 = amdgcn.buffer_load_dword %r, %s {offen} : (!amdgcn.sgpr<[4:7]>, !amdgcn.sgpr<8>) -> !amdgcn.vgpr<2>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %v1 = amdgcn.reg : !amdgcn.vgpr<1>
    %c = arith.constant 1000 : i32
    // expected-error @below {{uses a literal, which needs the 32-bit encoding: modifier 'clamp' is not available there}}
    %0 = amdgcn.v_add_u32 %c, %v1 {clamp} : (i32, !amdgcn.vgpr<1>) -> !amdgcn.vgpr<1>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %v1 = amdgcn.reg : !amdgcn.vgpr<1>
    %s = amdgcn.reg : !amdgcn.sgpr<[4:5]>
    %c = arith.constant 1000 : i32
    // expected-error @below {{uses a literal, which needs the 32-bit encoding: destination 'sdst' must be vcc}}
    %0 = amdgcn.v_cmp_eq_u32 %c, %v1 : (i32, !amdgcn.vgpr<1>) -> !amdgcn.sgpr<[4:5]>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %v1 = amdgcn.reg : !amdgcn.vgpr<1>
    %s = amdgcn.reg : !amdgcn.sgpr<2>
    // expected-error @below {{reads 2 scalar values (SGPRs/literals) but the constant bus allows 1}}
    %0 = amdgcn.v_div_fmas_f32 %s, %v1, %v1 : (!amdgcn.sgpr<2>, !amdgcn.vgpr<1>, !amdgcn.vgpr<1>) -> !amdgcn.vgpr<1>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %v = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.reg : !amdgcn.agpr<[0:3]>
    // expected-error @below {{destination and 'src2' must both be VGPRs or both AGPRs}}
    %0 = amdgcn.v_mfma_f32_16x16x16_f16 %v, %v, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>, !amdgcn.agpr<[0:3]>) -> !amdgcn.vgpr<[4:7]>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %a = amdgcn.reg : !amdgcn.vgpr<[2:3]>
    %d = amdgcn.reg : !amdgcn.vgpr<4>
    // expected-error @below {{modifier 'sc0' is implied by this instruction form and is not an attribute}}
    %0 = amdgcn.global_atomic_add_rtn %a, %d {sc0} : (!amdgcn.vgpr<[2:3]>, !amdgcn.vgpr<4>) -> !amdgcn.vgpr<0>
    amdgcn.s_endpgm
  }
}
