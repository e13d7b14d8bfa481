// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// memref.atomic_rmw mulf has no gfx942 instruction: a compare-and-swap
// loop (LLVM's AtomicExpand cmpxchg loop): the first load, the op on the
// loop's value, global_atomic_cmpswap returning the old memory word, a bit
// compare, lanes that swapped leave EXEC, s_cbranch_execz out, EXEC
// restored. In LDS the swap is ds_cmpst_rtn_b32.

// CHECK-LABEL: amdgcn.kernel @k
// CHECK: amdgcn.s_mov_b64 {{.*}}exec
// CHECK: amdgcn.global_load_dword
// CHECK: ^bb{{[0-9]+}}(%[[OLD:.*]]: !amdgcn.vgpr<?>):
// CHECK: amdgcn.v_mul_f32
// CHECK: amdgcn.global_atomic_cmpswap_rtn
// CHECK: amdgcn.v_cmp_eq_u32
// CHECK: amdgcn.s_andn2_b64
// CHECK: amdgcn.s_cbranch_execz
// CHECK: amdgcn.ds_cmpst_rtn_b32
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<64xf32>)
        workgroup(%l: memref<4xi32, #gpu.address_space<workgroup>>) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%i] : memref<64xf32>
      %r = memref.atomic_rmw mulf %v, %x[%c0] : (f32, memref<64xf32>) -> f32
      %k = arith.constant 3 : i32
      %s = memref.atomic_rmw muli %k, %l[%c0] : (i32, memref<4xi32, #gpu.address_space<workgroup>>) -> i32
      memref.store %r, %x[%i] : memref<64xf32>
      gpu.return
    }
  }
}
