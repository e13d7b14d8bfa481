// RUN: aster-opt %s -amdgcn-regalloc | aster-translate --mlir-to-hsaco -o %t.hsaco
// RUN: aster-emu %t.hsaco k --block 64,1,1 --buf 256 --arg i32:5 --print 0:i32:4 | FileCheck %s
// RUN: aster-opt %s -amdgcn-regalloc="max-sgprs=4" | FileCheck %s --check-prefix=LANE
// RUN: aster-opt %s -amdgcn-regalloc="max-sgprs=4" | aster-translate --mlir-to-hsaco -o %t.lane.hsaco
// RUN: aster-emu %t.lane.hsaco k --block 64,1,1 --buf 256 --arg i32:5 --print 0:i32:4 | FileCheck %s
// SGPRs spilled to VGPR lanes (v_writelane_b32 / v_readlane_b32) keep the
// result: out[tid] = (n+1) + (n+2) + (n+3) + (n+4) = 4n + 10 = 30 for n = 5.

// CHECK: 30 30 30 30
// LANE: sgpr = 4 : i32
// LANE-SAME: spills = {{[1-9]}}
// LANE: v_writelane_b32
// LANE: v_readlane_b32

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k(out: !amdgcn.ptr<i32>, n: i32) attributes {block = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %c8 = arith.constant 8 : i32
    %kp = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    %tid = amdgcn.reg : !amdgcn.vgpr<0>
    %ptr = amdgcn.s_load_dwordx2 %kp, %c0 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<?x2>
    %n = amdgcn.s_load_dword %kp, %c8 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<?>
    amdgcn.s_waitcnt {lgkmcnt = 0 : i32}
    %a = amdgcn.s_add_u32 %n, %c1 : (!amdgcn.sgpr<?>, i32) -> !amdgcn.sgpr<?>
    %b = amdgcn.s_add_u32 %n, %c2 : (!amdgcn.sgpr<?>, i32) -> !amdgcn.sgpr<?>
    %c = amdgcn.s_add_u32 %n, %c3 : (!amdgcn.sgpr<?>, i32) -> !amdgcn.sgpr<?>
    %d = amdgcn.s_add_u32 %n, %c4 : (!amdgcn.sgpr<?>, i32) -> !amdgcn.sgpr<?>
    %cd = amdgcn.s_add_u32 %c, %d : (!amdgcn.sgpr<?>, !amdgcn.sgpr<?>) -> !amdgcn.sgpr<?>
    %bcd = amdgcn.s_add_u32 %b, %cd : (!amdgcn.sgpr<?>, !amdgcn.sgpr<?>) -> !amdgcn.sgpr<?>
    %sum = amdgcn.s_add_u32 %a, %bcd : (!amdgcn.sgpr<?>, !amdgcn.sgpr<?>) -> !amdgcn.sgpr<?>
    %v = amdgcn.v_mov_b32 %sum : (!amdgcn.sgpr<?>) -> !amdgcn.vgpr<?>
    %off = amdgcn.v_lshlrev_b32 %c2, %tid : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    amdgcn.global_store_dword %off, %v, %ptr : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.sgpr<?x2>) -> ()
    amdgcn.s_endpgm
  }
}
