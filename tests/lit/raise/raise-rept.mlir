// raise_asm takes `.rept` / `.rep` with symbols reassigned in the body, inside a macro, nested,
// with a count of 0:
// raised, printed, and compiled back to the bytes llvm-mc-22 makes of the
// same source (llvm-mc is the oracle).
// RUN: aster-translate --asm-to-mlir %S/Inputs/rept.s | FileCheck %s
// RUN: aster-translate --asm-to-mlir %S/Inputs/rept.s | aster-translate --mlir-to-asm > %t.s
// RUN: FileCheck %s --check-prefix=ASM < %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -I %S/Inputs -filetype=obj %S/Inputs/rept.s -o %t.want.o
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.got.o
// RUN: llvm-objdump -d -j .text %t.want.o | grep "//" > %t.want
// RUN: llvm-objdump -d -j .text %t.got.o | grep "//" > %t.got
// RUN: diff %t.want %t.got
// RUN: llvm-objdump -s -j .rodata %t.want.o | grep "^ " > %t.want.kd
// RUN: llvm-objdump -s -j .rodata %t.got.o | grep "^ " > %t.got.kd
// RUN: diff %t.want.kd %t.got.kd

// CHECK-LABEL: amdgcn.kernel @k()
// CHECK-COUNT-4: amdgcn.v_accvgpr_write_b32
// CHECK-COUNT-4: amdgcn.v_fmac_f32
// CHECK-COUNT-8: amdgcn.s_nop
// CHECK-NEXT: amdgcn.s_endpgm

// ASM: v_accvgpr_write_b32 a3, 0
// ASM: v_fmac_f32_e32 v8, v9, v10
