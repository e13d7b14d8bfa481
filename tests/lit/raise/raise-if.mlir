// raise_asm takes `.if` / `.elseif` / `.else` / `.endif` with expressions, `.ifdef` / `.ifndef`,
// nested:
// raised, printed, and compiled back to the bytes llvm-mc-22 makes of the
// same source (llvm-mc is the oracle).
// RUN: aster-translate --asm-to-mlir %S/Inputs/if.s | FileCheck %s
// RUN: aster-translate --asm-to-mlir %S/Inputs/if.s | aster-translate --mlir-to-asm > %t.s
// RUN: FileCheck %s --check-prefix=ASM < %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -I %S/Inputs -filetype=obj %S/Inputs/if.s -o %t.want.o
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.got.o
// RUN: llvm-objdump -d -j .text %t.want.o | grep "//" > %t.want
// RUN: llvm-objdump -d -j .text %t.got.o | grep "//" > %t.got
// RUN: diff %t.want %t.got
// RUN: llvm-objdump -s -j .rodata %t.want.o | grep "^ " > %t.want.kd
// RUN: llvm-objdump -s -j .rodata %t.got.o | grep "^ " > %t.got.kd
// RUN: diff %t.want.kd %t.got.kd

// CHECK-LABEL: amdgcn.kernel @k()
// CHECK-COUNT-2: amdgcn.v_mov_b32
// CHECK-COUNT-2: amdgcn.s_nop
// CHECK-NEXT: amdgcn.s_endpgm

// ASM: s_nop 2
// ASM-NEXT: s_nop 4
