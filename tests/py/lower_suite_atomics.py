"""amdgcn-lower's atomics of other widths (issue 26): memref.atomic_rmw and
memref.generic_atomic_rmw on i64 / f64 (the _x2 / _u64 / _f64 atomics where
gfx942 has them, a compare-and-swap loop on the pair otherwise) and on f16 /
bf16 / i16 (a compare-and-swap loop on the containing dword), in global and
workgroup memory, with contention (many lanes on one address, two halves of
one dword), in lower_suite.py's Case form: each built by aster and by LLVM
(MemRefToLLVM's llvm.atomicrmw / cmpxchg loop, expanded by LLVM's
AtomicExpand), both checked against NumPy.

The values are chosen so that the final memory does not depend on the order
the lanes' updates land in: integers (wrapping arithmetic is commutative and
associative), integer-valued floats whose sums stay exact in the type
(f64: any; f16: below 2048; bf16: below 256), min / max.
"""
import ml_dtypes
import numpy as np

from lower_suite import Case, module

CASES = []

_WS = "#gpu.address_space<workgroup>"


# 1. 64-bit atomics on global memory, every lane of 4 waves on one address
#    per kind: i64 addi / maxs / minu / xori / andi / ori (global_atomic_*_x2),
#    f64 addf (global_atomic_add_f64), f64 maxnumf (a CAS loop on the pair),
#    and the returning form on each lane's own address (the pre-op value).
def _wide_inputs(r):
    x = r.integers(-2**62, 2**62, 256, dtype=np.int64)
    y = r.integers(-1000, 1000, 256).astype(np.float64) * 0.5
    acc = np.array([2**40, -2**62, -1, 0x0f0f0f0f0f0f0f0f, -1, 0, 7, 0], np.int64)
    f = np.array([0.25, -1e300, 0, 0], np.float64)
    own = r.integers(-2**62, 2**62, 256, dtype=np.int64)
    return [acc, f, x, y, own, np.zeros(256, np.int64)]


def _wide_expect(a):
    acc, f, x, y, own, _ = [np.array(v) for v in a]
    acc[0] = acc[0] + x.sum(dtype=np.int64)
    acc[1] = max(acc[1], x.max())
    acc[2] = min(acc[2].view(np.uint64), x.view(np.uint64).min()).view(np.int64)
    acc[3] ^= np.bitwise_xor.reduce(x)
    acc[4] &= np.bitwise_and.reduce(x)
    acc[5] |= np.bitwise_or.reduce(x)
    f[0] += y.sum()
    f[1] = max(f[1], y.max())
    return {0: acc, 1: f, 4: own + x, 5: own}


CASES.append(Case("atomic_i64_f64_global", "a64", module("""
    gpu.func @a64(%acc: memref<8xi64>, %f: memref<4xf64>, %x: memref<256xi64>,
                  %y: memref<256xf64>, %own: memref<256xi64>, %old: memref<256xi64>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %v = memref.load %x[%i] : memref<256xi64>
      %w = memref.load %y[%i] : memref<256xf64>
      %a0 = memref.atomic_rmw addi %v, %acc[%c0] : (i64, memref<8xi64>) -> i64
      %a1 = memref.atomic_rmw maxs %v, %acc[%c1] : (i64, memref<8xi64>) -> i64
      %a2 = memref.atomic_rmw minu %v, %acc[%c2] : (i64, memref<8xi64>) -> i64
      %a3 = memref.atomic_rmw xori %v, %acc[%c3] : (i64, memref<8xi64>) -> i64
      %a4 = memref.atomic_rmw andi %v, %acc[%c4] : (i64, memref<8xi64>) -> i64
      %a5 = memref.atomic_rmw ori %v, %acc[%c5] : (i64, memref<8xi64>) -> i64
      %f0 = memref.atomic_rmw addf %w, %f[%c0] : (f64, memref<4xf64>) -> f64
      %f1 = memref.atomic_rmw maxnumf %w, %f[%c1] : (f64, memref<4xf64>) -> f64
      %o = memref.atomic_rmw addi %v, %own[%i] : (i64, memref<256xi64>) -> i64
      memref.store %o, %old[%i] : memref<256xi64>
      gpu.return
    }"""), (1, 1, 1), (256, 1, 1), _wide_inputs, _wide_expect))


