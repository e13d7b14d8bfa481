// RUN: aster-opt %s -amdgcn-waitcnt | aster-translate --mlir-to-asm | FileCheck %s
// Calls follow the AMDGPU calling convention as LLVM 22's SIInsertWaitcnts
// implements it (clang-22 -O3 gfx942 puts `s_waitcnt vmcnt(0) expcnt(0)
// lgkmcnt(0)` first in every __device__ function, waits for everything
// before `s_setpc_b64`, and before `s_swappc_b64` only for the call's own
// registers; see tests/py/test_device_function_passes.py).

amdgcn.module @m target("gfx942") {
  // A callee waits first for what its caller may have in flight, and for its
  // own loads before a use and before returning (v3, never read, too: the
  // caller may overwrite it after the call).
  // CHECK-LABEL: f:
  // CHECK-NEXT: s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
  // CHECK-NEXT: global_load_dword v2, v[0:1], off
  // CHECK-NEXT: global_load_dword v3, v[0:1], off
  // CHECK-NEXT: s_waitcnt vmcnt(1)
  // CHECK-NEXT: v_add_u32 v0, v2, v2
  // CHECK-NEXT: s_waitcnt vmcnt(0)
  // CHECK-NEXT: s_setpc_b64 s[30:31]
  amdgcn.device_function @f {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %s3031 = amdgcn.reg : !amdgcn.sgpr<[30:31]>
    %x = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<2>
    %y = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<3>
    %r = amdgcn.v_add_u32 %x, %x : (!amdgcn.vgpr<2>, !amdgcn.vgpr<2>) -> !amdgcn.vgpr<0>
    amdgcn.s_setpc_b64 %s3031 : (!amdgcn.sgpr<[30:31]>) -> ()
  }

  // The author's entry wait is counted: nothing added for what it covers.
  // CHECK-LABEL: g:
  // CHECK-NEXT: s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
  // CHECK-NEXT: v_add_u32 v0, v0, v0
  // CHECK-NEXT: s_setpc_b64 s[30:31]
  amdgcn.device_function @g {
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    %s3031 = amdgcn.reg : !amdgcn.sgpr<[30:31]>
    amdgcn.s_waitcnt {expcnt = 0 : i32, lgkmcnt = 0 : i32, vmcnt = 0 : i32}
    %r = amdgcn.v_add_u32 %v0, %v0 : (!amdgcn.vgpr<0>, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<0>
    amdgcn.s_setpc_b64 %s3031 : (!amdgcn.sgpr<[30:31]>) -> ()
  }

  // An entry wait for vmcnt only: the other counters are still waited for.
  // CHECK-LABEL: h:
  // CHECK-NEXT: s_waitcnt vmcnt(0)
  // CHECK-NEXT: s_waitcnt expcnt(0) lgkmcnt(0)
  // CHECK-NEXT: v_add_u32 v0, v0, v0
  amdgcn.device_function @h {
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    %s3031 = amdgcn.reg : !amdgcn.sgpr<[30:31]>
    amdgcn.s_waitcnt {vmcnt = 0 : i32}
    %r = amdgcn.v_add_u32 %v0, %v0 : (!amdgcn.vgpr<0>, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<0>
    amdgcn.s_setpc_b64 %s3031 : (!amdgcn.sgpr<[30:31]>) -> ()
  }

  // A caller waits before a call only for the call's registers (a target
  // address loaded by s_load: lgkmcnt(0)); a global load stays in flight
  // into the call (the callee waits for it), and nothing is in flight after
  // the call returns.
  // CHECK-LABEL: k:
  // CHECK:      s_load_dwordx2 s[2:3], s[0:1], 0x0
  // CHECK-NEXT: global_load_dword v4, v[0:1], off
  // CHECK-NEXT: s_waitcnt lgkmcnt(0)
  // CHECK-NEXT: s_swappc_b64 s[30:31], s[2:3]
  // CHECK-NEXT: v_add_u32 v5, v4, v4
  // CHECK-NEXT: s_endpgm
  amdgcn.kernel @k() {
    %c0 = arith.constant 0 : i32
    %s01 = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %p = amdgcn.s_load_dwordx2 %s01, %c0 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<[2:3]>
    %x = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<4>
    %ret = amdgcn.s_swappc_b64 %p : (!amdgcn.sgpr<[2:3]>) -> !amdgcn.sgpr<[30:31]>
    %y = amdgcn.v_add_u32 %x, %x : (!amdgcn.vgpr<4>, !amdgcn.vgpr<4>) -> !amdgcn.vgpr<5>
    amdgcn.s_endpgm
  }
}
