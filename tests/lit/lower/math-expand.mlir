// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// math ops without an instruction go through upstream MLIR's own
// expansions before the walk: tanh by its polynomial approximation (fma
// chains, v_fma_f32), powf by math-expand-ops (exp and log, lowered as
// LLVM expands llvm.exp/log.f32: v_exp_f32, v_log_f32), f16 atan extended to
// f32 and back (v_cvt_f32_f16 ... v_cvt_f16_f32). Natively lowered: f16
// sqrt (v_sqrt_f16), f64 sqrt (LLVM's v_rsq_f64 + fma refinement), floor
// (v_floor_f32), copysign (v_bfi_b32).

// CHECK-LABEL: amdgcn.kernel @k
// CHECK: amdgcn.v_fma_f32
// CHECK: amdgcn.v_log_f32
// CHECK: amdgcn.v_exp_f32
// CHECK: amdgcn.v_cvt_f32_f16
// CHECK: amdgcn.v_cvt_f16_f32
// CHECK: amdgcn.v_sqrt_f16
// CHECK: amdgcn.v_rsq_f64
// CHECK: amdgcn.v_cmp_class_f64
// CHECK: amdgcn.v_floor_f32
// CHECK: amdgcn.v_bfi_b32
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<64xf32>, %h: memref<64xf16>, %d: memref<64xf64>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xf32>
      %t = math.tanh %v : f32
      %p = math.powf %v, %t : f32
      memref.store %p, %x[%i] : memref<64xf32>
      %hv = memref.load %h[%i] : memref<64xf16>
      %ha = math.atan %hv : f16
      %hs = math.sqrt %ha : f16
      memref.store %hs, %h[%i] : memref<64xf16>
      %dv = memref.load %d[%i] : memref<64xf64>
      %ds = math.sqrt %dv : f64
      memref.store %ds, %d[%i] : memref<64xf64>
      %fl = math.floor %v : f32
      %cs = math.copysign %fl, %t : f32
      memref.store %cs, %x[%i] : memref<64xf32>
      gpu.return
    }
  }
}
