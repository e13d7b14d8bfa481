// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// amdgpu ops of issue 26's gaps on gfx942 (the instructions llc-22 picks):
// an fp8 x bf8 MFMA names both formats and keeps blgp; an f64 MFMA takes
// register pairs and carries negateA/negateC as neg:[1,0,1]; amdgpu.dpp is
// v_mov_b32_dpp (dpp_ctrl row_shr:2 = 0x112) and selects of the old value;
// ext_packed_fp8 byte 3 is the SDWA form with src0_sel BYTE_3 (3);
// packed_trunc_2xfp8 word 1 sets op_sel[2]; a 16-bit raw_buffer_load is
// buffer_load_ushort; gather_to_lds writes m0 then global_load_lds_dword.

// CHECK-LABEL: amdgcn.kernel @gaps
// CHECK: amdgcn.v_mfma_f32_16x16x32_fp8_bf8 {{.*}} {blgp = 2 : i32}
// CHECK: amdgcn.v_mfma_f64_16x16x4_f64 {{.*}} {neg = 5 : i32} : (!amdgcn.vgpr<?x2>, !amdgcn.vgpr<?x2>, !amdgcn.vgpr<?x8>) -> !amdgcn.vgpr<?x8>
// CHECK: amdgcn.v_mov_b32_dpp {{.*}}{bound_ctrl = 1 : i32, dpp_ctrl = 274 : i32}
// CHECK: amdgcn.v_cvt_f32_fp8_sdwa {{.*}} {src0_sel = 3 : i32}
// CHECK: amdgcn.v_cvt_pk_fp8_f32 {{.*}} {op_sel = 4 : i32}
// CHECK: amdgcn.buffer_load_ushort {{.*}} {offen}
// CHECK: amdgcn.s_mov_b32 {{.*}} -> !amdgcn.m0
// CHECK-NEXT: amdgcn.global_load_lds_dword
// CHECK: amdgcn.s_endpgm
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @gaps(%w: memref<256xi32>, %d: memref<256xf64>, %h: memref<256xf16>, %y: memref<256xf32>)
        workgroup(%l: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %i = arith.muli %tid, %c2 : index
      %aw = vector.load %w[%i] : memref<256xi32>, vector<2xi32>
      %a = vector.bitcast %aw : vector<2xi32> to vector<8xf8E4M3FNUZ>
      %b = vector.bitcast %aw : vector<2xi32> to vector<8xf8E5M2FNUZ>
      %z = arith.constant dense<0.0> : vector<4xf32>
      %m = amdgpu.mfma 16x16x32 %a * %b + %z blgp = bcast_second_32 : vector<8xf8E4M3FNUZ>, vector<8xf8E5M2FNUZ>, vector<4xf32>
      %x = memref.load %d[%tid] : memref<256xf64>
      %zd = arith.constant dense<0.0> : vector<4xf64>
      %md = amdgpu.mfma 16x16x4 %x * %x + %zd {negateA, negateC} blgp = none : f64, f64, vector<4xf64>
      %e = vector.extract %m[0] : f32 from vector<4xf32>
      %ed = vector.extract %md[0] : f64 from vector<4xf64>
      %et = arith.truncf %ed : f64 to f32
      %s = arith.addf %e, %et : f32
      %p = amdgpu.dpp %s %s row_shr ( 2 : i32 ) : f32
      %w0 = vector.extract %aw[0] : i32 from vector<2xi32>
      %v1 = vector.broadcast %w0 : i32 to vector<1xi32>
      %q = vector.bitcast %v1 : vector<1xi32> to vector<4xf8E4M3FNUZ>
      %f = amdgpu.ext_packed_fp8 %q[3] : vector<4xf8E4M3FNUZ> to f32
      %t = amdgpu.packed_trunc_2xfp8 %p, %f into %q[word 1] : f32 to vector<4xf8E4M3FNUZ> into vector<4xf8E4M3FNUZ>
      %ti = arith.index_cast %tid : index to i32
      %hv = amdgpu.raw_buffer_load %h[%ti] : memref<256xf16>, i32 -> f16
      %hf = arith.extf %hv : f16 to f32
      %c0 = arith.constant 0 : index
      amdgpu.gather_to_lds %y[%tid], %l[%c0] : f32, memref<256xf32>, memref<64xf32, #gpu.address_space<workgroup>>
      amdgpu.lds_barrier
      %lv = memref.load %l[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      %tw = vector.bitcast %t : vector<4xf8E4M3FNUZ> to vector<1xi32>
      %tt = vector.extract %tw[0] : i32 from vector<1xi32>
      %tf = arith.bitcast %tt : i32 to f32
      %r0 = arith.addf %p, %f : f32
      %r1 = arith.addf %r0, %hf : f32
      %r2 = arith.addf %r1, %lv : f32
      %r3 = arith.addf %r2, %tf : f32
      memref.store %r3, %y[%tid] : memref<256xf32>
      gpu.return
    }
  }
}
