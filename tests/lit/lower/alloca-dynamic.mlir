// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-asm | FileCheck %s --check-prefix=META
// Dynamic-size allocas: a stack in scratch. The first one's base is a
// constant marked aster.dynamic_stack_base (in the entry block), past the static alloca's 16
// bytes (regalloc moves it past its spill slots); the next one is after
// the first (n * 4 bytes rounded up to 16: s_add 15, s_and -16); accesses
// are scratch_* at base / 4 + index elements. The kernel has dynamic_stack:
// .uses_dynamic_stack in the metadata.

// CHECK-LABEL: amdgcn.kernel @k
// CHECK-SAME: dynamic_stack
// CHECK: %[[B:.*]] = arith.constant {aster.dynamic_stack_base} 16 : i32
// CHECK: %[[SP:.*]] = amdgcn.s_mov_b32 %[[B]]
// CHECK: %[[N:.*]] = amdgcn.s_and_b32 {{.*}}%c-16_i32
// CHECK: amdgcn.s_add_u32 %[[SP]], %[[N]]
// CHECK: amdgcn.scratch_store_dword
// META: .private_segment_fixed_size: 16
// META: .uses_dynamic_stack: true
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<64xf32>, %n: index) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %s = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
      %a = memref.alloca(%n) : memref<?xf32, #gpu.address_space<private>>
      %b = memref.alloca(%n) : memref<?xf32, #gpu.address_space<private>>
      %v = memref.load %x[%i] : memref<64xf32>
      memref.store %v, %s[%i] : memref<4xf32, #gpu.address_space<private>>
      memref.store %v, %a[%i] : memref<?xf32, #gpu.address_space<private>>
      memref.store %v, %b[%i] : memref<?xf32, #gpu.address_space<private>>
      %w = memref.load %b[%c0] : memref<?xf32, #gpu.address_space<private>>
      memref.store %w, %x[%i] : memref<64xf32>
      gpu.return
    }
  }
}
