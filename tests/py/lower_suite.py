"""The kernel suite of amdgcn-lower's tests and bench/bench_lower.py.

Written in the style of upstream MLIR's GPU integration tests
(mlir/test/Integration/GPU: elementwise ops, shuffles, reductions, control
flow): each case is an outlined gpu.module, a launch shape, inputs, and the
NumPy result. Every case is built twice, by aster (aster.lower) and by LLVM
(aster.lowering.llvm: mlir-opt-22 convert-gpu-to-rocdl, llc-22, ld.lld-22),
and both must equal NumPy.
"""
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Case:
    name: str
    kernel: str                 # the gpu.func's name
    mlir: str
    grid: tuple
    block: tuple
    inputs: object              # rng -> list of argument values
    expect: object              # inputs -> {argument index: expected array}
    tol: float = 0.0            # relative tolerance (0: exact)
    llvm_mlir: str = None       # LLVM's source when upstream cannot lower `mlir` (why: at the case)
    same_bits: bool = False     # aster's outputs must equal LLVM's bit for bit (NaN payloads too)
    # {argument index: the float dtype its int32 words hold (float64: pairs;
    # float16 / bfloat16: one per word, low half)}: there a NaN expected
    # matches any NaN (IEEE-754 leaves the sign and payload open), the rest
    # bit for bit (lower_suite_arith.py).
    nan_any: dict = field(default_factory=dict)
    launch: dict = field(default_factory=dict)   # more aster.launch arguments (dynamic_lds=...)
    # False where llvm_mlir is another algorithm (upstream cannot build the
    # same one): bench/bench_lower.py prints the ratio but leaves it out of
    # the geometric mean (it compares algorithms, not lowerings).
    compare: bool = True


def module(body):
    return ("module attributes {gpu.container_module} {\n  gpu.module @kernels {\n"
            + body + "\n  }\n}\n")


CASES = []

# 1. Elementwise add, static shapes (bare pointers), block_dim from the dispatch.
CASES.append(Case("add_static", "add", module("""
    gpu.func @add(%a: memref<1024xf32>, %b: memref<1024xf32>, %c: memref<1024xf32>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %t = arith.muli %bid, %bdim : index
      %i = arith.addi %t, %tid : index
      %x = memref.load %a[%i] : memref<1024xf32>
      %y = memref.load %b[%i] : memref<1024xf32>
      %z = arith.addf %x, %y : f32
      memref.store %z, %c[%i] : memref<1024xf32>
      gpu.return
    }"""), (8, 1, 1), (128, 1, 1),
    lambda r: [r.standard_normal(1024, dtype=np.float32), r.standard_normal(1024, dtype=np.float32),
               np.zeros(1024, np.float32)],
    lambda a: {2: a[0] + a[1]}))

# 2. saxpy on dynamic shapes: bounds check (divergent scf.if without else).
CASES.append(Case("saxpy_dynamic", "saxpy", module("""
    gpu.func @saxpy(%alpha: f32, %x: memref<?xf32>, %y: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %n = memref.dim %x, %c0 : memref<?xf32>
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %t = arith.muli %bid, %bdim : index
      %i = arith.addi %t, %tid : index
      %in = arith.cmpi slt, %i, %n : index
      scf.if %in {
        %xv = memref.load %x[%i] : memref<?xf32>
        %yv = memref.load %y[%i] : memref<?xf32>
        %r = math.fma %alpha, %xv, %yv : f32
        memref.store %r, %y[%i] : memref<?xf32>
      }
      gpu.return
    }"""), (4, 1, 1), (64, 1, 1),
    lambda r: [np.float32(1.5), r.standard_normal(250, dtype=np.float32),
               r.standard_normal(250, dtype=np.float32)],
    lambda a: {2: (np.float32(a[0]) * a[1].astype(np.float64) + a[2]).astype(np.float32)},
    tol=1e-6))

# 3. Compares and select (leaky relu), integers and floats.
CASES.append(Case("select_leaky_relu", "lrelu", module("""
    gpu.func @lrelu(%x: memref<256xf32>, %y: memref<256xf32>, %k: memref<256xi32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<256xf32>
      %zero = arith.constant 0.0 : f32
      %slope = arith.constant 0.125 : f32
      %pos = arith.cmpf ogt, %v, %zero : f32
      %s = arith.mulf %v, %slope : f32
      %r = arith.select %pos, %v, %s : f32
      memref.store %r, %y[%i] : memref<256xf32>
      %ii = arith.index_cast %i : index to i32
      %c100 = arith.constant 100 : i32
      %lt = arith.cmpi ult, %ii, %c100 : i32
      %c7 = arith.constant 7 : i32
      %m = arith.andi %ii, %c7 : i32
      %c1000 = arith.constant 1000 : i32
      %o = arith.select %lt, %m, %c1000 : i32
      memref.store %o, %k[%i] : memref<256xi32>
      gpu.return
    }"""), (1, 1, 1), (256, 1, 1),
    lambda r: [r.standard_normal(256, dtype=np.float32), np.zeros(256, np.float32),
               np.zeros(256, np.int32)],
    lambda a: {1: np.where(a[0] > 0, a[0], a[0] * np.float32(0.125)),
               2: np.where(np.arange(256) < 100, np.arange(256) & 7, 1000).astype(np.int32)}))

