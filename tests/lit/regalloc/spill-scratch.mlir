// RUN: aster-opt %s -amdgcn-regalloc="max-vgprs=3 max-agprs=0" | FileCheck %s
// RUN: aster-opt %s -amdgcn-regalloc="max-vgprs=3 max-agprs=0" | aster-translate --mlir-to-asm | FileCheck %s --check-prefix=ASM
// With no AGPR to spare, a spilled VGPR goes to scratch memory: stored once,
// loaded before each use with a wait for the load; the kernel's private
// segment grows by the slot and the descriptor enables it.

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: amdgcn.kernel @pressure
  // CHECK-SAME: private_segment = 4 : i32
  // CHECK-SAME: scratch_spills = 1 : i32, sgpr = 1 : i32
  // CHECK-SAME: spills = 1 : i32, vgpr = 6 : i32
  amdgcn.kernel @pressure() {
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %a = amdgcn.v_mov_b32 %c1 : (i32) -> !amdgcn.vgpr<?>
    %b = amdgcn.v_mov_b32 %c2 : (i32) -> !amdgcn.vgpr<?>
    %c = amdgcn.v_mov_b32 %c3 : (i32) -> !amdgcn.vgpr<?>
    %d = amdgcn.v_mov_b32 %c4 : (i32) -> !amdgcn.vgpr<?>
    %bc = amdgcn.v_add_u32 %b, %c : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %bcd = amdgcn.v_add_u32 %bc, %d : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %all = amdgcn.v_add_u32 %a, %bcd : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %p = amdgcn.reg : !amdgcn.vgpr<[4:5]>
    amdgcn.global_store_dword %p, %all : (!amdgcn.vgpr<[4:5]>, !amdgcn.vgpr<?>) -> ()
    amdgcn.s_endpgm
  }
  // ASM:      v_mov_b32 [[A:v[0-9]+]], 1
  // ASM-NEXT: s_mov_b32 [[Z:s[0-9]+]], 0
  // ASM-NEXT: scratch_store_dword off, [[A]], [[Z]]{{$}}
  // (the base SGPR still holds 0 at the reload: not set again)
  // ASM-NOT:  s_mov_b32
  // ASM:      scratch_load_dword [[R:v[0-9]+]], off, [[Z]]{{$}}
  // ASM-NEXT: s_waitcnt vmcnt(0)
  // ASM-NEXT: v_add_u32 {{v[0-9]+}}, [[R]],
  // ASM: .amdhsa_private_segment_fixed_size 4
  // ASM: .amdhsa_enable_private_segment 1
}
