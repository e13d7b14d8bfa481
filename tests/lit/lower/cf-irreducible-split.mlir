// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// A loop entered at ^A or ^B (irreducible) is made reducible by node
// splitting before transformCFGToSCF: the entry into ^B goes to a clone of
// ^B (its m + 3 once before the loop), the loop has the one header ^A, and
// its body runs ^A's n * 2 + 1 then ^B's m + 3 once per trip (no selector
// choosing between two bodies).

// CHECK-LABEL: amdgcn.kernel @irr
// CHECK: amdgcn.v_add_u32 {{.*}}%c3_i32
// CHECK: amdgcn.v_lshlrev_b32 %c1_i32
// CHECK: amdgcn.v_add_u32 {{.*}}%c1_i32
// CHECK: amdgcn.v_add_u32 {{.*}}%c3_i32
// CHECK-NOT: amdgcn.v_add_u32 {{.*}}%c3_i32
// CHECK-NOT: amdgcn.v_lshlrev_b32 %c1_i32
// CHECK: amdgcn.s_endpgm
module attributes {gpu.container_module} {
  gpu.module @m {

    gpu.func @irr(%x: memref<256xi32>, %y: memref<256xi32>, %lim: i32) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<256xi32>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %o = arith.andi %v, %c1 : i32
      %odd = arith.cmpi ne, %o, %c0 : i32
      cf.cond_br %odd, ^A(%v : i32), ^B(%v : i32)
    ^A(%n: i32):
      %n1 = arith.muli %n, %c2 : i32
      %n2 = arith.addi %n1, %c1 : i32
      %ca = arith.cmpi slt, %n2, %lim : i32
      cf.cond_br %ca, ^B(%n2 : i32), ^exit(%n2 : i32)
    ^B(%m: i32):
      %m2 = arith.addi %m, %c3 : i32
      %cb = arith.cmpi slt, %m2, %lim : i32
      cf.cond_br %cb, ^A(%m2 : i32), ^exit(%m2 : i32)
    ^exit(%r: i32):
      memref.store %r, %y[%i] : memref<256xi32>
      gpu.return
    }
  }
}
