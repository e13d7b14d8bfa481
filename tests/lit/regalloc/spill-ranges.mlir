// RUN: aster-opt %s -amdgcn-regalloc | aster-translate --mlir-to-hsaco -o %t.hsaco
// RUN: aster-emu %t.hsaco k --block 64,1,1 --buf 1024 --print 0:i32:6 | FileCheck %s
// RUN: aster-opt %s -amdgcn-regalloc="max-vgprs=7 max-agprs=1" | FileCheck %s --check-prefix=IR
// RUN: aster-opt %s -amdgcn-regalloc="max-vgprs=7 max-agprs=1" | aster-translate --mlir-to-asm | FileCheck %s --check-prefix=ASM
// RUN: aster-opt %s -amdgcn-regalloc="max-vgprs=7 max-agprs=1" | aster-translate --mlir-to-hsaco -o %t.spill.hsaco
// RUN: aster-emu %t.spill.hsaco k --block 64,1,1 --buf 1024 --print 0:i32:6 | FileCheck %s
// VGPR ranges of 2 and the kernel's own AGPR values spill to scratch memory
// when their class runs out: a range is stored whole (scratch_store_dwordx2)
// and reloaded whole into a free aligned range before each use, behind a
// wait; an AGPR is stored and reloaded directly (scratch_store_dword with
// AGPR data; scratch_load_dword into an AGPR). Allocated freely and under the
// limits, the kernel runs on the emulator and writes, per lane, the 64-bit
// value 1<<33 | 27 (r1..r4 = 1..4 folded as ((2 r1 + r2) 2 + r3) 2 + r4 + r1,
// plus r1 << 33) and then a1 + a2 = 11.

// CHECK: 27 2 11 27 2 11
// IR: private_segment = {{[1-9][0-9]*}} : i32
// IR-SAME: scratch_spills = {{[1-9]}}
// ASM-DAG: scratch_store_dwordx2 off, v[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}}
// ASM-DAG: scratch_load_dwordx2 v[{{[0-9]+}}:{{[0-9]+}}], off, s{{[0-9]+}}
// ASM-DAG: scratch_store_dword off, a{{[0-9]+}}, s{{[0-9]+}}
// ASM-DAG: scratch_load_dword a{{[0-9]+}}, off, s{{[0-9]+}}

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k(out: !amdgcn.ptr<i32>) attributes {block = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %c5 = arith.constant 5 : i32
    %c6 = arith.constant 6 : i32
    %c33 = arith.constant 33 : i32
    %c12 = arith.constant 12 : i32
    %kp = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    %tid = amdgcn.reg : !amdgcn.vgpr<0>
    %ptr = amdgcn.s_load_dwordx2 %kp, %c0 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<?x2>
    %t3 = amdgcn.v_mul_u32_u24 %c12, %tid : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    %a1 = amdgcn.v_accvgpr_write_b32 %c5 : (i32) -> !amdgcn.agpr<?>
    %a2 = amdgcn.v_accvgpr_write_b32 %c6 : (i32) -> !amdgcn.agpr<?>
    %r1 = amdgcn.v_mov_b64 %c1 : (i32) -> !amdgcn.vgpr<?x2>
    %r2 = amdgcn.v_mov_b64 %c2 : (i32) -> !amdgcn.vgpr<?x2>
    %r3 = amdgcn.v_mov_b64 %c3 : (i32) -> !amdgcn.vgpr<?x2>
    %r4 = amdgcn.v_mov_b64 %c4 : (i32) -> !amdgcn.vgpr<?x2>
    %s1 = amdgcn.v_lshl_add_u64 %r1, %c1, %r2 : (!amdgcn.vgpr<?x2>, i32, !amdgcn.vgpr<?x2>) -> !amdgcn.vgpr<?x2>
    %s2 = amdgcn.v_lshl_add_u64 %s1, %c1, %r3 : (!amdgcn.vgpr<?x2>, i32, !amdgcn.vgpr<?x2>) -> !amdgcn.vgpr<?x2>
    %s3 = amdgcn.v_lshl_add_u64 %s2, %c1, %r4 : (!amdgcn.vgpr<?x2>, i32, !amdgcn.vgpr<?x2>) -> !amdgcn.vgpr<?x2>
    %s4 = amdgcn.v_lshl_add_u64 %s3, %c0, %r1 : (!amdgcn.vgpr<?x2>, i32, !amdgcn.vgpr<?x2>) -> !amdgcn.vgpr<?x2>
    %hi = amdgcn.v_lshlrev_b64 %c33, %r1 : (i32, !amdgcn.vgpr<?x2>) -> !amdgcn.vgpr<?x2>
    %s5 = amdgcn.v_lshl_add_u64 %hi, %c0, %s4 : (!amdgcn.vgpr<?x2>, i32, !amdgcn.vgpr<?x2>) -> !amdgcn.vgpr<?x2>
    %x1 = amdgcn.v_accvgpr_read_b32 %a1 : (!amdgcn.agpr<?>) -> !amdgcn.vgpr<?>
    %x2 = amdgcn.v_accvgpr_read_b32 %a2 : (!amdgcn.agpr<?>) -> !amdgcn.vgpr<?>
    %x = amdgcn.v_add_u32 %x1, %x2 : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    amdgcn.s_waitcnt {lgkmcnt = 0 : i32}
    amdgcn.global_store_dwordx2 %t3, %s5, %ptr : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?x2>, !amdgcn.sgpr<?x2>) -> ()
    amdgcn.global_store_dword %t3, %x, %ptr {offset = 8 : i32} : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.sgpr<?x2>) -> ()
    amdgcn.s_endpgm
  }
}
