"""amdgcn-lower's workgroup reductions and dynamic shared memory (issue 26
item 2: gpu.all_reduce with an op or a region across the waves of a
workgroup; gpu.dynamic_shared_memory), in lower_suite.py's Case form: each
built by aster and by LLVM, both checked against NumPy.

LLVM's build of gpu.all_reduce is upstream's own lowering of it
(AllReduceLowering: 32-lane shuffle butterflies, workgroup memory and
barriers; aster.lowering.llvm runs it as mlir-opt-22 --test-gpu-rewrite
first, since convert-gpu-to-rocdl does not lower the op).
"""
import numpy as np

from lower_suite import Case, module

CASES = []


def _all_reduce_case(name, block, dtype, reduce, expect, tol=0.0):
    bx, by = block
    n = bx * by
    ty = "i32" if dtype == np.int32 else "f32"
    lin = ("%i = gpu.thread_id x" if by == 1 else
           f"""%tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %cbx = arith.constant {bx} : index
      %r0 = arith.muli %ty, %cbx : index
      %i = arith.addi %r0, %tx : index""")
    text = module(f"""
    gpu.func @ar(%x: memref<{n}x{ty}>, %y: memref<{n}x{ty}>) kernel
        attributes {{known_block_size = array<i32: {bx}, {by}, 1>}} {{
      {lin}
      %v = memref.load %x[%i] : memref<{n}x{ty}>
      {reduce.replace("TY", ty)}
      memref.store %r, %y[%i] : memref<{n}x{ty}>
      gpu.return
    }}""")

    def inputs(r):
        if dtype == np.int32:
            x = r.integers(-1000, 1000, n, dtype=np.int32)
        else:
            x = r.standard_normal(n).astype(np.float32)
        return [x, np.zeros(n, dtype)]
    return Case(name, "ar", text, (1, 1, 1), (bx, by, 1), inputs,
                lambda a: {1: np.full(n, expect(a[0]), dtype)}, tol=tol)


# An op kind, i32, 4 waves.
CASES.append(_all_reduce_case(
    "all_reduce_add_4w", (256, 1), np.int32,
    "%r = gpu.all_reduce add %v uniform {} : (TY) -> TY", lambda x: x.sum(dtype=np.int32)))
# The region form (a max written as compare + select), f32, 16 waves.
CASES.append(_all_reduce_case(
    "all_reduce_region_16w", (1024, 1), np.float32, """%r = gpu.all_reduce %v uniform {
      ^bb0(%a: TY, %b: TY):
        %gt = arith.cmpf ogt, %a, %b : TY
        %m = arith.select %gt, %a, %b : TY
        gpu.yield %m : TY
      } : (TY) -> TY""", lambda x: x.max()))
# A 2-D workgroup (64 x 2: two waves), xor of i32.
CASES.append(_all_reduce_case(
    "all_reduce_xor_2d", (64, 2), np.int32,
    "%r = gpu.all_reduce xor %v uniform {} : (TY) -> TY",
    lambda x: np.bitwise_xor.reduce(x)))
# f32 add across 8 waves: the order of the additions differs between the
# builds (aster: 64-lane butterflies then waves in order; upstream: 32-lane
# ones), so both are checked against NumPy's float64 sum with a tolerance.
CASES.append(_all_reduce_case(
    "all_reduce_addf_8w", (512, 1), np.float32,
    "%r = gpu.all_reduce add %v uniform {} : (TY) -> TY",
    lambda x: np.float32(x.astype(np.float64).sum()), tol=2e-5))


# Dynamic shared memory after a static attribution: a reversal of 256
# values through LDS at a byte shift of 64 into the dynamic buffer.
CASES.append(Case("dynamic_shared_reverse", "rev", module("""
    gpu.func @rev(%x: memref<256xf32>, %y: memref<256xf32>)
        workgroup(%s: memref<8xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c255 = arith.constant 255 : index
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %buf = memref.view %dyn[%c64][] : memref<?xi8, #gpu.address_space<workgroup>>
               to memref<256xf32, #gpu.address_space<workgroup>>
      %v = memref.load %x[%i] : memref<256xf32>
      memref.store %v, %buf[%i] : memref<256xf32, #gpu.address_space<workgroup>>
      %c8 = arith.constant 8 : index
      %lo = arith.cmpi ult, %i, %c8 : index
      scf.if %lo {
        memref.store %v, %s[%i] : memref<8xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %j = arith.subi %c255, %i : index
      %w = memref.load %buf[%j] : memref<256xf32, #gpu.address_space<workgroup>>
      %k = arith.remui %i, %c8 : index
      %t = memref.load %s[%k] : memref<8xf32, #gpu.address_space<workgroup>>
      %r = arith.addf %w, %t : f32
      memref.store %r, %y[%i] : memref<256xf32>
      gpu.return
    }"""), (1, 1, 1), (256, 1, 1),
    lambda r: [r.standard_normal(256).astype(np.float32), np.zeros(256, np.float32)],
    lambda a: {1: a[0][::-1] + np.tile(a[0][:8], 32)},
    launch={"dynamic_lds": 64 + 256 * 4}))
