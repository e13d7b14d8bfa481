// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// Odd-sized and per-element vector accesses (LowerVectorMasked.cpp) and
// vector elements through vector.type_cast (LowerVectorTypeCast.cpp).
// llc-22 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -O3 on a load + store of
// <3 x i8> at align 1 selects:
//   global_load_ubyte v1, v0, s[0:1] offset:2
//   global_load_ushort v2, v0, s[0:1]
// of <3 x half> at align 2: global_load_ushort offset:4 + global_load_dword;
// of <5 x i8>: global_load_ubyte offset:4 + global_load_dword; in LDS
// (addrspace 3) <3 x i8>: ds_read_u8 offset:2 + ds_read_u16. aster: the
// same pieces; the third byte of a stored word by global_store_byte_d16_hi.
// An out-of-bounds transfer_read of vector<2xf16> loads each element with
// global_load_ushort under a clamped offset and selects the padding
// (v_cndmask_b32); a masked transfer_write of vector<2xf64> stores each
// element with global_store_dwordx2 under s_and_saveexec_b64.

// CHECK-LABEL: amdgcn.kernel @odd
// CHECK: amdgcn.global_load_ushort
// CHECK: amdgcn.global_load_ubyte
// CHECK: amdgcn.v_lshl_or_b32
// CHECK: amdgcn.global_store_short
// CHECK: amdgcn.global_store_byte_d16_hi
// CHECK: amdgcn.global_load_dword
// CHECK: amdgcn.global_load_ushort
// CHECK: amdgcn.ds_read_u16
// CHECK: amdgcn.ds_read_u8
// CHECK-LABEL: amdgcn.kernel @edge
// CHECK: amdgcn.v_cmp_lt_i32
// CHECK: amdgcn.v_cndmask_b32
// CHECK: amdgcn.global_load_ushort
// CHECK: amdgcn.v_cndmask_b32
// CHECK: amdgcn.s_and_saveexec_b64
// CHECK: amdgcn.global_store_dwordx2
// CHECK-LABEL: amdgcn.kernel @typecast
// CHECK: amdgcn.global_load_dwordx4
// CHECK: amdgcn.global_store_dwordx4
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @odd(%b: memref<512xi8>, %h: memref<512xf16>, %o: memref<512xi8>)
        workgroup(%l: memref<512xi8, #gpu.address_space<workgroup>>) kernel {
      %i = gpu.thread_id x
      %c3 = arith.constant 3 : index
      %b3 = arith.muli %i, %c3 : index
      %v = vector.load %b[%b3] : memref<512xi8>, vector<3xi8>
      vector.store %v, %o[%b3] : memref<512xi8>, vector<3xi8>
      %w = vector.load %h[%b3] : memref<512xf16>, vector<3xf16>
      vector.store %w, %h[%b3] : memref<512xf16>, vector<3xf16>
      %x = vector.load %l[%b3] : memref<512xi8, #gpu.address_space<workgroup>>, vector<3xi8>
      vector.store %x, %o[%b3] : memref<512xi8>, vector<3xi8>
      gpu.return
    }
    gpu.func @edge(%h: memref<?xf16>, %d: memref<128xf64>, %o: memref<128xf16>) kernel {
      %i = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %b2 = arith.muli %i, %c2 : index
      %pad = arith.constant -1.5 : f16
      %v = vector.transfer_read %h[%b2], %pad : memref<?xf16>, vector<2xf16>
      vector.store %v, %o[%b2] : memref<128xf16>, vector<2xf16>
      %k = arith.remui %i, %c3 : index
      %mk = vector.create_mask %k : vector<2xi1>
      %dv = vector.load %d[%b2] : memref<128xf64>, vector<2xf64>
      vector.transfer_write %dv, %d[%b2], %mk {in_bounds = [true]} : vector<2xf64>, memref<128xf64>
      gpu.return
    }
    gpu.func @typecast(%x: memref<64x4xf32>) kernel {
      %i = gpu.thread_id x
      %t = vector.type_cast %x : memref<64x4xf32> to memref<64xvector<4xf32>>
      %v = memref.load %t[%i] : memref<64xvector<4xf32>>
      %v2 = arith.addf %v, %v : vector<4xf32>
      memref.store %v2, %t[%i] : memref<64xvector<4xf32>>
      gpu.return
    }
  }
}
