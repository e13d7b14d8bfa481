// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-inline --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// Flat memrefs (LowerMemrefFlat.cpp): a select of an LDS buffer cast to the
// generic space and a global argument is a flat pointer; llc-22
// -mcpu=gfx942 builds the same select of `addrspacecast ptr addrspace(3) to
// ptr` and a global pointer as
//   s_mov_b64 s[6:7], src_shared_base
//   v_cndmask_b32 (the high dwords), v_cndmask_b32 (the low dwords)
//   v_lshl_add_u64 v[2:3], v[2:3], 0, v[0:1]
//   flat_load_dword v1, v[2:3]
// aster: the same. A workgroup global used by a device function
// (LowerModuleLds.cpp) sits at LDS 0 of the kernel that calls it, the
// kernel's own attribution after it (lds = 512: 256 + 256 bytes). A
// constant tensor (LowerConstantTensor.cpp) is .rodata read PC-relative;
// two get_globals of one global take one s_getpc_b64; a contiguous
// 16-element memref.copy is four dwordx4 loads and stores.

// CHECK-LABEL: amdgcn.kernel @flat
// CHECK: amdgcn.s_mov_b64 {{.*}}src_shared_base
// CHECK: amdgcn.v_cndmask_b32
// CHECK: amdgcn.v_cndmask_b32
// CHECK: amdgcn.v_lshl_add_u64
// CHECK: amdgcn.flat_load_dword
// CHECK: amdgcn.flat_store_dword
// CHECK-LABEL: amdgcn.kernel @mlds
// CHECK-SAME: lds = 512
// CHECK: amdgcn.ds_write_b32
// CHECK: amdgcn.call @put
// CHECK-LABEL: amdgcn.kernel @ct
// CHECK: amdgcn.reloc @tab "rel32@lo"
// CHECK-NOT: amdgcn.reloc @tab "rel32@lo"
// CHECK-COUNT-4: amdgcn.global_load_dwordx4
// CHECK: amdgcn.global @__constant_4xf32 {{.*}}section = ".rodata"
module attributes {gpu.container_module} {
  gpu.module @m {
    memref.global "private" @buf : memref<64xf32, #gpu.address_space<workgroup>>
    memref.global "private" constant @tab : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
    gpu.func @flat(%x: memref<64xf32>, %o: memref<64xf32>)
        workgroup(%l: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %g = memref.memory_space_cast %l : memref<64xf32, #gpu.address_space<workgroup>> to memref<64xf32>
      %odd = arith.andi %i, %c1 : index
      %ev = arith.cmpi eq, %odd, %c0 : index
      %m = arith.select %ev, %g, %x : memref<64xf32>
      %v = memref.load %m[%i] : memref<64xf32>
      %m2 = arith.select %ev, %g, %o : memref<64xf32>
      memref.store %v, %m2[%i] : memref<64xf32>
      gpu.return
    }
    func.func @put(%v: f32, %i: index) {
      %g = memref.get_global @buf : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %v, %g[%i] : memref<64xf32, #gpu.address_space<workgroup>>
      return
    }
    gpu.func @mlds(%x: memref<64xf32>)
        workgroup(%own: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xf32>
      memref.store %v, %own[%i] : memref<64xf32, #gpu.address_space<workgroup>>
      func.call @put(%v, %i) : (f32, index) -> ()
      gpu.return
    }
    gpu.func @ct(%x: memref<1024xf32>, %o: memref<1024xf32>) kernel {
      %i = gpu.thread_id x
      %c3 = arith.constant 3 : index
      %c16 = arith.constant 16 : index
      %t = arith.constant dense<[1.5, -2.0, 3.0, 4.0]> : tensor<4xf32>
      %k = arith.andi %i, %c3 : index
      %tv = tensor.extract %t[%k] : tensor<4xf32>
      %g1 = memref.get_global @tab : memref<4xf32>
      %a = memref.load %g1[%k] : memref<4xf32>
      %g2 = memref.get_global @tab : memref<4xf32>
      %b = memref.load %g2[%c3] : memref<4xf32>
      %s = arith.addf %a, %b : f32
      %s2 = arith.addf %s, %tv : f32
      memref.store %s2, %o[%i] : memref<1024xf32>
      %bb = arith.muli %i, %c16 : index
      %sv = memref.subview %x[%bb] [16] [1] : memref<1024xf32> to memref<16xf32, strided<[1], offset: ?>>
      %dv = memref.subview %o[%bb] [16] [1] : memref<1024xf32> to memref<16xf32, strided<[1], offset: ?>>
      memref.copy %sv, %dv : memref<16xf32, strided<[1], offset: ?>> to memref<16xf32, strided<[1], offset: ?>>
      gpu.return
    }
  }
}
