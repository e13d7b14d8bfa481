// RUN: aster-opt %s | aster-opt | FileCheck %s
// sass ops (generated from python/aster/sass/table.json) print as nvdisasm's
// text with their control bits, parse back, and print identically. The texts
// are instructions of the committed corpus (tests/py/sass/corpus), as
// nvdisasm 13.0 printed them; a branch target is a block successor.

// CHECK-LABEL: sass.kernel @k
sass.kernel @k attributes {params = [array<i64: 0, 0, 8>], regcount = 12 : i64} {
  // CHECK: sass.LDC "[B------:R-:W-:-:S01] LDC R1, c[0x0][0x28]"
  sass.LDC "[B------:R-:W-:-:S01] LDC R1, c[0x0][0x28]"
  // CHECK-NEXT: sass.S2R "[B------:R-:W0:-:S01] S2R R0, SR_TID.X"
  sass.S2R "[B------:R-:W0:-:S01] S2R R0, SR_TID.X"
  // CHECK-NEXT: sass.IMAD "[B0-----:R-:W-:Y:S01] IMAD.MOV.U32 R1, RZ, RZ, 0x5"
  sass.IMAD "[B0-----:R-:W-:Y:S01] IMAD.MOV.U32 R1, RZ, RZ, 0x5"
  // CHECK-NEXT: sass.FFMA "[B------:R-:W-:Y:S04:U1] FFMA R2, R3, 1.5, R4"
  sass.FFMA "[B------:R-:W-:Y:S04:U1] FFMA R2, R3, 1.5, R4"
  // CHECK-NEXT: sass.FADD "[B------:R-:W-:Y:S04] FADD R2, R3, -0.10000000149011612"
  sass.FADD "[B------:R-:W-:Y:S04] FADD R2, R3, -0.10000000149011612"
  // CHECK-NEXT: sass.LDG "[B------:R-:W2:-:S04] LDG.E.CONSTANT R3, desc[UR4][R2.64]"
  sass.LDG "[B------:R-:W2:-:S04] LDG.E.CONSTANT R3, desc[UR4][R2.64]"
  // CHECK-NEXT: sass.ISETP "[B------:R-:W-:Y:S02] ISETP.GE.AND P0, PT, R9, UR4, PT"
  sass.ISETP "[B------:R-:W-:Y:S02] ISETP.GE.AND P0, PT, R9, UR4, PT"
  // CHECK-NEXT: sass.BRA "[B------:R-:W-:Y:S05] @!P0 BRA" [^bb1] {sass.pc = 64 : i64}
  sass.BRA "[B------:R-:W-:Y:S05] @!P0 BRA" [^bb1] {sass.pc = 64 : i64}
// CHECK: ^bb1:
^bb1:
  // CHECK-NEXT: sass.EXIT "[B------:R-:W-:Y:S05] EXIT"
  sass.EXIT "[B------:R-:W-:Y:S05] EXIT"
  // CHECK-NEXT: sass.BRA "[B------:R-:W-:Y:S00] BRA" [^bb2]
  sass.BRA "[B------:R-:W-:Y:S00] BRA" [^bb2]
^bb2:
  // CHECK: sass.BSSY "[B------:R0:W-:Y:S04] BSSY B0" [^bb3]
  sass.BSSY "[B------:R0:W-:Y:S04] BSSY B0" [^bb3]
^bb3:
  // CHECK: sass.raw "0x000fc00000000000000000000000794d"
  sass.raw "0x000fc00000000000000000000000794d"
  // CHECK-NEXT: sass.end
  sass.end
}
