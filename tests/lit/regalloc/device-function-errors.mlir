// RUN: aster-opt %s -amdgcn-regalloc -verify-diagnostics
// amdgcn-regalloc allocates kernels only: a device function's registers
// follow the calling convention, so one on virtual registers is an error at
// the op, not skipped.

amdgcn.module @m target("gfx942") {
  amdgcn.device_function @f {
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    %s3031 = amdgcn.reg : !amdgcn.sgpr<[30:31]>
    // expected-error @below {{names a virtual register in amdgcn.device_function 'f': amdgcn-regalloc allocates kernels only}}
    %r = amdgcn.v_add_u32 %v0, %v0 : (!amdgcn.vgpr<0>, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    amdgcn.v_mov_b32 %r : (!amdgcn.vgpr<?>) -> !amdgcn.vgpr<0>
    amdgcn.s_setpc_b64 %s3031 : (!amdgcn.sgpr<[30:31]>) -> ()
  }
}
