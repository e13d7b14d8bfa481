// RUN: aster-translate --mlir-to-asm %s | FileCheck %s
// RUN: aster-translate --mlir-to-hsaco %s -o %t.hsaco
// RUN: llvm-readelf --dyn-syms -r %t.hsaco | FileCheck %s --check-prefix=ELF
// RUN: llvm-objdump -s -j .rodata -j .data %t.hsaco | FileCheck %s --check-prefix=DATA
// Globals and relocation operands: written as clang writes HIP variables,
// linked by lld into data sections with their symbols and relocations.

amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() {
    %s4 = amdgcn.reg : !amdgcn.sgpr<4>
    %s5 = amdgcn.reg : !amdgcn.sgpr<5>
    %s45 = amdgcn.reg : !amdgcn.sgpr<[4:5]>
    %lo = amdgcn.reloc @tab "rel32@lo" 4 : i32
    %hi = amdgcn.reloc @tab "rel32@hi" 12 : i32
    // CHECK:      s_getpc_b64 s[4:5]
    // CHECK-NEXT: s_add_u32 s4, s4, tab@rel32@lo+4
    // CHECK-NEXT: s_addc_u32 s5, s5, tab@rel32@hi+12
    %0 = amdgcn.s_getpc_b64 : () -> !amdgcn.sgpr<[4:5]>
    %1 = amdgcn.s_add_u32 %s4, %lo : (!amdgcn.sgpr<4>, i32) -> !amdgcn.sgpr<4>
    %2 = amdgcn.s_addc_u32 %s5, %hi : (!amdgcn.sgpr<5>, i32) -> !amdgcn.sgpr<5>
    amdgcn.s_endpgm
  }
  // CHECK:      .protected tab
  // CHECK-NEXT: .type tab,@object
  // CHECK-NEXT: .section .rodata,"a",@progbits
  // CHECK-NEXT: .globl tab
  // CHECK-NEXT: .p2align 4, 0x0
  // CHECK-NEXT: tab:
  // CHECK-NEXT: .long 0x3f800000
  // CHECK-NEXT: .long 0x40000000
  // CHECK-NEXT: .size tab, 8
  amdgcn.global @tab {section = ".rodata", alignment = 16 : i64, bytes = 8 : i64,
                      data = dense<[1.0, 2.0]> : tensor<2xf32>, constant}
  // CHECK:      .type ptrs,@object
  // CHECK-NEXT: .section .data,"aw",@progbits
  // CHECK-NEXT: .globl ptrs
  // CHECK-NEXT: .p2align 3, 0x0
  // CHECK-NEXT: ptrs:
  // CHECK-NEXT: .quad tab+4
  // CHECK-NEXT: .long 0x00000007
  // CHECK-NEXT: .long 0x00000000
  // CHECK-NEXT: .size ptrs, 16
  amdgcn.global @ptrs {section = ".data", alignment = 8 : i64, bytes = 16 : i64,
                       data = dense<[0, 0, 7]> : tensor<3xi32>,
                       relocs = [{offset = 0 : i64, symbol = @tab, addend = 4 : i64}],
                       linkage = "default"}
  // CHECK:      .hidden count
  // CHECK:      .section .bss,"aw",@nobits
  // CHECK:      .zero 4
  amdgcn.global @count {section = ".bss", alignment = 4 : i64, bytes = 4 : i64,
                        linkage = "hidden"}
}

// ELF-DAG: R_AMDGPU_RELATIVE64
// ELF-DAG: 8 OBJECT GLOBAL PROTECTED {{[0-9]+}} tab
// ELF-DAG: 16 OBJECT GLOBAL DEFAULT {{[0-9]+}} ptrs
// ELF-NOT: count
// DATA: Contents of section .rodata:
// DATA: 0000803f 00000040
