// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// The memref / vector / gpu gaps of issue 26 (LowerMemExpand.cpp,
// LowerVectorBitcast.cpp, LowerMemrefGlobal.cpp, LowerMemrefViews.cpp,
// LowerVectorTransfer.cpp): a vector<4xf16> load at 2-byte alignment is one
// global_load_dwordx2 (what llc-22 -mcpu=gfx942 selects), a vector<2xi8> a
// ushort; a vector<2xf16> shuffle is one ds_bpermute_b32 of its dword (the
// bitcast moves no bits); gpu.rotate is ds_bpermute_b32 from ((lane + 5) &
// 31) | (lane & ~31); a constant memref.global is an amdgcn.global in
// .rodata read through s_getpc_b64 + rel32 relocations; a memref.copy of a
// contiguous 4-element subview one dwordx4 load and store; memref.transpose no instruction.

// CHECK-LABEL: amdgcn.kernel @narrow
// CHECK: amdgcn.global_load_dwordx2
// CHECK: amdgcn.global_load_ushort
// CHECK: amdgcn.global_store_dwordx2
// CHECK: amdgcn.global_store_short
// CHECK-LABEL: amdgcn.kernel @shuffle_v2f16
// CHECK: amdgcn.ds_bpermute_b32
// CHECK-NOT: amdgcn.ds_bpermute_b32
// CHECK: amdgcn.global_store_dword
// CHECK-LABEL: amdgcn.kernel @rotate
// CHECK: amdgcn.v_mbcnt_hi_u32_b32
// CHECK: amdgcn.ds_bpermute_b32
// CHECK-LABEL: amdgcn.kernel @read_table
// CHECK: amdgcn.s_getpc_b64
// CHECK: amdgcn.reloc @table "rel32@lo" 4
// CHECK: amdgcn.reloc @table "rel32@hi" 12
// CHECK: amdgcn.global_load_dword
// CHECK: amdgcn.global @table {{.*}}constant, data = dense<[1.500000e+00, -2.000000e+00, 3.000000e+00, 4.000000e+00]>{{.*}}section = ".rodata"
// CHECK-LABEL: amdgcn.kernel @copy
// CHECK: amdgcn.global_load_dwordx4
// CHECK: amdgcn.global_store_dwordx4
// CHECK-LABEL: amdgcn.kernel @transpose
// CHECK-NOT: amdgcn.s_mul_i32
// CHECK: amdgcn.global_load_dword
module attributes {gpu.container_module} {
  gpu.module @m {
    memref.global "private" constant @table : memref<4xf32> = dense<[1.5, -2.0, 3.0, 4.0]>
    gpu.func @narrow(%x: memref<256xf16>, %b: memref<256xi8>) kernel {
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %j = arith.addi %i, %c1 : index
      %v = vector.load %x[%j] : memref<256xf16>, vector<4xf16>
      %p = vector.load %b[%j] : memref<256xi8>, vector<2xi8>
      vector.store %v, %x[%i] : memref<256xf16>, vector<4xf16>
      vector.store %p, %b[%i] : memref<256xi8>, vector<2xi8>
      gpu.return
    }
    gpu.func @shuffle_v2f16(%x: memref<64xi32>) kernel {
      %i = gpu.thread_id x
      %c5 = arith.constant 5 : i32
      %c64 = arith.constant 64 : i32
      %w = vector.load %x[%i] : memref<64xi32>, vector<1xi32>
      %v = vector.bitcast %w : vector<1xi32> to vector<2xf16>
      %s, %ok = gpu.shuffle xor %v, %c5, %c64 : vector<2xf16>
      %r = vector.bitcast %s : vector<2xf16> to vector<1xi32>
      vector.store %r, %x[%i] : memref<64xi32>, vector<1xi32>
      gpu.return
    }
    gpu.func @rotate(%x: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xf32>
      %r, %ok = gpu.rotate %v, 5, 32 : f32
      memref.store %r, %x[%i] : memref<64xf32>
      gpu.return
    }
    gpu.func @read_table(%y: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %c3 = arith.constant 3 : index
      %k = arith.andi %i, %c3 : index
      %g = memref.get_global @table : memref<4xf32>
      %v = memref.load %g[%k] : memref<4xf32>
      memref.store %v, %y[%i] : memref<64xf32>
      gpu.return
    }
    gpu.func @copy(%x: memref<256xf32>, %y: memref<256xf32>) kernel {
      %i = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %b = arith.muli %i, %c4 : index
      %s = memref.subview %x[%b] [4] [1] : memref<256xf32> to memref<4xf32, strided<[1], offset: ?>>
      %d = memref.subview %y[%b] [4] [1] : memref<256xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %s, %d : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, strided<[1], offset: ?>>
      gpu.return
    }
    gpu.func @transpose(%x: memref<16x16xf32>, %y: memref<256xf32>) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %t = memref.transpose %x (d0, d1) -> (d1, d0) : memref<16x16xf32> to memref<16x16xf32, strided<[1, 16]>>
      %v = memref.load %t[%c0, %i] : memref<16x16xf32, strided<[1, 16]>>
      memref.store %v, %y[%i] : memref<256xf32>
      gpu.return
    }
  }
}
