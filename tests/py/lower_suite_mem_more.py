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
