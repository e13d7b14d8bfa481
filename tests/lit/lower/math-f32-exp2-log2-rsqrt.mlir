// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// f32 exp2 / log2 / rsqrt as ocml's f32 bodies and LLVM's lowering of them
// (cc/lower/LowerMath.cpp's header; llc-22 -mcpu=gfx942, with or without
// afn): exp2 adds 64 below -126 (0xc2fc0000) and scales back by v_ldexp_f32
// -64; log2 scales a denormal by v_ldexp_f32 32 and subtracts 32.0
// (0x42000000); rsqrt multiplies x < 2^-126 by 2^24 (0x4b800000) and the
// v_rsq_f32 result by 2^12 (0x45800000).

// CHECK-LABEL: amdgcn.kernel @k
// CHECK: amdgcn.v_cmp_gt_f32
// CHECK: amdgcn.v_add_f32
// CHECK: amdgcn.v_exp_f32
// CHECK: amdgcn.v_ldexp_f32
// CHECK: amdgcn.v_ldexp_f32
// CHECK: amdgcn.v_log_f32
// CHECK: amdgcn.v_sub_f32
// CHECK: amdgcn.v_mul_f32
// CHECK: amdgcn.v_rsq_f32
// CHECK: amdgcn.v_mul_f32
// CHECK: amdgcn.v_cndmask_b32
// CHECK-NOT: math.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xf32>
      %e = math.exp2 %v fastmath<afn> : f32
      %l = math.log2 %e : f32
      %r = math.rsqrt %l : f32
      memref.store %r, %x[%i] : memref<64xf32>
      gpu.return
    }
  }
}