# 2. The same widths in workgroup memory (ds_add_u64, ds_max_i64,
#    ds_add_f64, ds_cmpst_rtn_b64 for the loops of f64 minnumf and of a generic_atomic_rmw
#    multiplying i64s), copied out by lane 0 after a barrier.
def _lds_wide_inputs(r):
    x = r.integers(-2**62, 2**62, 256, dtype=np.int64)
    y = r.integers(-1000, 1000, 256).astype(np.float64)
    return [x, y, np.zeros(4, np.int64), np.zeros(2, np.float64)]


def _lds_wide_expect(a):
    x, y = a[0], a[1]
    with np.errstate(over="ignore"):
        prod = np.multiply.reduce(x | 1, dtype=np.int64)
    return {2: np.array([x.sum(dtype=np.int64), x.max(), prod, 0], np.int64),
            3: np.array([y.sum(), y.min()], np.float64)}


CASES.append(Case("atomic_i64_f64_lds", "l64", module(f"""
    gpu.func @l64(%x: memref<256xi64>, %y: memref<256xf64>, %out: memref<4xi64>,
                  %fout: memref<2xf64>)
        workgroup(%l: memref<4xi64, {_WS}>, %lf: memref<2xf64, {_WS}>) kernel
        attributes {{known_block_size = array<i32: 256, 1, 1>}} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %z = arith.constant 0 : i64
      %lo = arith.constant -9223372036854775808 : i64
      %one = arith.constant 1 : i64
      %zf = arith.constant 0.0 : f64
      %big = arith.constant 1.0e300 : f64
      %first = arith.cmpi eq, %i, %c0 : index
      scf.if %first {{
        memref.store %z, %l[%c0] : memref<4xi64, {_WS}>
        memref.store %lo, %l[%c1] : memref<4xi64, {_WS}>
        memref.store %one, %l[%c2] : memref<4xi64, {_WS}>
        memref.store %zf, %lf[%c0] : memref<2xf64, {_WS}>
        memref.store %big, %lf[%c1] : memref<2xf64, {_WS}>
      }}
      gpu.barrier
      %v = memref.load %x[%i] : memref<256xi64>
      %w = memref.load %y[%i] : memref<256xf64>
      %a0 = memref.atomic_rmw addi %v, %l[%c0] : (i64, memref<4xi64, {_WS}>) -> i64
      %a1 = memref.atomic_rmw maxs %v, %l[%c1] : (i64, memref<4xi64, {_WS}>) -> i64
      %odd = arith.ori %v, %one : i64
      %p = memref.generic_atomic_rmw %l[%c2] : memref<4xi64, {_WS}> {{
      ^bb0(%cur: i64):
        %m = arith.muli %cur, %odd : i64
        memref.atomic_yield %m : i64
      }}
      %f0 = memref.atomic_rmw addf %w, %lf[%c0] : (f64, memref<2xf64, {_WS}>) -> f64
      %f1 = memref.atomic_rmw minnumf %w, %lf[%c1] : (f64, memref<2xf64, {_WS}>) -> f64
      gpu.barrier
      scf.if %first {{
        %r0 = memref.load %l[%c0] : memref<4xi64, {_WS}>
        %r1 = memref.load %l[%c1] : memref<4xi64, {_WS}>
        %r2 = memref.load %l[%c2] : memref<4xi64, {_WS}>
        memref.store %r0, %out[%c0] : memref<4xi64>
        memref.store %r1, %out[%c1] : memref<4xi64>
        memref.store %r2, %out[%c2] : memref<4xi64>
        %s0 = memref.load %lf[%c0] : memref<2xf64, {_WS}>
        %s1 = memref.load %lf[%c1] : memref<2xf64, {_WS}>
        memref.store %s0, %fout[%c0] : memref<2xf64>
        memref.store %s1, %fout[%c1] : memref<2xf64>
      }}
      gpu.return
    }}"""), (1, 1, 1), (256, 1, 1), _lds_wide_inputs, _lds_wide_expect))


