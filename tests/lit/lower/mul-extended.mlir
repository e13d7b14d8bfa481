// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// mului_extended / mulsi_extended as llc-22 -mcpu=gfx942 selects upstream's
// lowering of them (cc/lower/LowerArithMulExtended.cpp): i32 high half
// alone v_mul_hi_u32 / v_mul_hi_i32; i64 of divergent values four
// v_mad_u64_u32 (the 128-bit product's columns through whole-range addends:
// v_lshrrev_b64 32, the middle column's carry by v_addc_co_u32), the signed
// high half less the sign words (v_ashrrev_i32 31) and-ed with the other
// operand (v_sub_co_u32 / v_subb_co_u32); of uniform i64 s_mul_i32 /
// s_mul_hi_u32 with the carries through SCC (s_add_u32 / s_addc_u32).

// CHECK-LABEL: amdgcn.kernel @v
// CHECK-DAG: amdgcn.v_mul_hi_u32
// CHECK-DAG: amdgcn.v_mul_hi_i32
// CHECK: amdgcn.v_mad_u64_u32
// CHECK: amdgcn.v_lshrrev_b64
// CHECK: amdgcn.v_mad_u64_u32
// CHECK: amdgcn.v_mad_u64_u32
// CHECK: amdgcn.v_lshrrev_b64
// CHECK: amdgcn.v_mad_u64_u32
// CHECK: amdgcn.v_addc_co_u32
// CHECK: amdgcn.v_ashrrev_i32
// CHECK: amdgcn.v_sub_co_u32
// CHECK: amdgcn.v_subb_co_u32
// CHECK-NOT: arith.mul
// CHECK-LABEL: amdgcn.kernel @u
// CHECK-DAG: amdgcn.s_mul_hi_u32
// CHECK-DAG: amdgcn.s_addc_u32
// CHECK-NOT: amdgcn.v_mad_u64_u32
// CHECK-NOT: arith.mul
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @v(%x: memref<64xi32>, %y: memref<64xi64>) kernel {
      %i = gpu.thread_id x
      %a = memref.load %x[%i] : memref<64xi32>
      %b = memref.load %y[%i] : memref<64xi64>
      %l1, %h1 = arith.mului_extended %a, %a : i32
      %l2, %h2 = arith.mulsi_extended %a, %h1 : i32
      memref.store %h2, %x[%i] : memref<64xi32>
      %l3, %h3 = arith.mulsi_extended %b, %b : i64
      %s = arith.addi %l3, %h3 : i64
      memref.store %s, %y[%i] : memref<64xi64>
      gpu.return
    }
    gpu.func @u(%p: i64, %q: i64, %y: memref<64xi64>) kernel {
      %i = gpu.thread_id x
      %l, %h = arith.mului_extended %p, %q : i64
      %s = arith.addi %l, %h : i64
      memref.store %s, %y[%i] : memref<64xi64>
      gpu.return
    }
  }
}