# 4. Divergent if/else with results.
CASES.append(Case("divergent_if_else", "ifelse", module("""
    gpu.func @ifelse(%x: memref<128xi32>, %y: memref<128xi32>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<128xi32>
      %c3 = arith.constant 3 : index
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %m = arith.andi %i, %c3 : index
      %odd = arith.cmpi eq, %m, %c1 : index
      %r, %q = scf.if %odd -> (i32, i32) {
        %two = arith.constant 2 : i32
        %a = arith.muli %v, %two : i32
        scf.yield %a, %two : i32, i32
      } else {
        %one = arith.constant 1 : i32
        %b = arith.addi %v, %one : i32
        %big = arith.constant 100000 : i32
        scf.yield %b, %big : i32, i32
      }
      %s = arith.addi %r, %q : i32
      memref.store %s, %y[%i] : memref<128xi32>
      gpu.return
    }"""), (1, 1, 1), (128, 1, 1),
    lambda r: [r.integers(-1000, 1000, 128, dtype=np.int32), np.zeros(128, np.int32)],
    lambda a: {1: np.where((np.arange(128) & 3) == 1, a[0] * 2 + 2, a[0] + 1 + 100000).astype(np.int32)}))

# 5. Uniform scf.for: row sums of a 2-D memref (each lane its row).
CASES.append(Case("uniform_for_rowsum", "rowsum", module("""
    gpu.func @rowsum(%x: memref<64x16xf32>, %y: memref<64xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %s = scf.for %j = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
        %v = memref.load %x[%i, %j] : memref<64x16xf32>
        %n = arith.addf %acc, %v : f32
        scf.yield %n : f32
      }
      memref.store %s, %y[%i] : memref<64xf32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal((64, 16), dtype=np.float32), np.zeros(64, np.float32)],
    lambda a: {1: _seqsum(a[0])}))

# 6. Divergent scf.for: lane i runs i % 8 iterations.
CASES.append(Case("divergent_for", "trip", module("""
    gpu.func @trip(%y: memref<128xi32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c7 = arith.constant 7 : index
      %n = arith.andi %i, %c7 : index
      %z = arith.constant 1 : i32
      %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %z) -> (i32) {
        %jj = arith.index_cast %j : index to i32
        %three = arith.constant 3 : i32
        %m = arith.muli %acc, %three : i32
        %a = arith.addi %m, %jj : i32
        scf.yield %a : i32
      }
      memref.store %r, %y[%i] : memref<128xi32>
      gpu.return
    }"""), (1, 1, 1), (128, 1, 1),
    lambda r: [np.zeros(128, np.int32)],
    lambda a: {0: np.array([_trip(i & 7) for i in range(128)], np.int32)}))

# 7. Shuffles: xor with width 16 (a partial width) and idx. idx reads lane
# `offset` of the wave, as MLIR's ROCDL lowering (GPUShuffleOpLowering) has
# it; NVVM's shfl.idx would read it within each 16-lane segment. We follow
# the AMD lowering, and LLVM's build of this kernel checks it.
CASES.append(Case("shuffle_xor_idx", "shuf", module("""
    gpu.func @shuf(%x: memref<128xf32>, %y: memref<128xf32>, %z: memref<128xf32>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<128xf32>
      %c16 = arith.constant 16 : i32
      %c5 = arith.constant 5 : i32
      %c3 = arith.constant 3 : i32
      %s, %ok = gpu.shuffle xor %v, %c5, %c16 : f32
      memref.store %s, %y[%i] : memref<128xf32>
      %t, %ok2 = gpu.shuffle idx %v, %c3, %c16 : f32
      memref.store %t, %z[%i] : memref<128xf32>
      gpu.return
    }"""), (1, 1, 1), (128, 1, 1),
    lambda r: [r.standard_normal(128, dtype=np.float32), np.zeros(128, np.float32),
               np.zeros(128, np.float32)],
    lambda a: {1: a[0][np.arange(128) ^ 5], 2: np.concatenate([np.full(64, a[0][3]), np.full(64, a[0][67])])}))


def _reduce_case(waves):
    """Upstream has no lowering of gpu.subgroup_reduce for ROCDL but a test
    pass (test-gpu-subgroup-reduce-lowering) whose shuffle expansion assumes
    32 lanes: LLVM builds the same reduction written as the 64-lane xor
    butterfly of gpu.shuffle (llvm_mlir)."""
    n = 64 * waves
    return Case(f"subgroup_reduce_{waves}w", "red", module(f"""
    gpu.func @red(%x: memref<{n}xi32>, %y: memref<{waves}xi32>) kernel
        attributes {{known_block_size = array<i32: {n}, 1, 1>}} {{
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<{n}xi32>
      %s = gpu.subgroup_reduce add %v : (i32) -> i32
      %c64 = arith.constant 64 : index
      %w = arith.divui %i, %c64 : index
      %l = arith.remui %i, %c64 : index
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %l, %c0 : index
      scf.if %first {{
        memref.store %s, %y[%w] : memref<{waves}xi32>
      }}
      gpu.return
    }}"""), (1, 1, 1), (n, 1, 1),
        lambda r: [r.integers(-1000, 1000, n, dtype=np.int32), np.zeros(waves, np.int32)],
        lambda a: {1: a[0].reshape(waves, 64).sum(axis=1).astype(np.int32)},
        llvm_mlir=module(f"""
    gpu.func @red(%x: memref<{n}xi32>, %y: memref<{waves}xi32>) kernel
        attributes {{known_block_size = array<i32: {n}, 1, 1>}} {{
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<{n}xi32>
      %w64 = arith.constant 64 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c4 = arith.constant 4 : i32
      %c8 = arith.constant 8 : i32
      %c16 = arith.constant 16 : i32
      %c32 = arith.constant 32 : i32
      %o1, %k1 = gpu.shuffle xor %v, %c1, %w64 : i32
      %s1 = arith.addi %v, %o1 : i32
      %o2, %k2 = gpu.shuffle xor %s1, %c2, %w64 : i32
      %s2 = arith.addi %s1, %o2 : i32
      %o3, %k3 = gpu.shuffle xor %s2, %c4, %w64 : i32
      %s3 = arith.addi %s2, %o3 : i32
      %o4, %k4 = gpu.shuffle xor %s3, %c8, %w64 : i32
      %s4 = arith.addi %s3, %o4 : i32
      %o5, %k5 = gpu.shuffle xor %s4, %c16, %w64 : i32
      %s5 = arith.addi %s4, %o5 : i32
      %o6, %k6 = gpu.shuffle xor %s5, %c32, %w64 : i32
      %s = arith.addi %s5, %o6 : i32
      %c64 = arith.constant 64 : index
      %wv = arith.divui %i, %c64 : index
      %l = arith.remui %i, %c64 : index
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %l, %c0 : index
      scf.if %first {{
        memref.store %s, %y[%wv] : memref<{waves}xi32>
      }}
      gpu.return
    }}"""))


# 8. Subgroup (wave) reductions in workgroups of 1, 4 and 16 waves.
CASES += [_reduce_case(w) for w in (1, 4, 16)]

# 9. 2-D ids: a transpose through global memory, blocks of 16 x 4.
CASES.append(Case("transpose_2d", "transpose", module("""
    gpu.func @transpose(%x: memref<32x64xf32>, %y: memref<64x32xf32>) kernel
        attributes {known_block_size = array<i32: 16, 4, 1>} {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %c16 = arith.constant 16 : index
      %c4 = arith.constant 4 : index
      %ox = arith.muli %bx, %c16 : index
      %oy = arith.muli %by, %c4 : index
      %col = arith.addi %ox, %tx : index
      %row = arith.addi %oy, %ty : index
      %v = memref.load %x[%row, %col] : memref<32x64xf32>
      gpu.barrier
      memref.store %v, %y[%col, %row] : memref<64x32xf32>
      gpu.return
    }"""), (4, 8, 1), (16, 4, 1),
    lambda r: [r.standard_normal((32, 64), dtype=np.float32), np.zeros((64, 32), np.float32)],
    lambda a: {1: a[0].T.copy()}))


def _block_reduce_case(waves):
    """A workgroup sum across `waves` waves: each wave reduces (shuffle
    butterfly), lane 0 of each wave writes LDS, a barrier, then work-item 0
    adds the waves' sums in a uniform loop inside its divergent if."""
    n = 64 * waves
    return Case(f"block_reduce_{waves}w", "bred", module(f"""
    gpu.func @bred(%x: memref<{4 * n}xf32>, %y: memref<4xf32>)
        workgroup(%part: memref<{waves}xf32, #gpu.address_space<workgroup>>) kernel
        attributes {{known_block_size = array<i32: {n}, 1, 1>}} {{
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %cn = arith.constant {n} : index
      %o = arith.muli %b, %cn : index
      %i = arith.addi %o, %t : index
      %v = memref.load %x[%i] : memref<{4 * n}xf32>
      %w64 = arith.constant 64 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c4 = arith.constant 4 : i32
      %c8 = arith.constant 8 : i32
      %c16 = arith.constant 16 : i32
      %c32 = arith.constant 32 : i32
      %o1, %k1 = gpu.shuffle xor %v, %c1, %w64 : f32
      %s1 = arith.addf %v, %o1 : f32
      %o2, %k2 = gpu.shuffle xor %s1, %c2, %w64 : f32
      %s2 = arith.addf %s1, %o2 : f32
      %o3, %k3 = gpu.shuffle xor %s2, %c4, %w64 : f32
      %s3 = arith.addf %s2, %o3 : f32
      %o4, %k4 = gpu.shuffle xor %s3, %c8, %w64 : f32
      %s4 = arith.addf %s3, %o4 : f32
      %o5, %k5 = gpu.shuffle xor %s4, %c16, %w64 : f32
      %s5 = arith.addf %s4, %o5 : f32
      %o6, %k6 = gpu.shuffle xor %s5, %c32, %w64 : f32
      %s = arith.addf %s5, %o6 : f32
      %c64 = arith.constant 64 : index
      %wv = arith.divui %t, %c64 : index
      %l = arith.remui %t, %c64 : index
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %l, %c0 : index
      scf.if %first {{
        memref.store %s, %part[%wv] : memref<{waves}xf32, #gpu.address_space<workgroup>>
      }}
      gpu.barrier
      %t0 = arith.cmpi eq, %t, %c0 : index
      scf.if %t0 {{
        %cw = arith.constant {waves} : index
        %one = arith.constant 1 : index
        %zero = arith.constant 0.0 : f32
        %sum = scf.for %j = %c0 to %cw step %one iter_args(%acc = %zero) -> (f32) {{
          %p = memref.load %part[%j] : memref<{waves}xf32, #gpu.address_space<workgroup>>
          %a = arith.addf %acc, %p : f32
          scf.yield %a : f32
        }}
        memref.store %sum, %y[%b] : memref<4xf32>
      }}
      gpu.return
    }}"""), (4, 1, 1), (n, 1, 1),
        lambda r: [r.integers(-8, 8, 4 * n).astype(np.float32), np.zeros(4, np.float32)],
        lambda a: {1: a[0].reshape(4, n).sum(axis=1).astype(np.float32)})


# 10. Reductions across 1-16 waves through workgroup memory (small integers
# in f32: every order of additions gives the exact sum).
CASES += [_block_reduce_case(w) for w in (1, 4, 16)]

# 11. A shared-memory transpose: 32 x 32 tiles through LDS, 32 x 8 work-items
# each moving 4 elements, a barrier between the writes and the reads.
CASES.append(Case("transpose_lds", "tlds", module("""
    gpu.func @tlds(%x: memref<64x96xf32>, %y: memref<96x64xf32>)
        workgroup(%tile: memref<32x33xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 32, 8, 1>} {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %x0 = arith.muli %bx, %c32 : index
      %y0 = arith.muli %by, %c32 : index
      %col = arith.addi %x0, %tx : index
      scf.for %k = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %k : index
        %row = arith.addi %y0, %r : index
        %v = memref.load %x[%row, %col] : memref<64x96xf32>
        memref.store %v, %tile[%r, %tx] : memref<32x33xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %ocol = arith.addi %y0, %tx : index
      scf.for %k = %c0 to %c32 step %c8 {
        %r = arith.addi %ty, %k : index
        %orow = arith.addi %x0, %r : index
        %v = memref.load %tile[%tx, %r] : memref<32x33xf32, #gpu.address_space<workgroup>>
        memref.store %v, %y[%orow, %ocol] : memref<96x64xf32>
      }
      gpu.return
    }"""), (3, 2, 1), (32, 8, 1),
    lambda r: [r.standard_normal((64, 96), dtype=np.float32), np.zeros((96, 64), np.float32)],
    lambda a: {1: a[0].T.copy()}))


def _sqrt_inputs(r):
    x = np.abs(r.standard_normal(256)).astype(np.float32) * np.float32(100)
    x[:8] = [0.0, -0.0, np.inf, 1e-40, 1e-30, 2.0**-100, 4.0, 3.0e38]
    x[8:16] = np.float32(1.0) + np.arange(8, dtype=np.float32) * np.float32(2.0**-23)
    return [x, np.zeros(256, np.float32), np.zeros(256, np.float32)]


# 12. math.sqrt (correctly rounded, so NumPy's float32 sqrt is exact) and
# math.fma, over zeros, infinity, denormals and tiny inputs.
CASES.append(Case("math_sqrt_fma", "msq", module("""
    gpu.func @msq(%x: memref<256xf32>, %y: memref<256xf32>, %z: memref<256xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<256xf32>
      %s = math.sqrt %v : f32
      memref.store %s, %y[%i] : memref<256xf32>
      %h = arith.constant 0.5 : f32
      %f = math.fma %v, %h, %s : f32
      memref.store %f, %z[%i] : memref<256xf32>
      gpu.return
    }"""), (1, 1, 1), (256, 1, 1), _sqrt_inputs,
    lambda a: {1: np.sqrt(a[0]),
               2: (a[0].astype(np.float64) * 0.5 + np.sqrt(a[0]).astype(np.float64)).astype(np.float32)}))


def _seqsum(x):
    acc = np.zeros(x.shape[0], np.float32)
    for j in range(x.shape[1]):
        acc = (acc + x[:, j]).astype(np.float32)
    return acc


def _trip(n):
    acc = 1
    for j in range(n):
        acc = acc * 3 + j
    return acc


def run(case, code, seed=0, **launch):
    """Launches `code` (aster's or LLVM's build) on the emulator with the
    case's inputs; returns (arguments after the run, LaunchResult)."""
    import aster
    sig = aster.lowering.Signature(case.kernel, _arg_types(case.mlir))
    args = case.inputs(np.random.default_rng(seed))
    r = aster.launch(code, case.kernel, grid=case.grid, block=case.block,
                     args=sig.args(*args), **{**case.launch, **launch})
    return args, r


def _arg_types(text):
    import re
    sig = re.search(r"gpu\.func\s+@\w+\((.*?)\)\s*(?:workgroup|kernel)", text, re.S).group(1)
    return [t.strip() for t in re.findall(r"%\w+\s*:\s*([^,]+(?:<[^>]*>)?)", sig)]


def check(case, args):
    """Asserts the arguments equal NumPy's result."""
    expected = case.expect(case.inputs(np.random.default_rng(0)))
    for i, want in expected.items():
        if i in case.nan_any:
            dt = np.dtype(case.nan_any[i])
            as_f = (lambda a: a.view(dt)) if dt.itemsize >= 4 else \
                (lambda a: a.astype(np.uint16).view(dt))  # noqa: E731
            g, w = as_f(np.asarray(args[i])), as_f(np.asarray(want))
            nan = np.isnan(w.astype(np.float64))
            np.testing.assert_array_equal(np.isnan(g.astype(np.float64))[nan], True)
            np.testing.assert_array_equal(np.asarray(args[i]).reshape(g.shape + (-1,))[~nan],
                                          np.asarray(want).reshape(w.shape + (-1,))[~nan])
            continue
        if case.tol:
            np.testing.assert_allclose(args[i], want, rtol=case.tol, atol=case.tol)
        else:
            np.testing.assert_array_equal(args[i], want)


# ---------------------------------------------------------------------------
# Breadth (issue 26 item 2): division, min/max NaN semantics, clustered
# reductions, atomics, while loops, unstructured control flow.
# ---------------------------------------------------------------------------

def _divrem_inputs(r):
    x = r.integers(-2**31, 2**31, 256, dtype=np.int64).astype(np.int32)
    y = r.integers(-2**31, 2**31, 256, dtype=np.int64).astype(np.int32)
    y[:64] = r.integers(-40, 40, 64).astype(np.int32)          # small divisors
    x[64:72] = [0, 1, -1, 2**31 - 1, -2**31, 7, -7, 100]
    y[64:72] = [3, -3, 5, 2**31 - 1, 2**31 - 1, -2**31, 1, -1]
    y[y == 0] = 1
    x[(x == -2**31) & (y == -1)] = 0                             # overflow: undefined
    return [x, y] + [np.zeros(256, np.int32) for _ in range(4)]


def _divrem_expect(a):
    x, y = a[0].astype(np.int64), a[1].astype(np.int64)
    q = np.sign(x) * np.sign(y) * (np.abs(x) // np.abs(y))       # C: truncated toward zero
    ux, uy = a[0].view(np.uint32).astype(np.uint64), a[1].view(np.uint32).astype(np.uint64)
    return {2: q.astype(np.int32), 3: (x - q * y).astype(np.int32),
            4: (ux // uy).astype(np.uint32).view(np.int32), 5: (ux % uy).astype(np.uint32).view(np.int32)}


# 13. Integer division and remainder, signed and unsigned (i32), LLVM's
# AMDGPU expansion (v_rcp_iflag_f32, one Newton step, two corrections).
CASES.append(Case("int_divrem", "divrem", module("""
    gpu.func @divrem(%x: memref<256xi32>, %y: memref<256xi32>, %qs: memref<256xi32>,
                     %rs: memref<256xi32>, %qu: memref<256xi32>, %ru: memref<256xi32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.thread_id x
      %a = memref.load %x[%i] : memref<256xi32>
      %b = memref.load %y[%i] : memref<256xi32>
      %q = arith.divsi %a, %b : i32
      memref.store %q, %qs[%i] : memref<256xi32>
      %r = arith.remsi %a, %b : i32
      memref.store %r, %rs[%i] : memref<256xi32>
      %uq = arith.divui %a, %b : i32
      memref.store %uq, %qu[%i] : memref<256xi32>
      %ur = arith.remui %a, %b : i32
      memref.store %ur, %ru[%i] : memref<256xi32>
      gpu.return
    }"""), (1, 1, 1), (256, 1, 1), _divrem_inputs, _divrem_expect))


def _fdiv_inputs(r):
    x = (r.standard_normal(256) * 10.0 ** r.integers(-30, 30, 256)).astype(np.float32)
    y = (r.standard_normal(256) * 10.0 ** r.integers(-30, 30, 256)).astype(np.float32)
    x[:12] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, 1e-45, 3e38, 1.0, 1e-40, 5.0, -0.0]
    y[:12] = [0.0, 2.0, np.inf, 3.0, 1.0, 0.0, 3.0, 1e-10, 1e-40, 7.0, -np.inf, -0.0]
    return [x, y, np.zeros(256, np.float32)]


def _quiet_divide(x, y):
    with np.errstate(all="ignore"):
        return np.divide(x, y)


# 14. f32 division, correctly rounded (NumPy's float32 division is), over
# zeros, infinities, NaN, denormals and quotients that overflow/underflow.
CASES.append(Case("fdiv_f32", "fdiv", module("""
    gpu.func @fdiv(%x: memref<256xf32>, %y: memref<256xf32>, %z: memref<256xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.thread_id x
      %a = memref.load %x[%i] : memref<256xf32>
      %b = memref.load %y[%i] : memref<256xf32>
      %q = arith.divf %a, %b : f32
      memref.store %q, %z[%i] : memref<256xf32>
      gpu.return
    }"""), (1, 1, 1), (256, 1, 1), _fdiv_inputs,
    lambda a: {2: _quiet_divide(a[0], a[1])}, same_bits=True))


def _minmax_inputs(r):
    x = r.standard_normal(256).astype(np.float32)
    y = r.standard_normal(256).astype(np.float32)
    x[:6] = [np.nan, 1.0, np.nan, np.inf, -np.inf, 2.0]
    y[:6] = [1.0, np.nan, np.nan, 3.0, 3.0, -np.inf]
    return [x, y] + [np.zeros(256, np.float32) for _ in range(4)]


# 15. minimumf / maximumf (NaN if either is NaN: np.minimum / np.maximum) and
# minnumf / maxnumf (the number when one is NaN: np.fmin / np.fmax).
CASES.append(Case("minmax_nan", "mm", module("""
    gpu.func @mm(%x: memref<256xf32>, %y: memref<256xf32>, %a: memref<256xf32>,
                 %b: memref<256xf32>, %c: memref<256xf32>, %d: memref<256xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.thread_id x
      %u = memref.load %x[%i] : memref<256xf32>
      %v = memref.load %y[%i] : memref<256xf32>
      %m1 = arith.minimumf %u, %v : f32
      memref.store %m1, %a[%i] : memref<256xf32>
      %m2 = arith.maximumf %u, %v : f32
      memref.store %m2, %b[%i] : memref<256xf32>
      %m3 = arith.minnumf %u, %v : f32
      memref.store %m3, %c[%i] : memref<256xf32>
      %m4 = arith.maxnumf %u, %v : f32
      memref.store %m4, %d[%i] : memref<256xf32>
      gpu.return
    }"""), (1, 1, 1), (256, 1, 1), _minmax_inputs,
    lambda a: {2: np.minimum(a[0], a[1]), 3: np.maximum(a[0], a[1]),
               4: np.fmin(a[0], a[1]), 5: np.fmax(a[0], a[1])}, same_bits=True))


def _clustered_case(cluster):
    """gpu.subgroup_reduce with a cluster size: each aligned group of
    `cluster` lanes gets its own sum. LLVM builds the same reduction as the
    xor butterfly of gpu.shuffle over log2(cluster) steps (upstream has no
    ROCDL lowering of gpu.subgroup_reduce)."""
    body = """
    gpu.func @cred(%x: memref<128xi32>, %y: memref<128xi32>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %i = gpu.thread_id x
      %s0 = memref.load %x[%i] : memref<128xi32>
      %w64 = arith.constant 64 : i32
REDUCE
      memref.store %s, %y[%i] : memref<128xi32>
      gpu.return
    }"""
    ours = f"      %s = gpu.subgroup_reduce add %s0 cluster(size = {cluster}) : (i32) -> i32"
    n = cluster.bit_length() - 1
    theirs = "\n".join(
        f"      %c{k} = arith.constant {1 << k} : i32\n"
        f"      %o{k}, %k{k} = gpu.shuffle xor %s{k}, %c{k}, %w64 : i32\n"
        f"      %s{k + 1} = arith.addi %s{k}, %o{k} : i32" for k in range(n))
    theirs += f"\n      %s = arith.addi %s{n}, %s{n} : i32".replace(f"%s{n}, %s{n}", f"%s{n}, %w0")
    theirs = theirs.replace("%w0", "%z") .replace("      %s = ", "      %z = arith.constant 0 : i32\n      %s = ")
    return Case(f"subgroup_reduce_cluster{cluster}", "cred", module(body.replace("REDUCE", ours)),
                (1, 1, 1), (128, 1, 1),
                lambda r: [r.integers(-1000, 1000, 128, dtype=np.int32), np.zeros(128, np.int32)],
                lambda a: {1: np.repeat(a[0].reshape(-1, cluster).sum(axis=1), cluster).astype(np.int32)},
                llvm_mlir=module(body.replace("REDUCE", theirs)))


# 16. Clustered wave reductions (clusters of 4 and 16 lanes).
CASES += [_clustered_case(c) for c in (4, 16)]


def _atomic_inputs(r):
    return [r.integers(0, 1000, 256, dtype=np.int32), np.zeros(16, np.int32), np.zeros(16, np.float32),
            r.integers(-50, 50, 256, dtype=np.int32), np.zeros(256, np.int32), np.zeros(16, np.int32)]


def _atomic_expect(a):
    bins = np.bincount(a[0] % 16, minlength=16)
    old = a[3] + 10                                               # the pre-op value each lane reads
    return {1: bins.astype(np.int32), 2: bins.astype(np.float32),
            3: np.maximum(old, 7).astype(np.int32),
            4: old.astype(np.int32), 5: (bins * 2).astype(np.int32)}


# 17. memref.atomic_rmw: a histogram with addi and addf on global memory,
# maxs returning its pre-op value (each lane its own element), and addi on
# workgroup memory (ds_add_u32) copied out after a barrier.
CASES.append(Case("atomic_rmw", "atom", module("""
    gpu.func @atom(%x: memref<256xi32>, %hi: memref<16xi32>, %hf: memref<16xf32>,
                   %m: memref<256xi32>, %old: memref<256xi32>, %hl: memref<16xi32>)
        workgroup(%lds: memref<16xi32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.thread_id x
      %c16 = arith.constant 16 : index
      %z = arith.constant 0 : i32
      %small = arith.cmpi ult, %i, %c16 : index
      scf.if %small {
        memref.store %z, %lds[%i] : memref<16xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %v = memref.load %x[%i] : memref<256xi32>
      %c16i = arith.constant 16 : i32
      %bin = arith.remui %v, %c16i : i32
      %b = arith.index_cast %bin : i32 to index
      %one = arith.constant 1 : i32
      %onef = arith.constant 1.0 : f32
      %two = arith.constant 2 : i32
      %r0 = memref.atomic_rmw addi %one, %hi[%b] : (i32, memref<16xi32>) -> i32
      %r1 = memref.atomic_rmw addf %onef, %hf[%b] : (f32, memref<16xf32>) -> f32
      %r2 = memref.atomic_rmw addi %two, %lds[%b] : (i32, memref<16xi32, #gpu.address_space<workgroup>>) -> i32
      %mv = memref.load %m[%i] : memref<256xi32>
      %ten = arith.constant 10 : i32
      %mv10 = arith.addi %mv, %ten : i32
      memref.store %mv10, %m[%i] : memref<256xi32>
      %seven = arith.constant 7 : i32
      %o = memref.atomic_rmw maxs %seven, %m[%i] : (i32, memref<256xi32>) -> i32
      memref.store %o, %old[%i] : memref<256xi32>
      gpu.barrier
      scf.if %small {
        %h = memref.load %lds[%i] : memref<16xi32, #gpu.address_space<workgroup>>
        memref.store %h, %hl[%i] : memref<16xi32>
      }
      gpu.return
    }"""), (1, 1, 1), (256, 1, 1), _atomic_inputs, _atomic_expect))


def _collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


# 18. A divergent scf.while: Collatz steps of 1 + lane (each lane leaves in
# its own iteration; the before region carries the condition).
CASES.append(Case("divergent_while_collatz", "collatz", module("""
    gpu.func @collatz(%y: memref<128xi32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %i = gpu.thread_id x
      %ii = arith.index_cast %i : index to i32
      %one = arith.constant 1 : i32
      %n0 = arith.addi %ii, %one : i32
      %zero = arith.constant 0 : i32
      %r:2 = scf.while (%n = %n0, %s = %zero) : (i32, i32) -> (i32, i32) {
        %more = arith.cmpi ne, %n, %one : i32
        scf.condition(%more) %n, %s : i32, i32
      } do {
      ^bb0(%m: i32, %t: i32):
        %two = arith.constant 2 : i32
        %three = arith.constant 3 : i32
        %odd = arith.andi %m, %one : i32
        %isodd = arith.cmpi ne, %odd, %zero : i32
        %h = arith.shrui %m, %one : i32
        %m3 = arith.muli %m, %three : i32
        %m31 = arith.addi %m3, %one : i32
        %next = arith.select %isodd, %m31, %h : i32
        %t1 = arith.addi %t, %one : i32
        scf.yield %next, %t1 : i32, i32
      }
      memref.store %r#1, %y[%i] : memref<128xi32>
      gpu.return
    }"""), (1, 1, 1), (128, 1, 1),
    lambda r: [np.zeros(128, np.int32)],
    lambda a: {0: np.array([_collatz(i + 1) for i in range(128)], np.int32)}))

# 19. A uniform scf.while (the trip count from a kernel argument): doubling
# until past a bound, every lane adding its element each iteration.
CASES.append(Case("uniform_while", "uwhile", module("""
    gpu.func @uwhile(%bound: i32, %x: memref<64xf32>, %y: memref<64xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xf32>
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %zf = arith.constant 0.0 : f32
      %r:2 = scf.while (%k = %one, %acc = %zf) : (i32, f32) -> (i32, f32) {
        %more = arith.cmpi slt, %k, %bound : i32
        scf.condition(%more) %k, %acc : i32, f32
      } do {
      ^bb0(%k2: i32, %a2: f32):
        %k3 = arith.muli %k2, %two : i32
        %a3 = arith.addf %a2, %v : f32
        scf.yield %k3, %a3 : i32, f32
      }
      memref.store %r#1, %y[%i] : memref<64xf32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [np.int32(100), r.integers(-8, 8, 64).astype(np.float32), np.zeros(64, np.float32)],
    lambda a: {2: (a[1] * 7).astype(np.float32)}))


def _explog_inputs(r):
    x = (r.standard_normal(256) * 30).astype(np.float32)
    x[:12] = [0.0, -0.0, np.inf, -np.inf, np.nan, 88.7, 88.8, -103.0, -104.0, 1e-40, 1.0, -1.0]
    return [x, np.zeros(256, np.float32), np.zeros(256, np.float32)]


def _explog_expect(a):
    x = a[0].astype(np.float64)
    with np.errstate(all="ignore"):
        return {1: np.exp(x).astype(np.float32), 2: np.log(x).astype(np.float32)}


# 20. math.exp / math.log as LLVM's AMDGPU backend expands llvm.exp.f32 /
# llvm.log.f32 (convert-gpu-to-rocdl makes these intrinsics for f32): the
# same bits as LLVM's build, and within 2 ulp of NumPy's float64 result
# (test_lower_suite.test_exp_log_ulps), over zeros, infinities, NaN, the
# overflow/underflow bounds and denormals.
CASES.append(Case("math_exp_log", "el", module("""
    gpu.func @el(%x: memref<256xf32>, %e: memref<256xf32>, %l: memref<256xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<256xf32>
      %a = math.exp %v : f32
      memref.store %a, %e[%i] : memref<256xf32>
      %b = math.log %v : f32
      memref.store %b, %l[%i] : memref<256xf32>
      gpu.return
    }"""), (1, 1, 1), (256, 1, 1), _explog_inputs, _explog_expect, tol=3e-7, same_bits=True))
