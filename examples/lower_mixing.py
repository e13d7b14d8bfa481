"""Mixing lowered MLIR with hand-written register-level code (issue 26):
an upstream gpu.func calls two amdgcn.funcs through func.call, one written
in the same text (an fma + relu on registers) and one from
aster.nanokernels (the wave sum, passed as a library); aster.lower turns the
calls into amdgcn.call and aster.compile inlines them like a Python kernel's
calls. Checked against NumPy on the emulator.

    python examples/lower_mixing.py
"""
import numpy as np

import _path  # noqa: F401
import aster
from aster.nanokernels import reduce

TEXT = """module attributes {gpu.container_module} {
  amdgcn.module @hand target("gfx942") {
    amdgcn.func @fma_relu(%a: !amdgcn.vgpr<?>, %b: !amdgcn.vgpr<?>, %c: !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?> {
      %d = amdgcn.v_fma_f32 %a, %b, %c : (!amdgcn.vgpr<?>, !amdgcn.vgpr<?>, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
      %z = arith.constant 0.0 : f32
      %r = amdgcn.v_max_f32 %z, %d : (f32, !amdgcn.vgpr<?>) -> !amdgcn.vgpr<?>
      amdgcn.return %r : !amdgcn.vgpr<?>
    }
  }
  gpu.module @kernels {
    func.func private @fma_relu(f32, f32, f32) -> f32
    func.func private @wave_sum_f32(f32) -> f32
    gpu.func @mix(%x: memref<64xf32>, %y: memref<64xf32>, %s: memref<1xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xf32>
      %two = arith.constant 2.0 : f32
      %m1 = arith.constant -1.0 : f32
      %r = func.call @fma_relu(%v, %two, %m1) : (f32, f32, f32) -> f32
      memref.store %r, %y[%i] : memref<64xf32>
      %t = func.call @wave_sum_f32(%r) : (f32) -> f32
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %i, %c0 : index
      scf.if %first {
        memref.store %t, %s[%c0] : memref<1xf32>
      }
      gpu.return
    }
  }
}"""


def main():
    lib = aster.Module("gfx942", name="lib")
    reduce.wave_sum_f32.add_to(lib)                  # a nanokernel, as a library
    mods = aster.lower(TEXT, libraries=[lib])
    out = aster.compile(mods["kernels"], aster.lowering.PIPELINE)
    x = np.linspace(-2, 2, 64).astype(np.float32)
    y = np.zeros(64, np.float32)
    s = np.zeros(1, np.float32)
    aster.launch(out, "mix", grid=1, block=64, args=[x, y, s])
    want = np.maximum(np.float32(2) * x - np.float32(1), 0).astype(np.float32)
    assert np.array_equal(y, want)
    assert np.isclose(s[0], want.sum(dtype=np.float64), rtol=1e-6)
    calls = "amdgcn.call" in mods["kernels"].mlir()
    print(f"relu(2x-1) and its wave sum {s[0]:.4f} match NumPy; calls before compile: {calls}; "
          f"inlined: {'v_max_f32' in out.asm and 'dpp' in out.asm}")


if __name__ == "__main__":
    main()
