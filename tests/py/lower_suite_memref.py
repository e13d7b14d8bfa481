"""Kernels of amdgcn-lower's suite for memref breadth (the cases of
lower_suite.py's form): views (subview, reinterpret_cast, collapse_shape,
expand_shape, cast) on static and dynamic memrefs, 8- and 16-bit elements in
global and workgroup memory and 64-bit ones (a transpose through LDS), allocas in registers
and in scratch, and atomics that need a compare-and-swap loop under
contention. Each is built by aster (aster.lower) and by LLVM
(aster.lowering.llvm: mlir-opt-22 expand-strided-metadata +
convert-gpu-to-rocdl, llc-22, ld.lld-22) and both must equal NumPy
(tests/py/test_lower_memref.py; bench/bench_lower.py).
"""
import ml_dtypes
import numpy as np

from lower_suite import Case, module

CASES = []

# 1. Static subviews: a strided 8x8 window (offset 4*32+8, column step 2) and
#    a rank-reducing row (memref<32xf32, strided<[1], offset: 96>>).
CASES.append(Case("memref_subview_static", "sv", module("""
    gpu.func @sv(%x: memref<16x32xf32>, %y: memref<8x8xf32>, %r: memref<32xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %i = arith.divui %tid, %c8 : index
      %j = arith.remui %tid, %c8 : index
      %w = memref.subview %x[4, 8][8, 8][1, 2]
          : memref<16x32xf32> to memref<8x8xf32, strided<[32, 2], offset: 136>>
      %v = memref.load %w[%i, %j] : memref<8x8xf32, strided<[32, 2], offset: 136>>
      memref.store %v, %y[%i, %j] : memref<8x8xf32>
      %row = memref.subview %x[3, 0][1, 32][1, 1]
          : memref<16x32xf32> to memref<32xf32, strided<[1], offset: 96>>
      %in = arith.cmpi ult, %tid, %c32 : index
      scf.if %in {
        %e = memref.load %row[%tid] : memref<32xf32, strided<[1], offset: 96>>
        memref.store %e, %r[%tid] : memref<32xf32>
      }
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal((16, 32), dtype=np.float32), np.zeros((8, 8), np.float32),
               np.zeros(32, np.float32)],
    lambda a: {1: a[0][4:12, 8:24:2], 2: a[0][3]}))


# 2. Dynamic subview (offsets and sizes from arguments, dynamic descriptor
#    strides), memref.dim of the view, memref.cast to a dynamic type.
CASES.append(Case("memref_subview_dynamic", "svd", module("""
    gpu.func @svd(%x: memref<?x?xf32>, %y: memref<?xf32>, %o0: index, %o1: index) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %tid = gpu.thread_id x
      %w = memref.subview %x[%o0, %o1][4, 16][1, 1]
          : memref<?x?xf32> to memref<4x16xf32, strided<[?, 1], offset: ?>>
      %d = memref.cast %w : memref<4x16xf32, strided<[?, 1], offset: ?>>
          to memref<?x?xf32, strided<[?, 1], offset: ?>>
      %n1 = memref.dim %d, %c1 : memref<?x?xf32, strided<[?, 1], offset: ?>>
      %i = arith.divui %tid, %n1 : index
      %j = arith.remui %tid, %n1 : index
      %v = memref.load %d[%i, %j] : memref<?x?xf32, strided<[?, 1], offset: ?>>
      %n0 = memref.dim %d, %c0 : memref<?x?xf32, strided<[?, 1], offset: ?>>
      %s = arith.muli %n0, %n1 : index
      %f = arith.index_cast %s : index to i32
      %fs = arith.sitofp %f : i32 to f32
      %r = arith.addf %v, %fs : f32
      memref.store %r, %y[%tid] : memref<?xf32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal((10, 40), dtype=np.float32), np.zeros(64, np.float32),
               np.int64(5), np.int64(17)],
    lambda a: {1: (a[0][5:9, 17:33] + np.float32(64)).reshape(-1)}))


