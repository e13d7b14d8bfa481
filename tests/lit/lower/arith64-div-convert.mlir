// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// i64 division is LLVM's LowerUDIVREM64: an f32 reciprocal of the divisor
// (v_rcp_f32 of hi * 2^32 + lo) widened to 64 bits, two Newton rounds with
// 64-bit products (v_mad_u64_u32, v_mul_hi_u32), the quotient estimate and
// corrections on v_cmp_ge_u64. ceildivsi arrives as upstream's arith-expand
// rewrite (divisions, compares, selects). i64 -> f32 normalises with
// v_ffbh_u32 + v_lshlrev_b64 and scales with v_ldexp_f32; f32 -> i64 splits
// with v_floor_f32 of x * 2^-32; f64 -> i64 with v_ldexp_f64 / v_floor_f64;
// f64 -> f16 rounds to odd in f32 first, then v_cvt_f16_f32.

// CHECK-LABEL: amdgcn.kernel @k
// CHECK: amdgcn.v_rcp_f32
// CHECK: amdgcn.v_trunc_f32
// CHECK: amdgcn.v_mad_u64_u32
// CHECK: amdgcn.v_mul_hi_u32
// CHECK: amdgcn.v_cmp_ge_u64
// CHECK: amdgcn.v_ffbh_u32
// CHECK: amdgcn.v_lshlrev_b64
// CHECK: amdgcn.v_ldexp_f32
// CHECK: amdgcn.v_floor_f32
// CHECK: amdgcn.v_floor_f64
// CHECK: amdgcn.v_cvt_f32_f64
// CHECK: amdgcn.v_cmp_nlg_f64
// CHECK: amdgcn.v_cvt_f16_f32
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<64xi64>, %f: memref<64xf32>, %d: memref<64xf64>, %h: memref<64xf16>) kernel {
      %i = gpu.thread_id x
      %a = memref.load %x[%i] : memref<64xi64>
      %c7 = arith.constant 7 : i64
      %q = arith.divui %a, %c7 : i64
      %r = arith.ceildivsi %q, %a : i64
      %fa = arith.uitofp %r : i64 to f32
      %fv = memref.load %f[%i] : memref<64xf32>
      %fs = arith.addf %fa, %fv : f32
      %b = arith.fptosi %fs : f32 to i64
      %dv = memref.load %d[%i] : memref<64xf64>
      %c = arith.fptoui %dv : f64 to i64
      %s = arith.addi %b, %c : i64
      memref.store %s, %x[%i] : memref<64xi64>
      %hv = arith.truncf %dv : f64 to f16
      memref.store %hv, %h[%i] : memref<64xf16>
      gpu.return
    }
  }
}
