// RUN: aster-opt %s -amdgcn-regalloc | aster-translate --mlir-to-hsaco -o %t.hsaco
// RUN: aster-emu %t.hsaco k --block 64,1,1 --buf 256 --print 0:i32:8 | FileCheck %s
// RUN: aster-opt %s -amdgcn-regalloc="max-vgprs=4" | FileCheck %s --check-prefix=AGPR
// RUN: aster-opt %s -amdgcn-regalloc="max-vgprs=4" | aster-translate --mlir-to-hsaco -o %t.agpr.hsaco
// RUN: aster-emu %t.agpr.hsaco k --block 64,1,1 --buf 256 --print 0:i32:8 | FileCheck %s
// Blocks out of dominance order: the loop and the exit come before the
// block that defines what they read (%a, %off), so an operand is read
// before its definition in IR order (liveness then reads the operands in a
// second pass). Same computation as emulate.mlir: out[tid] = 8 * tid + 18.

// CHECK: 18 26 34 42 50 58 66 74
// AGPR: spills = {{[1-9]}}

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k(out: !amdgcn.ptr<i32>) attributes {block = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %c5 = arith.constant 5 : i32
    %kp = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    %tid = amdgcn.reg : !amdgcn.vgpr<0>
    %ptr = amdgcn.s_load_dwordx2 %kp, %c0 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<?x2>
    cf.br ^init
  ^loop(%i: !amdgcn.sgpr<?>, %acc: !amdgcn.vgpr<?>):
    %acc1 = amdgcn.v_add_u32 %acc, %a : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %i1 = amdgcn.s_add_u32 %i, %c1 : (!amdgcn.sgpr<?>, i32) -> !amdgcn.sgpr<?>
    amdgcn.s_cmp_lt_u32 %i1, %c3 : (!amdgcn.sgpr<?>, i32) -> ()
    amdgcn.s_cbranch_scc1 ^loop(%i1, %acc1 : !amdgcn.sgpr<?>, !amdgcn.vgpr<?>), ^exit
  ^exit:
    amdgcn.s_waitcnt {lgkmcnt = 0 : i32}
    amdgcn.global_store_dword %off, %acc1, %ptr : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.sgpr<?x2>) -> ()
    amdgcn.s_endpgm
  ^init:
    %off = amdgcn.v_lshlrev_b32 %c2, %tid : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    %a = amdgcn.v_add_u32 %c1, %tid : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    %b = amdgcn.v_add_u32 %c2, %tid : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    %c = amdgcn.v_add_u32 %c3, %tid : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    %d = amdgcn.v_add_u32 %c4, %tid : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    %e = amdgcn.v_add_u32 %c5, %tid : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    %s1 = amdgcn.v_add_u32 %b, %c : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %s2 = amdgcn.v_add_u32 %s1, %d : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %s3 = amdgcn.v_add_u32 %s2, %e : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %s4 = amdgcn.v_add_u32 %s3, %a : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %i0 = amdgcn.s_mov_b32 %c0 : (i32) -> !amdgcn.sgpr<?>
    cf.br ^loop(%i0, %s4 : !amdgcn.sgpr<?>, !amdgcn.vgpr<?>)
  }
}