# 3. reinterpret_cast of a flat buffer as a 16x16 matrix and as its
#    transpose (strides [1, 16]); collapse_shape of a 3-d memref.
CASES.append(Case("memref_reinterpret_collapse", "rc", module("""
    gpu.func @rc(%x: memref<256xf32>, %y: memref<256xf32>, %z: memref<4x8x8xf32>,
                 %w: memref<256xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c16 = arith.constant 16 : index
      %c8 = arith.constant 8 : index
      %i = arith.divui %tid, %c16 : index
      %j = arith.remui %tid, %c16 : index
      %t = memref.reinterpret_cast %x to offset: [0], sizes: [16, 16], strides: [1, 16]
          : memref<256xf32> to memref<16x16xf32, strided<[1, 16]>>
      %m = memref.reinterpret_cast %y to offset: [0], sizes: [16, 16], strides: [16, 1]
          : memref<256xf32> to memref<16x16xf32>
      %v = memref.load %t[%i, %j] : memref<16x16xf32, strided<[1, 16]>>
      memref.store %v, %m[%i, %j] : memref<16x16xf32>
      %c = memref.collapse_shape %z [[0, 1], [2]] : memref<4x8x8xf32> into memref<32x8xf32>
      %a = arith.divui %tid, %c8 : index
      %b = arith.remui %tid, %c8 : index
      %u = memref.load %c[%a, %b] : memref<32x8xf32>
      memref.store %u, %w[%tid] : memref<256xf32>
      gpu.return
    }"""), (1, 1, 1), (256, 1, 1),
    lambda r: [r.standard_normal(256, dtype=np.float32), np.zeros(256, np.float32),
               r.standard_normal((4, 8, 8), dtype=np.float32), np.zeros(256, np.float32)],
    lambda a: {1: a[0].reshape(16, 16).T.reshape(-1), 3: a[2].reshape(-1)}))


# 4. expand_shape of a dynamic 1-d memref into ?x16 (the outer size from
#    memref.dim), read transposed within each 16-row, then a subview of the
#    expanded view.
CASES.append(Case("memref_expand_dynamic", "ex", module("""
    gpu.func @ex(%x: memref<?xf32>, %y: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c4 = arith.constant 4 : index
      %n = memref.dim %x, %c0 : memref<?xf32>
      %rows = arith.divui %n, %c16 : index
      %e = memref.expand_shape %x [[0, 1]] output_shape [%rows, 16]
          : memref<?xf32> into memref<?x16xf32>
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %r0 = arith.muli %bid, %c4 : index
      %s = memref.subview %e[%r0, 0][4, 16][1, 1]
          : memref<?x16xf32> to memref<4x16xf32, strided<[16, 1], offset: ?>>
      %i = arith.remui %tid, %c4 : index
      %j = arith.divui %tid, %c4 : index
      %v = memref.load %s[%i, %j] : memref<4x16xf32, strided<[16, 1], offset: ?>>
      %bo = arith.muli %bid, %c16 : index
      %b4 = arith.muli %bo, %c4 : index
      %o = arith.addi %b4, %tid : index
      memref.store %v, %y[%o] : memref<?xf32>
      gpu.return
    }"""), (3, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal(192, dtype=np.float32), np.zeros(192, np.float32)],
    lambda a: {1: a[0].reshape(3, 4, 16).transpose(0, 2, 1).reshape(-1)}))


def _typed_transpose(elem, dtype, make):
    """A 16x16 transpose through workgroup memory of `elem` elements
    (ds_write_b16/b8/b64, barrier, ds_read_u16/u8/b64 transposed; global
    16/8/64-bit loads and stores)."""
    return Case(f"lds_transpose_{elem}", "tr", module(f"""
    gpu.func @tr(%x: memref<16x16x{elem}>, %y: memref<16x16x{elem}>)
        workgroup(%t: memref<16x17x{elem}, #gpu.address_space<workgroup>>) kernel
        attributes {{known_block_size = array<i32: 256, 1, 1>}} {{
      %tid = gpu.thread_id x
      %c16 = arith.constant 16 : index
      %i = arith.divui %tid, %c16 : index
      %j = arith.remui %tid, %c16 : index
      %v = memref.load %x[%i, %j] : memref<16x16x{elem}>
      memref.store %v, %t[%j, %i] : memref<16x17x{elem}, #gpu.address_space<workgroup>>
      gpu.barrier
      %u = memref.load %t[%i, %j] : memref<16x17x{elem}, #gpu.address_space<workgroup>>
      memref.store %u, %y[%i, %j] : memref<16x16x{elem}>
      gpu.return
    }}"""), (1, 1, 1), (256, 1, 1),
        lambda r: [make(r), np.zeros((16, 16), dtype)],
        lambda a: {1: a[0].T})


