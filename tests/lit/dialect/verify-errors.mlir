// RUN: aster-opt %s -split-input-file -verify-diagnostics
// Every verifier diagnostic of the dialect, with its location.

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %s = amdgcn.reg : !amdgcn.sgpr<0>
    %v = amdgcn.reg : !amdgcn.vgpr<0>
    %a = amdgcn.reg : !amdgcn.agpr<0>
    // expected-error @below {{source 'src1' expects VGPR or SGPR or inline constant, got '!amdgcn.agpr<0>'}}
    %0 = amdgcn.v_add_u32 %v, %a : (!amdgcn.vgpr<0>, !amdgcn.agpr<0>) -> !amdgcn.vgpr<1>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %v = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    // expected-error @below {{source 'src0' expects 1 register, got 2}}
    %0 = amdgcn.v_add_u32 %v, %v : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<1>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %v = amdgcn.reg : !amdgcn.vgpr<[1:2]>
    %s = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    // expected-error @below {{source 'vaddr' range v[1:2] must start at a multiple of 2}}
    %0 = amdgcn.global_load_dword %v : (!amdgcn.vgpr<[1:2]>) -> !amdgcn.vgpr<4>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %s = amdgcn.reg : !amdgcn.sgpr<[1:2]>
    // expected-error @below {{destination 'sdst' range s[1:2] must start at a multiple of 2}}
    %0 = amdgcn.s_mov_b64 %s : (!amdgcn.sgpr<[1:2]>) -> !amdgcn.sgpr<[1:2]>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx1201") {
  amdgcn.kernel @k() {
    %v = amdgcn.reg : !amdgcn.vgpr<0>
    // expected-error @below {{is not valid on target 'gfx1201' (valid on: gfx942 gfx950)}}
    %0 = amdgcn.v_add_u32 %v, %v : (!amdgcn.vgpr<0>, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<1>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %v = amdgcn.reg : !amdgcn.vgpr<0>
    %c = arith.constant 4294967296 : i64
    // expected-error @below {{immediate for 'src0' does not fit a u32 operand}}
    %0 = amdgcn.v_add_u32 %c, %v : (i64, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<1>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %v = amdgcn.reg : !amdgcn.vgpr<0>
    %c = arith.constant 1000 : i32
    // expected-error @below {{source 'src1' accepts only inline constants}}
    %0 = amdgcn.v_add_u32 %v, %c : (!amdgcn.vgpr<0>, i32) -> !amdgcn.vgpr<1>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %s0 = amdgcn.reg : !amdgcn.sgpr<0>
    %s1 = amdgcn.reg : !amdgcn.sgpr<1>
    // expected-error @below {{reads 2 scalar values (SGPRs/literals) but the constant bus allows 1}}
    %0 = amdgcn.v_add_u32 %s0, %s1 : (!amdgcn.sgpr<0>, !amdgcn.sgpr<1>) -> !amdgcn.vgpr<1>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %v = amdgcn.reg : !amdgcn.vgpr<0>
    %a = amdgcn.reg : !amdgcn.vgpr<[2:3]>
    // expected-error @below {{modifier 'offset' = 5000 is out of range [-4096, 4095]}}
    amdgcn.global_store_dword %a, %v {offset = 5000 : i32} : (!amdgcn.vgpr<[2:3]>, !amdgcn.vgpr<0>) -> ()
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %v = amdgcn.reg : !amdgcn.vgpr<0>
    // expected-error @below {{has no modifier 'glc' (valid: clamp)}}
    %0 = amdgcn.v_add_u32 %v, %v {glc} : (!amdgcn.vgpr<0>, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<1>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    // expected-error @below {{requires an allocated register, got virtual '!amdgcn.vgpr<?>'}}
    %v = amdgcn.reg : !amdgcn.vgpr<?>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %v = amdgcn.reg : !amdgcn.vgpr<0>
    // expected-error @below {{expects 1 destination, got 0}}
    amdgcn.v_add_u32 %v, %v : (!amdgcn.vgpr<0>, !amdgcn.vgpr<0>) -> ()
    amdgcn.s_endpgm
  }
}

// -----

// expected-error @below {{unknown target 'gfx9000'}}
amdgcn.module @m target("gfx9000") {
}

// -----

amdgcn.module @m target("gfx942") {
  // expected-error @below {{workgroup of 2048 work-items exceeds 1024}}
  amdgcn.kernel @k() attributes {block = array<i32: 2048, 1, 1>} {
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  // expected-error @below {{`sgpr_setup` entries must be unique and in hardware order}}
  amdgcn.kernel @k() attributes {sgpr_setup = ["workgroup_id_x", "kernarg_ptr"]} {
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  // expected-error @below {{`private_segment` must be an integer in [0, 1048576] bytes}}
  amdgcn.kernel @k() attributes {private_segment = -1 : i32} {
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  // expected-error @below {{is constant but its section '.data' is writable}}
  amdgcn.global @g {section = ".data", alignment = 4 : i64, bytes = 4 : i64, constant}
}

// -----

amdgcn.module @m target("gfx942") {
  // expected-error @below {{data holds 8 bytes but the global has 4}}
  amdgcn.global @g {section = ".data", alignment = 4 : i64, bytes = 4 : i64,
                    data = dense<[1, 2]> : tensor<2xi32>}
}

// -----

amdgcn.module @m target("gfx942") {
  // expected-error @below {{relocation at offset 0 names @nothing, which is no global, kernel or device function of the module}}
  amdgcn.global @g {section = ".data", alignment = 8 : i64, bytes = 8 : i64,
                    relocs = [{offset = 0 : i64, symbol = @nothing}]}
}

// -----

amdgcn.module @m target("gfx942") {
  // expected-error @below {{is in the NOBITS section '.bss' but has non-zero data}}
  amdgcn.global @g {section = ".bss", alignment = 4 : i64, bytes = 4 : i64,
                    data = dense<[1]> : tensor<1xi32>}
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    // expected-error @below {{names @nowhere, which is no global, kernel or device function of the module}}
    %lo = amdgcn.reloc @nowhere "rel32@lo" 4 : i32
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    // expected-error @below {{kind "rel64" is not one of rel32@lo}}
    %lo = amdgcn.reloc @k "rel64" 4 : i32
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %v = amdgcn.reg : !amdgcn.vgpr<0>
    %lo = amdgcn.reloc @k "rel32@lo" 4 : i32
    // expected-error @below {{source 'src1' cannot take a relocation (sym@kind): it is not a 32-bit literal}}
    %0 = amdgcn.v_add_u32 %v, %lo : (!amdgcn.vgpr<0>, i32) -> !amdgcn.vgpr<1>
    amdgcn.s_endpgm
  }
}
