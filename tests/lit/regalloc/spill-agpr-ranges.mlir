// RUN: aster-opt %s -amdgcn-regalloc | aster-translate --mlir-to-hsaco -o %t.hsaco
// RUN: aster-emu %t.hsaco k --block 64,1,1 --buf 4096 --print 0:f32:12 | FileCheck %s
// RUN: aster-opt %s -amdgcn-regalloc | FileCheck %s --check-prefix=FREE
// RUN: aster-opt %s -amdgcn-regalloc="max-agprs=8" | FileCheck %s --check-prefix=IR
// RUN: aster-opt %s -amdgcn-regalloc="max-agprs=8" | aster-translate --mlir-to-asm | FileCheck %s --check-prefix=ASM
// RUN: aster-opt %s -amdgcn-regalloc="max-agprs=8" | aster-translate --mlir-to-asm | FileCheck %s --check-prefix=NOVGPR
// RUN: aster-opt %s -amdgcn-regalloc="max-agprs=8" | aster-translate --mlir-to-hsaco -o %t.spill.hsaco
// RUN: aster-emu %t.spill.hsaco k --block 64,1,1 --buf 4096 --print 0:f32:12 | FileCheck %s
// Three MFMA accumulators (4 AGPRs each) are live at once: 12 AGPRs, more
// than max-agprs=8 allows. One accumulator range is stored whole to scratch
// straight from its AGPRs (scratch_store_dwordx4 with AGPR data) and
// reloaded whole into a free aligned AGPR range before its use, behind a
// wait; no VGPR carries it. With 16x16x4 f32 MFMAs, A = 1.0 and B = b in
// every lane, each result element is 4 b + C: the accumulators are 4, 8 and
// 12, then 8, 12 and 16 after one more MFMA each (A = B = 1.0). Allocated
// freely and under the limit, every lane writes the same 12 floats.

// CHECK: 8 8 8 8 12 12 12 12
// CHECK-NEXT: 16 16 16 16
// FREE: agpr = 12 : i32, agpr_maxlive = 12 : i32
// FREE-SAME: scratch_spills = 0 : i32
// IR: private_segment = {{[1-9][0-9]*}} : i32
// IR-SAME: agpr = 8 : i32
// IR-SAME: scratch_spills = {{[1-9]}}
// ASM-DAG: scratch_store_dwordx4 off, a[{{[0-9]+}}:{{[0-9]+}}], s{{[0-9]+}}
// ASM-DAG: scratch_load_dwordx4 a[{{[0-9]+}}:{{[0-9]+}}], off, s{{[0-9]+}}
// NOVGPR-NOT: v_accvgpr

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k(out: !amdgcn.ptr<f32>) attributes {block = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c48 = arith.constant 48 : i32
    %f1 = arith.constant 1065353216 : i32
    %f2 = arith.constant 1073741824 : i32
    %f3 = arith.constant 1077936128 : i32
    %kp = amdgcn.reg : !amdgcn.sgpr<[0:1]>
    %tid = amdgcn.reg : !amdgcn.vgpr<0>
    %ptr = amdgcn.s_load_dwordx2 %kp, %c0 : (!amdgcn.sgpr<[0:1]>, i32) -> !amdgcn.sgpr<?x2>
    %off = amdgcn.v_mul_u32_u24 %c48, %tid : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    %one = amdgcn.v_mov_b32 %f1 : (i32) -> !amdgcn.vgpr<?>
    %two = amdgcn.v_mov_b32 %f2 : (i32) -> !amdgcn.vgpr<?>
    %three = amdgcn.v_mov_b32 %f3 : (i32) -> !amdgcn.vgpr<?>
    %m1 = amdgcn.v_mfma_f32_16x16x4_f32 %one, %one, %c0 : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, i32) -> !amdgcn.agpr<?x4>
    %m2 = amdgcn.v_mfma_f32_16x16x4_f32 %one, %two, %c0 : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, i32) -> !amdgcn.agpr<?x4>
    %m3 = amdgcn.v_mfma_f32_16x16x4_f32 %one, %three, %c0 : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, i32) -> !amdgcn.agpr<?x4>
    %n1 = amdgcn.v_mfma_f32_16x16x4_f32 %one, %one, %m1 : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.agpr<?x4>) -> !amdgcn.agpr<?x4>
    %n2 = amdgcn.v_mfma_f32_16x16x4_f32 %one, %one, %m2 : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.agpr<?x4>) -> !amdgcn.agpr<?x4>
    %n3 = amdgcn.v_mfma_f32_16x16x4_f32 %one, %one, %m3 : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.agpr<?x4>) -> !amdgcn.agpr<?x4>
    amdgcn.s_nop {imm = 15 : i32}
    amdgcn.s_nop {imm = 15 : i32}
    amdgcn.s_waitcnt {lgkmcnt = 0 : i32}
    amdgcn.global_store_dwordx4 %off, %n1, %ptr : (!amdgcn.vgpr<?>, !amdgcn.agpr<?x4>, !amdgcn.sgpr<?x2>) -> ()
    amdgcn.global_store_dwordx4 %off, %n2, %ptr {offset = 16 : i32} : (!amdgcn.vgpr<?>, !amdgcn.agpr<?x4>, !amdgcn.sgpr<?x2>) -> ()
    amdgcn.global_store_dwordx4 %off, %n3, %ptr {offset = 32 : i32} : (!amdgcn.vgpr<?>, !amdgcn.agpr<?x4>, !amdgcn.sgpr<?x2>) -> ()
    amdgcn.s_endpgm
  }
}
