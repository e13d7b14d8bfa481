// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// A kernel body of several blocks (cf.cond_br on a divergent condition) is
// lifted to scf first, then masks EXEC. gpu.all_reduce: each wave's
// ds_swizzle/ds_bpermute butterfly, one dword per wave to LDS scratch (after
// the static attribution: offset 16), s_barrier, the 4 waves' values read
// back. gpu.dynamic_shared_memory starts after the static LDS (16 + 16
// bytes of scratch: offset 32, plus the view's byte shift 8 = 40).

// CHECK-LABEL: amdgcn.kernel @k
// CHECK-SAME: lds = 32
// CHECK: amdgcn.s_and_saveexec_b64
// CHECK: amdgcn.s_cbranch_execz
// CHECK-COUNT-5: amdgcn.ds_swizzle_b32
// CHECK: amdgcn.ds_bpermute_b32
// CHECK: amdgcn.ds_write_b32 {{.*}}offset = 16
// CHECK: amdgcn.s_barrier
// CHECK-COUNT-4: amdgcn.ds_read_b32
// CHECK: amdgcn.ds_write_b32 {{.*}}offset = 40
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<256xi32>) workgroup(%s: memref<4xi32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%i] : memref<256xi32>
      %p = arith.cmpi eq, %i, %c0 : index
      cf.cond_br %p, ^bb1, ^bb2(%v : i32)
    ^bb1:
      %one = arith.constant 1 : i32
      %w = arith.addi %v, %one : i32
      cf.br ^bb2(%w : i32)
    ^bb2(%u: i32):
      %r = gpu.all_reduce add %u uniform {} : (i32) -> i32
      %c8 = arith.constant 8 : index
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %buf = memref.view %dyn[%c8][] : memref<?xi8, #gpu.address_space<workgroup>>
               to memref<256xi32, #gpu.address_space<workgroup>>
      memref.store %r, %buf[%c0] : memref<256xi32, #gpu.address_space<workgroup>>
      memref.store %r, %x[%i] : memref<256xi32>
      gpu.return
    }
  }
}
