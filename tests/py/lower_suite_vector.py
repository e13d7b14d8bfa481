"""Kernels of amdgcn-lower's suite for the vector and amdgpu dialects (the
cases of lower_suite.py's form: an outlined gpu.module, a launch shape,
inputs, the NumPy result). Each is built by aster (aster.lower) and by LLVM
(aster.lowering.llvm: mlir-opt-22 convert-gpu-to-rocdl, which also lowers
vector and amdgpu ops, llc-22, ld.lld-22) and both must equal NumPy
(tests/py/test_lower_vector.py, test_lower_amdgpu.py; bench/bench_lower.py).
"""
import numpy as np

from lower_suite import Case, module

CASES = []

# 1. vector.load / store of 4 floats per lane (global_load_dwordx4), elementwise
#    arith on vectors, a broadcast scalar.
CASES.append(Case("vector_axpy_x4", "vaxpy", module("""
    gpu.func @vaxpy(%alpha: f32, %x: memref<1024xf32>, %y: memref<1024xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c64 = arith.constant 64 : index
      %c4 = arith.constant 4 : index
      %t = arith.muli %bid, %c64 : index
      %l = arith.addi %t, %tid : index
      %i = arith.muli %l, %c4 : index
      %xv = vector.load %x[%i] : memref<1024xf32>, vector<4xf32>
      %yv = vector.load %y[%i] : memref<1024xf32>, vector<4xf32>
      %a = vector.broadcast %alpha : f32 to vector<4xf32>
      %p = arith.mulf %a, %xv : vector<4xf32>
      %r = arith.addf %p, %yv : vector<4xf32>
      vector.store %r, %y[%i] : memref<1024xf32>, vector<4xf32>
      gpu.return
    }"""), (4, 1, 1), (64, 1, 1),
    lambda r: [np.float32(0.75), r.standard_normal(1024, dtype=np.float32),
               r.standard_normal(1024, dtype=np.float32)],
    lambda a: {2: (np.float32(a[0]) * a[1] + a[2]).astype(np.float32)}))

