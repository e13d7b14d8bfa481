// RUN: aster-opt %s -split-input-file -verify-diagnostics
// The sass dialect's parser and verifier: an instruction must be a row of the
// sm_90a table (python/aster/sass/table.json), with fields that fit.

sass.kernel @k {
  // expected-error @below {{'IMAD.FROB R1, RZ' (key 'IMAD.FROB %R,%R') is not a row of the sm_90a SASS table}}
  "sass.IMAD"() {mods = ".FROB", kinds = "%R,%R", vals = array<i64: 7, 0, 1, 255>, ctrl = 0 : i64} : () -> ()
  sass.end
}

// -----

sass.kernel @k {
  // expected-error @below {{field 2 (R) value 256 does not fit 8 bits}}
  "sass.FADD"() {mods = "", kinds = "%R,%R,%R", vals = array<i64: 7, 0, 256, 1, 2>, ctrl = 0 : i64} : () -> ()
  sass.end
}

// -----

sass.kernel @k {
  // expected-error @below {{has 4 field values; row 'FADD %R,%R,%R' has 5}}
  "sass.FADD"() {mods = "", kinds = "%R,%R,%R", vals = array<i64: 7, 0, 1, 2>, ctrl = 0 : i64} : () -> ()
  sass.end
}

// -----

sass.kernel @k {
  // expected-error @below {{instruction 'FADD' in a 'sass.IMAD' op}}
  sass.IMAD "[B------:R-:W-:Y:S04] FADD R2, R3, R4"
  sass.end
}

// -----

sass.kernel @k {
  // expected-error @below {{bad control bits '[B------:R-:W9:Y:S04]'}}
  sass.FADD "[B------:R-:W9:Y:S04] FADD R2, R3, R4"
  sass.end
}

// -----

sass.kernel @k {
  // expected-error @below {{'FADD R2, R3, R4, R5' (key 'FADD %R,%R,%R,%R') is not a row of the sm_90a SASS table}}
  sass.FADD "[B------:R-:W-:Y:S04] FADD R2, R3, R4, R5"
  sass.end
}

// -----

sass.kernel @k {
  // expected-error @below {{a branch target is a block successor after the text}}
  sass.BRA "[B------:R-:W-:Y:S05] BRA `(.L_x_1)"
  sass.end
}

// -----

sass.kernel @k {
  // expected-error @below {{control bits 8388608 do not fit 23 bits}}
  "sass.FADD"() {mods = "", kinds = "%R,%R,%R", vals = array<i64: 7, 0, 1, 2, 3>, ctrl = 8388608 : i64} : () -> ()
  sass.end
}

// -----

sass.kernel @k {
  // expected-error @below {{`.reuse` flags are control bits}}
  sass.FADD "[B------:R-:W-:Y:S04] FADD R2, R3.reuse, R4"
  sass.end
}

// -----

sass.kernel @k {
  // An opcode the table (hence the generated dialect) does not have.
  // expected-error @below {{custom op 'sass.FROB' is unknown}}
  sass.FROB "[B------:R-:W-:Y:S04] FROB R2"
  sass.end
}
