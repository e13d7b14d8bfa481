"""Kernels for the bugs the coverage audit found (python/aster/lowering/
coverage/; docs/lowering.md "Coverage"), each checked against NumPy and
LLVM's build of the same text (tests/py/test_lower_fixes.py).

1. Unsigned ops of `index`. MLIR's builtin `index` is "an integer of
   platform-dependent width": the lowering picks it (convert-gpu-to-rocdl's
   `index-bitwidth`, 64 by default). aster lowers index as 32 bits
   (docs/lowering.md), so arith.divui / remui / ceildivui / shrui of an
   index and index_castui to i64 are the 32-bit operations; LLVM's build
   uses the same width (aster.lowering.llvm.index_bits: index-bitwidth=32
   where the kernel interface holds no index). NumPy computes them on the
   uint32 words. Negative i32 inputs sign-extended to index (index_cast)
   are where a 64-bit index would differ: 2^64 - 5 is not 2^32 - 5.
"""
import numpy as np

from lower_suite import Case, module

CASES = []


def _index_inputs(r, n=256):
    a = r.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32)
    a[:8] = [-5, -1, 0, 1, 2**31 - 1, -2**31, 7, -7]
    b = r.integers(-2**20, 2**20, n, dtype=np.int64).astype(np.int32)
    b = np.where(b == 0, 3, b).astype(np.int32)
    b[:8] = [3, 2, -1, 1, -2**31, 5, -3, 7]
    s = r.integers(0, 32, n).astype(np.int32)
    outs = [np.zeros(n, np.int32) for _ in range(4)] + [np.zeros(n, np.int64)] * 2
    return [a, b, s] + [o.copy() for o in outs]


def _index_expect(x):
    a, b, s = (v.view(np.uint32).astype(np.uint64) for v in x[:3])
    q = a // b
    return {3: q.astype(np.uint32).view(np.int32),
            4: (a % b).astype(np.uint32).view(np.int32),
            5: (q + (a % b != 0)).astype(np.uint32).view(np.int32),
            6: (a >> s).astype(np.uint32).view(np.int32),
            7: a.astype(np.int64),                       # index_castui: zero-extends 32 bits
            8: x[0].astype(np.int64)}                    # index_cast: sign-extends


CASES.append(Case("index_unsigned_ops", "iu", module("""
    gpu.func @iu(%x: memref<256xi32>, %y: memref<256xi32>, %z: memref<256xi32>,
                 %q: memref<256xi32>, %m: memref<256xi32>, %c: memref<256xi32>,
                 %h: memref<256xi32>, %u: memref<256xi64>, %w: memref<256xi64>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %t = gpu.thread_id x
      %g = gpu.block_id x
      %c64 = arith.constant 64 : index
      %o = arith.muli %g, %c64 : index
      %i = arith.addi %o, %t : index
      %aw = memref.load %x[%i] : memref<256xi32>
      %bw = memref.load %y[%i] : memref<256xi32>
      %sw = memref.load %z[%i] : memref<256xi32>
      %a = arith.index_cast %aw : i32 to index
      %b = arith.index_cast %bw : i32 to index
      %s = arith.index_cast %sw : i32 to index
      %r0 = arith.divui %a, %b : index
      %r1 = arith.remui %a, %b : index
      %r2 = arith.ceildivui %a, %b : index
      %r3 = arith.shrui %a, %s : index
      %r4 = arith.index_castui %a : index to i64
      %r5 = arith.index_cast %a : index to i64
      %v0 = arith.index_cast %r0 : index to i32
      %v1 = arith.index_cast %r1 : index to i32
      %v2 = arith.index_cast %r2 : index to i32
      %v3 = arith.index_cast %r3 : index to i32
      memref.store %v0, %q[%i] : memref<256xi32>
      memref.store %v1, %m[%i] : memref<256xi32>
      memref.store %v2, %c[%i] : memref<256xi32>
      memref.store %v3, %h[%i] : memref<256xi32>
      memref.store %r4, %u[%i] : memref<256xi64>
      memref.store %r5, %w[%i] : memref<256xi64>
      gpu.return
    }"""), (4, 1, 1), (64, 1, 1), _index_inputs, _index_expect, same_bits=True))
