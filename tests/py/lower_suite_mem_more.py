"""amdgcn-lower's memref / vector constructs of issue 26 item 2 that
lower_suite_mem_gaps.py left open, in lower_suite.py's Case form: each
kernel built by aster and by LLVM (mlir-opt-22 convert-vector-to-llvm +
convert-gpu-to-rocdl + llc-22), both checked against NumPy on the emulator
in strict mode (an access outside an argument's array faults there).

- Out-of-bounds and masked vector.transfer_read / transfer_write of f16,
  bf16, i8, i16, f64 and i64 elements with padding values, at divergent
  and uniform indices (LLVM: llvm.masked.load / store, scalarized per
  element by its ScalarizeMaskedMemIntrin pass).
- vector.load / store of odd sizes: vector<3xi8>, vector<3xf16>,
  vector<5xi8>, vector<1xi8>, in global memory and LDS (llc-22 -mcpu=gfx942
  splits <3 x i8> into global_load_ushort + global_load_ubyte, <3 x half>
  into dword + ushort, <5 x i8> into dword + ubyte).
- memref.load / store of vector elements through vector.type_cast
  (memref<256x4xf32> seen as memref<256xvector<4xf32>>), global and LDS.
"""
import ml_dtypes
import numpy as np

from lower_suite import Case, module

CASES = []

KB = "attributes {known_block_size = array<i32: 64, 1, 1>}"
WG = "#gpu.address_space<workgroup>"


def _f16(r, n):
    return r.uniform(-4, 4, n).astype(np.float16)


def _edge(x, n, width, start, pad, dtype):
    """What a transfer of `width` elements at `start` of the first n of x reads."""
    out = np.full(width, pad, dtype)
    k = np.arange(width) + start
    ok = k < n
    out[ok] = x[k[ok]]
    return out


# 1. Out-of-bounds and masked transfers of narrow and wide elements.
#    Dynamic sizes: h has 250 f16, b 253 i8, d 125 f64, w 250 i16, l 125
#    i64, so the last lanes' transfers leave them. Lane i reads 4 f16 at
#    4i (pad -1.5), 4 i8 at 4i (pad 7), 2 f64 at 2i (pad -2.0), 4 bf16 at
#    4i under create_mask(i % 5) (pad 0.5), and at the uniform index s
#    (a kernel argument: 248) 4 f16; it writes its f16s as i16 out of
#    bounds into w and its f64 pair as i64 under create_mask(i % 3) (and
#    out of bounds) into l.
_NH, _NB, _ND, _S = 250, 253, 125, 248


def _masked_inputs(r):
    return [_f16(r, _NH), np.zeros(256, np.float16),
            r.integers(-128, 128, _NB).astype(np.int8), np.zeros(256, np.int8),
            r.standard_normal(_ND), np.zeros(128),
            _f16(r, 256).astype(ml_dtypes.bfloat16), np.zeros(256, ml_dtypes.bfloat16),
            np.zeros(_NH, np.int16), np.zeros(_ND, np.int64), _S, np.zeros(256, np.float16)]


def _masked_expect(a):
    h, b, d, q = a[0], a[2], a[4], a[6]
    oh = np.concatenate([_edge(h, _NH, 4, 4 * i, -1.5, np.float16) for i in range(64)])
    ob = np.concatenate([_edge(b, _NB, 4, 4 * i, 7, np.int8) for i in range(64)])
    od = np.concatenate([_edge(d, _ND, 2, 2 * i, -2.0, np.float64) for i in range(64)])
    oq = np.concatenate([np.where(np.arange(4) < i % 5, q[4 * i:4 * i + 4],
                                  ml_dtypes.bfloat16(0.5)).astype(ml_dtypes.bfloat16)
                         for i in range(64)])
    w = h.view(np.int16).copy()
    lo = np.zeros(_ND, np.int64)
    for i in range(64):
        for e in range(2):
            if e < i % 3 and 2 * i + e < _ND:
                lo[2 * i + e] = d.view(np.int64)[2 * i + e]
    ou = np.tile(_edge(h, _NH, 4, _S, -1.5, np.float16), 64)
    return {1: oh, 3: ob, 5: od, 7: oq, 8: w, 9: lo, 11: ou}


