// raise_asm takes `/* */` comments anywhere: before everything, after a label, inside operands,
// over a line break, banners:
// raised, printed, and compiled back to the bytes llvm-mc-22 makes of the
// same source (llvm-mc is the oracle).
// RUN: aster-translate --asm-to-mlir %S/Inputs/comments.s | FileCheck %s
// RUN: aster-translate --asm-to-mlir %S/Inputs/comments.s | aster-translate --mlir-to-asm > %t.s
// RUN: FileCheck %s --check-prefix=ASM < %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -I %S/Inputs -filetype=obj %S/Inputs/comments.s -o %t.want.o
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.got.o
// RUN: llvm-objdump -d -j .text %t.want.o | grep "//" > %t.want
// RUN: llvm-objdump -d -j .text %t.got.o | grep "//" > %t.got
// RUN: diff %t.want %t.got
// RUN: llvm-objdump -s -j .rodata %t.want.o | grep "^ " > %t.want.kd
// RUN: llvm-objdump -s -j .rodata %t.got.o | grep "^ " > %t.got.kd
// RUN: diff %t.want.kd %t.got.kd

// CHECK-LABEL: amdgcn.kernel @k()
// CHECK-COUNT-3: amdgcn.v_mov_b32
// CHECK: amdgcn.v_add_u32
// CHECK-NEXT: amdgcn.s_endpgm

// ASM: v_add_u32_e32 v1, v2, v3