# 2. transfer_read past the end of a dynamic memref (padding), a reduction
#    of each lane's vector, transfer_write out of bounds (masked by the size).
CASES.append(Case("vector_transfer_oob", "vtr", module("""
    gpu.func @vtr(%x: memref<?xf32>, %y: memref<?xf32>, %s: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %pad = arith.constant -1.0 : f32
      %i = arith.muli %tid, %c4 : index
      %v = vector.transfer_read %x[%i], %pad : memref<?xf32>, vector<4xf32>
      %two = arith.constant dense<2.0> : vector<4xf32>
      %w = arith.mulf %v, %two : vector<4xf32>
      vector.transfer_write %w, %y[%i] : vector<4xf32>, memref<?xf32>
      %r = vector.reduction <add>, %v : vector<4xf32> into f32
      memref.store %r, %s[%tid] : memref<?xf32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal(250, dtype=np.float32), np.zeros(250, np.float32),
               np.zeros(64, np.float32)],
    lambda a: {1: 2 * a[0], 2: _padded_sums(a[0], 64, 4, -1.0)}))

# 3. LDS: each lane writes 4 floats (ds_write_b128), a barrier, reads its
#    mirror lane's 4 (ds_read_b128), reverses them (extract/from_elements),
#    inserts its lane id as element 2, a max reduction with an accumulator.
CASES.append(Case("vector_lds_mirror", "vlds", module("""
    gpu.func @vlds(%x: memref<256xf32>, %y: memref<256xf32>, %m: memref<64xf32>)
        workgroup(%t: memref<256xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %c63 = arith.constant 63 : index
      %i = arith.muli %tid, %c4 : index
      %v = vector.load %x[%i] : memref<256xf32>, vector<4xf32>
      vector.store %v, %t[%i] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      gpu.barrier
      %o = arith.subi %c63, %tid : index
      %j = arith.muli %o, %c4 : index
      %u = vector.load %t[%j] : memref<256xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      %e0 = vector.extract %u[0] : f32 from vector<4xf32>
      %e1 = vector.extract %u[1] : f32 from vector<4xf32>
      %e2 = vector.extract %u[2] : f32 from vector<4xf32>
      %e3 = vector.extract %u[3] : f32 from vector<4xf32>
      %r = vector.from_elements %e3, %e2, %e1, %e0 : vector<4xf32>
      %ti = arith.index_cast %tid : index to i32
      %tf = arith.sitofp %ti : i32 to f32
      %q = vector.insert %tf, %r[2] : f32 into vector<4xf32>
      vector.store %q, %y[%i] : memref<256xf32>, vector<4xf32>
      %acc = arith.constant 0.0 : f32
      %mx = vector.reduction <maxnumf>, %u, %acc : vector<4xf32> into f32
      memref.store %mx, %m[%tid] : memref<64xf32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal(256, dtype=np.float32), np.zeros(256, np.float32),
               np.zeros(64, np.float32)],
    lambda a: {1: _mirror(a[0]), 2: np.maximum(a[0].reshape(64, 4)[::-1].max(axis=1), 0)}))

# 4. A mask from the data size (vector.create_mask) on a masked
#    transfer_read / transfer_write, integer vectors (xor, shifts), a
#    vector.reduction <xor>.
CASES.append(Case("vector_masked_int", "vmask", module("""
    gpu.func @vmask(%x: memref<256xi32>, %y: memref<256xi32>, %s: memref<64xi32>, %n: index) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %tid = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %z = arith.constant 0 : i32
      %i = arith.muli %tid, %c4 : index
      %left = arith.subi %n, %i : index
      %mask = vector.create_mask %left : vector<4xi1>
      %v = vector.transfer_read %x[%i], %z, %mask {in_bounds = [true]} : memref<256xi32>, vector<4xi32>
      %k = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
      %w = arith.shli %v, %k : vector<4xi32>
      %q = arith.xori %w, %v : vector<4xi32>
      vector.transfer_write %q, %y[%i], %mask {in_bounds = [true]} : vector<4xi32>, memref<256xi32>
      %r = vector.reduction <xor>, %v : vector<4xi32> into i32
      memref.store %r, %s[%tid] : memref<64xi32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.integers(-2**31, 2**31, 256, dtype=np.int32), np.zeros(256, np.int32),
               np.zeros(64, np.int32), 203],
    lambda a: _masked_int(a[0], a[3])))


def _padded_sums(x, lanes, w, pad):
    p = np.full(lanes * w, pad, np.float32)
    p[:len(x)] = x
    out = np.zeros(lanes, np.float32)
    for j in range(w):                       # vector.reduction: in order
        out = (out + p.reshape(lanes, w)[:, j]).astype(np.float32)
    return out


def _mirror(x):
    u = x.reshape(64, 4)[::-1][:, ::-1].copy()
    u[:, 2] = np.arange(64, dtype=np.float32)
    return u.reshape(-1)


def _masked_int(x, n):
    v = x.copy()
    v[n:] = 0
    w = (v.reshape(64, 4).astype(np.uint32) << np.array([1, 2, 3, 4], np.uint32)).astype(np.int32)
    q = (w ^ v.reshape(64, 4)).reshape(-1)
    y = np.zeros(256, np.int32)
    y[:n] = q[:n]
    r = np.bitwise_xor.reduce(v.reshape(64, 4), axis=1)
    return {1: y, 2: r}


# --- amdgpu dialect ----------------------------------------------------------

def _mfma_inputs(r):
    a = r.integers(-4, 5, (32, 32)).astype(np.float16)
    b = r.integers(-4, 5, (32, 32)).astype(np.float16)
    # A row-major (M x K), B transposed (N x K): a lane's 4 k of one row are
    # 8 contiguous bytes, 2 packed words (f16 pairs, the low half first).
    return [a.view(np.int32).copy(), np.ascontiguousarray(b.T).view(np.int32).copy(),
            np.zeros((32, 32), np.float32)]


def _mfma_expect(a):
    A = a[0].view(np.float16).astype(np.float32)
    B = a[1].view(np.float16).astype(np.float32).T
    return {2: A @ B}            # small integers: every sum exact in f32


# 5. A tiled matmul with amdgpu.mfma 16x16x16 (f16 in, f32 accumulators): one
#    wave per 16x16 tile of C (a 2x2 grid), K = 32 in a loop of two steps
#    carrying the accumulator vector. Lane l holds A[l % 16][4 (l / 16) ..+3],
#    B[4 (l / 16) ..+3][l % 16] and C[4 (l / 16) + i][l % 16] (AMD's matrix
#    instruction calculator, tests/py/mfma_layouts.py).
CASES.append(Case("amdgpu_mfma_matmul", "mm", module("""
    gpu.func @mm(%a: memref<32x16xi32>, %bt: memref<32x16xi32>, %c: memref<32x32xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %lane = gpu.thread_id x
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %r = arith.remui %lane, %c16 : index
      %g = arith.divui %lane, %c16 : index
      %row0 = arith.muli %by, %c16 : index
      %col0 = arith.muli %bx, %c16 : index
      %arow = arith.addi %row0, %r : index
      %bcol = arith.addi %col0, %r : index
      %kw = arith.muli %g, %c2 : index
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %acc = scf.for %k = %c0 to %c16 step %c8 iter_args(%d = %zero) -> (vector<4xf32>) {
        %kk = arith.addi %k, %kw : index
        %aw = vector.load %a[%arow, %kk] : memref<32x16xi32>, vector<2xi32>
        %bw = vector.load %bt[%bcol, %kk] : memref<32x16xi32>, vector<2xi32>
        %av = vector.bitcast %aw : vector<2xi32> to vector<4xf16>
        %bv = vector.bitcast %bw : vector<2xi32> to vector<4xf16>
        %d1 = amdgpu.mfma 16x16x16 %av * %bv + %d blgp = none : vector<4xf16>, vector<4xf16>, vector<4xf32>
        scf.yield %d1 : vector<4xf32>
      }
      %g4 = arith.muli %g, %c2 : index
      %g4b = arith.muli %g4, %c2 : index
      %crow = arith.addi %row0, %g4b : index
      %ccol = arith.addi %col0, %r : index
      %e0 = vector.extract %acc[0] : f32 from vector<4xf32>
      %e1 = vector.extract %acc[1] : f32 from vector<4xf32>
      %e2 = vector.extract %acc[2] : f32 from vector<4xf32>
      %e3 = vector.extract %acc[3] : f32 from vector<4xf32>
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %r1 = arith.addi %crow, %c1 : index
      %r2 = arith.addi %crow, %c2 : index
      %r3 = arith.addi %crow, %c3 : index
      memref.store %e0, %c[%crow, %ccol] : memref<32x32xf32>
      memref.store %e1, %c[%r1, %ccol] : memref<32x32xf32>
      memref.store %e2, %c[%r2, %ccol] : memref<32x32xf32>
      memref.store %e3, %c[%r3, %ccol] : memref<32x32xf32>
      gpu.return
    }"""), (2, 2, 1), (64, 1, 1), _mfma_inputs, _mfma_expect))

# 6. Raw buffer loads and stores: indices past the memref's end read 0 and
#    their stores are dropped (the buffer's num_records range check), an
#    LDS round trip ordered by amdgpu.lds_barrier.
CASES.append(Case("amdgpu_buffer_oob", "buf", module("""
    gpu.func @buf(%x: memref<100xf32>, %y: memref<128xf32>, %z: memref<120xf32>)
        workgroup(%t: memref<128xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %tid = gpu.thread_id x
      %i = arith.index_cast %tid : index to i32
      %v = amdgpu.raw_buffer_load {boundsCheck = true} %x[%i] : memref<100xf32>, i32 -> f32
      %c127 = arith.constant 127 : index
      %o = arith.subi %c127, %tid : index
      memref.store %v, %t[%o] : memref<128xf32, #gpu.address_space<workgroup>>
      amdgpu.lds_barrier
      %u = memref.load %t[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
      %w = arith.addf %u, %v : f32
      amdgpu.raw_buffer_store {boundsCheck = true} %w -> %y[%i] : f32 -> memref<128xf32>, i32
      amdgpu.raw_buffer_store {boundsCheck = true} %v -> %z[%i] : f32 -> memref<120xf32>, i32
      gpu.return
    }"""), (1, 1, 1), (128, 1, 1),
    lambda r: [r.standard_normal(100, dtype=np.float32), np.zeros(128, np.float32),
               np.full(120, 7.0, np.float32)],
    lambda a: _buffer_expect(a[0])))


def _buffer_expect(x):
    v = np.zeros(128, np.float32)
    v[:100] = x
    z = np.full(120, 7.0, np.float32)
    z[:] = v[:120]
    return {1: (v[::-1] + v).astype(np.float32), 2: z}
