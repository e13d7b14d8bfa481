// RUN: aster-opt %s | aster-opt | FileCheck %s
// A corpus kernel as aster.sass raises it (tests/py/sass/corpus/own.tar.xz,
// f32_add_flat: o = a + b, nvcc 13.0 for sm_90a): sass.to_mlir's output.
// tests/py/sass/test_mlir.py checks that sass.from_mlir of this file gives
// ptxas's cubin byte for byte.

// CHECK: module attributes {sass.elf =
// CHECK: sass.kernel @f32_add_flat attributes {constant_banks = array<i64: 0>, params = [array<i64: 0, 0, 8>, array<i64: 1, 8, 8>, array<i64: 2, 16, 8>, array<i64: 3, 24, 4>], regcount = 12 : i64}
// CHECK: sass.EXIT "[B------:R-:W-:-:S05] @P0 EXIT"
// CHECK: sass.FADD "[B---3--:R-:W-:Y:S05] FADD R9, R4, R3"
// CHECK: sass.next ^bb1
// CHECK: ^bb1:
// CHECK-NEXT: sass.BRA "[B------:R-:W-:Y:S00] BRA" [^bb1]
// CHECK: sass.end
module attributes {sass.elf = "eNrtV81u00AQHv8kddPQPw4UtUKuxKGVUtdto7TllP4BlShCgHqoVBk3cZqIxLZsJ0olJFIOcOEZEAcegANnngAkxBNw4MABoTwAUHbtdWKv7SIqDkh0pM3sfJ5vZzyz2Wweb926zjLMmgCesPAWGOiLOezp1xlP83uQLsIKpKAII9hTsqu2YznqAZr5+qgR0Ipd1cttkHTD0SS9JTkPa3rF6NulJrFbUm9SMhqm6oDkaG1HqiwtKmq5rFTqGCJuUdSuqpZWTsQtzdasFprIIJW1g+ahUrHUhgboQT0CqGEEZ6TW64eWalZdy7QMx3COTPLM0G1H1R05HPyP5J8vo1+/ew2tIRmViq05ckJ9FUVvKT3/na0dxfNXZEWt11T7rzYgkujZujGLBod2NS2rLp6O4Psuno3gL9CYDtg80e/REF9eiPh/c9fhI/gVBuOZCH4N4eOjgbisp264/sMR/xMkVwNzLCjeI6xHssedzgwIJ8edGcGdej65pCKRWLyIPjwu7/vijJ6j8WEA4Pbu9ub2mrhhWKZPcc8U9AgKaDxwDxanjXbCRrOsinib1lCPaoYuOoZRt3Mi2gKaamviwpIk58RdrKSVFVhv1uplsYRIigtZ+HPe42uWtFTIL+aXF/KKDHOqVaqKdkNZlVVxriEW8qKbIz7nvnB0jnvwBL/XvOA+x378mDd333e8P2cHGWBZNFIp4AYYhkVrsWkG+CGh3/Nl3lvvktcnDiYAumM9m4VRZE/3bAavHrBdQTZ3B3EnT4BTGIafEsBEsIz7fHkK+IwAg8geZdG8wPfyw/3D+ifRP4j+TvRmoJUCnMu5nMu5/D/CuOdxVIpETzJR/6AMJfCfEceD3/Av9n9GQ9IlYDdwPmcCZ/QE0W9i1sTyiSRVhdPjz5LfYTqNm+QK8ory52PuQwNevUJLfyWOIrFTJHeav03+VtD5Z8nVy7+rcAnx76LxNIYvU/yk/AnRLFL4fcJvB+JnY/ifvZpG4r9Lhd+fzt/v40eC0fG7qXCfOeJH93+f9JS+kXbS4TsaR7idmPupELOHO0Ly94UGMLaewM8FdlVc/dIEM4fj400wYS0E8jgrLxWsT8Kd1tdBXvqUutBC55nE8+uTo+L9AhD7Zhs=", sass.sm = 90 : i64} {
  sass.kernel @f32_add_flat attributes {constant_banks = array<i64: 0>, params = [array<i64: 0, 0, 8>, array<i64: 1, 8, 8>, array<i64: 2, 16, 8>, array<i64: 3, 24, 4>], regcount = 12 : i64} {
    sass.LDC "[B------:R-:W-:-:S01] LDC R1, c[0x0][0x28]"
    sass.S2R "[B------:R-:W0:-:S07] S2R R0, SR_TID.X"
    sass.S2UR "[B------:R-:W0:-:S08] S2UR UR4, SR_CTAID.X"
    sass.LDC "[B------:R-:W0:-:S02] LDC R9, c[0x0][RZ]"
    sass.IMAD "[B0-----:R-:W-:-:S01] IMAD R9, R9, UR4, R0"
    sass.ULDC "[B------:R-:W-:Y:S04] ULDC UR4, c[0x0][0x228]"
    sass.ISETP "[B------:R-:W-:Y:S13] ISETP.GE.AND P0, PT, R9, UR4, PT"
    sass.EXIT "[B------:R-:W-:-:S05] @P0 EXIT"
    sass.LDC "[B------:R-:W0:-:S01] LDC.64 R2, c[0x0][0x210]"
    sass.ULDC "[B------:R-:W-:Y:S07] ULDC.64 UR4, c[0x0][0x208]"
    sass.LDC "[B------:R-:W1:-:S08] LDC.64 R4, c[0x0][0x218]"
    sass.LDC "[B------:R-:W2:-:S01] LDC.64 R6, c[0x0][0x220]"
    sass.IMAD "[B0-----:R-:W-:Y:S06] IMAD.WIDE R2, R9, 0x4, R2"
    sass.LDG "[B------:R-:W3:-:S01] LDG.E.CONSTANT R3, desc[UR4][R2.64]"
    sass.IMAD "[B-1----:R-:W-:Y:S06] IMAD.WIDE R4, R9, 0x4, R4"
    sass.LDG "[B------:R-:W3:-:S01] LDG.E.CONSTANT R4, desc[UR4][R4.64]"
    sass.IMAD "[B--2---:R-:W-:Y:S04] IMAD.WIDE R6, R9, 0x4, R6"
    sass.FADD "[B---3--:R-:W-:Y:S05] FADD R9, R4, R3"
    sass.STG "[B------:R-:W-:-:S01] STG.E desc[UR4][R6.64], R9"
    sass.EXIT "[B------:R-:W-:-:S05] EXIT"
    sass.next ^bb1
  ^bb1:  // 2 preds: ^bb0, ^bb1
    sass.BRA "[B------:R-:W-:Y:S00] BRA" [^bb1]
  ^bb2:  // no predecessors
    sass.NOP "[B------:R-:W-:Y:S00] NOP"
    sass.NOP "[B------:R-:W-:Y:S00] NOP"
    sass.NOP "[B------:R-:W-:Y:S00] NOP"
    sass.NOP "[B------:R-:W-:Y:S00] NOP"
    sass.NOP "[B------:R-:W-:Y:S00] NOP"
    sass.NOP "[B------:R-:W-:Y:S00] NOP"
    sass.NOP "[B------:R-:W-:Y:S00] NOP"
    sass.NOP "[B------:R-:W-:Y:S00] NOP"
    sass.NOP "[B------:R-:W-:Y:S00] NOP"
    sass.NOP "[B------:R-:W-:Y:S00] NOP"
    sass.NOP "[B------:R-:W-:Y:S00] NOP"
    sass.end
  }
}
