// raise_asm takes `.include` of a file next to the source (register symbols and a macro):
// raised, printed, and compiled back to the bytes llvm-mc-22 makes of the
// same source (llvm-mc is the oracle).
// RUN: aster-translate --asm-to-mlir %S/Inputs/include.s | FileCheck %s
// RUN: aster-translate --asm-to-mlir %S/Inputs/include.s | aster-translate --mlir-to-asm > %t.s
// RUN: FileCheck %s --check-prefix=ASM < %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -I %S/Inputs -filetype=obj %S/Inputs/include.s -o %t.want.o
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.got.o
// RUN: llvm-objdump -d -j .text %t.want.o | grep "//" > %t.want
// RUN: llvm-objdump -d -j .text %t.got.o | grep "//" > %t.got
// RUN: diff %t.want %t.got
// RUN: llvm-objdump -s -j .rodata %t.want.o | grep "^ " > %t.want.kd
// RUN: llvm-objdump -s -j .rodata %t.got.o | grep "^ " > %t.got.kd
// RUN: diff %t.want.kd %t.got.kd
// RUN: aster-translate --asm-to-mlir --mlir-print-debuginfo %S/Inputs/include.s | FileCheck %s --check-prefix=LOC

// CHECK-LABEL: amdgcn.kernel @k()
// CHECK: amdgcn.global_load_dwordx2

// LOC: amdgcn.global_load_dwordx2 {{.*}} loc([[LD:#loc[0-9]+]])
// LOC-DAG: [[LD]] = loc(callsite([[IN:#loc[0-9]+]] at {{#loc[0-9]+}}))
// LOC-DAG: [[IN]] = loc("macro 'load_pair'"([[DEF:#loc[0-9]+]]))
// LOC-DAG: [[DEF]] = loc({{.*}}include_defs.inc":5:{{[0-9]+}})

// ASM: global_load_dwordx2 v[4:5], v0, s[0:1]
