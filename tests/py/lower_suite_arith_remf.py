"""arith.remf (f16, f32, f64), uniform and divergent, in lower_suite.py's
Case form: each kernel built by aster (cc/lower/LowerRemf.cpp) and by LLVM
(convert-gpu-to-rocdl calls ROCm's __ocml_fmod_*, not installed here: the
oracle defines it as LLVM's own `frem`, which llc-22 expands into its exact
fmod loop; aster.lowering.llvm.OCML_AS_IR).

Two oracles we did not write, both must hold:
- NumPy's np.fmod (C's fmod: exact, the sign of x; NaN for y = 0 or
  x = +-inf or a NaN operand, x itself for |x| < |y| and y = +-inf), on
  negative operands, huge ratios (up to 2^277 for f32 and 2^2098 for f64:
  the loop's longest runs), denormals, +-0, +-inf and NaN;
- LLVM's build, bit for bit (same_bits): NaN results are the same bits
  too (0x7fc00000 / 0x7e00 / 0x7ff8000000000000, or x's own NaN).
"""
import numpy as np

from lower_suite import Case, module

CASES = []

N = 256
_EDGE = {  # (x, y) pairs every type runs: signs, zeros, infinities, NaNs
    "f32": [(5.5, 2.0), (-5.5, 2.0), (5.5, -2.0), (-5.5, -2.0), (3e38, 1e-45), (-3e38, 7e-45),
            (1e-45, 3e38), (0.0, 1.0), (-0.0, 1.0), (1.0, 0.0), (1.0, -0.0), (np.inf, 2.0),
            (-np.inf, 2.0), (2.0, np.inf), (-2.0, -np.inf), (np.nan, 2.0), (2.0, np.nan),
            (2.0, 2.0), (-2.0, 2.0), (1.2e-38, 3e-39), (16777217.0, 3.0), (0.1, 0.01)],
}
_EDGE["f64"] = _EDGE["f32"] + [(1.7976931348623157e308, 5e-324), (-1e300, 3.0),
                               (5e-324, 1e-310), (1e-310, 3e-322), (2.0 ** 60, 0.1)]
_EDGE["f16"] = [(a, b) for a, b in _EDGE["f32"] if not (0 < abs(a) < 6e-8 or 0 < abs(b) < 6e-8)
                or np.isnan(a) or np.isnan(b)] + [(65504.0, 6e-8), (-60000.0, 1e-4),
                                                  (6e-8, 3e-5)]
_NP = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


def _inputs(ty):
    dt = _NP[ty]

    def make(r):
        mag = 10.0 ** r.uniform(-6 if ty == "f16" else -30, 4 if ty == "f16" else 30, (2, N))
        x, y = (r.choice([-1.0, 1.0], (2, N)) * mag).astype(dt)
        with np.errstate(over="ignore"):   # f16: 3e38 and 2^24 + 1 are +inf
            for k, (a, b) in enumerate(_EDGE[ty]):
                x[k], y[k] = a, b
        return [x, y, np.zeros(N, dt)]
    return make


def _fmod(a):
    with np.errstate(invalid="ignore", divide="ignore"):
        return {2: np.fmod(a[0], a[1])}


for _ty in ("f32", "f16", "f64"):
    CASES.append(Case(f"remf_{_ty}", "remf", module(f"""
    gpu.func @remf(%x: memref<{N}x{_ty}>, %y: memref<{N}x{_ty}>, %o: memref<{N}x{_ty}>) kernel
        attributes {{known_block_size = array<i32: 128, 1, 1>}} {{
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c128 = arith.constant 128 : index
      %o0 = arith.muli %b, %c128 : index
      %i = arith.addi %o0, %t : index
      %xv = memref.load %x[%i] : memref<{N}x{_ty}>
      %yv = memref.load %y[%i] : memref<{N}x{_ty}>
      %r = arith.remf %xv, %yv : {_ty}
      memref.store %r, %o[%i] : memref<{N}x{_ty}>
      gpu.return
    }}"""), (2, 1, 1), (128, 1, 1), _inputs(_ty), _fmod, same_bits=True))


