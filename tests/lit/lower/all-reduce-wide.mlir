// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// gpu.all_reduce of an i64 without known_block_size, inside an scf.for:
// the block size from the dispatch packet (u16 fields at bytes 4 and 8),
// each dword moved by its own ds_swizzle (and-mask ~(k-1) for the partial
// last wave: 0x1e = 30 | 2 << 10 = 2078 at k = 2) with a lane check
// (v_cmp_lt_u32, v_cndmask_b32 per dword; at k = 1 0x1f | 1 << 10 = 1055;
// the 64-bit add v_lshl_add_u64), one 8-byte slot per wave, the
// waves' values in a uniform loop (s_cbranch_scc1), a second s_barrier
// after the reads (the loop's next iteration rewrites the scratch), the
// result read back with v_readfirstlane_b32 per dword.

// CHECK-LABEL: amdgcn.kernel @k
// CHECK: amdgcn.s_load_dword {{.*}}c4_i32
// CHECK: amdgcn.s_load_dword {{.*}}c8_i32
// CHECK: amdgcn.ds_swizzle_b32 {{.*}}offset = 1055
// CHECK: amdgcn.ds_swizzle_b32 {{.*}}offset = 1055
// CHECK: amdgcn.v_lshl_add_u64
// CHECK: amdgcn.v_cmp_lt_u32
// CHECK: amdgcn.v_cndmask_b32
// CHECK: amdgcn.v_cndmask_b32
// CHECK: amdgcn.ds_swizzle_b32 {{.*}}offset = 2078
// CHECK: amdgcn.ds_bpermute_b32
// CHECK: amdgcn.ds_bpermute_b32
// CHECK: amdgcn.ds_write_b64
// CHECK: amdgcn.s_barrier
// CHECK: amdgcn.ds_read_b64
// CHECK: amdgcn.s_cbranch_scc1
// CHECK: amdgcn.s_barrier
// CHECK: amdgcn.v_readfirstlane_b32
// CHECK: amdgcn.v_readfirstlane_b32
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<1024xi64>) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %v = memref.load %x[%i] : memref<1024xi64>
      %r = scf.for %k = %c0 to %c2 step %c1 iter_args(%a = %v) -> (i64) {
        %s = gpu.all_reduce add %a uniform {} : (i64) -> i64
        scf.yield %s : i64
      }
      memref.store %r, %x[%i] : memref<1024xi64>
      gpu.return
    }
  }
}
