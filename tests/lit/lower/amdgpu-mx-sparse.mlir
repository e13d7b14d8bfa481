// RUN: aster-opt %s --amdgcn-lower="target=gfx950" | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower="target=gfx950" --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// gfx950 MX ops and a sparse MFMA (the instructions and selector bits
// llc-22 -mcpu=gfx950 picks for the same ops): scaled_ext_packed of fp4
// byte 3 is v_cvt_scalef32_pk_f16_fp4 op_sel:[1,1,0] (3); packed_scaled_trunc
// of two f32 into fp8 word 1 sets op_sel[3] (8), vdst tied to the existing
// word; scaled_mfma of bf6 x fp4 is the _a6_b4 form with cbsz 3, blgp 4, the
// scale bytes 3 (A: op_sel[0], op_sel_hi[0]) and 1 (B: op_sel[1]), its
// f8E8M0FNU constant scale 2.0 the immediate 0x80 (128); sparse_mfma of f16
// 16x16x64 with abid 1; gather_to_lds from a fat buffer is buffer_load_dword
// offen lds after m0.

// CHECK-LABEL: amdgcn.kernel @mx
// CHECK: amdgcn.v_cvt_scalef32_pk_f16_fp4 {{.*}} {op_sel = 3 : i32}
// CHECK: amdgcn.v_cvt_scalef32_pk_fp8_f32 {{.*}} {op_sel = 8 : i32}
// CHECK: arith.constant 128 : i32
// CHECK: amdgcn.v_mfma_scale_f32_16x16x128_f8f6f4_a6_b4 {{.*}} {blgp = 4 : i32, cbsz = 3 : i32, op_sel = 3 : i32, op_sel_hi = 1 : i32}
// CHECK: amdgcn.v_smfmac_f32_16x16x64_f16 {{.*}} {abid = 1 : i32}
// CHECK: amdgcn.s_mov_b32 {{.*}} -> !amdgcn.m0
// CHECK-NEXT: amdgcn.buffer_load_dword_lds {{.*}} {offen}
// CHECK: amdgcn.s_endpgm
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @mx(%w: memref<512xi32>, %s: memref<64xf32>, %o: memref<1024xi32>, %f: memref<1024xf32>)
        workgroup(%l: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %c8 = arith.constant 8 : index
      %c4 = arith.constant 4 : index
      %i = arith.muli %tid, %c8 : index
      %aw = vector.load %w[%i] : memref<512xi32>, vector<8xi32>
      %sc = memref.load %s[%tid] : memref<64xf32>
      %w0 = vector.extract %aw[0] : i32 from vector<8xi32>
      %v1 = vector.broadcast %w0 : i32 to vector<1xi32>
      %q4 = vector.bitcast %v1 : vector<1xi32> to vector<8xf4E2M1FN>
      %h = amdgpu.scaled_ext_packed %q4[3], %sc : vector<8xf4E2M1FN> to vector<2xf16>
      %q8 = vector.bitcast %v1 : vector<1xi32> to vector<4xf8E4M3FN>
      %src = vector.from_elements %sc, %sc : vector<2xf32>
      %t = amdgpu.packed_scaled_trunc %src into %q8[1], %sc : vector<2xf32> to vector<4xf8E4M3FN> into vector<4xf8E4M3FN>
      %tw = vector.bitcast %t : vector<4xf8E4M3FN> to vector<1xi32>
      %hw = vector.bitcast %h : vector<2xf16> to vector<1xi32>
      %x = arith.xori %tw, %hw : vector<1xi32>
      %xe = vector.extract %x[0] : i32 from vector<1xi32>
      memref.store %xe, %o[%tid] : memref<1024xi32>
      %a6w = vector.extract_strided_slice %aw {offsets = [0], sizes = [6], strides = [1]} : vector<8xi32> to vector<6xi32>
      %a6 = vector.bitcast %a6w : vector<6xi32> to vector<32xf6E3M2FN>
      %b4w = vector.extract_strided_slice %aw {offsets = [4], sizes = [4], strides = [1]} : vector<8xi32> to vector<4xi32>
      %b4 = vector.bitcast %b4w : vector<4xi32> to vector<32xf4E2M1FN>
      %two = arith.constant 2.0 : f8E8M0FNU
      %sb = vector.bitcast %v1 : vector<1xi32> to vector<4xf8E8M0FNU>
      %z = arith.constant dense<0.0> : vector<4xf32>
      %d = amdgpu.scaled_mfma 16x16x128 (%sb[3] * %a6) * (%two[1] * %b4) + %z : vector<4xf8E8M0FNU>, vector<32xf6E3M2FN>, f8E8M0FNU, vector<32xf4E2M1FN>, vector<4xf32>
      %j = arith.muli %tid, %c4 : index
      vector.store %d, %f[%j] : memref<1024xf32>, vector<4xf32>
      %sa = vector.bitcast %b4w : vector<4xi32> to vector<8xf16>
      %sbb = vector.bitcast %aw : vector<8xi32> to vector<16xf16>
      %ix = vector.bitcast %v1 : vector<1xi32> to vector<4xi8>
      %e = amdgpu.sparse_mfma 16x16x64 %sa * %sbb + %z sparse(%ix : vector<4xi8>) {abid = 1 : i32} : vector<8xf16>, vector<16xf16>, vector<4xf32>
      %c256 = arith.constant 256 : index
      %j2 = arith.addi %j, %c256 : index
      vector.store %e, %f[%j2] : memref<1024xf32>, vector<4xf32>
      %fb = amdgpu.fat_raw_buffer_cast %w : memref<512xi32> to memref<512xi32, #amdgpu.address_space<fat_raw_buffer>>
      %c0 = arith.constant 0 : index
      amdgpu.gather_to_lds %fb[%tid], %l[%c0] : i32, memref<512xi32, #amdgpu.address_space<fat_raw_buffer>>, memref<64xi32, #gpu.address_space<workgroup>>
      amdgpu.lds_barrier
      %lv = memref.load %l[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
      %c512 = arith.constant 512 : index
      %k = arith.addi %tid, %c512 : index
      memref.store %lv, %o[%k] : memref<1024xi32>
      gpu.return
    }
  }
}
