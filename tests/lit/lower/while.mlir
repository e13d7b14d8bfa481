// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// scf.while on a uniform condition (an argument bound) keeps its counter in
// an SGPR and branches on SCC; on a divergent one (a loaded value) it masks
// EXEC with the condition each iteration, leaves when no lane is left
// (s_cbranch_execz), and restores EXEC after.

// CHECK-LABEL: amdgcn.kernel @k
// CHECK: amdgcn.s_cmp_lt_i32
// CHECK: amdgcn.s_cbranch_scc0
// CHECK: amdgcn.s_lshl_b32
// CHECK: [[SAVED:%[0-9]+]] = amdgcn.s_mov_b64 %{{[0-9]+}} : (!amdgcn.exec)
// CHECK: amdgcn.v_cmp_gt_i32
// CHECK: amdgcn.s_and_b64 {{.*}} -> !amdgcn.exec
// CHECK: amdgcn.s_cbranch_execz
// CHECK: amdgcn.s_mov_b64 [[SAVED]] : {{.*}} -> !amdgcn.exec
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%bound: i32, %x: memref<64xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %one = arith.constant 1 : i32
      %zero = arith.constant 0 : i32
      %r = scf.while (%k = %one) : (i32) -> i32 {
        %more = arith.cmpi slt, %k, %bound : i32
        scf.condition(%more) %k : i32
      } do {
      ^bb0(%k2: i32):
        %k3 = arith.shli %k2, %one : i32
        scf.yield %k3 : i32
      }
      %v = memref.load %x[%i] : memref<64xi32>
      %d = scf.while (%n = %v) : (i32) -> i32 {
        %more = arith.cmpi sgt, %n, %r : i32
        scf.condition(%more) %n : i32
      } do {
      ^bb0(%n2: i32):
        %n3 = arith.subi %n2, %one : i32
        scf.yield %n3 : i32
      }
      memref.store %d, %x[%i] : memref<64xi32>
      gpu.return
    }
  }
}
