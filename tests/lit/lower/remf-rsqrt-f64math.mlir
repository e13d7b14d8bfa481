// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// arith.remf as LLVM expands frem (frexp of both operands, a loop of
// quotient-digit steps under EXEC, the exponent of y restored);
// math.rsqrt f16 as v_rcp_f16 of v_sqrt_f16 (llc-22's `fdiv 1.0, sqrt`),
// f64 as the rounded division of the rounded sqrt; f64 exp by Cody-Waite
// reduction (v_rndne_f64, v_fma_f64) and v_ldexp_f64, f64 log from
// v_frexp_mant_f64 / v_frexp_exp_i32_f64 and the special cases by
// v_cmp_class_f64.

// CHECK-LABEL: amdgcn.kernel @k
// CHECK: amdgcn.v_frexp_mant_f32
// CHECK: amdgcn.v_frexp_exp_i32_f32
// CHECK: amdgcn.v_div_fixup_f32
// CHECK: amdgcn.v_cmp_lt_i32
// CHECK: amdgcn.s_cbranch_execz
// CHECK: amdgcn.v_rndne_f32
// CHECK: amdgcn.v_ldexp_f32
// CHECK: amdgcn.v_bfi_b32
// CHECK: amdgcn.v_sqrt_f16
// CHECK-NEXT: amdgcn.v_rcp_f16
// CHECK: amdgcn.v_rsq_f64
// CHECK: amdgcn.v_div_fixup_f64
// CHECK: amdgcn.v_rndne_f64
// CHECK: amdgcn.v_ldexp_f64
// CHECK: amdgcn.v_frexp_mant_f64
// CHECK: amdgcn.v_cmp_class_f64
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<64xf32>, %h: memref<64xf16>, %d: memref<64xf64>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xf32>
      %c = arith.constant 0.75 : f32
      %r = arith.remf %v, %c : f32
      memref.store %r, %x[%i] : memref<64xf32>
      %hv = memref.load %h[%i] : memref<64xf16>
      %hr = math.rsqrt %hv : f16
      memref.store %hr, %h[%i] : memref<64xf16>
      %dv = memref.load %d[%i] : memref<64xf64>
      %dr = math.rsqrt %dv : f64
      %de = math.exp %dr : f64
      %dl = math.log %de : f64
      memref.store %dl, %d[%i] : memref<64xf64>
      gpu.return
    }
  }
}
