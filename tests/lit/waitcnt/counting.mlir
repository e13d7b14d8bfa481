// RUN: aster-opt %s -amdgcn-waitcnt | aster-translate --mlir-to-asm | FileCheck %s
// RUN: aster-opt %s -amdgcn-waitcnt | FileCheck %s --check-prefix=STATS
// In-order counting: VMEM loads and stores return in issue order on vmcnt,
// LDS accesses on lgkmcnt. A read waits for exactly the accesses issued
// after its load (vmcnt(N) with N of them still allowed in flight), right
// before the first instruction that reads (or overwrites) the result.

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: vm_in_order:
  // CHECK:      global_load_dword v4, v[0:1], off
  // CHECK-NEXT: global_load_dword v5, v[0:1], off
  // CHECK-NEXT: global_load_dword v6, v[0:1], off
  // CHECK-NEXT: v_mov_b32 v10, 0
  // CHECK-NEXT: s_waitcnt vmcnt(2)
  // CHECK-NEXT: v_mov_b32 v7, v4
  // CHECK-NEXT: s_waitcnt vmcnt(0)
  // CHECK-NEXT: v_mov_b32 v8, v6
  // CHECK-NEXT: v_mov_b32 v9, v5
  // CHECK-NEXT: s_endpgm
  // STATS-LABEL: @vm_in_order
  // STATS-SAME: waitcnt = {author = 0 : i32, expcnt = 0 : i32, inserted = 2 : i32, lgkmcnt = 0 : i32, replaced = 0 : i32, vmcnt = 2 : i32}
  amdgcn.kernel @vm_in_order() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %c0 = arith.constant 0 : i32
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<4>
    %b = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<5>
    %c = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<6>
    %z = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<10>
    %x = amdgcn.v_mov_b32 %a : (!amdgcn.vgpr<4>) -> !amdgcn.vgpr<7>
    %y = amdgcn.v_mov_b32 %c : (!amdgcn.vgpr<6>) -> !amdgcn.vgpr<8>
    %w = amdgcn.v_mov_b32 %b : (!amdgcn.vgpr<5>) -> !amdgcn.vgpr<9>
    amdgcn.s_endpgm
  }

  // Stores count on vmcnt too: one store after the load leaves vmcnt(1).
  // s_endpgm needs no wait for the store.
  // CHECK-LABEL: stores_count:
  // CHECK:      global_load_dword v4, v[0:1], off
  // CHECK-NEXT: global_store_dword v[0:1], v2, off
  // CHECK-NEXT: s_waitcnt vmcnt(1)
  // CHECK-NEXT: global_store_dword v[0:1], v4, off
  // CHECK-NEXT: s_endpgm
  amdgcn.kernel @stores_count() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<4>
    amdgcn.global_store_dword %v01, %v2 : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<2>) -> ()
    amdgcn.global_store_dword %v01, %a : (!amdgcn.vgpr<[0:1]>, !amdgcn.vgpr<4>) -> ()
    amdgcn.s_endpgm
  }

  // LDS in order on lgkmcnt; a VMEM load and an LDS read waited for with
  // one s_waitcnt naming both counters.
  // CHECK-LABEL: lds_and_multi_field:
  // CHECK:      ds_read_b32 v4, v2
  // CHECK-NEXT: ds_read_b32 v5, v2 offset:4
  // CHECK-NEXT: global_load_dword v6, v[0:1], off
  // CHECK-NEXT: s_waitcnt lgkmcnt(1)
  // CHECK-NEXT: v_mov_b32 v7, v4
  // CHECK-NEXT: s_waitcnt vmcnt(0) lgkmcnt(0)
  // CHECK-NEXT: v_add_u32 v8, v5, v6
  amdgcn.kernel @lds_and_multi_field() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    %a = amdgcn.ds_read_b32 %v2 : (!amdgcn.vgpr<2>) -> !amdgcn.vgpr<4>
    %b = amdgcn.ds_read_b32 %v2 {offset = 4 : i32} : (!amdgcn.vgpr<2>) -> !amdgcn.vgpr<5>
    %c = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<6>
    %x = amdgcn.v_mov_b32 %a : (!amdgcn.vgpr<4>) -> !amdgcn.vgpr<7>
    %y = amdgcn.v_add_u32 %b, %c : (!amdgcn.vgpr<5>, !amdgcn.vgpr<6>) -> !amdgcn.vgpr<8>
    amdgcn.s_endpgm
  }

  // Overwrites: a VALU write of a pending register waits for it; a second
  // load of the same counter into it does not (results return in order);
  // an LDS read into a register a VMEM load is writing does.
  // CHECK-LABEL: overwrite:
  // CHECK:      global_load_dword v4, v[0:1], off
  // CHECK-NEXT: global_load_dword v4, v[0:1], off offset:4
  // CHECK-NEXT: global_load_dword v5, v[0:1], off
  // CHECK-NEXT: s_waitcnt vmcnt(1)
  // CHECK-NEXT: v_mov_b32 v4, 0
  // CHECK-NEXT: s_waitcnt vmcnt(0)
  // CHECK-NEXT: ds_read_b32 v5, v2
  amdgcn.kernel @overwrite() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    %c0 = arith.constant 0 : i32
    %a = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<4>
    %a2 = amdgcn.global_load_dword %v01 {offset = 4 : i32} : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<4>
    %b = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<5>
    %x = amdgcn.v_mov_b32 %c0 : (i32) -> !amdgcn.vgpr<4>
    %y = amdgcn.ds_read_b32 %v2 : (!amdgcn.vgpr<2>) -> !amdgcn.vgpr<5>
    amdgcn.s_endpgm
  }

  // Ranges: reading part of a pending range waits for the load of it.
  // CHECK-LABEL: ranges:
  // CHECK:      global_load_dwordx4 v[4:7], v[0:1], off
  // CHECK-NEXT: global_load_dword v8, v[0:1], off
  // CHECK-NEXT: s_waitcnt vmcnt(1)
  // CHECK-NEXT: v_mov_b32 v9, v6
  amdgcn.kernel @ranges() {
    %v01 = amdgcn.reg : !amdgcn.vgpr<[0:1]>
    %v6 = amdgcn.reg : !amdgcn.vgpr<6>
    %a = amdgcn.global_load_dwordx4 %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<[4:7]>
    %b = amdgcn.global_load_dword %v01 : (!amdgcn.vgpr<[0:1]>) -> !amdgcn.vgpr<8>
    %x = amdgcn.v_mov_b32 %v6 : (!amdgcn.vgpr<6>) -> !amdgcn.vgpr<9>
    amdgcn.s_endpgm
  }
}
