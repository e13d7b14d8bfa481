"""Atomics and vector.type_cast element accesses through memrefs of unknown
memory (issue 26: LowerMemrefAtomics.cpp, LowerVectorTypeCast.cpp,
LowerMemrefFlat.cpp, LowerMemrefCarries.cpp), in lower_suite.py's Case
form: each kernel built by aster and by LLVM (mlir-opt-22
convert-gpu-to-rocdl + llc-22), both checked against NumPy on the emulator
in strict mode. Global, LDS and scratch memories behind one flat memref,
chosen per lane (arith.select, scf.if).

- memref.atomic_rmw i32 / f32 (flat_atomic_add / smax / add_f32), i16 and
  memref.generic_atomic_rmw (loops of flat_atomic_cmpswap);
- 64-bit atomics (i64 add, an i64 generic_atomic_rmw, f64 add), the lanes
  whose address is in the private aperture split off as llc-22 does;
- vector.type_cast elements (flat_load_dwordx4 / flat_store_dwordx4).
"""
import numpy as np

from lower_suite import Case, module

CASES = []

KB = "attributes {known_block_size = array<i32: 64, 1, 1>}"
WG = "#gpu.address_space<workgroup>"

# 1. Atomics through a flat memref (LowerMemrefAtomics.cpp): per lane an LDS
#    buffer (cast to generic) or a global argument, chosen by arith.select
#    (even lanes LDS, odd lanes global; lane i at element i >> 1, so each
#    element is one lane's): i32 addi returning (flat_atomic_add sc0), maxs
#    without result (flat_atomic_smax), a contended addi on element 0
#    (flat_atomic_add), f32 addf returning and contended (flat_atomic_add_f32;
#    LLVM's build of this kernel, system scope, makes smax and the f32 adds
#    loops of flat_atomic_cmpswap: LowerMemrefAtomics.cpp says why aster
#    follows llc-22's agent-scope selection). One wave: its lanes' atomics of one instruction
#    all land before the next, so the returned values are NumPy's in
#    program order. f32 values are small integers (the sums exact in any
#    order).
def _flat_atomic_expect(a):
    xi, gi, xf, gf = a[0], a[1].copy(), a[2], a[3].copy()
    li, lf = xi.copy(), xf.copy()
    o1, o2 = np.zeros(64, np.int32), np.zeros(64, np.float32)
    for i in range(64):
        mi, mf = (li, lf) if i % 2 == 0 else (gi, gf)
        k = i >> 1
        o1[i] = mi[k]
        mi[k] += np.int32(i)
        o2[i] = mf[k]
        mf[k] += np.float32(i)
    for i in range(64):
        mi = li if i % 2 == 0 else gi
        mi[i >> 1] = max(mi[i >> 1], np.int32(7 * i - 200))
    li[0] += 32
    gi[0] += 32
    lf[0] += np.float32(32)
    gf[0] += np.float32(32)
    return {1: gi, 3: gf, 4: o1, 5: o2, 6: li, 7: lf}


