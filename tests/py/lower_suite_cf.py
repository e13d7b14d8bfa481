"""amdgcn-lower's unstructured control flow cases (cf.br / cf.cond_br /
cf.switch in a kernel body; issue 26 item 2-3), in lower_suite.py's Case
form: each built by aster (which lifts the CFG to scf with upstream's
transformCFGToSCF, then masks EXEC) and by LLVM (whose own structurizer
handles the CFG), both checked against NumPy.

cf_loop_if is mlir-opt-22's output (`--convert-scf-to-cf`) for an scf.for
around a divergent scf.if; cf_switch_exits has a cf.switch and two
gpu.return exits; cf_irreducible a loop entered at two blocks (no single
header: an irreducible CFG).
"""
import numpy as np

from lower_suite import Case, module

CASES = []

# mlir-opt-22 --convert-scf-to-cf of: scf.for %j = 0 to 8 iter_args(%acc = x[i])
# { scf.if (acc odd) { 3 acc + 1 } else { acc >> 1 } } (divergent if).
CASES.append(Case("cf_loop_if", "nest", module("""
    gpu.func @nest(%arg0: memref<256xi32>, %arg1: memref<256xi32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %thread_id_x = gpu.thread_id  x
      %0 = memref.load %arg0[%thread_id_x] : memref<256xi32>
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %c3_i32 = arith.constant 3 : i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      cf.br ^bb1(%c0, %0 : index, i32)
    ^bb1(%1: index, %2: i32):  // 2 preds: ^bb0, ^bb6
      %3 = arith.cmpi slt, %1, %c8 : index
      cf.cond_br %3, ^bb2, ^bb7
    ^bb2:  // pred: ^bb1
      %4 = arith.andi %2, %c1_i32 : i32
      %5 = arith.cmpi ne, %4, %c0_i32 : i32
      cf.cond_br %5, ^bb3, ^bb4
    ^bb3:  // pred: ^bb2
      %6 = arith.muli %2, %c3_i32 : i32
      %7 = arith.addi %6, %c1_i32 : i32
      cf.br ^bb5(%7 : i32)
    ^bb4:  // pred: ^bb2
      %8 = arith.shrsi %2, %c1_i32 : i32
      cf.br ^bb5(%8 : i32)
    ^bb5(%9: i32):  // 2 preds: ^bb3, ^bb4
      cf.br ^bb6
    ^bb6:  // pred: ^bb5
      %10 = arith.addi %1, %c1 : index
      cf.br ^bb1(%10, %9 : index, i32)
    ^bb7:  // pred: ^bb1
      memref.store %2, %arg1[%thread_id_x] : memref<256xi32>
      gpu.return
    }"""), (1, 1, 1), (256, 1, 1),
    lambda r: [r.integers(1, 10**6, 256, dtype=np.int32), np.zeros(256, np.int32)],
    lambda a: {1: _collatz8(a[0])}))


def _collatz8(x):
    x = x.astype(np.int64)
    for _ in range(8):
        x = np.where(x & 1, 3 * x + 1, x >> 1)
    return x.astype(np.int32)


# A cf.switch on x % 4 (divergent) with an early gpu.return in one case.
CASES.append(Case("cf_switch_exits", "sw", module("""
    gpu.func @sw(%x: memref<256xi32>, %y: memref<256xi32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<256xi32>
      %c4 = arith.constant 4 : i32
      %k = arith.remui %v, %c4 : i32
      cf.switch %k : i32, [
        default: ^bd,
        0: ^b0,
        1: ^b1,
        2: ^b2
      ]
    ^b0:
      %c10 = arith.constant 10 : i32
      %t = arith.muli %v, %c10 : i32
      memref.store %t, %y[%i] : memref<256xi32>
      gpu.return
    ^b1:
      %c1 = arith.constant 1 : i32
      %a = arith.addi %v, %c1 : i32
      cf.br ^join(%a : i32)
    ^b2:
      %b = arith.muli %v, %v : i32
      cf.br ^join(%b : i32)
    ^bd:
      %c7 = arith.constant 7 : i32
      cf.br ^join(%c7 : i32)
    ^join(%r: i32):
      memref.store %r, %y[%i] : memref<256xi32>
      gpu.return
    }"""), (1, 1, 1), (256, 1, 1),
    lambda r: [r.integers(0, 40000, 256, dtype=np.int32), np.zeros(256, np.int32)],
    lambda a: {1: np.select([a[0] % 4 == 0, a[0] % 4 == 1, a[0] % 4 == 2],
                            [a[0] * 10, a[0] + 1, a[0] * a[0]], 7).astype(np.int32)}))


# A loop entered at ^A (odd x) or ^B (even x): irreducible (two headers).
CASES.append(Case("cf_irreducible", "irr", module("""
    gpu.func @irr(%x: memref<256xi32>, %y: memref<256xi32>, %lim: i32) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<256xi32>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      %o = arith.andi %v, %c1 : i32
      %odd = arith.cmpi ne, %o, %c0 : i32
      cf.cond_br %odd, ^A(%v : i32), ^B(%v : i32)
    ^A(%n: i32):
      %n1 = arith.muli %n, %c2 : i32
      %n2 = arith.addi %n1, %c1 : i32
      %ca = arith.cmpi slt, %n2, %lim : i32
      cf.cond_br %ca, ^B(%n2 : i32), ^exit(%n2 : i32)
    ^B(%m: i32):
      %m2 = arith.addi %m, %c3 : i32
      %cb = arith.cmpi slt, %m2, %lim : i32
      cf.cond_br %cb, ^A(%m2 : i32), ^exit(%m2 : i32)
    ^exit(%r: i32):
      memref.store %r, %y[%i] : memref<256xi32>
      gpu.return
    }"""), (1, 1, 1), (256, 1, 1),
    lambda r: [r.integers(0, 5000, 256, dtype=np.int32), np.zeros(256, np.int32), np.int32(100000)],
    lambda a: {1: np.array([_irr(int(v), int(a[2])) for v in a[0]], np.int32)}))


def _irr(v, lim):
    at, n = ("A" if v & 1 else "B"), v
    while True:
        n = n * 2 + 1 if at == "A" else n + 3
        if n >= lim:
            return n
        at = "B" if at == "A" else "A"
