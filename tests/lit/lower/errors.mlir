// RUN: not aster-opt %s --amdgcn-lower --split-input-file 2>&1 | FileCheck %s
// An op amdgcn-lower cannot lower is an error at the op, naming it.

// (8-bit floats are constants, bitcasts and casts only, arithmetic on them
// is not lowered; remf of bf16, the example here before, lowers.)
// CHECK: errors.mlir:[[@LINE+7]]:12: error: 'arith.addf' op cannot be lowered to amdgcn
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<64xi8>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xi8>
      %r = arith.bitcast %v : i8 to f8E5M2
      %e = arith.addf %r, %r : f8E5M2
      %b = arith.bitcast %e : f8E5M2 to i8
      memref.store %b, %x[%i] : memref<64xi8>
      gpu.return
    }
  }
}

// -----
// gpu.all_reduce needs a kernel's workgroup (not in a function).
// CHECK: errors.mlir:[[@LINE+4]]:12: error: 'gpu.all_reduce' op cannot be lowered to amdgcn: a workgroup reduction needs the kernel's work-item ids and LDS (not in a function)
module attributes {gpu.container_module} {
  gpu.module @m2 {
    gpu.func @f(%v: i32) -> i32 {
      %r = gpu.all_reduce add %v uniform {} : (i32) -> i32
      gpu.return %r : i32
    }
  }
}

// -----
// gpu.printf has no lowering (printing needs the host's printf runtime):
// an error at the op, while the i64 casts, multiply and division and the
// f64 conversions around it lower.
// CHECK: errors.mlir:[[@LINE+9]]:7: error: 'gpu.printf' op cannot be lowered to amdgcn
module attributes {gpu.container_module} {
  gpu.module @m64 {
    gpu.func @k(%x: memref<64xi32>) kernel {
      %i = gpu.thread_id x
      %a = arith.index_cast %i : index to i64
      %m = arith.muli %a, %a : i64
      %r = arith.divsi %m, %a : i64
      %f = arith.sitofp %r : i64 to f64
      gpu.printf "%f", %f : f64
      %t = arith.fptosi %f : f64 to i32
      memref.store %t, %x[%i] : memref<64xi32>
      gpu.return
    }
  }
}