CASES.append(Case("atomic_through_flat", "af", module(f"""
    gpu.func @af(%xi: memref<32xi32>, %gi: memref<32xi32>, %xf: memref<32xf32>,
                 %gf: memref<32xf32>, %o1: memref<64xi32>, %o2: memref<64xf32>,
                 %oli: memref<32xi32>, %olf: memref<32xf32>)
        workgroup(%li: memref<32xi32, {WG}>, %lf: memref<32xf32, {WG}>) kernel {KB} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %one = arith.constant 1 : i32
      %onef = arith.constant 1.0 : f32
      %c7 = arith.constant 7 : i32
      %c200 = arith.constant 200 : i32
      %lo = arith.cmpi ult, %i, %c32 : index
      scf.if %lo {{
        %a = memref.load %xi[%i] : memref<32xi32>
        memref.store %a, %li[%i] : memref<32xi32, {WG}>
        %b = memref.load %xf[%i] : memref<32xf32>
        memref.store %b, %lf[%i] : memref<32xf32, {WG}>
      }}
      gpu.barrier
      %odd = arith.andi %i, %c1 : index
      %even = arith.cmpi eq, %odd, %c0 : index
      %k = arith.shrui %i, %c1 : index
      %gli = memref.memory_space_cast %li : memref<32xi32, {WG}> to memref<32xi32>
      %glf = memref.memory_space_cast %lf : memref<32xf32, {WG}> to memref<32xf32>
      %mi = arith.select %even, %gli, %gi : memref<32xi32>
      %mf = arith.select %even, %glf, %gf : memref<32xf32>
      %iv = arith.index_cast %i : index to i32
      %fv = arith.uitofp %iv : i32 to f32
      %r1 = memref.atomic_rmw addi %iv, %mi[%k] : (i32, memref<32xi32>) -> i32
      memref.store %r1, %o1[%i] : memref<64xi32>
      %r2 = memref.atomic_rmw addf %fv, %mf[%k] : (f32, memref<32xf32>) -> f32
      memref.store %r2, %o2[%i] : memref<64xf32>
      %i7 = arith.muli %iv, %c7 : i32
      %v7 = arith.subi %i7, %c200 : i32
      %r3 = memref.atomic_rmw maxs %v7, %mi[%k] : (i32, memref<32xi32>) -> i32
      %r4 = memref.atomic_rmw addi %one, %mi[%c0] : (i32, memref<32xi32>) -> i32
      %r5 = memref.atomic_rmw addf %onef, %mf[%c0] : (f32, memref<32xf32>) -> f32
      gpu.barrier
      scf.if %lo {{
        %a = memref.load %li[%i] : memref<32xi32, {WG}>
        memref.store %a, %oli[%i] : memref<32xi32>
        %b = memref.load %lf[%i] : memref<32xf32, {WG}>
        memref.store %b, %olf[%i] : memref<32xf32>
      }}
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.integers(-100, 100, 32).astype(np.int32), r.integers(-100, 100, 32).astype(np.int32),
               r.integers(-100, 100, 32).astype(np.float32),
               r.integers(-100, 100, 32).astype(np.float32),
               np.zeros(64, np.int32), np.zeros(64, np.float32), np.zeros(32, np.int32),
               np.zeros(32, np.float32)],
    _flat_atomic_expect))


# 2. Sub-dword and generic atomics through a flat memref: i16 addi returning
#    (even lanes LDS, odd lanes global; two lanes' elements share a dword, so
#    the loop of flat_atomic_cmpswap on the dword at address & ~3 retries,
#    as llc-22's partword expansion does), and a memref.generic_atomic_rmw
#    (old * 2 + lane) on i32 (upstream's lowering takes integers only: its
#    llvm.cmpxchg rejects f32), its loop of flat_load_dword /
#    flat_atomic_cmpswap.
def _flat_atomic16_expect(a):
    xs, gs, xf, gf = a[0], a[1].copy(), a[2], a[3].copy()
    ls, lf = xs.copy(), xf.copy()
    os_, of = np.zeros(64, np.int16), np.zeros(64, np.int32)
    for i in range(64):
        ms, mf = (ls, lf) if i % 2 == 0 else (gs, gf)
        k = i >> 1
        os_[i] = ms[k]
        ms[k] = np.int16((int(ms[k]) + 3 * i + 2**15) % 2**16 - 2**15)
        of[i] = mf[k]
        mf[k] = np.int32(mf[k] * 2 + i)
    return {1: gs, 3: gf, 4: os_, 5: of, 6: ls, 7: lf}


CASES.append(Case("atomic16_generic_through_flat", "ag", module(f"""
    gpu.func @ag(%xs: memref<32xi16>, %gs: memref<32xi16>, %xf: memref<32xi32>,
                 %gf: memref<32xi32>, %os: memref<64xi16>, %of: memref<64xi32>,
                 %ols: memref<32xi16>, %olf: memref<32xi32>)
        workgroup(%ls: memref<32xi16, {WG}>, %lf: memref<32xi32, {WG}>) kernel {KB} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %c3 = arith.constant 3 : i16
      %two = arith.constant 2 : i32
      %lo = arith.cmpi ult, %i, %c32 : index
      scf.if %lo {{
        %a = memref.load %xs[%i] : memref<32xi16>
        memref.store %a, %ls[%i] : memref<32xi16, {WG}>
        %b = memref.load %xf[%i] : memref<32xi32>
        memref.store %b, %lf[%i] : memref<32xi32, {WG}>
      }}
      gpu.barrier
      %odd = arith.andi %i, %c1 : index
      %even = arith.cmpi eq, %odd, %c0 : index
      %k = arith.shrui %i, %c1 : index
      %gls = memref.memory_space_cast %ls : memref<32xi16, {WG}> to memref<32xi16>
      %glf = memref.memory_space_cast %lf : memref<32xi32, {WG}> to memref<32xi32>
      %ms = arith.select %even, %gls, %gs : memref<32xi16>
      %mf = arith.select %even, %glf, %gf : memref<32xi32>
      %iv = arith.index_cast %i : index to i16
      %v3 = arith.muli %iv, %c3 : i16
      %r1 = memref.atomic_rmw addi %v3, %ms[%k] : (i16, memref<32xi16>) -> i16
      memref.store %r1, %os[%i] : memref<64xi16>
      %iw = arith.index_cast %i : index to i32
      %r2 = memref.generic_atomic_rmw %mf[%k] : memref<32xi32> {{
      ^bb0(%old: i32):
        %d = arith.muli %old, %two : i32
        %n = arith.addi %d, %iw : i32
        memref.atomic_yield %n : i32
      }}
      memref.store %r2, %of[%i] : memref<64xi32>
      gpu.barrier
      scf.if %lo {{
        %a = memref.load %ls[%i] : memref<32xi16, {WG}>
        memref.store %a, %ols[%i] : memref<32xi16>
        %b = memref.load %lf[%i] : memref<32xi32, {WG}>
        memref.store %b, %olf[%i] : memref<32xi32>
      }}
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.integers(-2**15, 2**15, 32).astype(np.int16),
               r.integers(-2**15, 2**15, 32).astype(np.int16),
               r.integers(-100, 100, 32).astype(np.int32),
               r.integers(-100, 100, 32).astype(np.int32),
               np.zeros(64, np.int16), np.zeros(64, np.int32), np.zeros(32, np.int16),
               np.zeros(32, np.int32)],
    _flat_atomic16_expect))


