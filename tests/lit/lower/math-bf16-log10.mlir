// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// bf16 math as llc-22 -mcpu=gfx942 promotes llvm.exp.bf16 / llvm.exp2.bf16:
// the bf16 shifted into an f32 (v_lshlrev_b32 16), the f32 expansion
// (exp: v_rndne_f32, v_exp_f32, v_ldexp_f32; exp2: x < -126 moved up by 64
// and the result scaled back with v_ldexp_f32), rounded back to nearest even
// (v_bfe_u32 bit 16, v_add3_u32 0x7fff, a NaN quieted); absf clears bit 15.
// log10 f32 is llvm.log10.f32: v_log_f32 times log10(2) split in two f32s
// (0x3e9a209a, 0x3284fbcf), less 32 log10(2) for a denormal input.

// CHECK-LABEL: amdgcn.kernel @k
// CHECK: amdgcn.v_lshlrev_b32
// CHECK: amdgcn.v_rndne_f32
// CHECK: amdgcn.v_exp_f32
// CHECK: amdgcn.v_ldexp_f32
// CHECK: amdgcn.v_add3_u32
// CHECK: amdgcn.v_exp_f32
// CHECK: amdgcn.v_ldexp_f32
// CHECK: amdgcn.v_add3_u32
// CHECK: amdgcn.v_and_b32
// CHECK: amdgcn.v_log_f32
// CHECK: arith.constant 0.30102998 : f32
// CHECK: arith.constant 1.54813318E-8 : f32
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%b: memref<64xbf16>, %x: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %bv = memref.load %b[%i] : memref<64xbf16>
      %e = math.exp %bv : bf16
      %e2 = math.exp2 %e : bf16
      %a = math.absf %e2 : bf16
      memref.store %a, %b[%i] : memref<64xbf16>
      %xv = memref.load %x[%i] : memref<64xf32>
      %l = math.log10 %xv : f32
      memref.store %l, %x[%i] : memref<64xf32>
      gpu.return
    }
  }
}
