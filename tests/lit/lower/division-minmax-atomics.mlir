// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// Integer division is LLVM's AMDGPU expansion (v_rcp_iflag_f32 of the
// divisor, one Newton step, two corrections); signed divides magnitudes.
// f32 division is v_div_scale (x2, the numerator's sdst in vcc), v_rcp,
// fma refinements, v_div_fmas (reads vcc), v_div_fixup. minimumf is
// v_min_f32 then the quiet NaN where unordered. A clustered subgroup_reduce
// stops the butterfly at the cluster (no cross-half ds_bpermute, a VGPR
// result). An atomic whose result is unused is the non-returning form.

// CHECK-LABEL: amdgcn.kernel @k
// CHECK: amdgcn.v_ashrrev_i32
// CHECK: amdgcn.v_rcp_iflag_f32
// CHECK: amdgcn.v_mul_hi_u32
// CHECK-COUNT-2: amdgcn.v_cmp_ge_u32
// CHECK-COUNT-3: amdgcn.ds_swizzle_b32
// CHECK-NOT: amdgcn.ds_bpermute_b32
// CHECK: amdgcn.global_store_dword
// CHECK: amdgcn.v_div_scale_f32 {{.*}} -> (!amdgcn.vgpr<?>, !amdgcn.sgpr<?x2
// CHECK: amdgcn.v_div_scale_f32 {{.*}} -> (!amdgcn.vgpr<?>, !amdgcn.vcc)
// CHECK: amdgcn.v_rcp_f32
// CHECK: amdgcn.v_div_fmas_f32
// CHECK: amdgcn.v_div_fixup_f32
// CHECK: amdgcn.v_min_f32
// CHECK: amdgcn.v_cmp_o_f32
// CHECK: amdgcn.v_cndmask_b32
// CHECK: amdgcn.global_atomic_add_f32 {{.*}} :
// CHECK-NOT: global_atomic_add_f32_rtn
// CHECK: amdgcn.global_atomic_smax_rtn
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<64xi32>, %f: memref<64xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %a = memref.load %x[%i] : memref<64xi32>
      %q = arith.divsi %a, %a : i32
      %r = gpu.subgroup_reduce add %q cluster(size = 8) : (i32) -> i32
      memref.store %r, %x[%i] : memref<64xi32>
      %fa = memref.load %f[%i] : memref<64xf32>
      %fd = arith.divf %fa, %fa : f32
      %fm = arith.minimumf %fd, %fa : f32
      %o = memref.atomic_rmw addf %fm, %f[%i] : (f32, memref<64xf32>) -> f32
      %m = memref.atomic_rmw maxs %a, %x[%i] : (i32, memref<64xi32>) -> i32
      memref.store %m, %x[%i] : memref<64xi32>
      gpu.return
    }
  }
}
