// RUN: aster-opt %s -split-input-file -verify-diagnostics
// The rules of functions, calls and returns, each with its location.

amdgcn.module @m target("gfx942") {
  amdgcn.func @f(%a: !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?> {
    amdgcn.return %a : !amdgcn.vgpr<?>
  }
  amdgcn.kernel @k() {
    %s = amdgcn.undef : !amdgcn.sgpr<?>
    // expected-error @below {{operand #0 of @f: expects a virtual VGPR, got a virtual SGPR}}
    %r = amdgcn.call @f(%s) : (!amdgcn.sgpr<?>) -> !amdgcn.vgpr<?>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.func @f(%a: !amdgcn.vgpr<?x2>) {
    amdgcn.return
  }
  amdgcn.kernel @k() {
    %v = amdgcn.undef : !amdgcn.vgpr<?x4>
    // expected-error @below {{operand #0 of @f: expects a virtual VGPR x2, got a virtual VGPR x4}}
    amdgcn.call @f(%v) : (!amdgcn.vgpr<?x4>) -> ()
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.func @f(%a: !amdgcn.vgpr<7>) {
    amdgcn.return
  }
  amdgcn.kernel @k() {
    %v = amdgcn.reg : !amdgcn.vgpr<6>
    // expected-error @below {{operand #0 of @f: the pinned register v7 must be passed, got v6}}
    amdgcn.call @f(%v) : (!amdgcn.vgpr<6>) -> ()
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.func @f(%a: !amdgcn.sgpr<?x2, align 4>) {
    amdgcn.return
  }
  amdgcn.kernel @k() {
    %s = amdgcn.reg : !amdgcn.sgpr<[2:3]>
    // expected-error @below {{operand #0 of @f: expects a virtual SGPR x2 (align 4), got s[2:3] (alignment 4 is not guaranteed)}}
    amdgcn.call @f(%s) : (!amdgcn.sgpr<[2:3]>) -> ()
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.func @f(%a: !amdgcn.vgpr<?>) {
    amdgcn.return
  }
  amdgcn.kernel @k() {
    // expected-error @below {{passes 0 operand(s) but @f takes 1}}
    amdgcn.call @f() : () -> ()
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.func @f() -> !amdgcn.vgpr<?> {
    %c = arith.constant 1 : i32
    %x = amdgcn.v_mov_b32 %c : (i32) -> !amdgcn.vgpr<?>
    amdgcn.return %x : !amdgcn.vgpr<?>
  }
  amdgcn.kernel @k() {
    // expected-error @below {{result types must be those of @f: '() -> !amdgcn.vgpr<?>'}}
    %r = amdgcn.call @f() : () -> !amdgcn.agpr<?>
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    // expected-error @below {{calls @nope, which is not an amdgcn.func of this module}}
    amdgcn.call @nope() : () -> ()
    amdgcn.s_endpgm
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.func @f() {
    // expected-error @below {{makes a recursive call (@f -> @f): functions are inlined, so calls must not form a cycle}}
    amdgcn.call @f() : () -> ()
    amdgcn.return
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.func @f() {
    amdgcn.call @g() : () -> ()
    amdgcn.return
  }
  amdgcn.func @g() {
    amdgcn.call @h() : () -> ()
    amdgcn.return
  }
  amdgcn.func @h() {
    // expected-error @below {{makes a recursive call (@h -> @f -> @g -> @h)}}
    amdgcn.call @f() : () -> ()
    amdgcn.return
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.func @f() -> !amdgcn.vgpr<?x2> {
    %x = amdgcn.undef : !amdgcn.vgpr<?>
    // expected-error @below {{result #0 of @f: expects a virtual VGPR x2, got a virtual VGPR}}
    amdgcn.return %x : !amdgcn.vgpr<?>
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.func @f() -> (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) {
    %x = amdgcn.undef : !amdgcn.vgpr<?>
    // expected-error @below {{returns 1 value(s) but @f has 2 result(s)}}
    amdgcn.return %x : !amdgcn.vgpr<?>
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.func @f() -> !amdgcn.vgpr<5> {
    %x = amdgcn.reg : !amdgcn.vgpr<4>
    // expected-error @below {{result #0 of @f: the pinned register v5 must be passed, got v4}}
    amdgcn.return %x : !amdgcn.vgpr<4>
  }
}

// -----

amdgcn.module @m target("gfx942") {
  // expected-error @below {{parameter #1 must be a register (virtual like !amdgcn.vgpr<?x4> or pinned like !amdgcn.vgpr<7>), got 'i32'}}
  amdgcn.func @f(%a: !amdgcn.vgpr<?>, %b: i32) {
    amdgcn.return
  }
}

// -----

amdgcn.module @m target("gfx942") {
  // expected-error @below {{result #0 cannot be scc}}
  amdgcn.func @f() -> !amdgcn.scc {
    %s = amdgcn.reg : !amdgcn.scc
    amdgcn.return %s : !amdgcn.scc
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    // expected-error @below {{'amdgcn.return' op expects parent op 'amdgcn.func'}}
    amdgcn.return
  }
}

// -----

amdgcn.module @m target("gfx942") {
  amdgcn.func @f() {
    // expected-error @below {{not valid on target 'gfx942'}}
    amdgcn.s_wait_loadcnt {simm16 = 0 : i32}
    amdgcn.return
  }
}
