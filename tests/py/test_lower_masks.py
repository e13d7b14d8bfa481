"""Lane masks made from uniform i1 values cover all 64 lanes.

A constant `true` or a uniform (SGPR) i1 used where a divergent value
needs a lane mask becomes a 64-bit mask: it must be the inline constant -1
(sign-extended by the 64-bit SALU op), not the 32-bit literal 0xffffffff,
which the ISA zero-extends (lanes 32-63 off). Oracle: NumPy on the MLIR
semantics of arith.ori / arith.select, over a 64-lane wave."""
import numpy as np

import aster

TEXT = """module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%x: memref<64xi32>, %n: i32) kernel {
      %i = gpu.thread_id x
      %t = arith.constant true
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c4 = arith.constant 4 : i32
      %v = memref.load %x[%i] : memref<64xi32>
      %p = arith.cmpi slt, %v, %c1 : i32
      %q = arith.ori %p, %t : i1
      %u = arith.cmpi sgt, %n, %c1 : i32
      %w = arith.ori %p, %u : i1
      %r = arith.select %q, %c1, %c2 : i32
      %s = arith.select %w, %c4, %c2 : i32
      %o = arith.addi %r, %s : i32
      memref.store %o, %x[%i] : memref<64xi32>
      gpu.return
    }
  }
}"""


def test_uniform_masks_cover_every_lane():
    code = aster.compile(aster.lower(TEXT)["m"], aster.lowering.PIPELINE)
    for n in (0, 5):
        x = np.arange(64, dtype=np.int32)
        p = x < 1
        q = np.ones(64, bool)
        w = p | (n > 1)
        want = np.where(q, 1, 2) + np.where(w, 4, 2)
        aster.launch(code, "k", grid=1, block=64, args=[x, np.int32(n)])
        assert np.array_equal(x, want), (n, x)
