// RUN: not aster-opt %s -amdgcn-hazards 2>&1 | FileCheck %s
// The pass needs allocated registers.

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @virtual() {
    %c0 = arith.constant 0 : i32
    // CHECK: errors.mlir:[[@LINE+1]]:10: error: 'amdgcn.v_mov_b32' op names a virtual register: amdgcn-hazards needs an allocated kernel (run amdgcn-regalloc first)
    %x = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<?>
    amdgcn.s_endpgm
  }
  amdgcn.device_function @f {
    %c0 = arith.constant 0 : i32
    // CHECK: errors.mlir:[[@LINE+1]]:10: error: 'amdgcn.v_mov_b32' op names a virtual register: amdgcn-hazards needs an allocated kernel or device function
    %x = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<?>
    %s3031 = amdgcn.reg : !amdgcn.sgpr<[30:31]>
    amdgcn.s_setpc_b64 %s3031 : (!amdgcn.sgpr<[30:31]>) -> ()
  }
}
