// raise_asm takes `hwreg(...)` / `sendmsg(...)` operands written as numbers:
// raised, printed, and compiled back to the bytes llvm-mc-22 makes of the
// same source (llvm-mc is the oracle).
// RUN: aster-translate --asm-to-mlir %S/Inputs/hwreg.s | FileCheck %s
// RUN: aster-translate --asm-to-mlir %S/Inputs/hwreg.s | aster-translate --mlir-to-asm > %t.s
// RUN: FileCheck %s --check-prefix=ASM < %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -I %S/Inputs -filetype=obj %S/Inputs/hwreg.s -o %t.want.o
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.got.o
// RUN: llvm-objdump -d -j .text %t.want.o | grep "//" > %t.want
// RUN: llvm-objdump -d -j .text %t.got.o | grep "//" > %t.got
// RUN: diff %t.want %t.got
// RUN: llvm-objdump -s -j .rodata %t.want.o | grep "^ " > %t.want.kd
// RUN: llvm-objdump -s -j .rodata %t.got.o | grep "^ " > %t.got.kd
// RUN: diff %t.want.kd %t.got.kd

// CHECK-LABEL: amdgcn.kernel @k()
// CHECK-COUNT-2: amdgcn.s_getreg_b32
// CHECK: amdgcn.s_setreg_b32
// CHECK: amdgcn.s_setreg_imm32_b32
// CHECK-COUNT-3: amdgcn.s_sendmsg

// ASM: s_getreg_b32 s0, hwreg(HW_REG_HW_ID)
// ASM: s_sendmsg sendmsg(MSG_GS, GS_OP_CUT, 0)
