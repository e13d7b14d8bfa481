// RUN: aster-opt %s -amdgcn-regalloc="max-agprs=8" -amdgcn-waitcnt -amdgcn-hazards | FileCheck %s --check-prefix=IR
// RUN: aster-opt %s -amdgcn-regalloc="max-agprs=8" -amdgcn-waitcnt -amdgcn-hazards | aster-translate --mlir-to-asm | FileCheck %s --check-prefix=ASM
// RUN: aster-opt %s -amdgcn-regalloc="max-agprs=8" -amdgcn-waitcnt -amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// RUN: aster-emu %t.hsaco k --block 64,1,1 --buf 4096 --print 0:f32:12 | FileCheck %s
// RUN: aster-opt %s -amdgcn-waitcnt -amdgcn-regalloc="max-agprs=8" -amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.pre.hsaco
// RUN: aster-emu %t.pre.hsaco k --block 64,1,1 --buf 4096 --print 0:f32:12 | FileCheck %s
// RUN: aster-opt %s -amdgcn-regalloc="max-agprs=8" | FileCheck %s --check-prefix=ALONE
// A kernel written without any wait (regalloc/spill-agpr-ranges.mlir less
// its s_waitcnt), under a register limit that makes amdgcn-regalloc spill
// MFMA accumulators to scratch. Alone, the allocator follows each reload
// with its own s_waitcnt vmcnt(0) (marked spill_wait); amdgcn-waitcnt after
// it removes those and places its own waits: for the kernel-argument load
// (lgkmcnt(0)) and the reloads, before their readers. Run before the
// allocator instead, it waits for the kernel-argument load on the virtual
// value and the allocator's own reload waits stay. Both run on the strict
// emulator (which fails on any missing wait) with the expected results.

// CHECK: 8 8 8 8 12 12 12 12
// CHECK-NEXT: 16 16 16 16
// IR: replaced = {{[1-9]}} : i32
// ASM: scratch_load_dwordx4 [[R:a\[[0-9]+:[0-9]+\]]], off, s{{[0-9]+}}
// ASM-NEXT: s_waitcnt vmcnt(0)
// ASM-NEXT: v_mfma_f32_16x16x4_f32 a[{{[0-9]+:[0-9]+}}], v{{[0-9]+}}, v{{[0-9]+}}, [[R]]
// ASM: scratch_load_dwordx4 [[S:a\[[0-9]+:[0-9]+\]]], off, s{{[0-9]+}} offset:16
// ASM-NEXT: s_waitcnt vmcnt(0) lgkmcnt(0)
// ASM-NEXT: global_store_dwordx4 v{{[0-9]+}}, [[S]], s[0:1]
// ALONE: amdgcn.s_waitcnt {spill_wait, vmcnt = 0 : i32}

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
    amdgcn.global_store_dwordx4 %off, %n1, %ptr : (!amdgcn.vgpr<?>, !amdgcn.agpr<?x4>, !amdgcn.sgpr<?x2>) -> ()
    amdgcn.global_store_dwordx4 %off, %n2, %ptr {offset = 16 : i32} : (!amdgcn.vgpr<?>, !amdgcn.agpr<?x4>, !amdgcn.sgpr<?x2>) -> ()
    amdgcn.global_store_dwordx4 %off, %n3, %ptr {offset = 32 : i32} : (!amdgcn.vgpr<?>, !amdgcn.agpr<?x4>, !amdgcn.sgpr<?x2>) -> ()
    amdgcn.s_endpgm
  }
}