CASES.append(_typed_transpose(
    "f16", np.float16, lambda r: r.standard_normal((16, 16)).astype(np.float16)))
CASES.append(_typed_transpose(
    "bf16", ml_dtypes.bfloat16, lambda r: r.standard_normal((16, 16)).astype(ml_dtypes.bfloat16)))
CASES.append(_typed_transpose(
    "i8", np.int8, lambda r: r.integers(-128, 128, (16, 16), dtype=np.int8)))
CASES.append(_typed_transpose(
    "i16", np.int16, lambda r: r.integers(-32768, 32768, (16, 16), dtype=np.int16)))
CASES.append(_typed_transpose(
    "f64", np.float64, lambda r: r.standard_normal((16, 16))))
CASES.append(_typed_transpose(
    "i64", np.int64, lambda r: r.integers(-2**62, 2**62, (16, 16), dtype=np.int64)))


# 5. Allocas: a 4-element one at constant indices (registers), a 16-element
#    one indexed by a loop and by the thread id (scratch).
CASES.append(Case("alloca_regs_scratch", "al", module("""
    gpu.func @al(%x: memref<64xi32>, %y: memref<64xi32>, %z: memref<64xi32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c16 = arith.constant 16 : index
      %v = memref.load %x[%tid] : memref<64xi32>
      %a = memref.alloca() : memref<4xi32, #gpu.address_space<private>>
      %k7 = arith.constant 7 : i32
      memref.store %v, %a[%c0] : memref<4xi32, #gpu.address_space<private>>
      memref.store %k7, %a[%c1] : memref<4xi32, #gpu.address_space<private>>
      %p = arith.muli %v, %v : i32
      memref.store %p, %a[%c2] : memref<4xi32, #gpu.address_space<private>>
      %a0 = memref.load %a[%c0] : memref<4xi32, #gpu.address_space<private>>
      %a1 = memref.load %a[%c1] : memref<4xi32, #gpu.address_space<private>>
      %a2 = memref.load %a[%c2] : memref<4xi32, #gpu.address_space<private>>
      %s0 = arith.addi %a0, %a1 : i32
      %s1 = arith.addi %s0, %a2 : i32
      memref.store %s1, %y[%tid] : memref<64xi32>
      %b = memref.alloca() : memref<16xi32, #gpu.address_space<private>>
      scf.for %k = %c0 to %c16 step %c1 {
        %ki = arith.index_cast %k : index to i32
        %q = arith.muli %ki, %v : i32
        memref.store %q, %b[%k] : memref<16xi32, #gpu.address_space<private>>
      }
      %m = arith.remui %tid, %c16 : index
      %bv = memref.load %b[%m] : memref<16xi32, #gpu.address_space<private>>
      memref.store %bv, %z[%tid] : memref<64xi32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.integers(-1000, 1000, 64, dtype=np.int32), np.zeros(64, np.int32),
               np.zeros(64, np.int32)],
    lambda a: {1: a[0] + 7 + a[0] * a[0], 2: (np.arange(64) % 16).astype(np.int32) * a[0]}))


def _cas_inputs(r):
    # Powers of two (every product exact in any order), integers for muli
    # (wrapping products commute), floats for min/max.
    return [np.array([1.0, 1.0, 1.0, 1.0], np.float32),
            (2.0 ** r.integers(-3, 4, 256)).astype(np.float32) * r.choice([-1, 1], 256).astype(np.float32),
            r.integers(-5, 6, 256, dtype=np.int32),
            r.standard_normal(256, dtype=np.float32),
            np.array([1, 0, 0, 0], np.int32),
            np.zeros(4, np.float32)]


def _cas_expect(a):
    mul = np.float32(1)
    for v in a[1]:
        mul = np.float32(mul * v)
    imul = np.int32(1)
    for v in a[2]:
        imul = np.int32((int(imul) * int(v) + 2**31) % 2**32 - 2**31)
    out_f = np.array([mul, 1.0, 1.0, 1.0], np.float32)
    out_i = np.array([imul, 0, 0, 0], np.int32)
    lds = np.float32(1)
    for v in a[1][:64]:
        lds = np.float32(lds * v)
    mm = np.array([0, min(np.float32(0), a[3].min()), max(np.float32(0), a[3].max()), lds],
                  np.float32)
    return {0: out_f, 4: out_i, 5: mm}


def _generic_atomics(text):
    """LLVM's source for the CAS case: MemRefToLLVM has no atomicrmw for
    mulf / muli, so those are written as memref.generic_atomic_rmw (which
    LLVM builds as its cmpxchg loop); minimumf / maximumf go through
    upstream's memref-expand (the same loop). mlir-opt-22 makes an invalid
    llvm.cmpxchg of f32 from a generic_atomic_rmw on f32, so the f32 one
    works on the same memory as i32 with bitcasts (bare pointers: the
    kernel argument is the same)."""
    import re

    def one(m):
        res, kind, val, mem, idx, et, mt = m.groups()
        r = res[1:]
        if et == "f32":
            body = (f"%cf{r} = arith.bitcast %cur{r} : i32 to f32\n"
                    f"        %nf{r} = arith.mulf %cf{r}, {val} : f32\n"
                    f"        %new{r} = arith.bitcast %nf{r} : f32 to i32\n")
            mt = mt.replace("xf32", "xi32")
        else:
            body = f"%new{r} = arith.muli %cur{r}, {val} : i32\n"
        return (f"{res} = memref.generic_atomic_rmw {mem}[{idx}] : {mt} {{\n"
                f"      ^bb0(%cur{r}: i32):\n        {body}"
                f"        memref.atomic_yield %new{r} : i32\n      }}")
    text = re.sub(r"(%\w+) = memref\.atomic_rmw (mulf|muli) (%\w+), (%\w+)\[([^\]]*)\]\s*"
                  r":\s*\((\w+), (memref<[^>]*(?:<[^>]*>)?>)\) -> \w+", one, text)
    text = text.replace("%acc: memref<4xf32>", "%acc: memref<4xi32>")
    # The LDS word as f32 and as i32: two memref.views of one byte buffer.
    ws = "#gpu.address_space<workgroup>"
    text = text.replace(f"workgroup(%l: memref<1xf32, {ws}>)",
                        f"workgroup(%lraw: memref<4xi8, {ws}>)")
    text = text.replace("%tid = gpu.thread_id x", (
        "%tid = gpu.thread_id x\n      %z0 = arith.constant 0 : index\n"
        f"      %l = memref.view %lraw[%z0][] : memref<4xi8, {ws}> to memref<1xf32, {ws}>\n"
        f"      %li = memref.view %lraw[%z0][] : memref<4xi8, {ws}> to memref<1xi32, {ws}>"), 1)
    return text.replace("memref.generic_atomic_rmw %l[", "memref.generic_atomic_rmw %li[")


# 6. Atomics without a gfx942 instruction: a compare-and-swap loop, every
#    lane of 4 waves on one address (contention): mulf, muli, minimumf,
#    maximumf on global memory, mulf on LDS (ds_cmpst_rtn_b32).
CASES.append(Case("atomic_cas_loop", "cas", module("""
    gpu.func @cas(%acc: memref<4xf32>, %x: memref<256xf32>, %xi: memref<256xi32>,
                  %f: memref<256xf32>, %iacc: memref<4xi32>, %out: memref<4xf32>)
        workgroup(%l: memref<1xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c64 = arith.constant 64 : index
      %one = arith.constant 1.0 : f32
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        memref.store %one, %l[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %v = memref.load %x[%tid] : memref<256xf32>
      %p = memref.atomic_rmw mulf %v, %acc[%c0] : (f32, memref<4xf32>) -> f32
      %vi = memref.load %xi[%tid] : memref<256xi32>
      %q = memref.atomic_rmw muli %vi, %iacc[%c0] : (i32, memref<4xi32>) -> i32
      %fv = memref.load %f[%tid] : memref<256xf32>
      %mn = memref.atomic_rmw minimumf %fv, %out[%c1] : (f32, memref<4xf32>) -> f32
      %mx = memref.atomic_rmw maximumf %fv, %out[%c2] : (f32, memref<4xf32>) -> f32
      %low = arith.cmpi ult, %tid, %c64 : index
      scf.if %low {
        %r = memref.atomic_rmw mulf %v, %l[%c0]
            : (f32, memref<1xf32, #gpu.address_space<workgroup>>) -> f32
      }
      gpu.barrier
      scf.if %first {
        %lv = memref.load %l[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
        memref.store %lv, %out[%c3] : memref<4xf32>
      }
      gpu.return
    }"""), (1, 1, 1), (256, 1, 1), _cas_inputs, _cas_expect))
CASES[-1].llvm_mlir = _generic_atomics(CASES[-1].mlir)


# 7. Dynamic-size allocas: a stack in scratch (the base past the static
#    allocas and the spill slots, each next alloca after the previous, as
#    LLVM's stack pointer): a 1-D alloca of n floats and a 2-D one of n x 4
#    i32 (n a kernel argument), and a static alloca indexed dynamically
#    (scratch too) before them; each lane fills them from its window of x,
#    sums them back in loops.
def _dyn_alloca_expect(a):
    x, n = a[0], int(a[3])
    lane = np.arange(64)
    f = np.array([x[i:i + n].astype(np.float64).sum() for i in lane], np.float32)
    w = np.array([sum(int(x[i + k]) * (c + 1) for k in range(n) for c in range(4)) + 4 * i
                  for i in lane], np.int64).astype(np.int32)
    return {1: np.concatenate([f, np.zeros(192, np.float32)]),
            2: np.concatenate([w, np.zeros(192, np.int32)])}


CASES.append(Case("alloca_dynamic", "dyn", module("""
    gpu.func @dyn(%x: memref<256xf32>, %y: memref<256xf32>, %z: memref<256xi32>, %n: index)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %st = memref.alloca() : memref<4xi32, #gpu.address_space<private>>
      %a = memref.alloca(%n) : memref<?xf32, #gpu.address_space<private>>
      %b = memref.alloca(%n) : memref<?x4xi32, #gpu.address_space<private>>
      %ii = arith.index_cast %i : index to i32
      scf.for %c = %c0 to %c4 step %c1 {
        memref.store %ii, %st[%c] : memref<4xi32, #gpu.address_space<private>>
      }
      %m = memref.dim %b, %c0 : memref<?x4xi32, #gpu.address_space<private>>
      scf.for %k = %c0 to %m step %c1 {
        %j = arith.addi %i, %k : index
        %v = memref.load %x[%j] : memref<256xf32>
        memref.store %v, %a[%k] : memref<?xf32, #gpu.address_space<private>>
        %vi = arith.fptosi %v : f32 to i32
        scf.for %c = %c0 to %c4 step %c1 {
          %c1i = arith.addi %c, %c1 : index
          %ci = arith.index_cast %c1i : index to i32
          %p = arith.muli %vi, %ci : i32
          memref.store %p, %b[%k, %c] : memref<?x4xi32, #gpu.address_space<private>>
        }
      }
      %zf = arith.constant 0.0 : f32
      %zi = arith.constant 0 : i32
      %s, %t = scf.for %k = %c0 to %n step %c1 iter_args(%fs = %zf, %is = %zi) -> (f32, i32) {
        %v = memref.load %a[%k] : memref<?xf32, #gpu.address_space<private>>
        %f2 = arith.addf %fs, %v : f32
        %i2 = scf.for %c = %c0 to %c4 step %c1 iter_args(%q = %is) -> (i32) {
          %w = memref.load %b[%k, %c] : memref<?x4xi32, #gpu.address_space<private>>
          %q2 = arith.addi %q, %w : i32
          scf.yield %q2 : i32
        }
        scf.yield %f2, %i2 : f32, i32
      }
      %t2 = scf.for %c = %c0 to %c4 step %c1 iter_args(%q = %t) -> (i32) {
        %w = memref.load %st[%c] : memref<4xi32, #gpu.address_space<private>>
        %q2 = arith.addi %q, %w : i32
        scf.yield %q2 : i32
      }
      memref.store %s, %y[%i] : memref<256xf32>
      memref.store %t2, %z[%i] : memref<256xi32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.integers(-50, 50, 256).astype(np.float32), np.zeros(256, np.float32),
               np.zeros(256, np.int32), 7],
    _dyn_alloca_expect))
