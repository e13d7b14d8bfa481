// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-inline --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// Two i32 loads at [2i] and [2i + 1] with no store between them: one
// global_load_dwordx2 (LowerMemPairs.cpp; llc-22 -mcpu=gfx942's build of
// the same kernel merges them too, LLVM's LoadStoreVectorizer); the two
// stores: one global_store_dwordx2. A memref.copy of dynamic row-major
// memrefs (LowerMemExpand.cpp): a loop of global_load_dwordx4 /
// global_store_dwordx4 and a per-element residual loop, as LLVM expands
// the dynamic-size llvm.memcpy memref-to-llvm makes of it.

// CHECK-LABEL: amdgcn.kernel @pairs
// CHECK: amdgcn.global_load_dwordx2
// CHECK-NOT: amdgcn.global_load_dword
// CHECK: amdgcn.global_store_dwordx2
// CHECK-NOT: amdgcn.global_store_dword
// CHECK-LABEL: amdgcn.kernel @dyncopy
// CHECK: amdgcn.global_load_dwordx4
// CHECK: amdgcn.global_store_dwordx4
// CHECK: amdgcn.global_load_dword
// CHECK: amdgcn.global_store_dword
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @pairs(%x: memref<128xi32>, %o: memref<128xi32>) kernel {
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %i2 = arith.muli %i, %c2 : index
      %i21 = arith.addi %i2, %c1 : index
      %lo = memref.load %x[%i2] : memref<128xi32>
      %hi = memref.load %x[%i21] : memref<128xi32>
      %s = arith.addi %lo, %hi : i32
      memref.store %s, %o[%i2] : memref<128xi32>
      memref.store %lo, %o[%i21] : memref<128xi32>
      gpu.return
    }
    gpu.func @dyncopy(%a: memref<?xf32>, %b: memref<?xf32>) kernel {
      memref.copy %a, %b : memref<?xf32> to memref<?xf32>
      gpu.return
    }
  }
}
