// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-inline --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// Memrefs of unknown memory (LowerMemrefCarries.cpp, LowerMemrefFlat.cpp).
// An scf.if choosing an LDS buffer (cast to generic) or a global argument
// per lane: a flat pointer carried through the if (v_cndmask_b32 of the
// two dwords: {LDS address, src_shared_base[63:32]} or the argument's
// pointer), flat_load_dword. llc-22 -mcpu=gfx942 builds the phi of
// `addrspacecast ptr addrspace(3) to ptr` and the global pointer the same
// way (s_mov_b64 src_shared_base, v_cndmask_b32 x2, flat_load_dword).
// Two LDS buffers swapped by an scf.for: the LDS byte address carried,
// ds_read_b32 / ds_write_b32 at it (LLVM's build: a phi of addrspace(3)
// pointers, ds_read_b32). A vector<4xf32> load through a flat memref:
// flat_load_dwordx4 (llc-22 at align 4 too). A device function passed an
// LDS buffer and a global one: its memref parameter a flat address (a
// VGPR pair).

// CHECK-LABEL: amdgcn.func @sum2
// CHECK-SAME: !amdgcn.vgpr<?x2, align 2>
// CHECK: amdgcn.flat_load_dword
// CHECK-LABEL: amdgcn.kernel @carry
// CHECK: amdgcn.s_mov_b64 {{.*}}src_shared_base
// CHECK: amdgcn.v_cndmask_b32
// CHECK: amdgcn.v_cndmask_b32
// CHECK: amdgcn.flat_load_dword
// CHECK: amdgcn.ds_read_b32
// CHECK: amdgcn.ds_write_b32
// CHECK: amdgcn.s_cbranch_scc1
// CHECK: amdgcn.flat_load_dwordx4
// CHECK: amdgcn.call @sum2
// CHECK: amdgcn.call @sum2
module attributes {gpu.container_module} {
  gpu.module @m {
    func.func @sum2(%p: memref<64xf32>, %i: index) -> f32 {
      %c1 = arith.constant 1 : index
      %a = memref.load %p[%i] : memref<64xf32>
      %j = arith.addi %i, %c1 : index
      %b = memref.load %p[%j] : memref<64xf32>
      %s = arith.addf %a, %b : f32
      return %s : f32
    }
    gpu.func @carry(%x: memref<64xf32>, %o: memref<64xf32>)
        workgroup(%la: memref<64xf32, #gpu.address_space<workgroup>>,
                  %lb: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c63 = arith.constant 63 : index
      %g = memref.memory_space_cast %la : memref<64xf32, #gpu.address_space<workgroup>> to memref<64xf32>
      %odd = arith.andi %i, %c1 : index
      %ev = arith.cmpi eq, %odd, %c0 : index
      %m = scf.if %ev -> memref<64xf32> {
        scf.yield %g : memref<64xf32>
      } else {
        scf.yield %x : memref<64xf32>
      }
      %v = memref.load %m[%i] : memref<64xf32>
      %r:2 = scf.for %s = %c0 to %c4 step %c1 iter_args(%src = %la, %dst = %lb)
          -> (memref<64xf32, #gpu.address_space<workgroup>>, memref<64xf32, #gpu.address_space<workgroup>>) {
        %w = memref.load %src[%i] : memref<64xf32, #gpu.address_space<workgroup>>
        memref.store %w, %dst[%i] : memref<64xf32, #gpu.address_space<workgroup>>
        scf.yield %dst, %src : memref<64xf32, #gpu.address_space<workgroup>>, memref<64xf32, #gpu.address_space<workgroup>>
      }
      %k = arith.andi %i, %c63 : index
      %vv = vector.load %m[%c0] : memref<64xf32>, vector<4xf32>
      vector.store %vv, %o[%c0] : memref<64xf32>, vector<4xf32>
      %a = func.call @sum2(%g, %k) : (memref<64xf32>, index) -> f32
      %b = func.call @sum2(%x, %k) : (memref<64xf32>, index) -> f32
      %t = arith.addf %a, %b : f32
      %t2 = arith.addf %t, %v : f32
      memref.store %t2, %o[%i] : memref<64xf32>
      gpu.return
    }
  }
}
