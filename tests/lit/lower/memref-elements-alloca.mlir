// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// 16-bit elements: global_load_ushort / ds_write_b16 / ds_read_u16 /
// global_store_short at byte offsets twice the index; 8-bit: ubyte / b8 /
// u8 / byte. An alloca read at a dynamic index is in scratch (the kernel's
// private_segment bytes); one at constant indices is registers only.

// CHECK-LABEL: amdgcn.kernel @narrow
// CHECK: amdgcn.global_load_ushort
// CHECK: amdgcn.ds_write_b16
// CHECK: amdgcn.ds_read_u16
// CHECK: amdgcn.global_store_short
// CHECK: amdgcn.global_load_ubyte
// CHECK: amdgcn.global_store_byte
// CHECK-LABEL: amdgcn.kernel @alloca
// CHECK-SAME: private_segment = 64
// CHECK-NOT: amdgcn.scratch_store_dword
// CHECK: amdgcn.scratch_store_dword_nosaddr
// CHECK: amdgcn.scratch_load_dword_nosaddr
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @narrow(%x: memref<64xf16>, %y: memref<64xf16>, %a: memref<64xi8>, %b: memref<64xi8>)
        workgroup(%t: memref<64xf16, #gpu.address_space<workgroup>>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xf16>
      memref.store %v, %t[%i] : memref<64xf16, #gpu.address_space<workgroup>>
      gpu.barrier
      %u = memref.load %t[%i] : memref<64xf16, #gpu.address_space<workgroup>>
      memref.store %u, %y[%i] : memref<64xf16>
      %c = memref.load %a[%i] : memref<64xi8>
      memref.store %c, %b[%i] : memref<64xi8>
      gpu.return
    }
    gpu.func @alloca(%x: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c15 = arith.constant 15 : index
      %r = memref.alloca() : memref<2xf32, #gpu.address_space<private>>
      %v = memref.load %x[%i] : memref<64xf32>
      memref.store %v, %r[%c0] : memref<2xf32, #gpu.address_space<private>>
      %s = memref.alloca() : memref<16xf32, #gpu.address_space<private>>
      %w = memref.load %r[%c0] : memref<2xf32, #gpu.address_space<private>>
      memref.store %w, %s[%c15] : memref<16xf32, #gpu.address_space<private>>
      %j = arith.andi %i, %c15 : index
      %u = memref.load %s[%j] : memref<16xf32, #gpu.address_space<private>>
      memref.store %u, %x[%i] : memref<64xf32>
      gpu.return
    }
  }
}
