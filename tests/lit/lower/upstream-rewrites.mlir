// RUN: aster-opt %s --amdgcn-lower | FileCheck %s
// RUN: aster-opt %s --amdgcn-lower --amdgcn-regalloc --amdgcn-waitcnt --amdgcn-hazards | aster-translate --mlir-to-hsaco -o %t.hsaco
// Ops the coverage audit found unlowered, now rewritten first by upstream's
// own patterns (cc/lower/LowerVectorExpand.cpp, LowerSubgroupExpand.cpp,
// LowerCFG.cpp rewriteStructured) or lowered directly (LowerVectorShape.cpp,
// LowerMemrefMisc.cpp, LowerAmdgpu.cpp):
// a dot-product vector.contract is four multiplies and an ordered sum; a
// gather under a constant mask loads only its enabled elements (upstream's
// conditional loads, folded); gpu.global_id is
// block_id * block_dim + thread_id; gpu.subgroup_broadcast of a lane is
// v_readlane_b32; a 64-bit shuffle is two ds_bpermute_b32; scf.index_switch
// is compares and branches; memref.rank is a constant (no instruction); the
// amdgpu buffer atomics, swizzle and scheduling fence are their instructions.

// CHECK-LABEL: amdgcn.kernel @v
// CHECK-COUNT-4: amdgcn.v_mul_f32
// CHECK-COUNT-4: amdgcn.v_add_f32
// CHECK-COUNT-2: amdgcn.global_load_dword
// CHECK: amdgcn.global_store_dwordx4
// CHECK-LABEL: amdgcn.kernel @g
// CHECK: amdgcn.v_readlane_b32
// CHECK-COUNT-2: amdgcn.ds_bpermute_b32
// CHECK: amdgcn.buffer_atomic_add_f32
// CHECK: amdgcn.ds_swizzle_b32
// CHECK: amdgcn.sched_barrier
// CHECK: amdgcn.s_endpgm
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @v(%x: memref<256xf32>, %y: memref<64xf32>, %g: memref<256xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %c2 = arith.constant 2 : index
      %b = arith.muli %i, %c4 : index
      %a = vector.load %x[%b] : memref<256xf32>, vector<4xf32>
      %z = arith.constant 0.0 : f32
      %d = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>,
                                             affine_map<(k) -> ()>],
                            iterator_types = ["reduction"], kind = #vector.kind<add>} %a, %a, %z
          : vector<4xf32>, vector<4xf32> into f32
      memref.store %d, %y[%i] : memref<64xf32>
      %mk = vector.create_mask %c2 : vector<4xi1>
      %iv = arith.constant dense<[3, 0, 2, 1]> : vector<4xindex>
      %pv = arith.constant dense<0.0> : vector<4xf32>
      %r = vector.gather %x[%b][%iv], %mk, %pv : memref<256xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
      vector.store %r, %g[%b] : memref<256xf32>, vector<4xf32>
      gpu.return
    }
    gpu.func @g(%x: memref<256xi32>, %w: memref<256xi64>, %f: memref<256xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %gid = gpu.global_id x
      %v = memref.load %x[%gid] : memref<256xi32>
      %l = arith.constant 9 : i32
      %bc = gpu.subgroup_broadcast %v, specific_lane %l : i32
      %m = arith.index_cast %gid : index to i32
      %c3 = arith.constant 3 : i32
      %k = arith.andi %m, %c3 : i32
      %ki = arith.index_cast %k : i32 to index
      %s = scf.index_switch %ki -> i32
      case 0 {
        scf.yield %bc : i32
      }
      default {
        scf.yield %v : i32
      }
      memref.store %s, %x[%gid] : memref<256xi32>
      %wv = memref.load %w[%gid] : memref<256xi64>
      %c5 = arith.constant 5 : i32
      %c64 = arith.constant 64 : i32
      %sh, %ok = gpu.shuffle xor %wv, %c5, %c64 : i64
      memref.store %sh, %w[%gid] : memref<256xi64>
      %rk = memref.rank %x : memref<256xi32>
      %one = arith.constant 1.0 : f32
      amdgpu.raw_buffer_atomic_fadd %one -> %f[%m] : f32 -> memref<256xf32>, i32
      %sw = amdgpu.swizzle_bitmode %v 31 0 1 : i32
      amdgpu.sched_barrier allow = <none>
      memref.store %sw, %x[%rk] : memref<256xi32>
      gpu.return
    }
  }
}
