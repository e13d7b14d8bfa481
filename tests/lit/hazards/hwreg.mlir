// RUN: aster-opt %s -amdgcn-hazards | aster-translate --mlir-to-asm | FileCheck %s
// RUN: aster-opt %s -amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// Hardware registers, m0 readers and VGPR index mode (gfx942): s_setreg
// then s_getreg / s_setreg of the same register 2 (of another register 0);
// s_setvskip then s_getreg of MODE 2 and then a vector instruction 2; an
// s_setreg of MODE covering VSKIP (bit 28) then a vector instruction 2
// (gfx9 "manually inserted wait states" table; LLVM's
// checkGetRegHazards/checkSetRegHazards); SALU writes m0, then s_sendmsg or
// s_movrels 1. s_set_gpr_idx_on and the VALU it indexes need none (neither
// the table nor LLVM has a rule), but it writes m0: an s_movrels right after
// it waits 1.

amdgcn.module @m target("gfx942") {
  // CHECK-LABEL: hwreg:
  amdgcn.kernel @hwreg() {
    %s4 = amdgcn.reg : !amdgcn.sgpr<4>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    // CHECK:      s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s4
    // CHECK-NEXT: s_nop 1
    // CHECK-NEXT: s_getreg_b32 s5, hwreg(HW_REG_MODE, 0, 4)
    amdgcn.s_setreg_b32 %s4 {hwreg = 6145 : i32} : (!amdgcn.sgpr<4>) -> ()
    %g = amdgcn.s_getreg_b32 {hwreg = 6145 : i32} : () -> !amdgcn.sgpr<5>
    // One instruction between two setregs of MODE: s_nop 0.
    // CHECK:      s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s4
    // CHECK-NEXT: v_mov_b32 v1, v2
    // CHECK-NEXT: s_nop 0
    // CHECK-NEXT: s_setreg_b32 hwreg(HW_REG_MODE), s4
    amdgcn.s_setreg_b32 %s4 {hwreg = 6145 : i32} : (!amdgcn.sgpr<4>) -> ()
    %a = amdgcn.v_mov_b32 %v2 : (!amdgcn.vgpr<2>) -> !amdgcn.vgpr<1>
    amdgcn.s_setreg_b32 %s4 {hwreg = 63489 : i32} : (!amdgcn.sgpr<4>) -> ()
    // The whole MODE (VSKIP included), then a VALU: 2.
    // CHECK-NEXT: s_nop 1
    // CHECK-NEXT: v_mov_b32 v1, v2
    %b = amdgcn.v_mov_b32 %v2 : (!amdgcn.vgpr<2>) -> !amdgcn.vgpr<1>
    // Another register (HW_REG_TRAPSTS) read right after: nothing.
    // CHECK:      s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s4
    // CHECK-NEXT: s_getreg_b32 s5, hwreg(HW_REG_TRAPSTS)
    amdgcn.s_setreg_b32 %s4 {hwreg = 6145 : i32} : (!amdgcn.sgpr<4>) -> ()
    %t = amdgcn.s_getreg_b32 {hwreg = 63491 : i32} : () -> !amdgcn.sgpr<5>
    amdgcn.s_endpgm
  }

  // CHECK-LABEL: vskip:
  amdgcn.kernel @vskip() {
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    %c1 = arith.constant 1 : i32
    %c0 = arith.constant 0 : i32
    // CHECK:      s_setvskip 1, 0
    // CHECK-NEXT: s_nop 1
    // CHECK-NEXT: s_getreg_b32 s5, hwreg(HW_REG_MODE)
    // CHECK-NEXT: s_setvskip 0, 0
    // CHECK-NEXT: s_nop 1
    // CHECK-NEXT: v_mov_b32 v1, v2
    amdgcn.s_setvskip %c1, %c0 : (i32, i32) -> ()
    %g = amdgcn.s_getreg_b32 {hwreg = 63489 : i32} : () -> !amdgcn.sgpr<5>
    amdgcn.s_setvskip %c0, %c0 : (i32, i32) -> ()
    %a = amdgcn.v_mov_b32 %v2 : (!amdgcn.vgpr<2>) -> !amdgcn.vgpr<1>
    amdgcn.s_endpgm
  }

  // CHECK-LABEL: m0:
  amdgcn.kernel @m0() {
    %s4 = amdgcn.reg : !amdgcn.sgpr<4>
    %s7 = amdgcn.reg : !amdgcn.sgpr<7>
    %v2 = amdgcn.reg : !amdgcn.vgpr<2>
    // CHECK:      s_mov_b32 m0, s4
    // CHECK-NEXT: s_nop 0
    // CHECK-NEXT: s_sendmsg sendmsg(MSG_INTERRUPT)
    %m = amdgcn.s_mov_b32 %s4 : (!amdgcn.sgpr<4>) -> !amdgcn.m0
    amdgcn.s_sendmsg {sendmsg = 1 : i32}
    // CHECK:      s_mov_b32 m0, s4
    // CHECK-NEXT: s_nop 0
    // CHECK-NEXT: s_movrels_b32 s6, s7
    %m2 = amdgcn.s_mov_b32 %s4 : (!amdgcn.sgpr<4>) -> !amdgcn.m0
    %r = amdgcn.s_movrels_b32 %s7 : (!amdgcn.sgpr<7>) -> !amdgcn.sgpr<6>
    // CHECK:      s_set_gpr_idx_on s4, gpr_idx(SRC0)
    // CHECK-NEXT: v_mov_b32 v1, v2
    // CHECK-NEXT: s_set_gpr_idx_off
    amdgcn.s_set_gpr_idx_on %s4 {gpr_idx = 1 : i32} : (!amdgcn.sgpr<4>) -> ()
    %a = amdgcn.v_mov_b32 %v2 : (!amdgcn.vgpr<2>) -> !amdgcn.vgpr<1>
    amdgcn.s_set_gpr_idx_off
    // CHECK:      s_set_gpr_idx_on s4, gpr_idx(SRC0)
    // CHECK-NEXT: s_nop 0
    // CHECK-NEXT: s_movrels_b32 s6, s7
    amdgcn.s_set_gpr_idx_on %s4 {gpr_idx = 1 : i32} : (!amdgcn.sgpr<4>) -> ()
    %r2 = amdgcn.s_movrels_b32 %s7 : (!amdgcn.sgpr<7>) -> !amdgcn.sgpr<6>
    amdgcn.s_set_gpr_idx_off
    amdgcn.s_endpgm
  }
}
