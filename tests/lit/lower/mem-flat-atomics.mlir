// RUN: aster-opt %s --amdgcn-lower | FileCheck %s --implicit-check-not=amdgcn.global_atomic --implicit-check-not=amdgcn.ds_add --implicit-check-not=amdgcn.ds_cmpst
// RUN: aster-opt %s --amdgcn-lower --amdgcn-inline --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// Atomics and vector.type_cast elements through a flat memref (a select of
// an LDS buffer cast to generic and a global argument;
// LowerMemrefAtomics.cpp, LowerVectorTypeCast.cpp). llc-22 -mcpu=gfx942
// builds an addrspace(0) `atomicrmw add` (returning) as
// `flat_atomic_add v, v[0:1], v sc0`, `atomicrmw max` (agent scope, result
// unused) as `flat_atomic_smax v[0:1], v`, `atomicrmw fadd float` (agent
// scope) as `flat_atomic_add_f32`, an i16 `atomicrmw add` as a loop of
// `flat_load_dword` / `flat_atomic_cmpswap ... sc0` on the dword at
// address & ~3, and a flat `load <4 x float>` as `flat_load_dwordx4`.
// aster: the same. A 64-bit atomic through a flat memref: llc-22 tests the
// address against the private aperture first ("atomicrmw.check.private":
// `s_mov_b64 s[0:1], src_private_base`, a compare of the high dword, a
// scratch load / add / store for private addresses, `flat_atomic_add_x2`
// otherwise); aster per lane under EXEC masks.

// CHECK-LABEL: amdgcn.kernel @fa
// CHECK: amdgcn.s_mov_b64 {{.*}}src_shared_base
// CHECK: amdgcn.flat_atomic_add_rtn
// CHECK: amdgcn.flat_atomic_smax {{.*}} -> ()
// CHECK: amdgcn.flat_atomic_add_f32 {{.*}} -> ()
// CHECK: amdgcn.flat_load_dword
// CHECK: amdgcn.flat_atomic_cmpswap_rtn
// CHECK: amdgcn.s_cbranch_execz
// CHECK: amdgcn.flat_load_dwordx4
// CHECK: amdgcn.s_endpgm
// CHECK-LABEL: amdgcn.kernel @fa64
// CHECK: amdgcn.s_mov_b64 {{.*}}src_private_base
// CHECK: amdgcn.v_cmp_eq_u32
// CHECK: amdgcn.s_andn2_b64
// CHECK: amdgcn.flat_atomic_add_x2_rtn
// CHECK: amdgcn.s_and_b64
// CHECK: amdgcn.scratch_load_dwordx2
// CHECK: amdgcn.scratch_store_dwordx2
// CHECK: amdgcn.v_cndmask_b32
// CHECK: amdgcn.s_endpgm
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @fa(%x: memref<64xi32>, %xf: memref<64xf32>, %xs: memref<64xi16>,
                 %xv: memref<16x4xf32>, %o: memref<64xi32>, %ov: memref<64x4xf32>)
        workgroup(%l: memref<64xi32, #gpu.address_space<workgroup>>,
                  %lf: memref<64xf32, #gpu.address_space<workgroup>>,
                  %ls: memref<64xi16, #gpu.address_space<workgroup>>,
                  %lv: memref<16x4xf32, #gpu.address_space<workgroup>>) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %one = arith.constant 1 : i32
      %onef = arith.constant 1.0 : f32
      %one16 = arith.constant 1 : i16
      %odd = arith.andi %i, %c1 : index
      %ev = arith.cmpi eq, %odd, %c0 : index
      %g = memref.memory_space_cast %l : memref<64xi32, #gpu.address_space<workgroup>> to memref<64xi32>
      %gf = memref.memory_space_cast %lf : memref<64xf32, #gpu.address_space<workgroup>> to memref<64xf32>
      %gs = memref.memory_space_cast %ls : memref<64xi16, #gpu.address_space<workgroup>> to memref<64xi16>
      %gv = memref.memory_space_cast %lv : memref<16x4xf32, #gpu.address_space<workgroup>> to memref<16x4xf32>
      %m = arith.select %ev, %g, %x : memref<64xi32>
      %mf = arith.select %ev, %gf, %xf : memref<64xf32>
      %ms = arith.select %ev, %gs, %xs : memref<64xi16>
      %r = memref.atomic_rmw addi %one, %m[%i] : (i32, memref<64xi32>) -> i32
      memref.store %r, %o[%i] : memref<64xi32>
      %u = memref.atomic_rmw maxs %one, %m[%c0] : (i32, memref<64xi32>) -> i32
      %f = memref.atomic_rmw addf %onef, %mf[%c0] : (f32, memref<64xf32>) -> f32
      %s = memref.atomic_rmw addi %one16, %ms[%i] : (i16, memref<64xi16>) -> i16
      %tl = vector.type_cast %gv : memref<16x4xf32> to memref<16xvector<4xf32>>
      %tx = vector.type_cast %xv : memref<16x4xf32> to memref<16xvector<4xf32>>
      %mv = arith.select %ev, %tl, %tx : memref<16xvector<4xf32>>
      %v = memref.load %mv[%c1] : memref<16xvector<4xf32>>
      %to = vector.type_cast %ov : memref<64x4xf32> to memref<64xvector<4xf32>>
      memref.store %v, %to[%i] : memref<64xvector<4xf32>>
      gpu.return
    }
    gpu.func @fa64(%x: memref<64xi64>, %o: memref<64xi64>)
        workgroup(%l: memref<64xi64, #gpu.address_space<workgroup>>) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %one = arith.constant 1 : i64
      %odd = arith.andi %i, %c1 : index
      %ev = arith.cmpi eq, %odd, %c0 : index
      %g = memref.memory_space_cast %l : memref<64xi64, #gpu.address_space<workgroup>> to memref<64xi64>
      %m = arith.select %ev, %g, %x : memref<64xi64>
      %r = memref.atomic_rmw addi %one, %m[%i] : (i64, memref<64xi64>) -> i64
      memref.store %r, %o[%i] : memref<64xi64>
      gpu.return
    }
  }
}
