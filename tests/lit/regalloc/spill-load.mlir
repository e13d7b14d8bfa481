// RUN: aster-opt %s -amdgcn-regalloc="max-vgprs=5" | FileCheck %s
// RUN: aster-opt %s -amdgcn-regalloc="max-vgprs=5" | aster-translate --mlir-to-hsaco -o %t.hsaco
// RUN: aster-emu %t.hsaco k --block 64,1,1 --buf 1024 --print 0:i32:8 | FileCheck %s --check-prefix=EMU
// RUN: not aster-opt %s -amdgcn-regalloc="max-vgprs=3" 2>&1 | FileCheck %s --check-prefix=TIGHT
// Loads in flight under a tight VGPR limit (the spill loop used to never
// end here). A spilled load result is saved at its first use, so spilling it
// frees nothing between the load and that use; there it is saved instead
// right after a wait for the load. Each spill must free a register where it
// was chosen, and when nothing can, the pass stops with a diagnostic at that
// op. @k runs on the emulator: four loads in flight with the work-item id
// and the address live need six VGPRs; out[tid] = (tid+1) + (tid+2) +
// (tid+3) + (tid+4) + tid = 5 tid + 10.

// EMU: 10 15 20 25 30 35 40 45

amdgcn.module @m target("gfx942") {
  // Reduced from the random program: five loads in flight, one of them
  // read, with the address live.
  // CHECK-LABEL: amdgcn.kernel @hang
  // CHECK-SAME: spills = 1 : i32
  // CHECK: %[[L:.*]] = amdgcn.global_load_dword %{{.*}} {offset = 64 : i32}
  // CHECK-NEXT: amdgcn.s_waitcnt {lgkmcnt = 0 : i32, spill_wait, vmcnt = 0 : i32}
  // CHECK-NEXT: %[[S:.*]] = amdgcn.v_accvgpr_write_b32 %[[L]]
  // CHECK: %[[R:.*]] = amdgcn.v_accvgpr_read_b32 %[[S]]
  // CHECK-NEXT: amdgcn.global_store_dword %{{.*}}, %[[R]],
  // TIGHT: error: 'amdgcn.global_load_dword' op needs a free vgpr (aligned to 1) but 3 of the 3 allowed are live here
  amdgcn.kernel @hang(inp: !amdgcn.ptr<i32>, out: !amdgcn.ptr<i32>) attributes {block = array<i32: 64, 1, 1>} {
    %kp = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    %c8 = arith.constant 8 : i32
    %c0 = arith.constant 0 : i32
    %c10 = arith.constant 10 : i32
    %tid = amdgcn.reg : !amdgcn.vgpr<0>
    %o = amdgcn.s_load_dwordx2 %kp, %c8 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<?x2, align 2>
    %i = amdgcn.s_load_dwordx2 %kp, %c0 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<?x2, align 2>
    %a = amdgcn.v_lshlrev_b32 %c10, %tid : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    amdgcn.s_waitcnt {lgkmcnt = 0 : i32}
    %l0 = amdgcn.global_load_dword %a, %i {offset = 704 : i32} : (!amdgcn.vgpr<?>, !amdgcn.sgpr<?x2, align 2>) -> !amdgcn.vgpr<?>
    %l1 = amdgcn.global_load_dword %a, %i : (!amdgcn.vgpr<?>, !amdgcn.sgpr<?x2, align 2>) -> !amdgcn.vgpr<?>
    %l2 = amdgcn.global_load_dword %a, %i {offset = 64 : i32} : (!amdgcn.vgpr<?>, !amdgcn.sgpr<?x2, align 2>) -> !amdgcn.vgpr<?>
    %l3 = amdgcn.global_load_dword %a, %i {offset = 32 : i32} : (!amdgcn.vgpr<?>, !amdgcn.sgpr<?x2, align 2>) -> !amdgcn.vgpr<?>
    %l4 = amdgcn.global_load_dword %a, %i {offset = 496 : i32} : (!amdgcn.vgpr<?>, !amdgcn.sgpr<?x2, align 2>) -> !amdgcn.vgpr<?>
    amdgcn.s_waitcnt {vmcnt = 0 : i32}
    amdgcn.global_store_dword %a, %l2, %o : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.sgpr<?x2, align 2>) -> ()
    amdgcn.s_endpgm
  }

  // CHECK-LABEL: amdgcn.kernel @k
  // CHECK-SAME: vgpr = 5 : i32
  // CHECK: %[[L1:.*]] = amdgcn.global_load_dword
  // CHECK-NEXT: amdgcn.s_waitcnt {lgkmcnt = 0 : i32, spill_wait, vmcnt = 0 : i32}
  // CHECK-NEXT: amdgcn.v_accvgpr_write_b32 %[[L1]]
  amdgcn.kernel @k(buf: !amdgcn.ptr<i32>) attributes {block = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %kp = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    %tid = amdgcn.reg : !amdgcn.vgpr<0>
    %p = amdgcn.s_load_dwordx2 %kp, %c0 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<?x2, align 2>
    %addr = amdgcn.v_lshlrev_b32 %c2, %tid : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    %x1 = amdgcn.v_add_u32 %c1, %tid : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    %x2 = amdgcn.v_add_u32 %c2, %tid : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    %x3 = amdgcn.v_add_u32 %c3, %tid : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    %x4 = amdgcn.v_add_u32 %c4, %tid : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    amdgcn.s_waitcnt {lgkmcnt = 0 : i32}
    amdgcn.global_store_dword %addr, %x1, %p : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.sgpr<?x2, align 2>) -> ()
    amdgcn.global_store_dword %addr, %x2, %p {offset = 256 : i32} : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.sgpr<?x2, align 2>) -> ()
    amdgcn.global_store_dword %addr, %x3, %p {offset = 512 : i32} : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.sgpr<?x2, align 2>) -> ()
    amdgcn.global_store_dword %addr, %x4, %p {offset = 768 : i32} : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.sgpr<?x2, align 2>) -> ()
    amdgcn.s_waitcnt {vmcnt = 0 : i32}
    %l1 = amdgcn.global_load_dword %addr, %p : (!amdgcn.vgpr<?>, !amdgcn.sgpr<?x2, align 2>) -> !amdgcn.vgpr<?>
    %l2 = amdgcn.global_load_dword %addr, %p {offset = 256 : i32} : (!amdgcn.vgpr<?>, !amdgcn.sgpr<?x2, align 2>) -> !amdgcn.vgpr<?>
    %l3 = amdgcn.global_load_dword %addr, %p {offset = 512 : i32} : (!amdgcn.vgpr<?>, !amdgcn.sgpr<?x2, align 2>) -> !amdgcn.vgpr<?>
    %l4 = amdgcn.global_load_dword %addr, %p {offset = 768 : i32} : (!amdgcn.vgpr<?>, !amdgcn.sgpr<?x2, align 2>) -> !amdgcn.vgpr<?>
    amdgcn.s_waitcnt {vmcnt = 0 : i32}
    %s = amdgcn.v_add3_u32 %l1, %l2, %l3 : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %t = amdgcn.v_add3_u32 %s, %l4, %tid : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    amdgcn.global_store_dword %addr, %t, %p : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.sgpr<?x2, align 2>) -> ()
    amdgcn.s_endpgm
  }
}
