"""Mixing, the other direction (issue 26 item 5): upstream MLIR functions
(non-kernel gpu.funcs: a Horner polynomial with an scf.for over a memref of
coefficients, and a clamp) are lowered by aster.lower into amdgcn.funcs; a
Python-built kernel includes them (m.include) and calls them with k.call;
aster.compile inlines the calls. Checked against NumPy (the polynomial in
the same order of fmas) on the emulator.

    python examples/lower_function_call.py
"""
import numpy as np

import _path  # noqa: F401
import aster
from aster import VGPR, v

TEXT = """module attributes {gpu.container_module} {
  gpu.module @device {
    gpu.func @horner(%c: memref<8xf32>, %x: f32) -> f32 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %zero = arith.constant 0.0 : f32
      %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
        %j = arith.subi %c7, %k : index
        %cj = memref.load %c[%j] : memref<8xf32>
        %n = math.fma %acc, %x, %cj : f32
        scf.yield %n : f32
      }
      gpu.return %r : f32
    }
    gpu.func @clamp(%x: f32, %lim: f32) -> f32 {
      %nl = arith.negf %lim : f32
      %a = arith.minnumf %x, %lim : f32
      %b = arith.maxnumf %a, %nl : f32
      gpu.return %b : f32
    }
  }
}"""


def build():
    lowered = aster.lower(TEXT)["device"]           # amdgcn.func @horner, @clamp
    m = aster.Module("gfx942", name="poly")
    m.include(lowered)
    f32 = aster.ptr(np.float32)
    k = m.kernel("poly", args=[("x", f32), ("c", f32), ("y", f32), ("lim", np.float32)],
                 block=64)
    px, pc, py = k.load_arg("x"), k.load_arg("c"), k.load_arg("y")
    lim = k.load_arg("lim")
    off = k.v_lshlrev_b32(VGPR(), 2, v[0])
    x = k.global_load_dword(VGPR(), off, px)
    (p,) = k.call("horner", pc, x)                  # the coefficients' pointer: an SGPR pair
    (r,) = k.call("clamp", p, k.v_mov_b32(VGPR(), lim))
    k.global_store_dword(off, r, py)
    k.s_endpgm()
    return m


def main():
    out = aster.compile(build(), aster.lowering.PIPELINE)
    rng = np.random.default_rng(0)
    x = rng.uniform(-1.5, 1.5, 64).astype(np.float32)
    c = rng.standard_normal(8).astype(np.float32)
    y = np.zeros(64, np.float32)
    aster.launch(out, "poly", grid=1, block=64, args=[x, c, y, np.float32(2.0)])
    acc = np.zeros(64, np.float32)
    for j in range(7, -1, -1):                      # the same fmas, rounded once each
        acc = (acc.astype(np.float64) * x + c[j]).astype(np.float32)
    want = np.clip(acc, np.float32(-2), np.float32(2))
    assert np.array_equal(y, want), (y, want)
    inlined = "amdgcn.call" not in out.mlir.split("amdgcn.kernel")[1]
    print(f"horner + clamp from upstream MLIR, called by a Python kernel: match NumPy; "
          f"inlined: {inlined}")


if __name__ == "__main__":
    main()
