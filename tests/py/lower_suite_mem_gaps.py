"""amdgcn-lower's memref, vector and gpu gaps of issue 26 item 2, in
lower_suite.py's Case form: each kernel built by aster and by LLVM
(mlir-opt-22 convert-gpu-to-rocdl + llc-22), both checked against NumPy on
the emulator in strict mode.

- arith.bitcast vector<2xf16> <-> i32 and vector<4xf16> <-> i64, and
  gpu.shuffle of vector<2xf16> (upstream's rewrite bitcasts it to i32).
- gpu.rotate (i32, f32, f16, i64; widths 16, 32, 64). LLVM 22's
  convert-gpu-to-rocdl has no pattern for it ("failed to legalize"): LLVM
  builds the op's own definition (GPUOps.td: source lane ((lane + offset) &
  (width - 1)) + (lane & ~(width - 1)), valid = lane < width) written as
  gpu.shuffle idx; NumPy computes the same formula.
- vector.load / store of f16, bf16, i8 and f64 elements at any alignment
  the memref allows (llc-22 selects global_load_dword[x2] at align 2 / 1 on
  gfx942 and global_load_ushort for <2 x i8>; so does aster).
- memref.copy: a contiguous subview (LLVM: llvm.memcpy), a private alloca
  to global memory, a strided 2-D subview and a dynamic size. A
  non-contiguous copy is a call of the host runtime's `memrefCopy` in
  LLVM's build, which no GPU code object has: its LLVM source is the same
  kernel with the copy written as the scf.for loops it means.
- memref.transpose, extract_strided_metadata, memory_space_cast
  (workgroup -> generic), memref.reshape (static shape operand in an
  alloca), vector.type_cast.
- memref.global: a constant table in global memory (data in the code
  object, read PC-relative) and a workgroup global (LDS).
- vector.expandload / compressstore / scatter with divergent masks,
  vector.transfer_read with a broadcast (0-result) map.
"""
import ml_dtypes
import numpy as np

from lower_suite import Case, module

CASES = []

KB = "attributes {known_block_size = array<i32: 64, 1, 1>}"


def _f16(r, n):
    return r.uniform(-4, 4, n).astype(np.float16)


# 1. Shuffles of vector<2xf16> (upstream's rewrite moves them as their i32
#    word: LowerVectorBitcast.cpp) and vector <-> scalar bitcasts (valid MLIR
#    spells them vector.bitcast to vector<1xi32> + extract): each lane
#    xor-shuffles (x[2i], x[2i+1]) with lane ^ 5 and stores it and its word;
#    an i64 made of four halves goes back to a vector and out again.
def _bitcast_expect(a):
    x = a[0]
    pairs = x.reshape(64, 2)
    sh = pairs[np.arange(64) ^ 5].reshape(-1)
    quads = x.reshape(32, 4)
    return {1: sh, 2: np.concatenate([quads.view(np.int64).reshape(-1), np.zeros(32, np.int64)]),
            3: x.view(np.int32)}


