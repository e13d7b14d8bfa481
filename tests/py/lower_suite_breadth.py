"""Kernels of amdgcn-lower's suite that issue 26 names for breadth (the
cases of lower_suite.py's form): wave reductions of every kind in
workgroups of 1, 4 and 16 waves, and shuffles with partial widths. Each is
built by aster (aster.lower) and by LLVM (aster.lowering.llvm) and both must
equal NumPy (tests/py/test_lower_breadth.py; bench/bench_lower.py).

Upstream has no ROCDL lowering of gpu.subgroup_reduce (only a test pass that
assumes 32 lanes), so LLVM builds the same reduction written as the 64-lane
xor butterfly of gpu.shuffle with the kind's arith op (llvm_mlir). The f32
inputs are small integers (sums exact in any order) and the f32 products
multiply +-1, +-2 and 0.5 (exact), so both builds must equal NumPy exactly.
"""
import numpy as np

from lower_suite import Case, module

CASES = []

# (subgroup_reduce kind, the arith op of LLVM's butterfly, element type, NumPy fold)
KINDS = [
    ("add", "arith.addi", "i32", lambda x: np.add.reduce(x, dtype=np.int32)),
    ("mul", "arith.muli", "i32", lambda x: np.multiply.reduce(x, dtype=np.int32)),
    ("minsi", "arith.minsi", "i32", np.min),
    ("maxsi", "arith.maxsi", "i32", np.max),
    ("minui", "arith.minui", "i32", lambda x: x.view(np.uint32).min().view(np.int32)),
    ("maxui", "arith.maxui", "i32", lambda x: x.view(np.uint32).max().view(np.int32)),
    ("and", "arith.andi", "i32", np.bitwise_and.reduce),
    ("or", "arith.ori", "i32", np.bitwise_or.reduce),
    ("xor", "arith.xori", "i32", np.bitwise_xor.reduce),
    ("add", "arith.addf", "f32", lambda x: np.add.reduce(x, dtype=np.float32)),
    ("mul", "arith.mulf", "f32", lambda x: np.multiply.reduce(x, dtype=np.float32)),
    ("minnumf", "arith.minnumf", "f32", np.min),
    ("maxnumf", "arith.maxnumf", "f32", np.max),
]


def _butterfly(src, op, ty, tag):
    lines = [f"      %{tag}w64 = arith.constant 64 : i32"]
    cur = src
    for k, d in enumerate((1, 2, 4, 8, 16, 32)):
        lines.append(f"      %{tag}c{k} = arith.constant {d} : i32")
        lines.append(f"      %{tag}o{k}, %{tag}v{k} = gpu.shuffle xor {cur}, %{tag}c{k}, "
                     f"%{tag}w64 : {ty}")
        lines.append(f"      %{tag}s{k} = {op} {cur}, %{tag}o{k} : {ty}")
        cur = f"%{tag}s{k}"
    return "\n".join(lines), cur


