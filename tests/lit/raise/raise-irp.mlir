// raise_asm takes `.irp` over a list and `.irpc` over characters:
// raised, printed, and compiled back to the bytes llvm-mc-22 makes of the
// same source (llvm-mc is the oracle).
// RUN: aster-translate --asm-to-mlir %S/Inputs/irp.s | FileCheck %s
// RUN: aster-translate --asm-to-mlir %S/Inputs/irp.s | aster-translate --mlir-to-asm > %t.s
// RUN: FileCheck %s --check-prefix=ASM < %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -I %S/Inputs -filetype=obj %S/Inputs/irp.s -o %t.want.o
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.got.o
// RUN: llvm-objdump -d -j .text %t.want.o | grep "//" > %t.want
// RUN: llvm-objdump -d -j .text %t.got.o | grep "//" > %t.got
// RUN: diff %t.want %t.got
// RUN: llvm-objdump -s -j .rodata %t.want.o | grep "^ " > %t.want.kd
// RUN: llvm-objdump -s -j .rodata %t.got.o | grep "^ " > %t.got.kd
// RUN: diff %t.want.kd %t.got.kd

// CHECK-LABEL: amdgcn.kernel @k()
// CHECK-COUNT-3: amdgcn.v_mov_b32
// CHECK-COUNT-4: amdgcn.v_add_u32

// ASM: v_mov_b32_e32 v5, s5
// ASM: v_add_u32_e32 v1, 1, v1
// ASM: v_add_u32_e32 v9, 9, v9
