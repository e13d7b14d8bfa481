// RUN: aster-opt %s -amdgcn-inline | FileCheck %s
// RUN: aster-opt %s -amdgcn-inline -amdgcn-regalloc | FileCheck %s --check-prefix=RA
// RUN: aster-opt %s -amdgcn-inline="functions=twice" | FileCheck %s --check-prefix=ONLY
// RUN: aster-opt %s -amdgcn-inline -mlir-print-debuginfo -mlir-print-local-scope | FileCheck %s --check-prefix=LOC
// Calls replaced by bodies: fresh virtual registers per call site, pinned
// registers kept, the body's order kept (no reordering, nothing dropped,
// even an unused result), nested calls, several blocks.

// Functions stay in the module.
// CHECK: amdgcn.func @add_pinned
// CHECK: amdgcn.func @twice
amdgcn.module @m target("gfx942") {
  amdgcn.func @add_pinned(%a: !amdgcn.vgpr<?>, %b: !amdgcn.vgpr<?>, %p: !amdgcn.vgpr<7>) -> !amdgcn.vgpr<?> {
    %x = amdgcn.v_add_u32 %a, %b : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %unused = amdgcn.v_mov_b32 %x : (!amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
    %v9 = amdgcn.reg : !amdgcn.vgpr<9>
    %y = amdgcn.v_xor_b32 %x, %p : (!amdgcn.vgpr<?>, !amdgcn.vgpr<7>) -> !amdgcn.vgpr<?>
    %z = amdgcn.v_sub_u32 %y, %v9 : (!amdgcn.vgpr<?>, !amdgcn.vgpr<9>) -> !amdgcn.vgpr<?>
    amdgcn.return %z : !amdgcn.vgpr<?>
  }
  amdgcn.func @twice(%a: !amdgcn.vgpr<?>, %p: !amdgcn.vgpr<7>) -> !amdgcn.vgpr<?> {
    %c1 = arith.constant 1 : i32
    %b = amdgcn.v_add_u32 %a, %c1 : (!amdgcn.vgpr<?>, i32) -> !amdgcn.vgpr<?>
    %r = amdgcn.call @add_pinned(%a, %b, %p) : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.vgpr<7>) -> !amdgcn.vgpr<?>
    %s = amdgcn.call @add_pinned(%r, %r, %p) : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.vgpr<7>) -> !amdgcn.vgpr<?>
    amdgcn.return %s : !amdgcn.vgpr<?>
  }

  // CHECK-LABEL: amdgcn.kernel @k
  // ONLY-LABEL: amdgcn.kernel @k
  amdgcn.kernel @k() {
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    %v7 = amdgcn.reg : !amdgcn.vgpr<7>
    // CHECK: %[[IN:.*]] = amdgcn.v_mov_b32 %{{.*}} : (!amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    %in = amdgcn.v_mov_b32 %v0 : (!amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    // First call: the body in order, on new values.
    // CHECK-NEXT: %[[X1:.*]] = amdgcn.v_add_u32 %[[IN]], %[[IN]]
    // CHECK-NEXT: amdgcn.v_mov_b32 %[[X1]]
    // CHECK-NEXT: %[[V9:.*]] = amdgcn.reg : !amdgcn.vgpr<9>
    // CHECK-NEXT: %[[Y1:.*]] = amdgcn.v_xor_b32 %[[X1]], %{{.*}} : (!amdgcn.vgpr<?>, !amdgcn.vgpr<7>)
    // CHECK-NEXT: %[[Z1:.*]] = amdgcn.v_sub_u32 %[[Y1]], %[[V9]] : (!amdgcn.vgpr<?>, !amdgcn.vgpr<9>)
    %r1 = amdgcn.call @add_pinned(%in, %in, %v7) : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.vgpr<7>) -> !amdgcn.vgpr<?>
    // Second call of the same function: other values (renamed), same order.
    // CHECK-NEXT: %[[X2:.*]] = amdgcn.v_add_u32 %[[Z1]], %[[IN]]
    // CHECK-NEXT: amdgcn.v_mov_b32 %[[X2]]
    // CHECK-NEXT: amdgcn.reg : !amdgcn.vgpr<9>
    // CHECK-NEXT: %[[Y2:.*]] = amdgcn.v_xor_b32 %[[X2]]
    // CHECK-NEXT: %[[Z2:.*]] = amdgcn.v_sub_u32 %[[Y2]]
    %r2 = amdgcn.call @add_pinned(%r1, %in, %v7) : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.vgpr<7>) -> !amdgcn.vgpr<?>
    // Nested: @twice's own op, then both of its calls.
    // CHECK-NEXT: arith.constant 1
    // CHECK-NEXT: %[[B:.*]] = amdgcn.v_add_u32 %[[Z2]], %{{.*}} : (!amdgcn.vgpr<?>, i32)
    // CHECK-NEXT: amdgcn.v_add_u32 %[[Z2]], %[[B]]
    // CHECK-NEXT: amdgcn.v_mov_b32
    // CHECK-NEXT: amdgcn.reg : !amdgcn.vgpr<9>
    // CHECK-NEXT: amdgcn.v_xor_b32
    // CHECK-NEXT: %[[Z3:.*]] = amdgcn.v_sub_u32
    // CHECK-NEXT: amdgcn.v_add_u32 %[[Z3]], %[[Z3]]
    // CHECK-NEXT: amdgcn.v_mov_b32
    // CHECK-NEXT: amdgcn.reg : !amdgcn.vgpr<9>
    // CHECK-NEXT: amdgcn.v_xor_b32
    // CHECK-NEXT: amdgcn.v_sub_u32
    // CHECK-NEXT: amdgcn.s_endpgm
    // CHECK-NOT: amdgcn.call
    // ONLY: amdgcn.call @add_pinned(%{{.*}}, %{{.*}}, %{{.*}})
    // ONLY: amdgcn.call @add_pinned(%{{.*}}, %{{.*}}, %{{.*}})
    // ONLY-NOT: @twice(
    // ONLY: amdgcn.call @add_pinned
    // ONLY: amdgcn.call @add_pinned
    // ONLY: amdgcn.s_endpgm
    %r3 = amdgcn.call @twice(%r2, %v7) : (!amdgcn.vgpr<?>, !amdgcn.vgpr<7>) -> !amdgcn.vgpr<?>
    amdgcn.s_endpgm
  }
}

// After allocation, the pinned v7 and v9 are never given to a virtual value.
// RA-LABEL: amdgcn.kernel @k
// RA-NOT: -> !amdgcn.vgpr<7>
// RA-NOT: -> !amdgcn.vgpr<9>
// RA: amdgcn.s_endpgm

// Each inlined op is located at its body line, called from the call's line
// (nested: called from @twice's call, itself called from the kernel's).
// LOC-LABEL: amdgcn.kernel @k
// LOC: amdgcn.v_xor_b32 {{.*}} loc(callsite("{{.*}}inline.mlir":17:10 at "{{.*}}inline.mlir":42:11))
// LOC: amdgcn.v_xor_b32 {{.*}} loc(callsite("{{.*}}inline.mlir":17:10 at "{{.*}}inline.mlir":49:11))
// LOC: amdgcn.v_add_u32 {{.*}} loc(callsite("{{.*}}inline.mlir":23:10 at "{{.*}}inline.mlir":71:11))
// LOC: amdgcn.v_xor_b32 {{.*}} loc(callsite("{{.*}}inline.mlir":17:10 at callsite("{{.*}}inline.mlir":24:10 at "{{.*}}inline.mlir":71:11)))
