// RUN: aster-opt %s | aster-opt | FileCheck %s
// Textual IR parses, prints and re-parses identically.

// CHECK-LABEL: amdgcn.module @m target("gfx942")
amdgcn.module @m target("gfx942") {
  // CHECK: amdgcn.kernel @k(out: !amdgcn.ptr<f32>, n: i32) attributes {block = array<i32: 64, 1, 1>, lds = 512 : i32}
  amdgcn.kernel @k(out: !amdgcn.ptr<f32>, n: i32) attributes {block = array<i32: 64, 1, 1>, lds = 512 : i32} {
    // CHECK: amdgcn.reg : !amdgcn.vgpr<0>
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    // CHECK: amdgcn.reg : !amdgcn.vgpr<[4:7]>
    %v4 = amdgcn.reg : !amdgcn.vgpr<[4:7]>
    // CHECK: amdgcn.reg : !amdgcn.sgpr<[0:1]>
    %s = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    // CHECK: amdgcn.reg : !amdgcn.vcc
    %vcc = amdgcn.reg : !amdgcn.vcc
    // CHECK: amdgcn.undef : !amdgcn.vgpr<?x4, align 4>
    %u = amdgcn.undef : !amdgcn.vgpr<?x4, align 4>
    %c = arith.constant 42 : i32
    // CHECK: amdgcn.v_add_u32 %{{.*}}, %{{.*}} {clamp} : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<1>
    %0 = amdgcn.v_add_u32 %c, %v0 {clamp} : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<1>
    // CHECK: amdgcn.v_add_u32 %{{.*}}, %{{.*}} : (!amdgcn.vgpr<0>, !amdgcn.vgpr<1>) -> !amdgcn.vgpr<?>
    %1 = amdgcn.v_add_u32 %v0, %0 : (!amdgcn.vgpr<0>, !amdgcn.vgpr<1>) -> !amdgcn.vgpr<?>
    // CHECK: amdgcn.global_load_dwordx4 %{{.*}}, %{{.*}} {offset = 16 : i32, sc0} : (!amdgcn.vgpr<0>, !amdgcn.sgpr<[0:1]>) -> !amdgcn.vgpr<[4:7]>
    %2 = amdgcn.global_load_dwordx4 %v0, %s {offset = 16 : i32, sc0} : (!amdgcn.vgpr<0>, !amdgcn.sgpr<[0:1]>) -> !amdgcn.vgpr<[4:7]>
    // CHECK: amdgcn.s_waitcnt {vmcnt = 0 : i32}
    amdgcn.s_waitcnt {vmcnt = 0 : i32}
    // CHECK: cf.br ^bb1
    cf.br ^bb1
  // CHECK: ^bb1:
  ^bb1:
    // CHECK: amdgcn.s_cbranch_scc1 ^bb1, ^bb2
    amdgcn.s_cbranch_scc1 ^bb1, ^bb2
  ^bb2:
    // CHECK: amdgcn.s_endpgm
    amdgcn.s_endpgm
  }
}