# 3. vector.type_cast element accesses through a flat memref
#    (LowerVectorTypeCast.cpp): a select of two type_cast views, an LDS
#    buffer (cast to generic) for even lanes and a global argument for odd
#    ones; a vector<4xf32> element loaded (flat_load_dwordx4, as llc-22
#    selects for a flat <4 x float>) and one stored (flat_store_dwordx4);
#    the two views yielded by a divergent scf.if (LowerMemrefCarries.cpp:
#    a flat memref of the scalars) and an element loaded through it.
def _flat_cast_expect(a):
    x, y = a[0], a[1]
    i = np.arange(64)
    k = 31 - (i >> 1)
    o = np.where((i % 2 == 0)[:, None], y[k], x[k]).astype(np.float32)
    o2 = np.where((i % 2 == 0)[:, None], x[i >> 1], y[i >> 1]).astype(np.float32)
    return {0: (x[::-1] * np.float32(2)).astype(np.float32), 2: o,
            3: (y[::-1] * np.float32(2)).astype(np.float32), 4: o2}


_V4 = "memref<32xvector<4xf32>>"
CASES.append(Case("type_cast_through_flat", "tf", module(f"""
    gpu.func @tf(%x: memref<32x4xf32>, %y: memref<32x4xf32>, %o: memref<64x4xf32>,
                 %ol: memref<32x4xf32>, %o2: memref<64x4xf32>)
        workgroup(%l: memref<32x4xf32, {WG}>) kernel {KB} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c31 = arith.constant 31 : index
      %c32 = arith.constant 32 : index
      %two = arith.constant dense<2.0> : vector<4xf32>
      %lo = arith.cmpi ult, %i, %c32 : index
      scf.if %lo {{
        %a = vector.load %y[%i, %c0] : memref<32x4xf32>, vector<4xf32>
        vector.store %a, %l[%i, %c0] : memref<32x4xf32, {WG}>, vector<4xf32>
      }}
      gpu.barrier
      %odd = arith.andi %i, %c1 : index
      %even = arith.cmpi eq, %odd, %c0 : index
      %k = arith.shrui %i, %c1 : index
      %kr = arith.subi %c31, %k : index
      %gl = memref.memory_space_cast %l : memref<32x4xf32, {WG}> to memref<32x4xf32>
      %tl = vector.type_cast %gl : memref<32x4xf32> to {_V4}
      %tx = vector.type_cast %x : memref<32x4xf32> to {_V4}
      %to = vector.type_cast %o : memref<64x4xf32> to memref<64xvector<4xf32>>
      %m = arith.select %even, %tl, %tx : {_V4}
      %v = memref.load %m[%kr] : {_V4}
      memref.store %v, %to[%i] : memref<64xvector<4xf32>>
      %w = arith.mulf %v, %two : vector<4xf32>
      %mc = scf.if %even -> {_V4} {{
        scf.yield %tx : {_V4}
      }} else {{
        scf.yield %tl : {_V4}
      }}
      %vc = memref.load %mc[%k] : {_V4}
      %to2 = vector.type_cast %o2 : memref<64x4xf32> to memref<64xvector<4xf32>>
      memref.store %vc, %to2[%i] : memref<64xvector<4xf32>>
      gpu.barrier
      memref.store %w, %m[%k] : {_V4}
      gpu.barrier
      scf.if %lo {{
        %a = vector.load %l[%i, %c0] : memref<32x4xf32, {WG}>, vector<4xf32>
        vector.store %a, %ol[%i, %c0] : memref<32x4xf32>, vector<4xf32>
      }}
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal((32, 4)).astype(np.float32),
               r.standard_normal((32, 4)).astype(np.float32),
               np.zeros((64, 4), np.float32), np.zeros((32, 4), np.float32),
               np.zeros((64, 4), np.float32)],
    _flat_cast_expect))


# 4. 64-bit atomics through a flat memref of three memories: per lane an LDS
#    buffer, a global argument or the lane's own scratch alloca (i % 3),
#    each cast to generic and selected; i64 addi returning
#    (flat_atomic_add_x2 sc0) and a generic_atomic_rmw (old * 3: a loop of
#    flat_atomic_cmpswap_x2), and an f64 addf returning on an LDS or global
#    buffer (lane i at element i; the same loop: llc-22 splits off LDS for
#    ds_add_f64, no flat f64 add reaching it). No f64 scratch alloca here:
#    LLVM's build of one stores past its own private segment on the
#    emulator (offset 0x4010 of 16400 bytes), not analysed. llc-22 tests each address against the private
#    aperture first (64-bit flat atomics do not reach scratch): the private
#    lanes load, operate and store in scratch; aster does the same per lane.
def _flat_atomic64_expect(a):
    xg, xl = a[0].copy(), a[1].copy()
    o, o2, op = np.zeros(64, np.int64), np.zeros(64, np.int64), np.zeros(64, np.int64)
    priv = [np.full(32, 0, np.int64) for _ in range(64)]
    for i in range(64):
        priv[i][i // 3] = i
    mems = [lambda i: xl, lambda i: xg, lambda i: priv[i]]
    for i in range(64):
        m, k = mems[i % 3](i), i // 3
        o[i] = m[k]
        m[k] += 7 * i
    for i in range(64):
        m, k = mems[i % 3](i), i // 3
        o2[i] = m[k]
        m[k] *= 3
    for i in range(64):
        op[i] = priv[i][i // 3]
    fg, fl = a[6].copy(), a[7].copy()
    of = np.zeros(64, np.float64)
    for i in range(64):
        m = fl if i % 3 == 0 else fg
        of[i] = m[i]
        m[i] += 0.5 * i
    return {0: xg, 2: o, 3: o2, 4: xl, 5: op, 6: fg, 8: of, 9: fl}


_P64 = "memref<32xi64, #gpu.address_space<private>>"
CASES.append(Case("atomic64_through_flat", "a64", module(f"""
    gpu.func @a64(%x: memref<32xi64>, %xl: memref<32xi64>, %o: memref<64xi64>,
                  %o2: memref<64xi64>, %ol: memref<32xi64>, %op: memref<64xi64>,
                  %fg: memref<64xf64>, %fx: memref<64xf64>, %of: memref<64xf64>,
                  %ofl: memref<64xf64>)
        workgroup(%l: memref<32xi64, {WG}>, %lf: memref<64xf64, {WG}>) kernel {KB} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c32 = arith.constant 32 : index
      %three = arith.constant 3 : i64
      %c7 = arith.constant 7 : i64
      %lo = arith.cmpi ult, %i, %c32 : index
      scf.if %lo {{
        %a = memref.load %xl[%i] : memref<32xi64>
        memref.store %a, %l[%i] : memref<32xi64, {WG}>
      }}
      %b = memref.load %fx[%i] : memref<64xf64>
      memref.store %b, %lf[%i] : memref<64xf64, {WG}>
      gpu.barrier
      %k = arith.divui %i, %c3 : index
      %cls = arith.remui %i, %c3 : index
      %iv = arith.index_cast %i : index to i64
      %p = memref.alloca() : {_P64}
      memref.store %iv, %p[%k] : {_P64}
      %gl = memref.memory_space_cast %l : memref<32xi64, {WG}> to memref<32xi64>
      %gp = memref.memory_space_cast %p : {_P64} to memref<32xi64>
      %isl = arith.cmpi eq, %cls, %c0 : index
      %isp = arith.cmpi eq, %cls, %c2 : index
      %gx = arith.select %isp, %gp, %x : memref<32xi64>
      %m = arith.select %isl, %gl, %gx : memref<32xi64>
      %v = arith.muli %iv, %c7 : i64
      %r = memref.atomic_rmw addi %v, %m[%k] : (i64, memref<32xi64>) -> i64
      memref.store %r, %o[%i] : memref<64xi64>
      %r2 = memref.generic_atomic_rmw %m[%k] : memref<32xi64> {{
      ^bb0(%old: i64):
        %n = arith.muli %old, %three : i64
        memref.atomic_yield %n : i64
      }}
      memref.store %r2, %o2[%i] : memref<64xi64>
      %ivf = arith.sitofp %iv : i64 to f64
      %glf = memref.memory_space_cast %lf : memref<64xf64, {WG}> to memref<64xf64>
      %mf = arith.select %isl, %glf, %fg : memref<64xf64>
      %half = arith.constant 0.5 : f64
      %vf = arith.mulf %ivf, %half : f64
      %rf = memref.atomic_rmw addf %vf, %mf[%i] : (f64, memref<64xf64>) -> f64
      memref.store %rf, %of[%i] : memref<64xf64>
      %pv = memref.load %p[%k] : {_P64}
      memref.store %pv, %op[%i] : memref<64xi64>
      gpu.barrier
      scf.if %lo {{
        %a = memref.load %l[%i] : memref<32xi64, {WG}>
        memref.store %a, %ol[%i] : memref<32xi64>
      }}
      %b2 = memref.load %lf[%i] : memref<64xf64, {WG}>
      memref.store %b2, %ofl[%i] : memref<64xf64>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.integers(-1000, 1000, 32).astype(np.int64),
               r.integers(-1000, 1000, 32).astype(np.int64),
               np.zeros(64, np.int64), np.zeros(64, np.int64), np.zeros(32, np.int64),
               np.zeros(64, np.int64), r.integers(-1000, 1000, 64).astype(np.float64),
               r.integers(-1000, 1000, 64).astype(np.float64), np.zeros(64, np.float64),
               np.zeros(64, np.float64)],
    _flat_atomic64_expect))
