// raise_asm takes `.macro` with arguments, defaults, keyword arguments, `\@` labels, a macro
// calling a macro:
// raised, printed, and compiled back to the bytes llvm-mc-22 makes of the
// same source (llvm-mc is the oracle).
// RUN: aster-translate --asm-to-mlir %S/Inputs/macro.s | FileCheck %s
// RUN: aster-translate --asm-to-mlir %S/Inputs/macro.s | aster-translate --mlir-to-asm > %t.s
// RUN: FileCheck %s --check-prefix=ASM < %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -I %S/Inputs -filetype=obj %S/Inputs/macro.s -o %t.want.o
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.got.o
// RUN: llvm-objdump -d -j .text %t.want.o | grep "//" > %t.want
// RUN: llvm-objdump -d -j .text %t.got.o | grep "//" > %t.got
// RUN: diff %t.want %t.got
// RUN: llvm-objdump -s -j .rodata %t.want.o | grep "^ " > %t.want.kd
// RUN: llvm-objdump -s -j .rodata %t.got.o | grep "^ " > %t.got.kd
// RUN: diff %t.want.kd %t.got.kd
// RUN: aster-translate --asm-to-mlir --mlir-print-debuginfo %S/Inputs/macro.s | FileCheck %s --check-prefix=LOC

// CHECK-LABEL: amdgcn.kernel @k()
// CHECK: amdgcn.v_mov_b32
// CHECK: amdgcn.s_cbranch_scc1 ^bb1, ^bb2
// CHECK: amdgcn.s_cbranch_scc1 ^bb3, ^bb4
// CHECK: amdgcn.s_endpgm

// LOC: amdgcn.v_add_u32 {{.*}} loc([[ADD:#loc[0-9]+]])
// LOC-DAG: [[ADD]] = loc(callsite([[IN:#loc[0-9]+]] at [[CALL:#loc[0-9]+]]))
// LOC-DAG: [[IN]] = loc("macro 'add3'"({{#loc[0-9]+}}))

// ASM: v_add_u32_e32 v1, 5, v1
// ASM: s_mov_b32 s4, 16
// ASM: s_cbranch_scc1 .LBB0_1
// ASM: s_mov_b32 s5, 2
