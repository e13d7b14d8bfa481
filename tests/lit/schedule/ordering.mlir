// RUN: aster-opt %s -amdgcn-schedule | FileCheck %s
// RUN: aster-opt %s -amdgcn-schedule="mode=pressure" | FileCheck %s --check-prefix=PRESSURE
// RUN: not aster-opt %s -amdgcn-schedule="mode=fast" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: aster-opt %s -amdgcn-schedule -amdgcn-regalloc -amdgcn-waitcnt -amdgcn-hazards | aster-translate --mlir-to-asm | FileCheck %s --check-prefix=ASM
// Latency first: loads (planned as L2 hits, 250 cycles) go before the
// VALU work that does not need them; each reader stays after its load;
// an MFMA chain keeps its order, its operand loads issued first.

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: amdgcn.kernel @hoist
  // CHECK:      %[[A:.*]] = amdgcn.global_load_dword
  // CHECK-NEXT: %[[B:.*]] = amdgcn.global_load_dword
  // CHECK-NEXT: amdgcn.v_add_u32 %[[A]]
  // CHECK-NEXT: amdgcn.v_add_u32 %[[B]]
  // CHECK-NEXT: amdgcn.s_endpgm
  // ASM-LABEL: hoist:
  // ASM:      global_load_dword
  // ASM:      global_load_dword
  // ASM-NEXT: s_waitcnt vmcnt(1)
  // ASM-NEXT: v_add_u32
  // ASM-NEXT: s_waitcnt vmcnt(0)
  // Pressure first: each add frees its load's register, so it waits for it.
  // PRESSURE-LABEL: amdgcn.kernel @hoist
  // PRESSURE:      amdgcn.global_load_dword
  // PRESSURE-NEXT: amdgcn.v_add_u32
  // PRESSURE-NEXT: amdgcn.global_load_dword
  // PRESSURE-NEXT: amdgcn.v_add_u32
  // BAD: error: amdgcn-schedule: mode must be 'latency' or 'pressure', got 'fast'
  amdgcn.kernel @hoist() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %c1 = arith.constant 1 : i32
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<?>
    %x = amdgcn.v_add_u32 %a, %c1 : (!amdgcn.vgpr<?>, i32) -> !amdgcn.vgpr<?>
    %b = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<?>
    %y = amdgcn.v_add_u32 %b, %c1 : (!amdgcn.vgpr<?>, i32) -> !amdgcn.vgpr<?>
    amdgcn.s_endpgm
  }

  // Two MFMA steps: both steps' loads first, then the chain in order.
  // CHECK-LABEL: amdgcn.kernel @mfma_steps
  // CHECK:      %[[A0:.*]] = amdgcn.global_load_dwordx2
  // CHECK-NEXT: %[[B0:.*]] = amdgcn.global_load_dwordx2
  // CHECK-NEXT: %[[A1:.*]] = amdgcn.global_load_dwordx2
  // CHECK-NEXT: %[[B1:.*]] = amdgcn.global_load_dwordx2
  // CHECK-NEXT: %[[C0:.*]] = amdgcn.v_mfma_f32_16x16x16_f16 %[[A0]], %[[B0]], %{{.*}}
  // CHECK-NEXT: amdgcn.v_mfma_f32_16x16x16_f16 %[[A1]], %[[B1]], %[[C0]]
  amdgcn.kernel @mfma_steps() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %acc = amdgcn.undef : !amdgcn.vgpr<?x4, align 4>
    %a0 = amdgcn.global_load_dwordx2 %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<?x2, align 2>
    %b0 = amdgcn.global_load_dwordx2 %v01 {offset = 8 : i32} : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<?x2, align 2>
    %c0 = amdgcn.v_mfma_f32_16x16x16_f16 %a0, %b0, %acc : (!amdgcn.vgpr<?x2, align 2>, !amdgcn.vgpr<?x2, align 2>, !amdgcn.vgpr<?x4, align 4>) -> !amdgcn.vgpr<?x4, align 4>
    %a1 = amdgcn.global_load_dwordx2 %v01 {offset = 16 : i32} : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<?x2, align 2>
    %b1 = amdgcn.global_load_dwordx2 %v01 {offset = 24 : i32} : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<?x2, align 2>
    %c1 = amdgcn.v_mfma_f32_16x16x16_f16 %a1, %b1, %c0 : (!amdgcn.vgpr<?x2, align 2>, !amdgcn.vgpr<?x2, align 2>, !amdgcn.vgpr<?x4, align 4>) -> !amdgcn.vgpr<?x4, align 4>
    amdgcn.global_store_dwordx4 %v01, %c1 : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<?x4, align 4>) -> ()
    amdgcn.s_endpgm
  }
}