# 3. 16-bit atomics: f16 addf on 4 neighbouring halves (two dwords, both
#    halves of each contended: 64 lanes per half), bf16 addf on 8 halves,
#    f16 maxnumf, i16 addi (wrapping), and an f16 addf in workgroup memory
#    copied out: every one a CAS loop on the dword holding the element.
def _half_inputs(r):
    x = r.integers(0, 4, 256).astype(np.float16)
    bx = r.integers(0, 2, 256).astype(ml_dtypes.bfloat16)
    xi = r.integers(-2**15, 2**15, 256).astype(np.int16)
    h = np.array([1, 2, 3, 4, -100, -100, -100, -100], np.float16)
    bh = np.arange(8).astype(ml_dtypes.bfloat16)
    hi = np.array([1, 2, 3, 4], np.int16)
    return [h, bh, hi, x, bx, xi, np.zeros(4, np.float16)]


def _half_expect(a):
    h, bh, hi, x, bx, xi, _ = [np.array(v) for v in a]
    lane = np.arange(256)
    for k in range(4):
        h[k] = np.float16(h[k].astype(np.float64) + x[lane % 4 == k].astype(np.float64).sum())
        h[4 + k] = max(h[4 + k], x[lane % 4 == k].max())
        hi[k] = np.int16((int(hi[k]) + int(xi[lane % 4 == k].astype(np.int64).sum()) + 2**15)
                         % 2**16 - 2**15)
    for k in range(8):
        bh[k] = (bh[k].astype(np.float64) + bx[lane % 8 == k].astype(np.float64).sum()).astype(
            ml_dtypes.bfloat16)
    lds = np.array([x[lane % 4 == k].astype(np.float64).sum() for k in range(4)], np.float16)
    return {0: h, 1: bh, 2: hi, 6: lds}


CASES.append(Case("atomic_f16_bf16_i16", "a16", module(f"""
    gpu.func @a16(%h: memref<8xf16>, %bh: memref<8xbf16>, %hi: memref<4xi16>,
                  %x: memref<256xf16>, %bx: memref<256xbf16>, %xi: memref<256xi16>,
                  %out: memref<4xf16>)
        workgroup(%l: memref<4xf16, {_WS}>) kernel
        attributes {{known_block_size = array<i32: 256, 1, 1>}} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c7 = arith.constant 7 : index
      %zh = arith.constant 0.0 : f16
      %lt4 = arith.cmpi ult, %i, %c4 : index
      scf.if %lt4 {{
        memref.store %zh, %l[%i] : memref<4xf16, {_WS}>
      }}
      gpu.barrier
      %k = arith.andi %i, %c3 : index
      %k4 = arith.addi %k, %c4 : index
      %k8 = arith.andi %i, %c7 : index
      %v = memref.load %x[%i] : memref<256xf16>
      %bv = memref.load %bx[%i] : memref<256xbf16>
      %iv = memref.load %xi[%i] : memref<256xi16>
      %a0 = memref.atomic_rmw addf %v, %h[%k] : (f16, memref<8xf16>) -> f16
      %a1 = memref.atomic_rmw maxnumf %v, %h[%k4] : (f16, memref<8xf16>) -> f16
      %a2 = memref.atomic_rmw addf %bv, %bh[%k8] : (bf16, memref<8xbf16>) -> bf16
      %a3 = memref.atomic_rmw addi %iv, %hi[%k] : (i16, memref<4xi16>) -> i16
      %a4 = memref.atomic_rmw addf %v, %l[%k] : (f16, memref<4xf16, {_WS}>) -> f16
      gpu.barrier
      scf.if %lt4 {{
        %r = memref.load %l[%i] : memref<4xf16, {_WS}>
        memref.store %r, %out[%i] : memref<4xf16>
      }}
      gpu.return
    }}"""), (1, 1, 1), (256, 1, 1), _half_inputs, _half_expect))
