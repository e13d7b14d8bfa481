// RUN: aster-opt %S/../regalloc/spill-agpr-ranges.mlir -amdgcn-regalloc="max-agprs=8" | aster-translate --mlir-to-asm | FileCheck %s
// RUN: aster-opt %S/../regalloc/spill-agpr-ranges.mlir -amdgcn-regalloc="max-agprs=8" | aster-translate --mlir-to-hsaco -o %t.hsaco
// RUN: aster-emu %t.hsaco k --block 64,1,1 --buf 4096 --print 0:f32:12 | FileCheck %s --check-prefix=EMU
// RUN: aster-opt %S/../regalloc/spill-agpr-ranges.mlir -amdgcn-regalloc="max-agprs=8" -amdgcn-hazards | FileCheck %s --check-prefix=AFTER
// amdgcn-regalloc spills MFMA accumulators straight from their AGPRs to
// scratch (regalloc/spill-agpr-ranges.mlir) and pads its own spill code with
// the hazard analysis: each spill store that reads an MFMA result (16x16x4
// f32: 8 passes, 11 wait states) gets its s_nop, and an MFMA overwriting the
// data of a wide store just made by spill code waits 2. The program computes
// the same, and amdgcn-hazards afterwards has nothing left to add there.

// CHECK:      v_mfma_f32_16x16x4_f32 a[4:7]
// CHECK-NEXT: s_mov_b32 [[B:s[0-9]+]], 0
// CHECK-NEXT: s_nop 9
// CHECK-NEXT: scratch_store_dwordx4 off, a[4:7], [[B]]
// A store of 128 bits, then an MFMA overwrites its data: 2.
// CHECK-NEXT: s_nop 1
// CHECK-NEXT: v_mfma_f32_16x16x4_f32 a[4:7]
// EMU: 8 8 8 8 12 12 12 12
// EMU-NEXT: 16 16 16 16
// AFTER: hazard_nops = 0 : i32
// AFTER-SAME: spill_nops = {{[1-9]}}
