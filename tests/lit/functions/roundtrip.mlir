// RUN: aster-opt %s | aster-opt | FileCheck %s
// amdgcn.func / amdgcn.call / amdgcn.return print and parse back: virtual,
// aligned and pinned (allocated, special) parameters, several results,
// calls from kernels and from functions.

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: amdgcn.func @step(
  // CHECK-SAME: %{{.*}}: !amdgcn.vgpr<?x2>, %{{.*}}: !amdgcn.vgpr<?x2>, %{{.*}}: !amdgcn.agpr<?x4>)
  // CHECK-SAME: -> !amdgcn.agpr<?x4>
  amdgcn.func @step(%a: !amdgcn.vgpr<?x2>, %b: !amdgcn.vgpr<?x2>, %c: !amdgcn.agpr<?x4>) -> !amdgcn.agpr<?x4> {
    // CHECK: amdgcn.v_mfma_f32_16x16x16_f16
    %d = amdgcn.v_mfma_f32_16x16x16_f16 %a, %b, %c : (!amdgcn.vgpr<?x2>, !amdgcn.vgpr<?x2>, !amdgcn.agpr<?x4>) -> !amdgcn.agpr<?x4>
    // CHECK: amdgcn.return %{{.*}} : !amdgcn.agpr<?x4>
    amdgcn.return %d : !amdgcn.agpr<?x4>
  }
  // CHECK-LABEL: amdgcn.func @pinned(
  // CHECK-SAME: !amdgcn.vgpr<7>, %{{.*}}: !amdgcn.vcc, %{{.*}}: !amdgcn.sgpr<?x2, align 4>)
  // CHECK-SAME: -> (!amdgcn.vgpr<?>, !amdgcn.vgpr<9>)
  amdgcn.func @pinned(%p: !amdgcn.vgpr<7>, %c: !amdgcn.vcc, %s: !amdgcn.sgpr<?x2, align 4>) -> (!amdgcn.vgpr<?>, !amdgcn.vgpr<9>) {
    %v9 = amdgcn.reg : !amdgcn.vgpr<9>
    %x = amdgcn.v_cndmask_b32 %p, %p, %c : (!amdgcn.vgpr<7>, !amdgcn.vgpr<7>, !amdgcn.vcc) -> !amdgcn.vgpr<?>
    // CHECK: amdgcn.return %{{.*}}, %{{.*}} : !amdgcn.vgpr<?>, !amdgcn.vgpr<9>
    amdgcn.return %x, %v9 : !amdgcn.vgpr<?>, !amdgcn.vgpr<9>
  }
  // CHECK-LABEL: amdgcn.func @nothing()
  amdgcn.func @nothing() {
    // CHECK: amdgcn.call @nothing2() : () -> ()
    amdgcn.call @nothing2() : () -> ()
    amdgcn.return
  }
  amdgcn.func @nothing2() {
    amdgcn.s_nop {imm = 0 : i32}
    amdgcn.return
  }
  // CHECK-LABEL: amdgcn.kernel @k
  amdgcn.kernel @k() {
    %a = amdgcn.undef : !amdgcn.vgpr<?x2>
    %c = amdgcn.undef : !amdgcn.agpr<?x4>
    // CHECK: %[[R:.*]] = amdgcn.call @step(%{{.*}}, %{{.*}}, %{{.*}}) : (!amdgcn.vgpr<?x2>, !amdgcn.vgpr<?x2>, !amdgcn.agpr<?x4>) -> !amdgcn.agpr<?x4>
    %r = amdgcn.call @step(%a, %a, %c) : (!amdgcn.vgpr<?x2>, !amdgcn.vgpr<?x2>, !amdgcn.agpr<?x4>) -> !amdgcn.agpr<?x4>
    // CHECK: amdgcn.call @step(%{{.*}}, %{{.*}}, %[[R]])
    %r2 = amdgcn.call @step(%a, %a, %r) : (!amdgcn.vgpr<?x2>, !amdgcn.vgpr<?x2>, !amdgcn.agpr<?x4>) -> !amdgcn.agpr<?x4>
    %v7 = amdgcn.reg : !amdgcn.vgpr<7>
    %vcc = amdgcn.reg : !amdgcn.vcc
    %s = amdgcn.undef : !amdgcn.sgpr<?x2, align 4>
    // CHECK: %{{.*}}:2 = amdgcn.call @pinned
    %x:2 = amdgcn.call @pinned(%v7, %vcc, %s) : (!amdgcn.vgpr<7>, !amdgcn.vcc, !amdgcn.sgpr<?x2, align 4>) -> (!amdgcn.vgpr<?>, !amdgcn.vgpr<9>)
    amdgcn.call @nothing() : () -> ()
    amdgcn.s_endpgm
  }
}
