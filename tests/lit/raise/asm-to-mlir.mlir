// RUN: aster-translate --asm-to-mlir %S/Inputs/hand.s | FileCheck %s
// Round trip: raised and translated back, the code is LLVM MC's own for the file.
// RUN: aster-translate --asm-to-mlir %S/Inputs/hand.s | aster-translate --mlir-to-asm > %t.s
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %S/Inputs/hand.s -o %t.want.o
// RUN: llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj %t.s -o %t.got.o
// RUN: llvm-objdump -d -j .text %t.want.o | grep "//" > %t.want
// RUN: llvm-objdump -d -j .text %t.got.o | grep "//" > %t.got
// RUN: llvm-objdump -s -j .rodata %t.want.o | grep "^ " > %t.want.kd
// RUN: llvm-objdump -s -j .rodata %t.got.o | grep "^ " > %t.got.kd
// RUN: diff %t.want.kd %t.got.kd
// RUN: diff %t.want %t.got
// Unknown instructions name their line.
// RUN: not aster-translate --asm-to-mlir %S/Inputs/unknown.s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: aster-translate --asm-to-mlir --raise-keep-unknown %S/Inputs/unknown.s | FileCheck %s --check-prefix=KEEP

// CHECK: amdgcn.module @raised target("gfx942") attributes {code_object_version = 5 : i32}
// The descriptor holds every field, as LLVM MC computes it from the block.
// CHECK: amdgcn.kernel @loop() attributes {code_tail = "\09.long 0x12345678\0A", descriptor = {accum_offset = 4 : i64, {{.*}}next_free_sgpr = 5 : i64, next_free_vgpr = 2 : i64, {{.*}}user_sgpr_kernarg_segment_ptr = 1 : i64, {{.*}}}}
// CHECK: arith.constant 3.14159274 : f32
// CHECK: amdgcn.s_load_dwordx2
// CHECK: cf.br ^bb1
// CHECK: ^bb1:
// CHECK: amdgcn.v_add_u32 {{.*}} {encoding = "e64"}
// CHECK: amdgcn.s_cbranch_scc1 ^bb1, ^bb2
// CHECK: ^bb2:
// CHECK: amdgcn.v_mul_f32
// CHECK: amdgcn.s_endpgm
// CHECK-NEXT: }

// UNKNOWN: unknown.s:6: s_sethalt 0: 's_sethalt' is not in aster's instruction table for gfx942
// KEEP: amdgcn.data {text = "s_sethalt 0"}
