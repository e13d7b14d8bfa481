// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// f64 sin: k = rint(x 2/pi) (v_rndne_f64), x - k pi/2 by fmas (Cody-Waite,
// three parts); above 2^50 Payne-Hanek from x's exponent (v_frexp_exp,
// v_ldexp_f64 of the pieces); the quadrant k mod 4 (v_floor_f64,
// v_cvt_i32_f64), NaN for +-inf and NaN (v_cmp_class_f64). atan2: the correctly rounded f64 division
// (v_div_scale_f64 ... v_div_fixup_f64), the sign of y (v_bfi_b32). cbrt:
// v_frexp_mant/exp_f64, an f32 first guess (v_log_f32, v_exp_f32), Newton
// steps (v_rcp_f64), v_ldexp_f64. math.sincos: a math.sin and a math.cos.
// erf: e^-x^2 of the f64 exp (v_ldexp_f64).

// CHECK-LABEL: amdgcn.kernel @k
// CHECK: amdgcn.v_rndne_f64
// CHECK: amdgcn.v_fma_f64
// CHECK: amdgcn.v_frexp_exp_i32_f64
// CHECK: amdgcn.v_ldexp_f64
// CHECK: amdgcn.v_floor_f64
// CHECK: amdgcn.v_cvt_i32_f64
// CHECK: amdgcn.v_cmp_class_f64
// CHECK: amdgcn.v_div_scale_f64
// CHECK: amdgcn.v_div_fixup_f64
// CHECK: amdgcn.v_bfi_b32
// CHECK: amdgcn.v_frexp_mant_f64
// CHECK: amdgcn.v_log_f32
// CHECK: amdgcn.v_rcp_f64
// CHECK: amdgcn.v_ldexp_f64
// CHECK: amdgcn.v_rndne_f64
// CHECK: amdgcn.v_rndne_f64
// CHECK: amdgcn.v_rcp_f64
// CHECK-NOT: math.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<64xf64>, %y: memref<64xf64>) kernel {
      %i = gpu.thread_id x
      %xv = memref.load %x[%i] : memref<64xf64>
      %yv = memref.load %y[%i] : memref<64xf64>
      %s = math.sin %xv : f64
      %a = math.atan2 %s, %yv : f64
      %c = math.cbrt %a : f64
      memref.store %c, %x[%i] : memref<64xf64>
      %s2, %c2 = math.sincos %yv : f64
      %e = math.erf %s2 : f64
      %t = arith.addf %e, %c2 : f64
      memref.store %t, %y[%i] : memref<64xf64>
      gpu.return
    }
  }
}
