// RUN: aster-opt %s -amdgcn-regalloc | aster-translate --mlir-to-asm | FileCheck %s
// amdgcn.concat: a pair whose parts are read only there is built in place
// (the parts get the pair's registers: no copy); the same parts also read
// elsewhere are copied into a pair apart from them, all at once.

// CHECK-LABEL: k:
// CHECK:      v_add_u32 v[[LO:[0-9]+]], 1, v0
// CHECK-NEXT: v_add_u32 v[[HI:[0-9]+]], 2, v0
// CHECK-NEXT: v_lshl_add_u64 v{{\[[0-9]+:[0-9]+\]}}, v{{\[}}[[LO]]:[[HI]]{{\]}}, 1,
// CHECK:      v_add_u32 [[A:v[0-9]+]], 3, v0
// CHECK-NEXT: v_add_u32 [[B:v[0-9]+]], 4, v0
// CHECK-NEXT: v_mov_b32 v[[P:[0-9]+]], [[B]]
// CHECK-NEXT: v_mov_b32 v[[Q:[0-9]+]], [[A]]
// CHECK-NEXT: v_lshl_add_u64 v{{\[[0-9]+:[0-9]+\]}}, v{{\[}}[[P]]:[[Q]]{{\]}}, 0, 0
// CHECK-NEXT: v_add_u32 v{{[0-9]+}}, [[A]], [[B]]
amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() attributes {block = array<i32: 64, 1, 1>} {
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %lo = amdgcn.v_add_u32 %c1, %v0 : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    %hi = amdgcn.v_add_u32 %c2, %v0 : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    %p = amdgcn.concat %lo, %hi : !amdgcn.vgpr<?>, !amdgcn.vgpr<?> -> !amdgcn.vgpr<?x2>
    %q = amdgcn.v_lshl_add_u64 %p, %c1, %p : (!amdgcn.vgpr<?x2>, i32, !amdgcn.vgpr<?x2>) -> !amdgcn.vgpr<?x2>
    %a = amdgcn.v_add_u32 %c3, %v0 : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    %b = amdgcn.v_add_u32 %c4, %v0 : (i32, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    %ba = amdgcn.concat %b, %a : !amdgcn.vgpr<?>, !amdgcn.vgpr<?> -> !amdgcn.vgpr<?x2>
    %r = amdgcn.v_lshl_add_u64 %ba, %c0, %c0 : (!amdgcn.vgpr<?x2>, i32, i32) -> !amdgcn.vgpr<?x2>
    %s = amdgcn.v_add_u32 %a, %b : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    amdgcn.s_endpgm
  }
}
