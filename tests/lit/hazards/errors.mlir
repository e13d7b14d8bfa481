// RUN: not aster-opt %s -amdgcn-hazards 2>&1 | FileCheck %s
// The pass needs allocated registers.

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @virtual() {
    %c0 = arith.constant 0 : i32
    // CHECK: errors.mlir:[[@LINE+1]]:10: error: 'amdgcn.v_mov_b32' op names a virtual register: amdgcn-hazards needs an allocated kernel (run amdgcn-regalloc first)
    %x = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<?>
    amdgcn.s_endpgm
  }
}
