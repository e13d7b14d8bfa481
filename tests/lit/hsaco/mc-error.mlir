// RUN: not aster-translate --mlir-to-hsaco %s -o %t.hsaco 2>&1 | FileCheck %s
// An assembler error comes back as a diagnostic at the IR location of the op
// that produced the offending line (here a kernel symbol MC cannot parse).

amdgcn.module @m target("gfx942") {
  // CHECK: mc-error.mlir:[[@LINE+1]]:3: error: LLVM MC rejected this line
  amdgcn.kernel @"bad name"() {
    amdgcn.s_endpgm
  }
}
