// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// index is 32 bits (docs/lowering.md): unsigned division of an index is
// LLVM's 32-bit AMDGPU expansion (v_rcp_iflag_f32 of the divisor, corrections),
// shrui a 32-bit shift, index_castui to i64 a zero high dword; no 64-bit
// arithmetic (LLVM's build agrees with index-bitwidth=32:
// tests/py/test_lower_fixes.py).

// CHECK-LABEL: amdgcn.kernel @k
// CHECK-NOT: amdgcn.v_mad_u64_u32
// CHECK-NOT: amdgcn.v_lshrrev_b64
// CHECK: amdgcn.v_rcp_iflag_f32
// CHECK-NOT: amdgcn.v_mad_u64_u32
// CHECK-NOT: amdgcn.v_lshrrev_b64
// CHECK: amdgcn.v_lshrrev_b32
// CHECK-NOT: amdgcn.v_lshrrev_b64
// CHECK: amdgcn.global_store_dwordx2
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<64xi32>, %y: memref<64xi32>, %o: memref<64xi32>, %u: memref<64xi64>) kernel {
      %i = gpu.thread_id x
      %aw = memref.load %x[%i] : memref<64xi32>
      %bw = memref.load %y[%i] : memref<64xi32>
      %a = arith.index_cast %aw : i32 to index
      %b = arith.index_cast %bw : i32 to index
      %q = arith.divui %a, %b : index
      %s = arith.shrui %q, %b : index
      %r = arith.index_cast %s : index to i32
      memref.store %r, %o[%i] : memref<64xi32>
      %z = arith.index_castui %a : index to i64
      memref.store %z, %u[%i] : memref<64xi64>
      gpu.return
    }
  }
}
