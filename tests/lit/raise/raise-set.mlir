// raise_asm takes `.set` / `.equ` / `=` symbols as register numbers, register ranges, offsets
// and literals:
// raised, printed, and compiled back to the bytes llvm-mc-22 makes of the
// same source (llvm-mc is the oracle).
// RUN: aster-translate --asm-to-mlir %S/Inputs/set.s | FileCheck %s
// RUN: aster-translate --asm-to-mlir %S/Inputs/set.s | aster-translate --mlir-to-asm > %t.s
// RUN: FileCheck %s --check-prefix=ASM < %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -I %S/Inputs -filetype=obj %S/Inputs/set.s -o %t.want.o
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.got.o
// RUN: llvm-objdump -d -j .text %t.want.o | grep "//" > %t.want
// RUN: llvm-objdump -d -j .text %t.got.o | grep "//" > %t.got
// RUN: diff %t.want %t.got
// RUN: llvm-objdump -s -j .rodata %t.want.o | grep "^ " > %t.want.kd
// RUN: llvm-objdump -s -j .rodata %t.got.o | grep "^ " > %t.got.kd
// RUN: diff %t.want.kd %t.got.kd

// CHECK-LABEL: amdgcn.kernel @k()
// CHECK: amdgcn.s_load_dwordx2 {{.*}} -> !amdgcn.sgpr<[4:5]>
// CHECK: amdgcn.global_store_dwordx2

// ASM: v_mov_b32_e32 v12, 0x3e8
// ASM: global_store_dwordx2 v0, v[12:13], s[4:5] offset:64
