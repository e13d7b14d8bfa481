// A code object with a device function (a FUNC symbol without a kernel
// descriptor, called through s_getpc/s_add_u32 rel32/s_swappc_b64): raised as
// amdgcn.device_function, written back at the same place, LLVM's own
// disassembly of the two code objects is the same.
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %S/Inputs/device_function.s -o %t.o
// RUN: ld.lld -shared %t.o -o %t.hsaco
// RUN: aster-translate --hsaco-to-mlir %t.hsaco | FileCheck %s
// RUN: aster-translate --hsaco-to-mlir %t.hsaco | aster-translate --mlir-to-hsaco -o %t.again.hsaco
// RUN: llvm-objdump -d %t.hsaco | grep "//" > %t.want
// RUN: llvm-objdump -d %t.again.hsaco | grep "//" > %t.got
// RUN: diff %t.want %t.got
// RUN: llvm-readelf -s %t.again.hsaco | FileCheck %s --check-prefix=SYMS

// CHECK: amdgcn.device_function @twice attributes {p2align = 2 : i32} {
// CHECK: amdgcn.s_cbranch_scc1 ^bb
// CHECK: amdgcn.s_setpc_b64
// CHECK: amdgcn.kernel @k()
// CHECK: amdgcn.s_getpc_b64
// CHECK: amdgcn.s_swappc_b64

// SYMS-DAG: 0000000000001400 16 FUNC LOCAL DEFAULT {{[0-9]+}} twice
// SYMS-DAG: 0000000000001500 36 FUNC GLOBAL PROTECTED {{[0-9]+}} k
