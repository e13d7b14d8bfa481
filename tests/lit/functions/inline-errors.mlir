// RUN: not aster-opt %s -amdgcn-inline="functions=nope" 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not aster-opt %s -amdgcn-regalloc 2>&1 | FileCheck %s --check-prefix=RA
// RUN: not aster-translate --mlir-to-asm %s 2>&1 | FileCheck %s --check-prefix=ASM
// RUN: aster-opt %s -amdgcn-inline | aster-translate --mlir-to-asm | FileCheck %s --check-prefix=OK
// What a call left in a kernel gets: the option naming an unknown function,
// register allocation and translation before inlining.

amdgcn.module @m target("gfx942") {
  amdgcn.func @f(%p: !amdgcn.vgpr<1>) {
    %c1 = arith.constant 1 : i32
    %x = amdgcn.v_add_u32 %p, %c1 : (!amdgcn.vgpr<1>, i32) -> !amdgcn.vgpr<1>
    amdgcn.return
  }
  amdgcn.kernel @k() {
    %v1 = amdgcn.reg : !amdgcn.vgpr<1>
    // RA: inline-errors.mlir:[[@LINE+2]]:5: error: 'amdgcn.call' op is a call: run amdgcn-inline before amdgcn-regalloc
    // ASM: inline-errors.mlir:[[@LINE+1]]:5: error: 'amdgcn.call' op is a call that was not inlined: run amdgcn-inline (aster.compile does when a kernel has calls)
    amdgcn.call @f(%v1) : (!amdgcn.vgpr<1>) -> ()
    amdgcn.s_endpgm
  }
}
// OPT: error: amdgcn-inline: functions=nope is not an amdgcn.func of this module
// OK: k:
// OK-NEXT: v_add_u32 v1, v1, 1
// OK-NEXT: s_endpgm
