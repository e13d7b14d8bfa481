// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// Reductions of 16- and 8-bit values: the dword holding the value moves
// (ds_swizzle_b32 with xor mask 1 at step 1: 0x1f | 1 << 10 = 1055,
// ds_bpermute_b32 across the halves, one ds_write_b32 slot per wave) and
// each step combines with the type's arith lowering: f16 add is
// v_add_f16 (6 butterfly steps, then the second wave's slot: 7), an i8
// signed max sign-extends both low bytes first (v_bfe_i32 x, 0, 8).

// CHECK-LABEL: amdgcn.kernel @f16_sum
// CHECK: amdgcn.ds_swizzle_b32 {{.*}}offset = 1055
// CHECK-NEXT: amdgcn.v_add_f16
// CHECK-COUNT-5: amdgcn.v_add_f16
// CHECK: amdgcn.ds_write_b32
// CHECK: amdgcn.s_barrier
// CHECK: amdgcn.ds_read_b32
// CHECK: amdgcn.ds_read_b32
// CHECK: amdgcn.v_add_f16
// CHECK-NOT: amdgcn.v_add_f32
// CHECK: amdgcn.v_readfirstlane_b32
// CHECK: amdgcn.global_store_short
// CHECK-LABEL: amdgcn.kernel @i8_max
// CHECK: amdgcn.ds_swizzle_b32
// CHECK: amdgcn.v_bfe_i32 %{{[0-9]+}}, %c0_i32{{.*}}, %c8_i32
// CHECK: amdgcn.v_max_i32
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @f16_sum(%x: memref<128xf16>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<128xf16>
      %r = gpu.all_reduce add %v uniform {} : (f16) -> f16
      memref.store %r, %x[%i] : memref<128xf16>
      gpu.return
    }
    gpu.func @i8_max(%x: memref<64xi8>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xi8>
      %r = gpu.subgroup_reduce maxsi %v : (i8) -> i8
      memref.store %r, %x[%i] : memref<64xi8>
      gpu.return
    }
  }
}
