// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// 64-bit atomics: i64 add is global_atomic_add_x2 (the data a VGPR pair),
// f64 add global_atomic_add_f64 in global memory and ds_add_f64 in LDS; a
// generic_atomic_rmw of i64 is a compare-and-swap loop on the pair
// (global_load_dwordx2, global_atomic_cmpswap_x2 returning, v_cmp_eq_u64).
// An f16 add is a loop on the dword at addr & ~3: the half shifted out, the
// sum placed back with v_bfi_b32 under 0xffff << 8 * (addr & 3), a 32-bit
// swap.

// CHECK-LABEL: amdgcn.kernel @k
// CHECK: amdgcn.global_atomic_add_x2 {{.*}}!amdgcn.vgpr<?x2, align 2>
// CHECK: amdgcn.global_atomic_add_f64
// CHECK: amdgcn.ds_add_f64
// CHECK: amdgcn.global_load_dwordx2
// CHECK: ^bb{{[0-9]+}}(%{{.*}}: !amdgcn.vgpr<?x2, align 2>):
// CHECK: amdgcn.v_mad_u64_u32
// CHECK: amdgcn.global_atomic_cmpswap_x2_rtn
// CHECK: amdgcn.v_cmp_eq_u64
// CHECK: amdgcn.s_cbranch_execz
// CHECK: amdgcn.global_load_dword
// CHECK: amdgcn.v_lshrrev_b32
// CHECK: amdgcn.v_add_f16
// CHECK: amdgcn.v_bfi_b32
// CHECK: amdgcn.global_atomic_cmpswap_rtn
// CHECK: amdgcn.v_cmp_eq_u32
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<64xi64>, %f: memref<64xf64>, %h: memref<64xf16>)
        workgroup(%l: memref<4xf64, #gpu.address_space<workgroup>>) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%i] : memref<64xi64>
      %w = memref.load %f[%i] : memref<64xf64>
      %hv = memref.load %h[%i] : memref<64xf16>
      %a = memref.atomic_rmw addi %v, %x[%c0] : (i64, memref<64xi64>) -> i64
      %b = memref.atomic_rmw addf %w, %f[%c0] : (f64, memref<64xf64>) -> f64
      %c = memref.atomic_rmw addf %w, %l[%c0] : (f64, memref<4xf64, #gpu.address_space<workgroup>>) -> f64
      %p = memref.generic_atomic_rmw %x[%i] : memref<64xi64> {
      ^bb0(%cur: i64):
        %m = arith.muli %cur, %v : i64
        memref.atomic_yield %m : i64
      }
      %e = memref.atomic_rmw addf %hv, %h[%c0] : (f16, memref<64xf16>) -> f16
      gpu.return
    }
  }
}