CASES.append(Case("bitcast_shuffle_v2f16", "bc", module(f"""
    gpu.func @bc(%x: memref<128xf16>, %o: memref<128xf16>, %q: memref<64xi64>, %w: memref<64xi32>)
        kernel {KB} {{
      %i = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %c32 = arith.constant 32 : index
      %c5 = arith.constant 5 : i32
      %c64 = arith.constant 64 : i32
      %b = arith.muli %i, %c2 : index
      %v = vector.load %x[%b] : memref<128xf16>, vector<2xf16>
      %s, %ok = gpu.shuffle xor %v, %c5, %c64 : vector<2xf16>
      vector.store %s, %o[%b] : memref<128xf16>, vector<2xf16>
      %wv = vector.bitcast %v : vector<2xf16> to vector<1xi32>
      %word = vector.extract %wv[0] : i32 from vector<1xi32>
      memref.store %word, %w[%i] : memref<64xi32>
      %lo = arith.cmpi ult, %i, %c32 : index
      scf.if %lo {{
        %c4 = arith.constant 4 : index
        %b4 = arith.muli %i, %c4 : index
        %u = vector.load %x[%b4] : memref<128xf16>, vector<4xf16>
        %dv = vector.bitcast %u : vector<4xf16> to vector<1xi64>
        %d = vector.extract %dv[0] : i64 from vector<1xi64>
        %bv = vector.from_elements %d : vector<1xi64>
        %back = vector.bitcast %bv : vector<1xi64> to vector<4xf16>
        %dv2 = vector.bitcast %back : vector<4xf16> to vector<1xi64>
        %d2 = vector.extract %dv2[0] : i64 from vector<1xi64>
        memref.store %d2, %q[%i] : memref<64xi64>
      }}
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [_f16(r, 128), np.zeros(128, np.float16), np.zeros(64, np.int64),
               np.zeros(64, np.int32)],
    _bitcast_expect))


# 2. gpu.rotate of i32, f32, f16 and i64 values, several widths and
#    offsets; `valid` stored as i32 (lane < width). LLVM's source: the op's
#    definition as gpu.shuffle idx (see the module doc).
_ROT = [("i32", 5, 32), ("f32", 63, 64), ("f16", 3, 16), ("i64", 7, 32)]
_SRC = {"i32": "%xi", "f32": "%xf", "f16": "%xh", "i64": "%xl"}


def _rot_src(off, w):
    lane = np.arange(64)
    return ((lane + off) & (w - 1)) + (lane & ~(w - 1))


def _rotate_body(llvm):
    consts, lines = [], []
    for k, (t, off, w) in enumerate(_ROT):
        consts.append(f"      %at{k} = arith.constant {k * 64} : index\n")
        if llvm:
            consts.append(f"      %off{k} = arith.constant {off} : i32\n"
                          f"      %m{k} = arith.constant {w - 1} : i32\n"
                          f"      %n{k} = arith.constant {~(w - 1)} : i32\n"
                          f"      %w{k} = arith.constant {w} : i32\n")
            lines.append(f"""      %s{k}a = arith.addi %lane, %off{k} : i32
      %s{k}b = arith.andi %s{k}a, %m{k} : i32
      %s{k}c = arith.andi %lane, %n{k} : i32
      %s{k} = arith.ori %s{k}b, %s{k}c : i32
      %r{k}, %unused{k} = gpu.shuffle idx {_SRC[t]}, %s{k}, %c64 : {t}
      %v{k} = arith.cmpi ult, %lane, %w{k} : i32
""")
        else:
            lines.append(f"      %r{k}, %v{k} = gpu.rotate {_SRC[t]}, {off}, {w} : {t}\n")
        lines.append(f"""      memref.store %r{k}, %o{k}[%i] : memref<64x{t}>
      %vi{k} = arith.extui %v{k} : i1 to i32
      %j{k} = arith.addi %i, %at{k} : index
      memref.store %vi{k}, %ok[%j{k}] : memref<256xi32>
""")
    return f"""
    gpu.func @rot(%xim: memref<64xi32>, %o0: memref<64xi32>, %o1: memref<64xf32>,
                  %o2: memref<64xf16>, %o3: memref<64xi64>, %xhm: memref<64xf16>,
                  %xlm: memref<64xi64>, %ok: memref<256xi32>) kernel {KB} {{
      %i = gpu.thread_id x
      %c64 = arith.constant 64 : i32
      %laneix = gpu.lane_id
      %lane = arith.index_cast %laneix : index to i32
{"".join(consts)}      %xi = memref.load %xim[%i] : memref<64xi32>
      %xf = arith.bitcast %xi : i32 to f32
      %xh = memref.load %xhm[%i] : memref<64xf16>
      %xl = memref.load %xlm[%i] : memref<64xi64>
{"".join(lines)}      gpu.return
    }}"""


def _rotate_inputs(r):
    return [r.integers(-2**31, 2**31, 64, dtype=np.int64).astype(np.int32),
            np.zeros(64, np.int32), np.zeros(64, np.float32), np.zeros(64, np.float16),
            np.zeros(64, np.int64), _f16(r, 64),
            r.integers(-2**62, 2**62, 64, dtype=np.int64), np.zeros(256, np.int32)]


def _rotate_expect(a):
    out = {}
    xs = {"i32": a[0], "f32": a[0].view(np.float32), "f16": a[5], "i64": a[6]}
    for k, (t, off, w) in enumerate(_ROT):
        out[1 + k] = xs[t][_rot_src(off, w)]
    out[7] = np.concatenate([(np.arange(64) < w).astype(np.int32) for _, _, w in _ROT])
    return out


CASES.append(Case("rotate", "rot", module(_rotate_body(False)), (1, 1, 1), (64, 1, 1),
                  _rotate_inputs, _rotate_expect, llvm_mlir=module(_rotate_body(True))))


# 3. vector.load / store of narrow and wide elements at any alignment the
#    memref allows: vector<4xf16> at 4i, vector<2xf16> at 2i + 1 (2-byte
#    aligned), vector<4xbf16> at 4i, vector<4xi8> at 4i + 1 (1-byte
#    aligned), vector<2xi8> at 2i, vector<2xf64> at 2i, each copied to the
#    same index of an output (lanes write disjoint bytes).
def _narrow_expect(a):
    h, bh, b, d = a[0], a[3], a[5], a[8]
    oh = np.zeros(260, np.float16)
    oh[:256] = h[:256]
    oh2 = np.zeros(260, np.float16)
    oh2[1:129] = h[1:129]
    o8 = np.zeros(260, np.int8)
    o8[1:257] = b[1:257]
    o82 = np.zeros(260, np.int8)
    o82[:128] = b[:128]
    return {1: oh, 2: oh2, 4: bh.copy(), 6: o8, 7: o82, 9: d.copy()}


CASES.append(Case("vector_load_narrow", "nar", module(f"""
    gpu.func @nar(%h: memref<260xf16>, %oh: memref<260xf16>, %oh2: memref<260xf16>,
                  %bh: memref<256xbf16>, %obh: memref<256xbf16>, %b: memref<260xi8>,
                  %ob: memref<260xi8>, %ob2: memref<260xi8>, %d: memref<128xf64>,
                  %od: memref<128xf64>) kernel {KB} {{
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %b4 = arith.muli %i, %c4 : index
      %b2 = arith.muli %i, %c2 : index
      %b41 = arith.addi %b4, %c1 : index
      %b21 = arith.addi %b2, %c1 : index
      %v = vector.load %h[%b4] : memref<260xf16>, vector<4xf16>
      vector.store %v, %oh[%b4] : memref<260xf16>, vector<4xf16>
      %w = vector.load %h[%b21] : memref<260xf16>, vector<2xf16>
      vector.store %w, %oh2[%b21] : memref<260xf16>, vector<2xf16>
      %u = vector.load %bh[%b4] : memref<256xbf16>, vector<4xbf16>
      vector.store %u, %obh[%b4] : memref<256xbf16>, vector<4xbf16>
      %e = vector.load %b[%b41] : memref<260xi8>, vector<4xi8>
      vector.store %e, %ob[%b41] : memref<260xi8>, vector<4xi8>
      %p = vector.load %b[%b2] : memref<260xi8>, vector<2xi8>
      vector.store %p, %ob2[%b2] : memref<260xi8>, vector<2xi8>
      %f = vector.load %d[%b2] : memref<128xf64>, vector<2xf64>
      vector.store %f, %od[%b2] : memref<128xf64>, vector<2xf64>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [_f16(r, 260), np.zeros(260, np.float16), np.zeros(260, np.float16),
               _f16(r, 256).astype(ml_dtypes.bfloat16), np.zeros(256, ml_dtypes.bfloat16),
               r.integers(-128, 128, 260).astype(np.int8), np.zeros(260, np.int8),
               np.zeros(260, np.int8), r.standard_normal(128), np.zeros(128)],
    _narrow_expect))


# 4. memref.copy: (a) a contiguous 4-element subview per lane (LLVM:
#    llvm.memcpy); (b) a private alloca of 4 values to a global subview;
#    (c) a strided 2-D subview (every other column of a 4x8 tile, lane's own
#    tile) into a dense 4x4 one; (d) a dynamic number of elements n.
def _copy_expect(a):
    x, n = a[0], a[5]
    o1 = x[:256].copy()
    o2 = np.repeat(x[:64] * 2, 4)
    t = x[:64 * 32].reshape(64, 4, 8)[:, :, ::2].reshape(-1)
    o4 = np.zeros(64 * 8, np.float32)
    for i in range(64):
        o4[8 * i:8 * i + n] = x[8 * i:8 * i + n]
    return {1: o1, 2: o2, 3: t, 4: o4}


def _copy_body(llvm):
    P = "#gpu.address_space<private>"
    strided = ("memref.copy %ts, %td : memref<4x4xf32, strided<[8, 2], offset: ?>> to "
               "memref<4x4xf32, strided<[4, 1], offset: ?>>")
    dynamic = ("memref.copy %ds, %dd : memref<?xf32, strided<[1], offset: ?>> to "
               "memref<?xf32, strided<[1], offset: ?>>")
    if llvm:  # memrefCopy calls in LLVM's build: the loops they mean
        strided = """scf.for %r = %c0 to %c4 step %c1 {
        scf.for %q = %c0 to %c4 step %c1 {
          %tv = memref.load %ts[%r, %q] : memref<4x4xf32, strided<[8, 2], offset: ?>>
          memref.store %tv, %td[%r, %q] : memref<4x4xf32, strided<[4, 1], offset: ?>>
        }
      }"""
        dynamic = """scf.for %q = %c0 to %n step %c1 {
        %dv = memref.load %ds[%q] : memref<?xf32, strided<[1], offset: ?>>
        memref.store %dv, %dd[%q] : memref<?xf32, strided<[1], offset: ?>>
      }"""
    return f"""
    gpu.func @cp(%x: memref<2048xf32>, %o1: memref<256xf32>, %o2: memref<256xf32>,
                 %o3: memref<1024xf32>, %o4: memref<512xf32>, %n: index) kernel {KB} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %b = arith.muli %i, %c4 : index
      %s = memref.subview %x[%b] [4] [1] : memref<2048xf32> to memref<4xf32, strided<[1], offset: ?>>
      %d = memref.subview %o1[%b] [4] [1] : memref<256xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %s, %d : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, strided<[1], offset: ?>>
      %l = memref.alloca() : memref<4xf32, {P}>
      %v = memref.load %x[%i] : memref<2048xf32>
      %v2 = arith.addf %v, %v : f32
      memref.store %v2, %l[%c0] : memref<4xf32, {P}>
      memref.store %v2, %l[%c1] : memref<4xf32, {P}>
      memref.store %v2, %l[%c2] : memref<4xf32, {P}>
      memref.store %v2, %l[%c3] : memref<4xf32, {P}>
      %d2 = memref.subview %o2[%b] [4] [1] : memref<256xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %l, %d2 : memref<4xf32, {P}> to memref<4xf32, strided<[1], offset: ?>>
      %x2 = memref.expand_shape %x [[0, 1]] output_shape [256, 8] : memref<2048xf32> into memref<256x8xf32>
      %row = arith.muli %i, %c4 : index
      %ts = memref.subview %x2[%row, 0] [4, 4] [1, 2] : memref<256x8xf32> to memref<4x4xf32, strided<[8, 2], offset: ?>>
      %o32 = memref.expand_shape %o3 [[0, 1]] output_shape [256, 4] : memref<1024xf32> into memref<256x4xf32>
      %td = memref.subview %o32[%row, 0] [4, 4] [1, 1] : memref<256x4xf32> to memref<4x4xf32, strided<[4, 1], offset: ?>>
      {strided}
      %b8 = arith.muli %i, %c8 : index
      %ds = memref.subview %x[%b8] [%n] [1] : memref<2048xf32> to memref<?xf32, strided<[1], offset: ?>>
      %dd = memref.subview %o4[%b8] [%n] [1] : memref<512xf32> to memref<?xf32, strided<[1], offset: ?>>
      {dynamic}
      gpu.return
    }}"""


CASES.append(Case("memref_copy", "cp", module(_copy_body(False)), (1, 1, 1), (64, 1, 1),
                  lambda r: [r.standard_normal(2048).astype(np.float32), np.zeros(256, np.float32),
                             np.zeros(256, np.float32), np.zeros(1024, np.float32),
                             np.zeros(512, np.float32), 5],
                  _copy_expect, llvm_mlir=module(_copy_body(True))))


# 5. Views: memref.transpose of a 16x64 row-major view (element [c, r] of
#    the transpose is x[r * 64 + c]... of the 64x16 one), the offset / size /
#    stride of a subview by extract_strided_metadata, a workgroup buffer read
#    through memory_space_cast to generic, memref.reshape to 16x64 with its
#    shape in a private alloca, vector.type_cast of a 4x4 tile (unused result).
def _views_expect(a):
    x = a[0]
    i = np.arange(64)
    t = x.reshape(64, 16).T          # transpose: [c, r] = x[r, c]
    o1 = t[i % 16, i].astype(np.float32)
    meta = ((i * 3 + 8) + 4) * 3     # offset i*3 + 8 (subview of stride 1 at 8 + 3i), size 4, stride 3
    lds = x[63 - i]
    resh = x.reshape(16, 64)[i % 16, i]
    return {1: o1, 2: meta.astype(np.int32), 3: lds, 4: resh}


CASES.append(Case("memref_views", "views", module(f"""
    gpu.func @views(%x: memref<1024xf32>, %o1: memref<64xf32>, %o2: memref<64xi32>,
                    %o3: memref<64xf32>, %o4: memref<64xf32>)
        workgroup(%l: memref<64xf32, #gpu.address_space<workgroup>>) kernel {KB} {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c15 = arith.constant 15 : index
      %c16 = arith.constant 16 : index
      %c63 = arith.constant 63 : index
      %c64 = arith.constant 64 : index
      %e = memref.expand_shape %x [[0, 1]] output_shape [64, 16] : memref<1024xf32> into memref<64x16xf32>
      %t = memref.transpose %e (d0, d1) -> (d1, d0) : memref<64x16xf32> to memref<16x64xf32, strided<[1, 16]>>
      %c = arith.andi %i, %c15 : index
      %tv = memref.load %t[%c, %i] : memref<16x64xf32, strided<[1, 16]>>
      memref.store %tv, %o1[%i] : memref<64xf32>
      %off = arith.muli %i, %c3 : index
      %off8 = arith.addi %off, %c8 : index
      %s = memref.subview %x[%off8] [4] [3] : memref<1024xf32> to memref<4xf32, strided<[3], offset: ?>>
      %base, %mo, %ms, %mst = memref.extract_strided_metadata %s : memref<4xf32, strided<[3], offset: ?>> -> memref<f32>, index, index, index
      %m1 = arith.addi %mo, %ms : index
      %m2 = arith.muli %m1, %mst : index
      %mi = arith.index_cast %m2 : index to i32
      memref.store %mi, %o2[%i] : memref<64xi32>
      %xv = memref.load %x[%i] : memref<1024xf32>
      memref.store %xv, %l[%i] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %g = memref.memory_space_cast %l : memref<64xf32, #gpu.address_space<workgroup>> to memref<64xf32>
      %j = arith.subi %c63, %i : index
      %gv = memref.load %g[%j] : memref<64xf32>
      memref.store %gv, %o3[%i] : memref<64xf32>
      %sh = memref.alloca() : memref<2xindex, #gpu.address_space<private>>
      memref.store %c16, %sh[%c0] : memref<2xindex, #gpu.address_space<private>>
      memref.store %c64, %sh[%c1] : memref<2xindex, #gpu.address_space<private>>
      %r = memref.reshape %x(%sh) : (memref<1024xf32>, memref<2xindex, #gpu.address_space<private>>) -> memref<16x64xf32>
      %rv = memref.load %r[%c, %i] : memref<16x64xf32>
      memref.store %rv, %o4[%i] : memref<64xf32>
      %tc = vector.type_cast %e : memref<64x16xf32> to memref<vector<64x16xf32>>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal(1024).astype(np.float32), np.zeros(64, np.float32),
               np.zeros(64, np.int32), np.zeros(64, np.float32), np.zeros(64, np.float32)],
    _views_expect))


# 6. memref.global: a constant table in global memory read at a divergent
#    index (x[i] & 7), a writable global in global memory (each lane adds
#    its value atomically: the sum is visible to every later read... not
#    needed: it is written by lane 0 only), a workgroup global written by
#    each lane and read reversed after a barrier.
_TABLE = np.array([1.5, -2.0, 3.25, 4.0, -0.5, 1e-3, 7.0, -8.0], np.float32)


def _globals_expect(a):
    k = a[0] & 7
    i = np.arange(64)
    return {1: _TABLE[k], 2: (a[0][63 - i] * 2).astype(np.int32)}


CASES.append(Case("memref_globals", "glob", module(f"""
    memref.global "private" constant @table : memref<8xf32> = dense<[1.5, -2.0, 3.25, 4.0, -0.5, 1.0e-3, 7.0, -8.0]>
    memref.global "private" @lbuf : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.func @glob(%x: memref<64xi32>, %o1: memref<64xf32>, %o2: memref<64xi32>) kernel {KB} {{
      %i = gpu.thread_id x
      %c7 = arith.constant 7 : i32
      %c63 = arith.constant 63 : index
      %xv = memref.load %x[%i] : memref<64xi32>
      %k = arith.andi %xv, %c7 : i32
      %ki = arith.index_cast %k : i32 to index
      %g = memref.get_global @table : memref<8xf32>
      %tv = memref.load %g[%ki] : memref<8xf32>
      memref.store %tv, %o1[%i] : memref<64xf32>
      %lb = memref.get_global @lbuf : memref<64xi32, #gpu.address_space<workgroup>>
      %x2 = arith.addi %xv, %xv : i32
      memref.store %x2, %lb[%i] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %j = arith.subi %c63, %i : index
      %lb2 = memref.get_global @lbuf : memref<64xi32, #gpu.address_space<workgroup>>
      %w = memref.load %lb2[%j] : memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %w, %o2[%i] : memref<64xi32>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.integers(-1000, 1000, 64).astype(np.int32), np.zeros(64, np.float32),
               np.zeros(64, np.int32)],
    _globals_expect))


# 7. vector.expandload / compressstore / scatter under a divergent mask
#    (element e set where bit e of x[i] is), and a transfer_read whose map
#    broadcasts one element (0 results).
def _mask(a):
    return (a[1][:, None] >> np.arange(4)) & 1 == 1


def _expand_expect(a):
    x, m = a[0], _mask(a)
    e = np.full((64, 4), -1.0, np.float32)
    c = np.zeros((64, 4), np.float32)
    sc = np.zeros((64, 4), np.float32)
    for i in range(64):
        k = 0
        for j in range(4):
            if m[i, j]:
                e[i, j] = x[4 * i + k]
                c[i, k] = x[4 * i + j]
                k += 1
        for j, p in enumerate((3, 0, 2, 1)):
            if m[i, j]:
                sc[i, p] = x[4 * i + j]
    bc = np.repeat(x[4 * np.arange(64) + 1] * 2, 4)
    return {2: e.reshape(-1), 3: c.reshape(-1), 4: sc.reshape(-1), 5: bc}


CASES.append(Case("vector_expand_compress_scatter", "ecs", module(f"""
    gpu.func @ecs(%x: memref<256xf32>, %bits: memref<64xi32>, %oe: memref<256xf32>,
                  %oc: memref<256xf32>, %os: memref<256xf32>, %ob: memref<256xf32>)
        kernel {KB} {{
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %b = arith.muli %i, %c4 : index
      %bv = memref.load %bits[%i] : memref<64xi32>
      %one = arith.constant dense<1> : vector<4xi32>
      %sh = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
      %bb = vector.broadcast %bv : i32 to vector<4xi32>
      %s = arith.shrui %bb, %sh : vector<4xi32>
      %a = arith.andi %s, %one : vector<4xi32>
      %mk = arith.cmpi eq, %a, %one : vector<4xi32>
      %pv = arith.constant dense<-1.0> : vector<4xf32>
      %e = vector.expandload %x[%b], %mk, %pv : memref<256xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
      vector.store %e, %oe[%b] : memref<256xf32>, vector<4xf32>
      %v = vector.load %x[%b] : memref<256xf32>, vector<4xf32>
      vector.compressstore %oc[%b], %mk, %v : memref<256xf32>, vector<4xi1>, vector<4xf32>
      %iv = arith.constant dense<[3, 0, 2, 1]> : vector<4xindex>
      vector.scatter %os[%b][%iv], %mk, %v : memref<256xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32>
      %b1 = arith.addi %b, %c1 : index
      %pad = arith.constant 0.0 : f32
      %t = vector.transfer_read %x[%b1], %pad {{in_bounds = [true], permutation_map = affine_map<(d0) -> (0)>}} : memref<256xf32>, vector<4xf32>
      %t2 = arith.addf %t, %t : vector<4xf32>
      vector.store %t2, %ob[%b] : memref<256xf32>, vector<4xf32>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal(256).astype(np.float32),
               np.concatenate([np.arange(16), r.integers(0, 16, 48)]).astype(np.int32),
               np.zeros(256, np.float32), np.zeros(256, np.float32), np.zeros(256, np.float32),
               np.zeros(256, np.float32)],
    _expand_expect))


# 8. vector.contract of f16 operands into an f32 accumulator (2x2x2 per
#    lane). The op promotes its operands to the accumulator's type first
#    (VectorOps.td); upstream's contract lowering (convert-vector-to-llvm)
#    leaves mixed types unlowered, so LLVM's source states the promotion
#    (arith.extf) and contracts in f32. f16 products are exact in f32; the
#    sums are f32 (tolerance 1e-6 for the order of the two adds).
def _contract_body(llvm):
    ext = ("      %lf = arith.extf %l : vector<2x2xf16> to vector<2x2xf32>\n"
           "      %mf = arith.extf %m : vector<2x2xf16> to vector<2x2xf32>\n") if llvm else ""
    lt = "f32" if llvm else "f16"
    lv, mv = ("%lf", "%mf") if llvm else ("%l", "%m")
    return f"""
    gpu.func @ct(%x: memref<256xf16>, %y: memref<256xf16>, %z: memref<256xf32>, %o: memref<256xf32>)
        kernel {KB} {{
      %i = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %b = arith.muli %i, %c4 : index
      %a = vector.load %x[%b] : memref<256xf16>, vector<4xf16>
      %bb = vector.load %y[%b] : memref<256xf16>, vector<4xf16>
      %cc = vector.load %z[%b] : memref<256xf32>, vector<4xf32>
      %l = vector.shape_cast %a : vector<4xf16> to vector<2x2xf16>
      %m = vector.shape_cast %bb : vector<4xf16> to vector<2x2xf16>
      %n = vector.shape_cast %cc : vector<4xf32> to vector<2x2xf32>
{ext}      %q = vector.contract {{indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}} {lv}, {mv}, %n : vector<2x2x{lt}>, vector<2x2x{lt}> into vector<2x2xf32>
      %r = vector.shape_cast %q : vector<2x2xf32> to vector<4xf32>
      vector.store %r, %o[%b] : memref<256xf32>, vector<4xf32>
      gpu.return
    }}"""


def _contract_expect(a):
    A = a[0].astype(np.float32).reshape(64, 2, 2)
    B = a[1].astype(np.float32).reshape(64, 2, 2)
    C = a[2].reshape(64, 2, 2)
    return {3: (np.einsum("nik,nkj->nij", A, B) + C).astype(np.float32).reshape(-1)}


CASES.append(Case("contract_f16_into_f32", "ct", module(_contract_body(False)), (1, 1, 1),
                  (64, 1, 1),
                  lambda r: [_f16(r, 256), _f16(r, 256), r.standard_normal(256).astype(np.float32),
                             np.zeros(256, np.float32)],
                  _contract_expect, tol=1e-6, llvm_mlir=module(_contract_body(True))))


# 9. vector<2xf16> through LDS at 2-byte alignment (index 2i + 1): llc-22
#    selects ds_write_b32 / ds_read_b32 there too (unaligned DS access);
#    lane i reads what lane 63 - i wrote.
def _lds_narrow_expect(a):
    return {1: a[0][:128].reshape(64, 2)[::-1].reshape(-1).copy()}


CASES.append(Case("lds_narrow_unaligned", "ldsn", module(f"""
    gpu.func @ldsn(%x: memref<128xf16>, %o: memref<128xf16>)
        workgroup(%l: memref<130xf16, #gpu.address_space<workgroup>>) kernel {KB} {{
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c63 = arith.constant 63 : index
      %b = arith.muli %i, %c2 : index
      %b1 = arith.addi %b, %c1 : index
      %v = vector.load %x[%b] : memref<128xf16>, vector<2xf16>
      vector.store %v, %l[%b1] : memref<130xf16, #gpu.address_space<workgroup>>, vector<2xf16>
      gpu.barrier
      %j = arith.subi %c63, %i : index
      %jb = arith.muli %j, %c2 : index
      %jb1 = arith.addi %jb, %c1 : index
      %w = vector.load %l[%jb1] : memref<130xf16, #gpu.address_space<workgroup>>, vector<2xf16>
      vector.store %w, %o[%b] : memref<128xf16>, vector<2xf16>
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [_f16(r, 128), np.zeros(128, np.float16)], _lds_narrow_expect))


# 10. Writable globals in global memory: one initialised (.data, a splat
#     dense<2.5>) and one uninitialised (.bss); lanes 0-3 store x[i] * 2
#     into each, then (one wave: program order) read element 3 - i back.
def _writable_expect(a):
    x = a[0]
    o = np.zeros(8, np.float32)
    o[:4] = x[3::-1] * 2
    o[4:] = x[3::-1] * 2 + 2.5
    return {1: o}


CASES.append(Case("memref_globals_writable", "gw", module(f"""
    memref.global "private" @data : memref<4xf32> = dense<2.5>
    memref.global "private" @zeros : memref<4xf32> = uninitialized
    gpu.func @gw(%x: memref<64xf32>, %o: memref<8xf32>) kernel {KB} {{
      %i = gpu.thread_id x
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %lt = arith.cmpi ult, %i, %c4 : index
      %d = memref.get_global @data : memref<4xf32>
      %z = memref.get_global @zeros : memref<4xf32>
      scf.if %lt {{
        %j = arith.subi %c3, %i : index
        %init = memref.load %d[%j] : memref<4xf32>
        %xv = memref.load %x[%i] : memref<64xf32>
        %x2 = arith.addf %xv, %xv : f32
        memref.store %x2, %z[%i] : memref<4xf32>
        %s = arith.addf %x2, %init : f32
        memref.store %s, %d[%i] : memref<4xf32>
        %a = memref.load %z[%j] : memref<4xf32>
        %b = memref.load %d[%j] : memref<4xf32>
        memref.store %a, %o[%i] : memref<8xf32>
        %i4 = arith.addi %i, %c4 : index
        memref.store %b, %o[%i4] : memref<8xf32>
      }}
      gpu.return
    }}"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal(64).astype(np.float32), np.zeros(8, np.float32)],
    _writable_expect))
