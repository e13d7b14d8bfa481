"""amdgcn-lower's private memory beyond the kernel's top level (issue 26
item 2, memref): dynamic-size allocas inside scf.for / scf.if / scf.while
bodies and memref.alloca_scope, and atomics on private memory (memref.atomic_rmw /
generic_atomic_rmw on an alloca), in lower_suite.py's Case form: each built
by aster and by LLVM, both checked against NumPy.

LLVM's build: an alloca inside a loop is a dynamic alloca of the stack
(its stack grows each iteration; MLIR's memref-to-llvm wraps an
alloca_scope in llvm.stacksave / llvm.stackrestore); aster restores its
stack pointer whenever a region is left (LowerMemory.cpp), so the values
computed are the same. An atomicrmw on private memory (addrspace 5) is a
plain load, op, store in LLVM's AMDGPU backend (per-lane memory); aster
does the same (LowerMemrefAtomics.cpp).
"""
import numpy as np

from lower_suite import Case, module

CASES = []

P = "#gpu.address_space<private>"


# 1. A dynamic alloca in each iteration of a uniform loop: row k of a
#    triangle, k + 1 values x[i + j] * (k + 1) for j <= k, summed; after the
#    loop a top-level dynamic alloca, written and read back (it lies where
#    the loop's allocas were: the stack pointer restored).
def _loop_expect(a):
    x, n = a[0], a[3]
    out = np.zeros(64, np.int32)
    for i in range(64):
        s = 0
        for k in range(n):
            s += sum(int(x[i + j]) * (k + 1) for j in range(k + 1))
        out[i] = s + n * 3
    return {1: out}


CASES.append(Case("alloca_dynamic_in_loop", "loop", module(f"""
    gpu.func @loop(%x: memref<128xi32>, %y: memref<64xi32>, %unused: memref<1xi32>, %n: index)
        kernel attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %z = arith.constant 0 : i32
      %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (i32) {{
        %k1 = arith.addi %k, %c1 : index
        %row = memref.alloca(%k1) : memref<?xi32, {P}>
        %kk = arith.index_cast %k1 : index to i32
        scf.for %j = %c0 to %k1 step %c1 {{
          %ij = arith.addi %i, %j : index
          %v = memref.load %x[%ij] : memref<128xi32>
          %p = arith.muli %v, %kk : i32
          memref.store %p, %row[%j] : memref<?xi32, {P}>
        }}
        %r = scf.for %j = %c0 to %k1 step %c1 iter_args(%q = %acc) -> (i32) {{
          %w = memref.load %row[%j] : memref<?xi32, {P}>
          %q2 = arith.addi %q, %w : i32
          scf.yield %q2 : i32
        }}
        scf.yield %r : i32
      }}
      %after = memref.alloca(%n) : memref<?xi32, {P}>
      %c3 = arith.constant 3 : i32
      scf.for %j = %c0 to %n step %c1 {{
        memref.store %c3, %after[%j] : memref<?xi32, {P}>
      }}
      %t = scf.for %j = %c0 to %n step %c1 iter_args(%q = %s) -> (i32) {{
        %w = memref.load %after[%j] : memref<?xi32, {P}>
        %q2 = arith.addi %q, %w : i32
        scf.yield %q2 : i32
      }}
      memref.store %t, %y[%i] : memref<64xi32>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.integers(-100, 100, 128).astype(np.int32), np.zeros(64, np.int32),
               np.zeros(1, np.int32), 5],
    _loop_expect))


# 2. Dynamic allocas in both sides of a divergent scf.if, of divergent sizes
#    (i % 5 + 1 floats; 2 for the odd lanes), with an alloca before the if
#    that both sides read after theirs: the sides' stack pointers are VGPRs
#    and start where the outer one ended.
def _branch_expect(a):
    x = a[0]
    out = np.zeros(64, np.float32)
    for i in range(64):
        base = np.float32(x[i]) * np.float32(2)
        if i % 2 == 0:
            m = i % 5 + 1
            out[i] = np.float32(sum(np.float32(x[i + j]) for j in range(m))) + base
        else:
            out[i] = np.float32(x[i]) - np.float32(x[i + 1]) + base
    return {1: out}


CASES.append(Case("alloca_dynamic_in_branch", "br", module(f"""
    gpu.func @br(%x: memref<128xf32>, %y: memref<64xf32>, %two: index) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c5 = arith.constant 5 : index
      %outer = memref.alloca(%two) : memref<?xf32, {P}>
      %xi = memref.load %x[%i] : memref<128xf32>
      %twof = arith.constant 2.0 : f32
      %b = arith.mulf %xi, %twof : f32
      memref.store %b, %outer[%c1] : memref<?xf32, {P}>
      %odd = arith.remui %i, %c2 : index
      %even = arith.cmpi eq, %odd, %c0 : index
      %r = scf.if %even -> (f32) {{
        %m0 = arith.remui %i, %c5 : index
        %m = arith.addi %m0, %c1 : index
        %buf = memref.alloca(%m) : memref<?xf32, {P}>
        scf.for %j = %c0 to %m step %c1 {{
          %ij = arith.addi %i, %j : index
          %v = memref.load %x[%ij] : memref<128xf32>
          memref.store %v, %buf[%j] : memref<?xf32, {P}>
        }}
        %zf = arith.constant 0.0 : f32
        %s = scf.for %j = %c0 to %m step %c1 iter_args(%q = %zf) -> (f32) {{
          %w = memref.load %buf[%j] : memref<?xf32, {P}>
          %q2 = arith.addf %q, %w : f32
          scf.yield %q2 : f32
        }}
        %o = memref.load %outer[%c1] : memref<?xf32, {P}>
        %t = arith.addf %s, %o : f32
        scf.yield %t : f32
      }} else {{
        %buf = memref.alloca(%two) : memref<?x2xf32, {P}>
        %i1 = arith.addi %i, %c1 : index
        %v0 = memref.load %x[%i] : memref<128xf32>
        %v1 = memref.load %x[%i1] : memref<128xf32>
        memref.store %v0, %buf[%c1, %c0] : memref<?x2xf32, {P}>
        memref.store %v1, %buf[%c1, %c1] : memref<?x2xf32, {P}>
        %w0 = memref.load %buf[%c1, %c0] : memref<?x2xf32, {P}>
        %w1 = memref.load %buf[%c1, %c1] : memref<?x2xf32, {P}>
        %d = arith.subf %w0, %w1 : f32
        %o = memref.load %outer[%c1] : memref<?xf32, {P}>
        %t = arith.addf %d, %o : f32
        scf.yield %t : f32
      }}
      memref.store %r, %y[%i] : memref<64xf32>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.integers(-50, 50, 128).astype(np.float32), np.zeros(64, np.float32), 2],
    _branch_expect))


