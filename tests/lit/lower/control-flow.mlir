// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-asm | FileCheck %s --check-prefix=ASM
// Uniform scf.if branches on SCC; divergent scf.if masks EXEC, skips a side
// no lane runs, and merges the results with v_cndmask_b32 on the condition.

// CHECK-LABEL: amdgcn.kernel @uniform_if
// CHECK: amdgcn.s_cmp_lg_u32
// CHECK: amdgcn.s_cbranch_scc0
// CHECK-NOT: saveexec
// CHECK: amdgcn.s_endpgm
// ASM-LABEL: uniform_if:
// ASM: s_cbranch_scc0
// ASM-NOT: exec
// ASM: s_endpgm

// CHECK-LABEL: amdgcn.kernel @divergent_if
// CHECK: %[[M:.*]] = amdgcn.v_cmp_lt_u32 {{.*}} -> !amdgcn.sgpr<?x2, align 2>
// CHECK: %[[SAVED:.*]] = amdgcn.s_and_saveexec_b64 %[[M]]
// CHECK: amdgcn.s_cbranch_execz
// CHECK: amdgcn.s_andn2_b64 %[[SAVED]], %[[M]] {{.*}} -> !amdgcn.exec
// CHECK: amdgcn.s_cbranch_execz
// CHECK: amdgcn.s_mov_b64 %[[SAVED]] {{.*}} -> !amdgcn.exec
// CHECK: amdgcn.v_cndmask_b32 %{{.*}}, %{{.*}}, %[[M]]
// ASM-LABEL: divergent_if:
// ASM: s_and_saveexec_b64
// ASM: s_cbranch_execz
// ASM: s_andn2_b64 exec
// ASM: s_mov_b64 exec
// ASM: v_cndmask_b32

// CHECK-LABEL: amdgcn.kernel @divergent_for
// CHECK: amdgcn.s_mov_b64 %{{.*}} : (!amdgcn.exec) -> !amdgcn.sgpr<?x2, align 2>
// CHECK: ^bb{{.*}}(%[[IV:.*]]: !amdgcn.vgpr<?>, %{{.*}}: !amdgcn.vgpr<?>):
// CHECK: amdgcn.v_cmp_lt_i32 %[[IV]]
// CHECK: amdgcn.s_and_b64 {{.*}} -> !amdgcn.exec
// CHECK: amdgcn.s_cbranch_execz
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @uniform_if(%y: memref<64xi32>, %n: i32) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %t = gpu.thread_id x
      %c4 = arith.constant 4 : i32
      %big = arith.cmpi sgt, %n, %c4 : i32
      %r = scf.if %big -> (i32) {
        %a = arith.addi %n, %c4 : i32
        scf.yield %a : i32
      } else {
        scf.yield %c4 : i32
      }
      memref.store %r, %y[%t] : memref<64xi32>
      gpu.return
    }
    gpu.func @divergent_if(%y: memref<64xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %t = gpu.thread_id x
      %c8 = arith.constant 8 : index
      %lo = arith.cmpi ult, %t, %c8 : index
      %ti = arith.index_cast %t : index to i32
      %r = scf.if %lo -> (i32) {
        %c3 = arith.constant 3 : i32
        %a = arith.muli %ti, %c3 : i32
        scf.yield %a : i32
      } else {
        %c7 = arith.constant 7 : i32
        scf.yield %c7 : i32
      }
      memref.store %r, %y[%t] : memref<64xi32>
      gpu.return
    }
    gpu.func @divergent_for(%y: memref<64xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %z = arith.constant 0 : i32
      %r = scf.for %j = %c0 to %t step %c1 iter_args(%a = %z) -> (i32) {
        %c2 = arith.constant 2 : i32
        %b = arith.addi %a, %c2 : i32
        scf.yield %b : i32
      }
      memref.store %r, %y[%t] : memref<64xi32>
      gpu.return
    }
  }
}
