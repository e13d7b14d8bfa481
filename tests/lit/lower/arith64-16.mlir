// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// i64 values are dword pairs: a uniform i64 kernel argument is one
// s_load_dwordx2 and its arithmetic SALU with carries; divergent i64 add is
// v_lshl_add_u64, mul v_mad_u64_u32 plus the cross products, compares
// v_cmp_*_i64 on VGPR pairs. f64 is VALU on pairs (division: LLVM's
// v_div_scale/rcp/fma/fmas/fixup). f16 uses the f16 VALU; bf16 is computed
// in f32 and rounded back with LLVM's gfx942 sequence (v_bfe_u32 bit 16,
// v_add3_u32 with 0x7fff, NaN quieted by v_or_b32 0x400000).

// CHECK-LABEL: amdgcn.kernel @k
// CHECK: amdgcn.s_load_dwordx2
// CHECK: amdgcn.s_add_u32
// CHECK-NEXT: amdgcn.s_addc_u32
// CHECK: amdgcn.v_lshl_add_u64
// CHECK: amdgcn.v_mad_u64_u32
// CHECK: amdgcn.v_add3_u32
// CHECK: amdgcn.v_cmp_lt_i64
// CHECK: amdgcn.v_div_scale_f64
// CHECK: amdgcn.v_rcp_f64
// CHECK: amdgcn.v_div_fmas_f64
// CHECK: amdgcn.v_div_fixup_f64
// CHECK: amdgcn.v_add_f16
// CHECK: amdgcn.v_lshlrev_b32
// CHECK: amdgcn.v_add_f32
// CHECK: amdgcn.v_bfe_u32
// CHECK: amdgcn.v_add3_u32
// CHECK: amdgcn.v_cmp_u_f32
// CHECK: amdgcn.v_lshrrev_b32
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<64xi32>, %a: i64, %b: i64, %f: f64) kernel {
      %i = gpu.thread_id x
      %s = arith.addi %a, %b : i64
      %ii = arith.index_cast %i : index to i64
      %v = arith.addi %s, %ii : i64
      %m = arith.muli %v, %ii : i64
      %lt = arith.cmpi slt, %m, %v : i64
      %sel = arith.select %lt, %m, %v : i64
      %fi = arith.sitofp %sel : i64 to f64
      %q = arith.divf %f, %fi : f64
      %qf = arith.truncf %q : f64 to f32
      %h = arith.truncf %qf : f32 to f16
      %h2 = arith.addf %h, %h : f16
      %bf = arith.truncf %qf : f32 to bf16
      %b2 = arith.addf %bf, %bf : bf16
      %hi = arith.bitcast %h2 : f16 to i16
      %bi = arith.bitcast %b2 : bf16 to i16
      %hw = arith.extui %hi : i16 to i32
      %bw = arith.extui %bi : i16 to i32
      %r = arith.addi %hw, %bw : i32
      memref.store %r, %x[%i] : memref<64xi32>
      gpu.return
    }
  }
}
