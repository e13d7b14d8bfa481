// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// amdgpu ops: mfma 16x16x16 f16 is the table's v_mfma_f32_16x16x16_f16 on
// VGPR ranges (operands packed by amdgcn.concat); lds_barrier waits for LDS
// then s_barrier; a raw buffer load goes through a V# of 4 SGPRs whose last
// word is 0x27000 (= 159744, MLIR's AMDGPUToROCDL for gfx9) with offen.

// CHECK-LABEL: amdgcn.kernel @a
// CHECK: amdgcn.v_mfma_f32_16x16x16_f16 {{.*}} : (!amdgcn.vgpr<?x2>, !amdgcn.vgpr<?x2>, !amdgcn.vgpr<?x4>) -> !amdgcn.vgpr<?x4>
// CHECK: amdgcn.s_waitcnt {lgkmcnt = 0 : i32}
// CHECK-NEXT: amdgcn.s_barrier
// CHECK: %c159744_i32 = arith.constant 159744 : i32
// CHECK: amdgcn.concat {{.*}} -> !amdgcn.sgpr<?x4, align 4>
// CHECK: amdgcn.buffer_load_dword {{.*}} {offen}
// CHECK: amdgcn.s_endpgm
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @a(%w: memref<128xi32>, %y: memref<256xf32>) kernel {
      %tid = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %i = arith.muli %tid, %c2 : index
      %aw = vector.load %w[%i] : memref<128xi32>, vector<2xi32>
      %a = vector.bitcast %aw : vector<2xi32> to vector<4xf16>
      %z = arith.constant dense<0.0> : vector<4xf32>
      %d = amdgpu.mfma 16x16x16 %a * %a + %z blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
      %c4 = arith.constant 4 : index
      %j = arith.muli %tid, %c4 : index
      vector.store %d, %y[%j] : memref<256xf32>, vector<4xf32>
      amdgpu.lds_barrier
      %ti = arith.index_cast %tid : index to i32
      %v = amdgpu.raw_buffer_load {boundsCheck = true} %y[%ti] : memref<256xf32>, i32 -> f32
      memref.store %v, %y[%tid] : memref<256xf32>
      gpu.return
    }
  }
}
