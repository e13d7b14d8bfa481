// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// gpu.shuffle reads the source lane with ds_bpermute_b32 (byte address =
// lane * 4); a whole-wave subgroup_reduce is a butterfly of ds_swizzle_b32
// within 32 lanes and one ds_bpermute_b32 across the halves, read back into
// an SGPR (the result is uniform).

// CHECK-LABEL: amdgcn.kernel @k
// CHECK: amdgcn.v_mbcnt_lo_u32_b32
// CHECK: amdgcn.v_mbcnt_hi_u32_b32
// CHECK: amdgcn.v_xor_b32
// CHECK: amdgcn.ds_bpermute_b32
// CHECK-COUNT-5: amdgcn.ds_swizzle_b32
// CHECK: amdgcn.ds_bpermute_b32
// CHECK: amdgcn.v_readfirstlane_b32 {{.*}} -> !amdgcn.sgpr<?>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<64xi32>, %y: memref<64xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xi32>
      %c1 = arith.constant 1 : i32
      %c64 = arith.constant 64 : i32
      %s, %ok = gpu.shuffle xor %v, %c1, %c64 : i32
      %r = gpu.subgroup_reduce add %s : (i32) -> i32
      memref.store %r, %y[%i] : memref<64xi32>
      gpu.return
    }
  }
}