# 3. memref.alloca_scope in a loop: each scope allocates n i16 values (a
#    dynamic size), fills them with x[i] + k + j, returns their sum (i32);
#    the scope's stack is released at its end (LLVM: stackrestore).
def _scope_expect(a):
    x, n = a[0], a[2]
    out = np.zeros(64, np.int32)
    for i in range(64):
        out[i] = sum(int(np.int16(x[i] + k + j)) for k in range(3) for j in range(n))
    return {1: out}


CASES.append(Case("alloca_scope_loop", "scope", module(f"""
    gpu.func @scope(%x: memref<64xi16>, %y: memref<64xi32>, %n: index) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %z = arith.constant 0 : i32
      %xi = memref.load %x[%i] : memref<64xi16>
      %s = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %z) -> (i32) {{
        %part = memref.alloca_scope -> (i32) {{
          %buf = memref.alloca(%n) : memref<?xi16, {P}>
          scf.for %j = %c0 to %n step %c1 {{
            %kj = arith.addi %k, %j : index
            %kj16 = arith.index_cast %kj : index to i16
            %v = arith.addi %xi, %kj16 : i16
            memref.store %v, %buf[%j] : memref<?xi16, {P}>
          }}
          %t = scf.for %j = %c0 to %n step %c1 iter_args(%q = %z) -> (i32) {{
            %w = memref.load %buf[%j] : memref<?xi16, {P}>
            %w32 = arith.extsi %w : i16 to i32
            %q2 = arith.addi %q, %w32 : i32
            scf.yield %q2 : i32
          }}
          memref.alloca_scope.return %t : i32
        }}
        %a2 = arith.addi %acc, %part : i32
        scf.yield %a2 : i32
      }}
      memref.store %s, %y[%i] : memref<64xi32>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.integers(-1000, 1000, 64).astype(np.int16), np.zeros(64, np.int32), 6],
    _scope_expect))
# mlir-opt's convert-scf-to-cf runs before memref-to-llvm (inside
# convert-gpu-to-rocdl) and leaves the scope's region with several blocks,
# which its verifier refuses. LLVM gets what memref-to-llvm's
# AllocaScopeOpLowering makes of the scope, written out: llvm.intr.stacksave
# (of the alloca address space 5), the body, llvm.intr.stackrestore.
CASES[-1].llvm_mlir = (CASES[-1].mlir
                       .replace("%part = memref.alloca_scope -> (i32) {",
                                "%sp = llvm.intr.stacksave : !llvm.ptr<5>")
                       .replace("memref.alloca_scope.return %t : i32\n        }",
                                "llvm.intr.stackrestore %sp : !llvm.ptr<5>")
                       .replace("%a2 = arith.addi %acc, %part", "%a2 = arith.addi %acc, %t"))


# 4. Atomics on private memory: a per-lane histogram in an alloca (addi at a
#    data-dependent index), maxs / addf / assign returning their pre-op
#    values, an f16 addf, an i64 addi, and a generic_atomic_rmw (x * 3 - 1).
def _atomics_expect(a):
    x = a[0]
    hist = np.zeros((64, 8), np.int32)
    for i in range(64):
        for k in range(4):
            hist[i, (int(x[i]) + k) % 8] += k + 1
    xi = x[:64].astype(np.int32)
    olds = np.stack([np.full(64, 5, np.int32),       # maxs: memory held 5
                     np.zeros(64, np.int32),          # assign: memory held max(5, x)
                     ], axis=1)
    olds[:, 1] = np.maximum(5, xi)
    f = (np.float32(0.5) + xi.astype(np.float32))
    h = (np.float16(1.5) + xi.astype(np.float16))
    g = (xi * 3 - 1).astype(np.int32)
    w = (np.int64(1) << 40) + xi.astype(np.int64)
    return {1: hist.reshape(-1), 2: olds.reshape(-1), 3: f, 4: h, 5: g, 6: w}


CASES.append(Case("atomic_private", "pa", module(f"""
    gpu.func @pa(%x: memref<64xi32>, %hist: memref<512xi32>, %olds: memref<128xi32>,
                 %f: memref<64xf32>, %h: memref<64xf16>, %g: memref<64xi32>, %w: memref<64xi64>)
        kernel attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %z = arith.constant 0 : i32
      %xi = memref.load %x[%i] : memref<64xi32>
      %bins = memref.alloca() : memref<8xi32, {P}>
      scf.for %b = %c0 to %c8 step %c1 {{
        memref.store %z, %bins[%b] : memref<8xi32, {P}>
      }}
      %xidx = arith.index_cast %xi : i32 to index
      scf.for %k = %c0 to %c4 step %c1 {{
        %t = arith.addi %xidx, %k : index
        %bin = arith.remui %t, %c8 : index
        %k1 = arith.addi %k, %c1 : index
        %inc = arith.index_cast %k1 : index to i32
        %old = memref.atomic_rmw addi %inc, %bins[%bin] : (i32, memref<8xi32, {P}>) -> i32
      }}
      %base = arith.muli %i, %c8 : index
      scf.for %b = %c0 to %c8 step %c1 {{
        %v = memref.load %bins[%b] : memref<8xi32, {P}>
        %o = arith.addi %base, %b : index
        memref.store %v, %hist[%o] : memref<512xi32>
      }}
      %cell = memref.alloca() : memref<2xi32, {P}>
      %c5 = arith.constant 5 : i32
      memref.store %c5, %cell[%c1] : memref<2xi32, {P}>
      %o1 = memref.atomic_rmw maxs %xi, %cell[%c1] : (i32, memref<2xi32, {P}>) -> i32
      %o2 = memref.atomic_rmw assign %z, %cell[%c1] : (i32, memref<2xi32, {P}>) -> i32
      %c2 = arith.constant 2 : index
      %p0 = arith.muli %i, %c2 : index
      %p1 = arith.addi %p0, %c1 : index
      memref.store %o1, %olds[%p0] : memref<128xi32>
      memref.store %o2, %olds[%p1] : memref<128xi32>
      %fc = memref.alloca() : memref<1xf32, {P}>
      %half = arith.constant 0.5 : f32
      memref.store %half, %fc[%c0] : memref<1xf32, {P}>
      %xf = arith.sitofp %xi : i32 to f32
      %of = memref.atomic_rmw addf %xf, %fc[%c0] : (f32, memref<1xf32, {P}>) -> f32
      %fv = memref.load %fc[%c0] : memref<1xf32, {P}>
      memref.store %fv, %f[%i] : memref<64xf32>
      %hc = memref.alloca() : memref<2xf16, {P}>
      %h15 = arith.constant 1.5 : f16
      memref.store %h15, %hc[%c1] : memref<2xf16, {P}>
      %xh = arith.sitofp %xi : i32 to f16
      %oh = memref.atomic_rmw addf %xh, %hc[%c1] : (f16, memref<2xf16, {P}>) -> f16
      %hv = memref.load %hc[%c1] : memref<2xf16, {P}>
      memref.store %hv, %h[%i] : memref<64xf16>
      %gc = memref.alloca() : memref<1xi32, {P}>
      memref.store %xi, %gc[%c0] : memref<1xi32, {P}>
      %og = memref.generic_atomic_rmw %gc[%c0] : memref<1xi32, {P}> {{
      ^bb0(%cur: i32):
        %c3 = arith.constant 3 : i32
        %m = arith.muli %cur, %c3 : i32
        %cm1 = arith.constant -1 : i32
        %n = arith.addi %m, %cm1 : i32
        memref.atomic_yield %n : i32
      }}
      %gv = memref.load %gc[%c0] : memref<1xi32, {P}>
      memref.store %gv, %g[%i] : memref<64xi32>
      %wc = memref.alloca() : memref<1xi64, {P}>
      %big = arith.constant 1099511627776 : i64
      memref.store %big, %wc[%c0] : memref<1xi64, {P}>
      %x64 = arith.extsi %xi : i32 to i64
      %ow = memref.atomic_rmw addi %x64, %wc[%c0] : (i64, memref<1xi64, {P}>) -> i64
      %wv = memref.load %wc[%c0] : memref<1xi64, {P}>
      memref.store %wv, %w[%i] : memref<64xi64>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.integers(-20, 20, 64).astype(np.int32), np.zeros(512, np.int32),
               np.zeros(128, np.int32), np.zeros(64, np.float32), np.zeros(64, np.float16),
               np.zeros(64, np.int32), np.zeros(64, np.int64)],
    _atomics_expect))


