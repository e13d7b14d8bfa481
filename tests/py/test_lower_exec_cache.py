"""The lowering's block-local value cache across EXEC changes within a
block (KernelLowering::inst empties it at every instruction that writes
EXEC). A masked vector.transfer_write writes each element under an EXEC of its
valid lanes (s_and_saveexec_b64 ... s_mov_b64 exec) inside one block; an
i64 element kept as two 32-bit halves is joined into a VGPR pair for the
store. A later store of the same value in the same block, under the full
EXEC, must not reuse the pair joined under the narrower EXEC (it holds only
those lanes). Checked against NumPy and against LLVM's build of the same
kernel (mlir-opt-22 + llc-22), both on the emulator in strict mode."""
import numpy as np

from lower_suite import Case, module
from lower_testing import numpy_tests

KB = "attributes {known_block_size = array<i32: 64, 1, 1>}"


# Lane t: x = zero-extended a[t] (an i64 as two halves: a[t] and 0), stored
# as the 2 elements of a vector.transfer_write masked by [t even, t odd] to
# o1[2t..2t+1] (per element, under an EXEC of its valid lanes: element 1's
# lanes are none of element 0's), then unmasked to o2[2t..2t+1] in the same
# block.
def _masked_then_full_expect(a):
    x = a[0].view(np.uint32).astype(np.int64)
    o1 = a[1].copy()
    o2 = np.repeat(x, 2)
    for t in range(64):
        o1[2 * t + t % 2] = x[t]
    return {1: o1, 2: o2}


CASES = [Case("masked_then_full_store_i64", "mf", module(f"""
    gpu.func @mf(%a: memref<64xi32>, %o1: memref<128xi64>, %o2: memref<128xi64>) kernel {KB} {{
      %t = gpu.thread_id x
      %x0 = memref.load %a[%t] : memref<64xi32>
      %x = arith.extui %x0 : i32 to i64
      %v = vector.broadcast %x : i64 to vector<2xi64>
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %par = arith.andi %t, %c1 : index
      %even = arith.cmpi eq, %par, %c0 : index
      %odd = arith.cmpi ne, %par, %c0 : index
      %m = vector.from_elements %even, %odd : vector<2xi1>
      %base = arith.muli %t, %c2 : index
      vector.transfer_write %v, %o1[%base], %m {{in_bounds = [true]}} : vector<2xi64>, memref<128xi64>
      vector.store %v, %o2[%base] : memref<128xi64>, vector<2xi64>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda rng: [rng.integers(-2**31, 2**31, 64, dtype=np.int64).astype(np.int32),
                 rng.integers(-2**62, 2**62, 128, dtype=np.int64),
                 np.zeros(128, np.int64)],
    _masked_then_full_expect)]

test_aster_lowering_matches_numpy, test_llvm_build_matches_numpy = numpy_tests(CASES)