def _reduce_kinds_case(waves):
    """Every kind of gpu.subgroup_reduce on i32 and f32 in one kernel; lane 0
    of each wave stores the wave's results (a row of len(KINDS))."""
    n, nk = 64 * waves, len(KINDS)

    def body(llvm):
        out = []
        for j, (kind, op, ty, _) in enumerate(KINDS):
            src = "%xi" if ty == "i32" else ("%xg" if kind == "mul" else "%xf")
            if llvm:
                text, res = _butterfly(src, op, ty, f"k{j}")
                out.append(text)
            else:
                out.append(f"      %r{j} = gpu.subgroup_reduce {kind} {src} : ({ty}) -> {ty}")
                res = f"%r{j}"
            mem = "%yi" if ty == "i32" else "%yf"
            out.append(f"      %j{j} = arith.constant {j} : index\n"
                       f"      %o{j} = arith.addi %row, %j{j} : index\n"
                       f"      scf.if %first {{\n"
                       f"        memref.store {res}, {mem}[%o{j}] : memref<{waves * nk}x{ty}>\n"
                       f"      }}")
        return "\n".join(out)

    def kernel(llvm):
        return module(f"""
    gpu.func @kinds(%x: memref<{n}xi32>, %f: memref<{n}xf32>, %g: memref<{n}xf32>,
                    %yi: memref<{waves * nk}xi32>, %yf: memref<{waves * nk}xf32>) kernel
        attributes {{known_block_size = array<i32: {n}, 1, 1>}} {{
      %i = gpu.thread_id x
      %xi = memref.load %x[%i] : memref<{n}xi32>
      %xf = memref.load %f[%i] : memref<{n}xf32>
      %xg = memref.load %g[%i] : memref<{n}xf32>
      %c64 = arith.constant 64 : index
      %cnk = arith.constant {nk} : index
      %w = arith.divui %i, %c64 : index
      %l = arith.remui %i, %c64 : index
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %l, %c0 : index
      %row = arith.muli %w, %cnk : index
{body(llvm)}
      gpu.return
    }}""")

    def inputs(r):
        xi = r.integers(-9, 10, n, dtype=np.int32) | (r.integers(0, 2, n, dtype=np.int32) << 20)
        f = r.integers(-20, 21, n).astype(np.float32)
        g = r.choice(np.array([1, -1, 1, -1, 2, -2, 0.5], np.float32), n)
        return [xi, f, g, np.zeros(waves * nk, np.int32), np.zeros(waves * nk, np.float32)]

    def expect(a):
        xi, f, g = (a[k].reshape(waves, 64) for k in range(3))
        yi, yf = np.zeros((waves, nk), np.int32), np.zeros((waves, nk), np.float32)
        for w in range(waves):
            for j, (kind, _, ty, fold) in enumerate(KINDS):
                if ty == "i32":
                    yi[w, j] = fold(xi[w])
                else:
                    yf[w, j] = fold(g[w] if kind == "mul" else f[w])
        return {3: yi.reshape(-1), 4: yf.reshape(-1)}

    return Case(f"reduce_kinds_{waves}w", "kinds", kernel(False), (1, 1, 1), (n, 1, 1),
                inputs, expect, llvm_mlir=kernel(True))


for w in (1, 4, 16):
    CASES.append(_reduce_kinds_case(w))


def _down(x, off, width):
    """gpu.shuffle down as MLIR's ROCDL lowering defines it: lane l reads
    l + off when that lane is in l's segment of `width` lanes, else its own
    value."""
    lanes = np.arange(x.size)
    end = (lanes + width) & -width
    src = np.where(lanes + off < end, lanes + off, lanes)
    return x[src]


# Shuffles with partial widths: xor within 8-lane segments, down within 16
# (the last lanes of each segment keep their value), on i32 and f32.
CASES.append(Case("shuffle_partial_widths", "pw", module("""
    gpu.func @pw(%x: memref<128xi32>, %f: memref<128xf32>, %y: memref<128xi32>,
                 %z: memref<128xf32>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<128xi32>
      %u = memref.load %f[%i] : memref<128xf32>
      %c3 = arith.constant 3 : i32
      %c5 = arith.constant 5 : i32
      %w8 = arith.constant 8 : i32
      %w16 = arith.constant 16 : i32
      %a, %ka = gpu.shuffle xor %v, %c3, %w8 : i32
      %b, %kb = gpu.shuffle down %a, %c5, %w16 : i32
      memref.store %b, %y[%i] : memref<128xi32>
      %d, %kd = gpu.shuffle down %u, %c3, %w16 : f32
      memref.store %d, %z[%i] : memref<128xf32>
      gpu.return
    }"""), (1, 1, 1), (128, 1, 1),
    lambda r: [r.integers(-1000, 1000, 128, dtype=np.int32),
               r.standard_normal(128, dtype=np.float32),
               np.zeros(128, np.int32), np.zeros(128, np.float32)],
    lambda a: {2: np.concatenate([_down(a[0][h * 64:(h + 1) * 64][np.arange(64) ^ 3], 5, 16)
                                  for h in (0, 1)]),
               3: np.concatenate([_down(a[1][h * 64:(h + 1) * 64], 3, 16) for h in (0, 1)])}))
