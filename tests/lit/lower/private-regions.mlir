// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// Private memory in regions. A dynamic alloca in an scf.for body starts at
// the stack pointer made in the entry block (s_mov_b32 of the
// aster.dynamic_stack_base constant) in every iteration: the loop carries
// no pointer (its block arguments are the induction variable and the sum
// only). A memref.alloca_scope's body is lowered in place. An atomic_rmw on
// an alloca in scratch is a scratch load, the op, a scratch store (no atomic).

// CHECK-LABEL: amdgcn.kernel @loop
// CHECK: %[[B:.*]] = arith.constant {aster.dynamic_stack_base} 0 : i32
// CHECK: %[[SP:.*]] = amdgcn.s_mov_b32 %[[B]]
// CHECK: ^bb{{[0-9]+}}(%{{[0-9]+}}: !amdgcn.sgpr<?>, %{{[0-9]+}}: !amdgcn.vgpr<?>):
// CHECK: amdgcn.s_lshr_b32 %[[SP]], %c2_i32
// CHECK: amdgcn.scratch_store_dword_nosaddr
// CHECK-LABEL: amdgcn.kernel @scope
// CHECK-NOT: memref.alloca_scope
// CHECK: amdgcn.scratch_store_dword_nosaddr
// CHECK: amdgcn.scratch_load_dword_nosaddr
// CHECK-LABEL: amdgcn.kernel @atom
// CHECK-NOT: atomic
// CHECK: amdgcn.scratch_load_dword_nosaddr
// CHECK-NEXT: amdgcn.v_max_i32
// CHECK-NEXT: amdgcn.scratch_store_dword_nosaddr
// CHECK-NOT: atomic
// CHECK: amdgcn.s_endpgm
// At constant indices the alloca is held in registers: the atomic is the
// element's add, no scratch access.
// CHECK-LABEL: amdgcn.kernel @atom_regs
// CHECK-NOT: scratch
// CHECK: amdgcn.v_add_u32
// CHECK-NOT: scratch
// CHECK: amdgcn.s_endpgm
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @loop(%y: memref<64xi32>, %n: index) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %z = arith.constant 0 : i32
      %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (i32) {
        %buf = memref.alloca(%n) : memref<?xi32, #gpu.address_space<private>>
        %kk = arith.index_cast %k : index to i32
        memref.store %kk, %buf[%i] : memref<?xi32, #gpu.address_space<private>>
        %w = memref.load %buf[%c0] : memref<?xi32, #gpu.address_space<private>>
        %a = arith.addi %acc, %w : i32
        scf.yield %a : i32
      }
      memref.store %s, %y[%i] : memref<64xi32>
      gpu.return
    }
    gpu.func @scope(%y: memref<64xf32>, %n: index) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %r = memref.alloca_scope -> (f32) {
        %buf = memref.alloca(%n) : memref<?xf32, #gpu.address_space<private>>
        %v = memref.load %y[%i] : memref<64xf32>
        memref.store %v, %buf[%i] : memref<?xf32, #gpu.address_space<private>>
        %w = memref.load %buf[%c0] : memref<?xf32, #gpu.address_space<private>>
        memref.alloca_scope.return %w : f32
      }
      memref.store %r, %y[%i] : memref<64xf32>
      gpu.return
    }
    gpu.func @atom(%y: memref<64xi32>) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %a = memref.alloca() : memref<4xi32, #gpu.address_space<private>>
      %v = memref.load %y[%i] : memref<64xi32>
      memref.store %v, %a[%c0] : memref<4xi32, #gpu.address_space<private>>
      %old = memref.atomic_rmw maxs %v, %a[%i] : (i32, memref<4xi32, #gpu.address_space<private>>) -> i32
      memref.store %old, %y[%i] : memref<64xi32>
      gpu.return
    }
    gpu.func @atom_regs(%y: memref<64xi32>) kernel {
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %a = memref.alloca() : memref<4xi32, #gpu.address_space<private>>
      %v = memref.load %y[%i] : memref<64xi32>
      memref.store %v, %a[%c1] : memref<4xi32, #gpu.address_space<private>>
      %old = memref.atomic_rmw addi %v, %a[%c1] : (i32, memref<4xi32, #gpu.address_space<private>>) -> i32
      %new = memref.load %a[%c1] : memref<4xi32, #gpu.address_space<private>>
      memref.store %new, %y[%i] : memref<64xi32>
      gpu.return
    }
  }
}
