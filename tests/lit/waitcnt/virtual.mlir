// RUN: aster-opt %s -amdgcn-waitcnt | FileCheck %s
// RUN: aster-opt %s -amdgcn-waitcnt -amdgcn-regalloc | aster-translate --mlir-to-asm | FileCheck %s --check-prefix=ASM
// Before register allocation values are tracked: a read of a loaded value
// waits for its load; a value passed to a block argument is read by the
// branch (the allocator may copy it on the edge); a load result nobody
// reads is waited for at the next op (its register may be reused there).

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: amdgcn.kernel @values
  // CHECK:      %[[A:.*]] = amdgcn.global_load_dword
  // CHECK-NEXT: %[[B:.*]] = amdgcn.global_load_dword
  // CHECK-NEXT: amdgcn.s_waitcnt {vmcnt = 1 : i32}
  // CHECK-NEXT: amdgcn.v_mov_b32 %[[A]]
  // CHECK:      amdgcn.s_waitcnt {vmcnt = 0 : i32}
  // CHECK-NEXT: cf.br ^bb1(%[[B]] : !amdgcn.vgpr<?>)
  // ASM-LABEL: values:
  // ASM: s_waitcnt vmcnt(1)
  // ASM: s_waitcnt vmcnt(0)
  amdgcn.kernel @values() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<?>
    %b = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<?>
    %x = amdgcn.v_mov_b32 %a : (!amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    cf.br ^bb1(%b : !amdgcn.vgpr<?>)
  ^bb1(%y: !amdgcn.vgpr<?>):
    amdgcn.global_store_dword %v01, %y : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<?>) -> ()
    amdgcn.s_endpgm
  }

  // CHECK-LABEL: amdgcn.kernel @dead
  // CHECK:      amdgcn.global_load_dword
  // CHECK-NEXT: amdgcn.s_waitcnt {vmcnt = 0 : i32}
  // CHECK-NEXT: amdgcn.v_mov_b32
  amdgcn.kernel @dead() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %c0 = arith.constant 0 : i32
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<?>
    %x = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<?>
    amdgcn.global_store_dword %v01, %x : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<?>) -> ()
    amdgcn.s_endpgm
  }
}