# 5. A dynamic alloca in the after region of a divergent scf.while (lane i
#    runs i % 4 + 1 iterations; iteration t allocates t + 1 i32s, fills them
#    with t, and adds their sum).
def _while_expect(a):
    out = np.zeros(64, np.int32)
    for i in range(64):
        out[i] = int(a[1][i]) + sum((t + 1) * t for t in range(i % 4 + 1))
    return {1: out}


CASES.append(Case("alloca_dynamic_in_while", "wh", module(f"""
    gpu.func @wh(%unused: memref<1xi32>, %y: memref<64xi32>) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %m0 = arith.remui %i, %c4 : index
      %m = arith.addi %m0, %c1 : index
      %y0 = memref.load %y[%i] : memref<64xi32>
      %r:2 = scf.while (%t = %c0, %acc = %y0) : (index, i32) -> (index, i32) {{
        %go = arith.cmpi ult, %t, %m : index
        scf.condition(%go) %t, %acc : index, i32
      }} do {{
      ^bb0(%t: index, %acc: i32):
        %t1 = arith.addi %t, %c1 : index
        %buf = memref.alloca(%t1) : memref<?xi32, {P}>
        %tt = arith.index_cast %t : index to i32
        scf.for %j = %c0 to %t1 step %c1 {{
          memref.store %tt, %buf[%j] : memref<?xi32, {P}>
        }}
        %s = scf.for %j = %c0 to %t1 step %c1 iter_args(%q = %acc) -> (i32) {{
          %w = memref.load %buf[%j] : memref<?xi32, {P}>
          %q2 = arith.addi %q, %w : i32
          scf.yield %q2 : i32
        }}
        scf.yield %t1, %s : index, i32
      }}
      memref.store %r#1, %y[%i] : memref<64xi32>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [np.zeros(1, np.int32), r.integers(-100, 100, 64).astype(np.int32)],
    _while_expect))