# Uniform operands (kernel arguments: the same in every lane), written by
# each lane, and a remainder inside a divergent branch (half the lanes).
_U = [(np.float32(-7.25), np.float32(0.5e-3)), (np.float64(1e200), np.float64(-3.3))]


def _uniform_inputs(r):
    x = (r.standard_normal(64) * 1e5).astype(np.float32)
    return [_U[0][0], _U[0][1], _U[1][0], _U[1][1], x, np.zeros(64, np.float32),
            np.zeros(64, np.float64), np.zeros(64, np.float32)]


def _uniform_expect(a):
    lane = np.arange(64)
    inner = np.where(lane % 2 == 1, np.fmod(a[4], np.float32(3.5)), a[4])
    return {5: np.full(64, np.fmod(a[0], a[1]), np.float32),
            6: np.full(64, np.fmod(a[2], a[3]), np.float64), 7: inner.astype(np.float32)}


CASES.append(Case("remf_uniform_and_branch", "remu", module("""
    gpu.func @remu(%a: f32, %b: f32, %c: f64, %d: f64, %x: memref<64xf32>, %o: memref<64xf32>,
                   %od: memref<64xf64>, %ob: memref<64xf32>) kernel {
      %t = gpu.thread_id x
      %r = arith.remf %a, %b : f32
      %rd = arith.remf %c, %d : f64
      memref.store %r, %o[%t] : memref<64xf32>
      memref.store %rd, %od[%t] : memref<64xf64>
      %xv = memref.load %x[%t] : memref<64xf32>
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %m = arith.remui %t, %c2 : index
      %odd = arith.cmpi eq, %m, %c1 : index
      %v = scf.if %odd -> (f32) {
        %k = arith.constant 3.5 : f32
        %q = arith.remf %xv, %k : f32
        scf.yield %q : f32
      } else {
        scf.yield %xv : f32
      }
      memref.store %v, %ob[%t] : memref<64xf32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1), _uniform_inputs, _uniform_expect, same_bits=True))


# A remainder in a uniform loop (SCC branches around the EXEC loop), in a
# divergent one (each lane runs t trips) and of vectors (per element).
def _loops_inputs(r):
    x = (r.standard_normal(64) * 1e6).astype(np.float32)
    y = r.uniform(0.5, 3.0, 64).astype(np.float32)
    v = (r.standard_normal(128) * 1e30).astype(np.float32)
    return [x, y, np.zeros(64, np.float32), v, 5]


def _loops_expect(a):
    x, y, v, n = a[0], a[1], a[3], a[4]
    s = x.copy()
    for _ in range(n):
        s = (np.fmod(s, y) * np.float32(3)).astype(np.float32)
    out = s.copy()
    for t in range(64):
        for _ in range(t):
            out[t] = np.fmod(out[t], y[t]) + np.float32(7.5)
    return {2: out, 3: np.fmod(v, np.repeat(y, 2))}


CASES.append(Case("remf_in_loops_vector", "reml", module("""
    gpu.func @reml(%x: memref<64xf32>, %y: memref<64xf32>, %o: memref<64xf32>,
                   %v: memref<128xf32>, %n: index) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %xv = memref.load %x[%t] : memref<64xf32>
      %yv = memref.load %y[%t] : memref<64xf32>
      %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %xv) -> (f32) {
        %r = arith.remf %acc, %yv : f32
        %k = arith.constant 3.0 : f32
        %a = arith.mulf %r, %k : f32
        scf.yield %a : f32
      }
      %s2 = scf.for %j = %c0 to %t step %c1 iter_args(%acc = %s) -> (f32) {
        %r = arith.remf %acc, %yv : f32
        %k = arith.constant 7.5 : f32
        %a = arith.addf %r, %k : f32
        scf.yield %a : f32
      }
      memref.store %s2, %o[%t] : memref<64xf32>
      %c2 = arith.constant 2 : index
      %i2 = arith.muli %t, %c2 : index
      %vv = vector.load %v[%i2] : memref<128xf32>, vector<2xf32>
      %w = vector.broadcast %yv : f32 to vector<2xf32>
      %vr = arith.remf %vv, %w : vector<2xf32>
      vector.store %vr, %v[%i2] : memref<128xf32>, vector<2xf32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1), _loops_inputs, _loops_expect, same_bits=True))
