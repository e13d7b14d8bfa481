// RUN: aster-translate --mlir-to-asm %s | FileCheck %s
// WYSIWYG: the assembly is exactly the IR, in order, nothing removed.

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k(out: !amdgcn.ptr<f32>, n: i32) attributes {block = array<i32: 64, 1, 1>, lds = 1024 : i32} {
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    %v1 = amdgcn.reg : !amdgcn.vgpr<1>
    %s01 = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    %a = amdgcn.reg : !amdgcn.agpr<[0:3]>
    %v23 = amdgcn.reg : !amdgcn.vgpr<[2:3]>
    %c42 = arith.constant 42 : i32
    %one = arith.constant 1.0 : f32
    %pi = arith.constant 3.14159274 : f32
    %c16 = arith.constant 16 : i32
    // CHECK:      .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
    // CHECK:      k:
    // CHECK-NEXT:   v_add_u32 v1, v0, v1
    %0 = amdgcn.v_add_u32 %v0, %v1 : (!amdgcn.vgpr<0>, !amdgcn.vgpr<1>) -> !amdgcn.vgpr<1>
    // CHECK-NEXT:   v_add_u32 v1, 42, v1 clamp
    %1 = amdgcn.v_add_u32 %c42, %v1 {clamp} : (i32, !amdgcn.vgpr<1>) -> !amdgcn.vgpr<1>
    // CHECK-NEXT:   v_add_f32 v1, 1.0, v1
    %2 = amdgcn.v_add_f32 %one, %v1 : (f32, !amdgcn.vgpr<1>) -> !amdgcn.vgpr<1>
    // CHECK-NEXT:   v_mul_f32 v1, 0x40490fdb, v1
    %3 = amdgcn.v_mul_f32 %pi, %v1 : (f32, !amdgcn.vgpr<1>) -> !amdgcn.vgpr<1>
    // CHECK-NEXT:   s_load_dword s4, s[0:1], 0x10
    %4 = amdgcn.s_load_dword %s01, %c16 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<4>
    // CHECK-NEXT:   global_load_dword v4, v[2:3], off offset:16 sc0 nt
    %5 = amdgcn.global_load_dword %v23 {offset = 16 : i32, sc0, nt} : (!amdgcn.vgpr<[2:3]>) -> !amdgcn.vgpr<4>
    // CHECK-NEXT:   s_waitcnt vmcnt(0) lgkmcnt(0)
    amdgcn.s_waitcnt {vmcnt = 0 : i32, lgkmcnt = 0 : i32}
    // CHECK-NEXT:   v_mfma_f32_16x16x16_f16 a[0:3], v[2:3], v[2:3], a[0:3]
    %6 = amdgcn.v_mfma_f32_16x16x16_f16 %v23, %v23, %a : (!amdgcn.vgpr<[2:3]>, !amdgcn.vgpr<[2:3]>, !amdgcn.agpr<[0:3]>) -> !amdgcn.agpr<[0:3]>
    // CHECK-NEXT:   v_mfma_f32_16x16x16_f16 a[0:3], v[2:3], v[2:3], a[0:3]
    %7 = amdgcn.v_mfma_f32_16x16x16_f16 %v23, %v23, %a : (!amdgcn.vgpr<[2:3]>, !amdgcn.vgpr<[2:3]>, !amdgcn.agpr<[0:3]>) -> !amdgcn.agpr<[0:3]>
    // CHECK-NEXT:   s_nop 3
    amdgcn.s_nop {imm = 3 : i32}
    // CHECK-NEXT: .LBB0_1:
    cf.br ^bb1
  ^bb1:
    // CHECK-NEXT:   s_cbranch_scc1 .LBB0_1
    amdgcn.s_cbranch_scc1 ^bb1, ^bb2
    // CHECK-NEXT: .LBB0_2:
  ^bb2:
    // CHECK-NEXT:   s_endpgm
    amdgcn.s_endpgm
  }
}
// CHECK: .amdhsa_kernel k
// CHECK:   .amdhsa_group_segment_fixed_size 1024
// CHECK:   .amdhsa_kernarg_size 12
// CHECK:   .amdhsa_user_sgpr_count 2
// CHECK:   .amdhsa_user_sgpr_kernarg_segment_ptr 1
// CHECK:   .amdhsa_system_sgpr_workgroup_id_x 1
// CHECK:   .amdhsa_next_free_vgpr 12
// CHECK:   .amdhsa_next_free_sgpr 5
// CHECK:   .amdhsa_accum_offset 8
// CHECK: .end_amdhsa_kernel
// CHECK: .amdgpu_metadata
// CHECK:      .agpr_count: 4
// CHECK:      .name: out
// CHECK-NEXT: .offset: 0
// CHECK-NEXT: .size: 8
// CHECK:      .value_kind: global_buffer
// CHECK:      .name: n
// CHECK-NEXT: .offset: 8
// CHECK-NEXT: .size: 4
// CHECK:      .value_kind: by_value
// CHECK: .kernarg_segment_size: 12
// CHECK: .max_flat_workgroup_size: 64
// CHECK: .symbol: k.kd
// CHECK: amdhsa.version:
