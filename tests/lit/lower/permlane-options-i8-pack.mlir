// RUN: aster-opt %s --amdgcn-lower="target=gfx950" | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower="target=gfx950" --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// amdgpu.permlane_swap's fetch_inactive / bound_ctrl are the VOP3 form's
// fi / bound_ctrl (llc-22 -mcpu=gfx950: v_permlane16_swap_b32_e64 ...
// bound_ctrl:1 fi:1); a vector<4xi8> result is packed by three v_perm_b32
// (bytes 0 of two elements, zeros above: 0x0c0c0400; the two pairs:
// 0x05040100), no v_lshl_or_b32.

// CHECK-LABEL: amdgcn.kernel @swap
// CHECK: amdgcn.v_permlane16_swap_b32 {{.*}} {bound_ctrl = 1 : i32, fi = 1 : i32}
// CHECK: amdgcn.v_permlane32_swap_b32 {{.*}} {fi = 1 : i32}
// CHECK-LABEL: amdgcn.kernel @pack
// CHECK-NOT: v_lshl_or_b32
// CHECK-COUNT-3: amdgcn.v_perm_b32
// CHECK-NOT: v_lshl_or_b32
// CHECK: amdgcn.s_endpgm
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @swap(%x: memref<64xi32>, %o: memref<64xi32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %a = memref.load %x[%i] : memref<64xi32>
      %r = amdgpu.permlane_swap %a 16 { fetch_inactive = true, bound_ctrl = true } : i32
      %s = amdgpu.permlane_swap %r 32 { fetch_inactive = true } : i32
      memref.store %s, %o[%i] : memref<64xi32>
      gpu.return
    }
    gpu.func @pack(%x: memref<64xi32>, %o: memref<64xi32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %a = memref.load %x[%i] : memref<64xi32>
      %w = vector.broadcast %a : i32 to vector<1xi32>
      %v = vector.bitcast %w : vector<1xi32> to vector<4xi8>
      %s = arith.addi %v, %v : vector<4xi8>
      %r1 = vector.bitcast %s : vector<4xi8> to vector<1xi32>
      %r = vector.extract %r1[0] : i32 from vector<1xi32>
      memref.store %r, %o[%i] : memref<64xi32>
      gpu.return
    }
  }
}
