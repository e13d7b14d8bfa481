// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// Issue 26's arith gaps, as llc-22 -mcpu=gfx942 selects them:
// ctlz v_ffbh_u32 + v_min_u32 32, cttz v_ffbl_b32 + v_min_u32 32, ctpop
// v_bcnt_u32_b32, absi v_sub + v_max_i32; isnan / isfinite v_cmp_class
// (masks 3 / 0x1f8); clampf v_med3_f32; minimumf f16 v_min_f16, v_cmp_o_f16,
// the quiet NaN 0x7e00 (v_cndmask_b32); maximumf f64 v_max_f64; i1 slt as
// a & ~b (s_xor / s_and of lane masks); mului_extended i32 through the i64
// product (v_mad_u64_u32).

// CHECK-LABEL: amdgcn.kernel @k
// CHECK-DAG: amdgcn.v_ffbh_u32
// CHECK-DAG: amdgcn.v_ffbl_b32
// CHECK-DAG: amdgcn.v_bcnt_u32_b32
// CHECK-DAG: amdgcn.v_max_i32
// CHECK-DAG: amdgcn.v_cmp_class_f32
// CHECK-DAG: amdgcn.v_med3_f32
// CHECK-DAG: amdgcn.v_min_f16
// CHECK-DAG: amdgcn.v_cmp_o_f16
// CHECK-DAG: amdgcn.v_max_f64
// CHECK-DAG: amdgcn.v_cmp_o_f64
// CHECK-DAG: amdgcn.v_mad_u64_u32
// CHECK-NOT: arith.mului_extended
// CHECK-NOT: math.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<64xi32>, %f: memref<64xf32>, %h: memref<64xf16>, %d: memref<64xf64>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xi32>
      %a = math.ctlz %v : i32
      %b = math.cttz %v : i32
      %c = math.ctpop %v : i32
      %e = math.absi %v : i32
      %s1 = arith.addi %a, %b : i32
      %s2 = arith.addi %s1, %c : i32
      %s3 = arith.addi %s2, %e : i32
      %lo, %hi = arith.mului_extended %s3, %v : i32
      %one = arith.constant 1 : i32
      %p = arith.trunci %v : i32 to i1
      %q = arith.trunci %hi : i32 to i1
      %lt = arith.cmpi slt, %p, %q : i1
      %fv = memref.load %f[%i] : memref<64xf32>
      %nan = math.isnan %fv : f32
      %fin = math.isfinite %fv : f32
      %n1 = arith.xori %nan, %fin : i1
      %n2 = arith.xori %n1, %lt : i1
      %w = arith.extui %n2 : i1 to i32
      %s4 = arith.addi %lo, %w : i32
      memref.store %s4, %x[%i] : memref<64xi32>
      %z = arith.constant 0.0 : f32
      %o = arith.constant 1.0 : f32
      %cl = math.clampf %fv to [%z, %o] : f32
      memref.store %cl, %f[%i] : memref<64xf32>
      %hv = memref.load %h[%i] : memref<64xf16>
      %hz = arith.constant 0.5 : f16
      %hm = arith.minimumf %hv, %hz : f16
      memref.store %hm, %h[%i] : memref<64xf16>
      %dv = memref.load %d[%i] : memref<64xf64>
      %dz = arith.constant 0.5 : f64
      %dm = arith.maximumf %dv, %dz : f64
      memref.store %dm, %d[%i] : memref<64xf64>
      gpu.return
    }
  }
}
