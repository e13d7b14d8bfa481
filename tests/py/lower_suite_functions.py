"""amdgcn-lower's device functions (issue 26): func.func bodies in the
gpu.module called by a kernel with func.call (as upstream writes them:
convert-gpu-to-rocdl makes them llvm.funcs that LLVM inlines or calls),
lowered to amdgcn.funcs and inlined by aster.compile; in lower_suite.py's
Case form, each built by aster and by LLVM, both checked against NumPy."""
import numpy as np

from lower_suite import Case, module

CASES = []


def _inlined(text):
    """LLVM's source: the functions marked alwaysinline. llc-22 runs no IR
    inliner, so it keeps the calls, and its call sequence saves s33 (the
    caller's frame pointer, which a kernel never writes): the strict
    emulator rejects that read. AMDGPU's codegen pipeline inlines functions
    marked alwaysinline, as clang's device code is in practice."""
    import re
    return re.sub(r"(func\.func @\w+\([^)]*\) -> [\w<>]+) \{",
                  r'\1 attributes {passthrough = ["alwaysinline"]} {', text)


# A function with scalar and memref parameters calling another function,
# one of them with unstructured control flow (cf.cond_br: lifted to scf
# like a kernel body), the callee defined after the kernel.
def _calls_expect(a):
    x, t = a[0].astype(np.int64), a[1].astype(np.int64)
    lane = np.arange(256)
    y = np.where(x > 0, x * 3, -x) + t[lane % 16]
    return {2: (y * 2 + 1).astype(np.int32)}


CASES.append(Case("func_calls", "k", module("""
    func.func @scale(%v: i32, %t: memref<16xi32>, %i: index) -> i32 {
      %c15 = arith.constant 15 : index
      %j = arith.andi %i, %c15 : index
      %tv = memref.load %t[%j] : memref<16xi32>
      %a = func.call @absish(%v) : (i32) -> i32
      %r = arith.addi %a, %tv : i32
      return %r : i32
    }
    gpu.func @k(%x: memref<256xi32>, %t: memref<16xi32>, %y: memref<256xi32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<256xi32>
      %s = func.call @scale(%v, %t, %i) : (i32, memref<16xi32>, index) -> i32
      %two = arith.constant 2 : i32
      %one = arith.constant 1 : i32
      %d = arith.muli %s, %two : i32
      %r = arith.addi %d, %one : i32
      memref.store %r, %y[%i] : memref<256xi32>
      gpu.return
    }
    func.func @absish(%v: i32) -> i32 {
      %z = arith.constant 0 : i32
      %pos = arith.cmpi sgt, %v, %z : i32
      cf.cond_br %pos, ^bb1, ^bb2
    ^bb1:
      %c3 = arith.constant 3 : i32
      %m = arith.muli %v, %c3 : i32
      return %m : i32
    ^bb2:
      %n = arith.subi %z, %v : i32
      return %n : i32
    }"""), (1, 1, 1), (256, 1, 1),
    lambda r: [r.integers(-1000, 1000, 256, dtype=np.int32),
               r.integers(-1000, 1000, 16, dtype=np.int32), np.zeros(256, np.int32)],
    _calls_expect))
CASES[-1].llvm_mlir = _inlined(CASES[-1].mlir)


# An f32 function called twice per work-item (once in a divergent branch).
CASES.append(Case("func_f32_twice", "k", module("""
    func.func @poly(%x: f32) -> f32 {
      %a = arith.constant 0.5 : f32
      %b = arith.constant -2.0 : f32
      %t = math.fma %x, %a, %b : f32
      %r = arith.mulf %t, %x : f32
      return %r : f32
    }
    gpu.func @k(%x: memref<128xf32>, %y: memref<128xf32>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<128xf32>
      %p = func.call @poly(%v) : (f32) -> f32
      %z = arith.constant 0.0 : f32
      %neg = arith.cmpf olt, %p, %z : f32
      %r = scf.if %neg -> (f32) {
        %q = func.call @poly(%p) : (f32) -> f32
        scf.yield %q : f32
      } else {
        scf.yield %p : f32
      }
      memref.store %r, %y[%i] : memref<128xf32>
      gpu.return
    }"""), (1, 1, 1), (128, 1, 1),
    lambda r: [(r.standard_normal(128) * 4).astype(np.float32), np.zeros(128, np.float32)],
    lambda a: {1: _poly_twice(a[0])}))
CASES[-1].llvm_mlir = _inlined(CASES[-1].mlir)


def _poly_twice(x):
    def poly(v):  # fma then a product: the fma rounds once (float64 is exact here)
        t = (v.astype(np.float64) * 0.5 - 2.0).astype(np.float32)
        return (t * v).astype(np.float32)
    p = poly(x)
    return np.where(p < 0, poly(p), p)