CASES.append(Case("transfer_masked_narrow_wide", "mt", module(f"""
    gpu.func @mt(%h: memref<?xf16>, %oh: memref<256xf16>, %b: memref<?xi8>, %ob: memref<256xi8>,
                 %d: memref<?xf64>, %od: memref<128xf64>, %q: memref<256xbf16>,
                 %oq: memref<256xbf16>, %w: memref<?xi16>, %l: memref<?xi64>, %s: index,
                 %ou: memref<256xf16>) kernel {KB} {{
      %i = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %b4 = arith.muli %i, %c4 : index
      %b2 = arith.muli %i, %c2 : index
      %padh = arith.constant -1.5 : f16
      %vh = vector.transfer_read %h[%b4], %padh : memref<?xf16>, vector<4xf16>
      vector.store %vh, %oh[%b4] : memref<256xf16>, vector<4xf16>
      %padb = arith.constant 7 : i8
      %vb = vector.transfer_read %b[%b4], %padb : memref<?xi8>, vector<4xi8>
      vector.store %vb, %ob[%b4] : memref<256xi8>, vector<4xi8>
      %padd = arith.constant -2.0 : f64
      %vd = vector.transfer_read %d[%b2], %padd : memref<?xf64>, vector<2xf64>
      vector.store %vd, %od[%b2] : memref<128xf64>, vector<2xf64>
      %k = arith.remui %i, %c5 : index
      %mk = vector.create_mask %k : vector<4xi1>
      %padq = arith.constant 0.5 : bf16
      %vq = vector.transfer_read %q[%b4], %padq, %mk {{in_bounds = [true]}} : memref<256xbf16>, vector<4xbf16>
      vector.store %vq, %oq[%b4] : memref<256xbf16>, vector<4xbf16>
      %vi = arith.bitcast %vh : vector<4xf16> to vector<4xi16>
      vector.transfer_write %vi, %w[%b4] : vector<4xi16>, memref<?xi16>
      %k3 = arith.remui %i, %c3 : index
      %mk3 = vector.create_mask %k3 : vector<2xi1>
      %vl = arith.bitcast %vd : vector<2xf64> to vector<2xi64>
      vector.transfer_write %vl, %l[%b2], %mk3 : vector<2xi64>, memref<?xi64>
      %vu = vector.transfer_read %h[%s], %padh : memref<?xf16>, vector<4xf16>
      vector.store %vu, %ou[%b4] : memref<256xf16>, vector<4xf16>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1), _masked_inputs, _masked_expect))


# 2. Odd sizes: lane i moves vector<3xi8> at 3i (doubled: the held form of
#    three bytes in one word), vector<3xf16> at 3i (doubled), vector<5xi8>
#    at 5i and vector<3xi8> at 512 + 3i through LDS (lane i reads what lane
#    63 - i wrote) and vector<1xi8> at i.
def _odd_inputs(r):
    return [r.integers(-128, 128, 512).astype(np.int8), np.zeros(512, np.int8),
            _f16(r, 512), np.zeros(512, np.float16), np.zeros(512, np.int8),
            np.zeros(512, np.int8), np.zeros(64, np.int8)]


def _odd_expect(a):
    b, h = a[0], a[2]
    ob = np.zeros(512, np.int8)
    ob[:192] = (b[:192].astype(np.int16) * 2).astype(np.int8)
    oh = np.zeros(512, np.float16)
    oh[:192] = h[:192] * np.float16(2)
    o5 = np.zeros(512, np.int8)
    o5[:320] = b[:320].reshape(64, 5)[::-1].reshape(-1)
    o3 = np.zeros(512, np.int8)
    o3[:192] = b[:192].reshape(64, 3)[::-1].reshape(-1)
    return {1: ob, 3: oh, 4: o5, 5: o3, 6: b[:64] + np.int8(0)}


CASES.append(Case("vector_odd_sizes", "odd", module(f"""
    gpu.func @odd(%b: memref<512xi8>, %ob: memref<512xi8>, %h: memref<512xf16>,
                  %oh: memref<512xf16>, %o5: memref<512xi8>, %o3: memref<512xi8>,
                  %o1: memref<64xi8>)
        workgroup(%lds: memref<1024xi8, {WG}>) kernel {KB} {{
      %i = gpu.thread_id x
      %c3 = arith.constant 3 : index
      %c5 = arith.constant 5 : index
      %c63 = arith.constant 63 : index
      %c512 = arith.constant 512 : index
      %b3 = arith.muli %i, %c3 : index
      %v3 = vector.load %b[%b3] : memref<512xi8>, vector<3xi8>
      %v3d = arith.addi %v3, %v3 : vector<3xi8>
      vector.store %v3d, %ob[%b3] : memref<512xi8>, vector<3xi8>
      %h3 = vector.load %h[%b3] : memref<512xf16>, vector<3xf16>
      %h3d = arith.addf %h3, %h3 : vector<3xf16>
      vector.store %h3d, %oh[%b3] : memref<512xf16>, vector<3xf16>
      %b5 = arith.muli %i, %c5 : index
      %v5 = vector.load %b[%b5] : memref<512xi8>, vector<5xi8>
      vector.store %v5, %lds[%b5] : memref<1024xi8, {WG}>, vector<5xi8>
      %l3 = arith.addi %b3, %c512 : index
      vector.store %v3, %lds[%l3] : memref<1024xi8, {WG}>, vector<3xi8>
      gpu.barrier
      %j = arith.subi %c63, %i : index
      %j5 = arith.muli %j, %c5 : index
      %w5 = vector.load %lds[%j5] : memref<1024xi8, {WG}>, vector<5xi8>
      vector.store %w5, %o5[%b5] : memref<512xi8>, vector<5xi8>
      %j3 = arith.muli %j, %c3 : index
      %jl3 = arith.addi %j3, %c512 : index
      %w3 = vector.load %lds[%jl3] : memref<1024xi8, {WG}>, vector<3xi8>
      vector.store %w3, %o3[%b3] : memref<512xi8>, vector<3xi8>
      %v1 = vector.load %b[%i] : memref<512xi8>, vector<1xi8>
      vector.store %v1, %o1[%i] : memref<64xi8>, vector<1xi8>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1), _odd_inputs, _odd_expect))


# 3. vector.type_cast: memref<256x4xf32> seen as memref<256xvector<4xf32>>;
#    lane i loads vector i, stores its square as vector 64 + i of the
#    output, and passes it through an LDS memref<64xvector<4xf32>> (lane i
#    stores vector 63 - i of the output).
def _tc_expect(a):
    x = a[0].reshape(256, 4)
    o = np.zeros((256, 4), np.float32)
    o[64:128] = x[:64] * x[:64]
    o[:64] = x[63::-1]
    return {1: o.reshape(-1)}


CASES.append(Case("type_cast_vector_elements", "tc", module(f"""
    gpu.func @tc(%x: memref<1024xf32>, %o: memref<1024xf32>)
        workgroup(%l: memref<64x4xf32, {WG}>) kernel {KB} {{
      %i = gpu.thread_id x
      %c63 = arith.constant 63 : index
      %c64 = arith.constant 64 : index
      %e = memref.expand_shape %x [[0, 1]] output_shape [256, 4] : memref<1024xf32> into memref<256x4xf32>
      %t = vector.type_cast %e : memref<256x4xf32> to memref<256xvector<4xf32>>
      %v = memref.load %t[%i] : memref<256xvector<4xf32>>
      %v2 = arith.mulf %v, %v : vector<4xf32>
      %eo = memref.expand_shape %o [[0, 1]] output_shape [256, 4] : memref<1024xf32> into memref<256x4xf32>
      %to = vector.type_cast %eo : memref<256x4xf32> to memref<256xvector<4xf32>>
      %j = arith.addi %i, %c64 : index
      memref.store %v2, %to[%j] : memref<256xvector<4xf32>>
      %tl = vector.type_cast %l : memref<64x4xf32, {WG}> to memref<64xvector<4xf32>, {WG}>
      memref.store %v, %tl[%i] : memref<64xvector<4xf32>, {WG}>
      gpu.barrier
      %r = arith.subi %c63, %i : index
      %w = memref.load %tl[%r] : memref<64xvector<4xf32>, {WG}>
      memref.store %w, %to[%i] : memref<256xvector<4xf32>>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal(1024).astype(np.float32), np.zeros(1024, np.float32)],
    _tc_expect))


# 4. Constant tensors: arith.constant dense<...> : tensor<8xf32> and
#    tensor<2x4xi32> read by tensor.extract at divergent indices. Upstream's
#    one-shot bufferization makes each a memref.global of the top-level
#    module; aster (LowerConstantTensor.cpp) and LLVM's oracle
#    (aster.lowering.llvm) move it into the gpu.module, as
#    gpu-kernel-outlining clones a kernel's symbols into its gpu.module.
_T8 = np.array([1.5, -2.0, 3.25, 4.0, -0.5, 1e-3, 7.0, -8.0], np.float32)
_T24 = np.array([[3, -1, 4, 1], [-5, 9, 2, -6]], np.int32)


def _ct_expect(a):
    x = a[0]
    i = np.arange(64)
    return {1: (x * _T8[i & 7]).astype(np.float32), 2: _T24[(i >> 2) & 1, i & 3] * 2}


CASES.append(Case("constant_tensors", "ct", module(f"""
    gpu.func @ct(%x: memref<64xf32>, %o: memref<64xf32>, %q: memref<64xi32>) kernel {KB} {{
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c7 = arith.constant 7 : index
      %t = arith.constant dense<[1.5, -2.0, 3.25, 4.0, -0.5, 1.0e-3, 7.0, -8.0]> : tensor<8xf32>
      %u = arith.constant dense<[[3, -1, 4, 1], [-5, 9, 2, -6]]> : tensor<2x4xi32>
      %k = arith.andi %i, %c7 : index
      %tv = tensor.extract %t[%k] : tensor<8xf32>
      %xv = memref.load %x[%i] : memref<64xf32>
      %r = arith.mulf %xv, %tv : f32
      memref.store %r, %o[%i] : memref<64xf32>
      %row0 = arith.shrui %i, %c2 : index
      %row = arith.andi %row0, %c1 : index
      %col = arith.andi %i, %c3 : index
      %uv = tensor.extract %u[%row, %col] : tensor<2x4xi32>
      %u2 = arith.addi %uv, %uv : i32
      memref.store %u2, %q[%i] : memref<64xi32>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal(64).astype(np.float32), np.zeros(64, np.float32),
               np.zeros(64, np.int32)],
    _ct_expect))


# 5. Flat memrefs (memory unknown where used): an LDS buffer cast to the
#    generic space and a global argument chosen per lane by arith.select
#    (even lanes LDS), loaded through; the same select chosen uniformly (a
#    kernel argument); a store through a per-lane select (even lanes into
#    LDS, odd ones into global memory); a private alloca (in scratch: its
#    index is the kernel argument z = 0) cast to generic and selected with a
#    global subview, f64 elements. LLVM's build: flat_load / flat_store of
#    the selected pointer (addrspacecast 3 -> 0 from src_shared_base).
def _flat_expect(a):
    x, d = a[0], a[5]
    i = np.arange(64)
    j = 63 - i
    even = i % 2 == 0
    o1 = np.where(even, x[j] * 3, x[j]).astype(np.float32)
    o3 = np.where(even, 0, x + 1).astype(np.float32)
    o4 = np.where(even, x + 1, x * 3).astype(np.float32)
    k = (i >> 1) & 1
    od = np.where(even, 2, 1) * d[2 * i + k]
    return {1: o1, 2: x[j].copy(), 3: o3, 4: o4, 6: od}


_G = "memref<2xf64, strided<[1], offset: ?>>"
CASES.append(Case("flat_memrefs", "flat", module(f"""
    gpu.func @flat(%x: memref<64xf32>, %o1: memref<64xf32>, %o2: memref<64xf32>,
                   %o3: memref<64xf32>, %o4: memref<64xf32>, %d: memref<128xf64>,
                   %od: memref<64xf64>, %flag: i32, %z: index)
        workgroup(%l: memref<64xf32, {WG}>) kernel {KB} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c63 = arith.constant 63 : index
      %z32 = arith.constant 0 : i32
      %three = arith.constant 3.0 : f32
      %one = arith.constant 1.0 : f32
      %xv = memref.load %x[%i] : memref<64xf32>
      %x3 = arith.mulf %xv, %three : f32
      memref.store %x3, %l[%i] : memref<64xf32, {WG}>
      gpu.barrier
      %g = memref.memory_space_cast %l : memref<64xf32, {WG}> to memref<64xf32>
      %odd = arith.andi %i, %c1 : index
      %even = arith.cmpi eq, %odd, %c0 : index
      %m = arith.select %even, %g, %x : memref<64xf32>
      %j = arith.subi %c63, %i : index
      %v = memref.load %m[%j] : memref<64xf32>
      memref.store %v, %o1[%i] : memref<64xf32>
      %u = arith.cmpi ne, %flag, %z32 : i32
      %mu = arith.select %u, %x, %g : memref<64xf32>
      %vu = memref.load %mu[%j] : memref<64xf32>
      memref.store %vu, %o2[%i] : memref<64xf32>
      gpu.barrier
      %ms = arith.select %even, %g, %o3 : memref<64xf32>
      %x1 = arith.addf %xv, %one : f32
      memref.store %x1, %ms[%i] : memref<64xf32>
      gpu.barrier
      %lv = memref.load %l[%i] : memref<64xf32, {WG}>
      memref.store %lv, %o4[%i] : memref<64xf32>
      %p = memref.alloca() : memref<2xf64, #gpu.address_space<private>>
      %b2 = arith.muli %i, %c2 : index
      %b21 = arith.addi %b2, %c1 : index
      %d0 = memref.load %d[%b2] : memref<128xf64>
      %d1 = memref.load %d[%b21] : memref<128xf64>
      %dd0 = arith.addf %d0, %d0 : f64
      %dd1 = arith.addf %d1, %d1 : f64
      %z1 = arith.addi %z, %c1 : index
      memref.store %dd0, %p[%z] : memref<2xf64, #gpu.address_space<private>>
      memref.store %dd1, %p[%z1] : memref<2xf64, #gpu.address_space<private>>
      %pg = memref.memory_space_cast %p : memref<2xf64, #gpu.address_space<private>> to memref<2xf64>
      %pc = memref.cast %pg : memref<2xf64> to {_G}
      %ds = memref.subview %d[%b2] [2] [1] : memref<128xf64> to {_G}
      %mp = arith.select %even, %pc, %ds : {_G}
      %k0 = arith.shrui %i, %c1 : index
      %k = arith.andi %k0, %c1 : index
      %pv = memref.load %mp[%k] : {_G}
      memref.store %pv, %od[%i] : memref<64xf64>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal(64).astype(np.float32), np.zeros(64, np.float32),
               np.zeros(64, np.float32), np.zeros(64, np.float32), np.zeros(64, np.float32),
               r.standard_normal(128), np.zeros(64), 1, 0],
    _flat_expect))


# 6. Code quality (bench/bench_lower.py's instruction counts and cycles):
#    a constant global read by two memref.get_global (one in an scf.if)
#    takes its address once (one s_getpc_b64, as LLVM's build), and a
#    memref.copy of a contiguous 64-element subview moves 16-byte pieces
#    (global_load_dwordx4 / global_store_dwordx4: LLVM's inline expansion of
#    the llvm.memcpy it makes of the copy).
_TAB = np.array([0.5, -1.0, 2.0, 3.5, -4.0, 8.0, 0.25, -0.75], np.float32)


def _cq_expect(a):
    i = np.arange(64)
    q = _TAB[i & 7] + np.where(i < 32, _TAB[(i + 1) & 7], 0)
    return {1: a[0].copy(), 2: q.astype(np.float32)}


CASES.append(Case("getglobal_once_copy_dwordx4", "cq", module(f"""
    memref.global "private" constant @tab : memref<8xf32> = dense<[0.5, -1.0, 2.0, 3.5, -4.0, 8.0, 0.25, -0.75]>
    gpu.func @cq(%x: memref<4096xf32>, %o: memref<4096xf32>, %q: memref<64xf32>) kernel {KB} {{
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c7 = arith.constant 7 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %b = arith.muli %i, %c64 : index
      %s = memref.subview %x[%b] [64] [1] : memref<4096xf32> to memref<64xf32, strided<[1], offset: ?>>
      %d = memref.subview %o[%b] [64] [1] : memref<4096xf32> to memref<64xf32, strided<[1], offset: ?>>
      memref.copy %s, %d : memref<64xf32, strided<[1], offset: ?>> to memref<64xf32, strided<[1], offset: ?>>
      %k = arith.andi %i, %c7 : index
      %g1 = memref.get_global @tab : memref<8xf32>
      %t1 = memref.load %g1[%k] : memref<8xf32>
      %lo = arith.cmpi ult, %i, %c32 : index
      %r = scf.if %lo -> f32 {{
        %i1 = arith.addi %i, %c1 : index
        %k1 = arith.andi %i1, %c7 : index
        %g2 = memref.get_global @tab : memref<8xf32>
        %t2 = memref.load %g2[%k1] : memref<8xf32>
        %s2 = arith.addf %t1, %t2 : f32
        scf.yield %s2 : f32
      }} else {{
        scf.yield %t1 : f32
      }}
      memref.store %r, %q[%i] : memref<64xf32>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal(4096).astype(np.float32), np.zeros(4096, np.float32),
               np.zeros(64, np.float32)],
    _cq_expect))


# 7. A workgroup memref.global used in device functions (func.func bodies
#    called by the kernel): @put stores x[i] * 2 at lane i of @buf, @get
#    reads lane 63 - i back; the kernel also writes its own workgroup
#    attribution and reads @buf directly. The global's LDS offset is fixed
#    for every kernel that reaches it (LowerModuleLds.cpp; LLVM's
#    AMDGPULowerModuleLDS places it in a module struct likewise). LLVM's
#    source marks the functions alwaysinline (lower_suite_functions.py says
#    why: llc-22 keeps calls otherwise).
def _mlds_body(llvm):
    attrs = ' attributes {passthrough = ["alwaysinline"]}' if llvm else ""
    return f"""
    memref.global "private" @buf : memref<64xf32, {WG}>
    func.func @put(%v: f32, %i: index){attrs} {{
      %g = memref.get_global @buf : memref<64xf32, {WG}>
      %two = arith.constant 2.0 : f32
      %v2 = arith.mulf %v, %two : f32
      memref.store %v2, %g[%i] : memref<64xf32, {WG}>
      return
    }}
    func.func @get(%i: index) -> f32{attrs} {{
      %g = memref.get_global @buf : memref<64xf32, {WG}>
      %c63 = arith.constant 63 : index
      %j = arith.subi %c63, %i : index
      %v = memref.load %g[%j] : memref<64xf32, {WG}>
      return %v : f32
    }}
    gpu.func @mlds(%x: memref<64xf32>, %o: memref<64xf32>, %o2: memref<64xf32>)
        workgroup(%own: memref<64xf32, {WG}>) kernel {KB} {{
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %xv = memref.load %x[%i] : memref<64xf32>
      memref.store %xv, %own[%i] : memref<64xf32, {WG}>
      func.call @put(%xv, %i) : (f32, index) -> ()
      gpu.barrier
      %r = func.call @get(%i) : (index) -> f32
      %w = memref.load %own[%i] : memref<64xf32, {WG}>
      %s = arith.addf %r, %w : f32
      memref.store %s, %o[%i] : memref<64xf32>
      %g = memref.get_global @buf : memref<64xf32, {WG}>
      %i1 = arith.xori %i, %c1 : index
      %d = memref.load %g[%i1] : memref<64xf32, {WG}>
      memref.store %d, %o2[%i] : memref<64xf32>
      gpu.return
    }}"""


def _mlds_expect(a):
    x = a[0]
    i = np.arange(64)
    return {1: (x[63 - i] * 2 + x).astype(np.float32), 2: (x[i ^ 1] * 2).astype(np.float32)}


CASES.append(Case("workgroup_global_in_functions", "mlds", module(_mlds_body(False)),
                  (1, 1, 1), (64, 1, 1),
                  lambda r: [r.standard_normal(64).astype(np.float32), np.zeros(64, np.float32),
                             np.zeros(64, np.float32)],
                  _mlds_expect, llvm_mlir=module(_mlds_body(True))))


# 8. Masked transfers in LDS: lane i writes its 4 f16 at 4i of an LDS buffer
#    under create_mask(i % 5) (the rest keeps -2.0, written first by every
#    lane), and 4 i8 at 4i under create_mask(i % 3); after a barrier lane i
#    reads lane 63 - i's 4 f16 under create_mask((i + 1) % 5) (pad 9.0) and
#    its i8 whole.
def _lds_masked_expect(a):
    h, b = a[0], a[2]
    i = np.arange(64)
    lh = np.full((64, 4), -2.0, np.float16)
    lb = np.zeros((64, 4), np.int8)
    for k in range(64):
        lh[k, :k % 5] = h[4 * k:4 * k + 4][:k % 5]
        lb[k, :k % 3] = b[4 * k:4 * k + 4][:k % 3]
    oh = np.full((64, 4), 9.0, np.float16)
    for k in range(64):
        n = (k + 1) % 5
        oh[k, :n] = lh[63 - k, :n]
    return {1: oh.reshape(-1), 3: lb[63 - i].reshape(-1)}


CASES.append(Case("transfer_masked_lds", "tml", module(f"""
    gpu.func @tml(%h: memref<256xf16>, %oh: memref<256xf16>, %b: memref<256xi8>,
                  %ob: memref<256xi8>)
        workgroup(%lh: memref<256xf16, {WG}>, %lb: memref<256xi8, {WG}>) kernel {KB} {{
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c63 = arith.constant 63 : index
      %b4 = arith.muli %i, %c4 : index
      %m2 = arith.constant dense<-2.0> : vector<4xf16>
      vector.store %m2, %lh[%b4] : memref<256xf16, {WG}>, vector<4xf16>
      %z8 = arith.constant dense<0> : vector<4xi8>
      vector.store %z8, %lb[%b4] : memref<256xi8, {WG}>, vector<4xi8>
      %vh = vector.load %h[%b4] : memref<256xf16>, vector<4xf16>
      %k5 = arith.remui %i, %c5 : index
      %mk5 = vector.create_mask %k5 : vector<4xi1>
      vector.transfer_write %vh, %lh[%b4], %mk5 {{in_bounds = [true]}} : vector<4xf16>, memref<256xf16, {WG}>
      %vb = vector.load %b[%b4] : memref<256xi8>, vector<4xi8>
      %k3 = arith.remui %i, %c3 : index
      %mk3 = vector.create_mask %k3 : vector<4xi1>
      vector.transfer_write %vb, %lb[%b4], %mk3 {{in_bounds = [true]}} : vector<4xi8>, memref<256xi8, {WG}>
      gpu.barrier
      %j = arith.subi %c63, %i : index
      %j4 = arith.muli %j, %c4 : index
      %i1 = arith.addi %i, %c1 : index
      %n = arith.remui %i1, %c5 : index
      %mn = vector.create_mask %n : vector<4xi1>
      %pad = arith.constant 9.0 : f16
      %rh = vector.transfer_read %lh[%j4], %pad, %mn {{in_bounds = [true]}} : memref<256xf16, {WG}>, vector<4xf16>
      vector.store %rh, %oh[%b4] : memref<256xf16>, vector<4xf16>
      %rb = vector.load %lb[%j4] : memref<256xi8, {WG}>, vector<4xi8>
      vector.store %rb, %ob[%b4] : memref<256xi8>, vector<4xi8>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [_f16(r, 256), np.zeros(256, np.float16),
               r.integers(-128, 128, 256).astype(np.int8), np.zeros(256, np.int8)],
    _lds_masked_expect))


# 7. memref.copy of dynamic shapes (row-major): a 1-D f32 copy of 203
#    elements (50 16-byte pieces and a residual of 3) and a 2-D f16 copy of
#    7 x 13 (91 elements: 11 pieces of 8, a residual of 3), each work-item
#    copying the whole memref (the op is per work-item; the lanes write the
#    same values). LLVM's build: the llvm.memcpy memref-to-llvm makes of an
#    identity-layout copy, expanded by LLVM to a dwordx4 loop and a
#    residual loop.
def _dyncopy_expect(a):
    return {1: a[0].copy(), 3: a[2].copy()}


CASES.append(Case("copy_dynamic_dwordx4", "dc", module(f"""
    gpu.func @dc(%a: memref<?xf32>, %b: memref<?xf32>, %h: memref<?x?xf16>, %g: memref<?x?xf16>)
        kernel {KB} {{
      memref.copy %a, %b : memref<?xf32> to memref<?xf32>
      memref.copy %h, %g : memref<?x?xf16> to memref<?x?xf16>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal(203).astype(np.float32), np.zeros(203, np.float32),
               r.standard_normal((7, 13)).astype(np.float16), np.zeros((7, 13), np.float16)],
    _dyncopy_expect))
