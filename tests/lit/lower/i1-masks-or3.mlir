// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// i1 lane masks and or-chains as llc-22 -mcpu=gfx942 selects them
// (cc/lower/LowerArith.cpp): cmpi slt of i1 (a & ~b after LowerArithExpand)
// is s_andn2_b64 (no s_xor_b64 of b with -1), sle (a | ~b) s_orn2_b64, a
// uniform i1 becomes a mask once per block (one s_cselect_b64 for its two
// uses), and (a | b) | c of VGPRs one v_or3_b32.

// CHECK-LABEL: amdgcn.kernel @k
// CHECK-NOT: amdgcn.s_xor_b64
// CHECK: amdgcn.s_andn2_b64
// CHECK-NOT: amdgcn.s_xor_b64
// CHECK: amdgcn.s_orn2_b64
// CHECK: amdgcn.s_cselect_b64
// CHECK-NOT: amdgcn.s_cselect_b64
// CHECK: amdgcn.v_or3_b32
// CHECK-NOT: amdgcn.s_cselect_b64
// CHECK: amdgcn.s_endpgm
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<64xi32>, %s: i32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xi32>
      %w = arith.addi %v, %s : i32
      %a = arith.trunci %v : i32 to i1
      %b = arith.trunci %w : i32 to i1
      %u = arith.trunci %s : i32 to i1
      %lt = arith.cmpi slt, %a, %b : i1
      %le = arith.cmpi sle, %a, %b : i1
      %m1 = arith.andi %lt, %u : i1
      %m2 = arith.ori %le, %u : i1
      %e1 = arith.extui %m1 : i1 to i32
      %e2 = arith.extui %m2 : i1 to i32
      %o1 = arith.ori %e1, %e2 : i32
      %o2 = arith.ori %o1, %w : i32
      memref.store %o2, %x[%i] : memref<64xi32>
      gpu.return
    }
  }
}
