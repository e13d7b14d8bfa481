"""Kernels for the gaps the coverage audit found (python/aster/lowering/
coverage/; docs/lowering.md "Coverage"), each checked against NumPy and,
where upstream MLIR 22 can build it, LLVM's build of the same text
(tests/py/test_lower_gaps.py): vector ops taken through upstream's own
vector lowering patterns (contract, multi_reduction, transpose, step,
gather, masked load / store, interleave, permuted and 2-D transfers),
vector.shuffle / to_elements / dynamic extract and insert, gpu ops taken
through upstream's GPU rewrites (global_id, subgroup_id, num_subgroups,
64-bit and 16-bit shuffles, subgroup_reduce of other types and strided
clusters), gpu.subgroup_broadcast, scf.index_switch / execute_region /
parallel / forall, memref.rank / prefetch / distinct_objects, and the
amdgpu buffer atomics, swizzle and wait ops.
"""
import numpy as np

from lower_suite import Case, module

CASES = []


def _f32(r, n=256, small=False):
    if small:
        return r.integers(-4, 5, n).astype(np.float32)
    return r.standard_normal(n).astype(np.float32)


# 1. vector.contract (a 2x2 times 2x2 matmul per work-item, upstream's Dot
# lowering: transposes, elementwise products, ordered reductions) and
# vector.transpose. Small integers in f32: every
# order of additions is exact, so NumPy's matmul is the reference.
CASES.append(Case("vector_contract_matmul", "vc", module("""
    gpu.func @vc(%x: memref<256xf32>, %y: memref<256xf32>, %o: memref<256xf32>, %t: memref<256xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %c2 = arith.constant 2 : index
      %b = arith.muli %i, %c4 : index
      %b2 = arith.muli %i, %c2 : index
      %a = vector.load %x[%b] : memref<256xf32>, vector<4xf32>
      %w = vector.load %y[%b] : memref<256xf32>, vector<4xf32>
      %l = vector.shape_cast %a : vector<4xf32> to vector<2x2xf32>
      %m = vector.shape_cast %w : vector<4xf32> to vector<2x2xf32>
      %z = arith.constant dense<0.0> : vector<2x2xf32>
      %p = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
                                              affine_map<(i, j, k) -> (k, j)>,
                                              affine_map<(i, j, k) -> (i, j)>],
                            iterator_types = ["parallel", "parallel", "reduction"],
                            kind = #vector.kind<add>} %l, %m, %z
          : vector<2x2xf32>, vector<2x2xf32> into vector<2x2xf32>
      %pf = vector.shape_cast %p : vector<2x2xf32> to vector<4xf32>
      vector.store %pf, %o[%b] : memref<256xf32>, vector<4xf32>
      %tr = vector.transpose %l, [1, 0] : vector<2x2xf32> to vector<2x2xf32>
      %tf = vector.shape_cast %tr : vector<2x2xf32> to vector<4xf32>
      vector.store %tf, %t[%b] : memref<256xf32>, vector<4xf32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [_f32(r, small=True), _f32(r, small=True), np.zeros(256, np.float32),
               np.zeros(256, np.float32)],
    lambda a: {2: np.matmul(a[0].reshape(64, 2, 2), a[1].reshape(64, 2, 2)).reshape(-1),
               3: a[0].reshape(64, 2, 2).transpose(0, 2, 1).reshape(-1)}))


# 1b. vector.multi_reduction over each dimension of a 2x4 tile (upstream's
# InnerReduction lowering: vector.reduction per row, elementwise adds per
# column). LLVM's build: none here (upstream's lower-vector-multi-reduction
# pass runs on func.func only; convert-vector-to-llvm leaves the op).
CASES.append(Case("vector_multi_reduction", "mr", module("""
    gpu.func @mr(%x: memref<512xi32>, %r: memref<128xi32>, %c: memref<256xi32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %c8 = arith.constant 8 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %b = arith.muli %i, %c8 : index
      %a = vector.load %x[%b] : memref<512xi32>, vector<8xi32>
      %m = vector.shape_cast %a : vector<8xi32> to vector<2x4xi32>
      %z2 = arith.constant dense<0> : vector<2xi32>
      %rows = vector.multi_reduction <add>, %m, %z2 [1] : vector<2x4xi32> to vector<2xi32>
      %b2 = arith.muli %i, %c2 : index
      vector.store %rows, %r[%b2] : memref<128xi32>, vector<2xi32>
      %z4 = arith.constant dense<-2147483648> : vector<4xi32>
      %cols = vector.multi_reduction <maxsi>, %m, %z4 [0] : vector<2x4xi32> to vector<4xi32>
      %b4 = arith.muli %i, %c4 : index
      vector.store %cols, %c[%b4] : memref<256xi32>, vector<4xi32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.integers(-1000, 1000, 512).astype(np.int32), np.zeros(128, np.int32), np.zeros(256, np.int32)],
    lambda a: {1: a[0].reshape(64, 2, 4).sum(axis=2).reshape(-1).astype(np.int32),
               2: a[0].reshape(64, 2, 4).max(axis=1).reshape(-1)}))


def _gather_expect(a):
    x = a[0].reshape(64, 4)
    g = x[:, [3, 0, 2, 1]].copy()
    g[:, 2:] = np.where(np.arange(64)[:, None] % 2 == 0, g[:, 2:], -1.0)
    m = np.full((64, 4), -1.0, np.float32)
    m[:, :2] = x[:, :2]
    st = np.tile(np.arange(4, dtype=np.float32), 64) + np.repeat(np.arange(64, dtype=np.float32), 4)
    return {1: g.reshape(-1), 2: m.reshape(-1), 3: st}


# 2. vector.gather (indices, a mask on odd lanes' upper half: scf.if per
# element), vector.maskedload (the first two elements), vector.step.
CASES.append(Case("vector_gather_masked", "vg", module("""
    gpu.func @vg(%x: memref<256xf32>, %g: memref<256xf32>, %m: memref<256xf32>, %s: memref<256xf32>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %b = arith.muli %i, %c4 : index
      %odd = arith.andi %i, %c1 : index
      %even = arith.cmpi eq, %odd, %c1 : index
      %four = arith.constant 4 : index
      %n = arith.select %even, %c2, %four : index
      %mk = vector.create_mask %n : vector<4xi1>
      %pv = arith.constant dense<-1.0> : vector<4xf32>
      %iv = arith.constant dense<[3, 0, 2, 1]> : vector<4xindex>
      %r = vector.gather %x[%b][%iv], %mk, %pv : memref<256xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
      vector.store %r, %g[%b] : memref<256xf32>, vector<4xf32>
      %m2 = vector.create_mask %c2 : vector<4xi1>
      %ml = vector.maskedload %x[%b], %m2, %pv : memref<256xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
      vector.store %ml, %m[%b] : memref<256xf32>, vector<4xf32>
      %st = vector.step : vector<4xindex>
      %sb = vector.broadcast %i : index to vector<4xindex>
      %ss = arith.addi %st, %sb : vector<4xindex>
      %si = arith.index_cast %ss : vector<4xindex> to vector<4xi32>
      %sf = arith.sitofp %si : vector<4xi32> to vector<4xf32>
      vector.store %sf, %s[%b] : memref<256xf32>, vector<4xf32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [_f32(r)] + [np.zeros(256, np.float32) for _ in range(3)], _gather_expect))


def _shuffle_expect(a):
    x, y = a[0].reshape(64, 4), a[1].reshape(64, 4)
    sh = np.stack([x[:, 0], y[:, 1], x[:, 2], y[:, 3]], 1)
    il = np.stack([x, y], 2).reshape(64, 8)[:, :4]
    de = x[:, 0::2] + x[:, 1::2]
    k = np.arange(64) & 3
    dyn = x[np.arange(64), k]
    ins = x.copy()
    ins[np.arange(64), k] = y[:, 0]
    sl = x.copy()
    sl[:, 1:3] = y[:, 0:2]
    return {2: sh.reshape(-1), 3: il.reshape(-1), 4: np.concatenate([de.reshape(-1), np.zeros(128, np.float32)]),
            5: dyn, 6: ins.reshape(-1), 7: sl.reshape(-1)}


# 3. vector.shuffle, interleave / deinterleave (upstream's lowering to
# shuffles), extract / insert at a dynamic position, to_elements,
# insert_strided_slice.
CASES.append(Case("vector_shuffle_dynamic", "vs", module("""
    gpu.func @vs(%x: memref<256xf32>, %y: memref<256xf32>, %sh: memref<256xf32>, %il: memref<256xf32>,
                 %de: memref<256xf32>, %dy: memref<64xf32>, %in: memref<256xf32>, %sl: memref<256xf32>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %b = arith.muli %i, %c4 : index
      %b2 = arith.muli %i, %c2 : index
      %a = vector.load %x[%b] : memref<256xf32>, vector<4xf32>
      %w = vector.load %y[%b] : memref<256xf32>, vector<4xf32>
      %s = vector.shuffle %a, %w [0, 5, 2, 7] : vector<4xf32>, vector<4xf32>
      vector.store %s, %sh[%b] : memref<256xf32>, vector<4xf32>
      %v8 = vector.interleave %a, %w : vector<4xf32> -> vector<8xf32>
      %lo = vector.extract_strided_slice %v8 {offsets = [0], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
      vector.store %lo, %il[%b] : memref<256xf32>, vector<4xf32>
      %ev, %od = vector.deinterleave %a : vector<4xf32> -> vector<2xf32>
      %sum = arith.addf %ev, %od : vector<2xf32>
      vector.store %sum, %de[%b2] : memref<256xf32>, vector<2xf32>
      %k = arith.andi %i, %c3 : index
      %e = vector.extract %a[%k] : f32 from vector<4xf32>
      memref.store %e, %dy[%i] : memref<64xf32>
      %w0:4 = vector.to_elements %w : vector<4xf32>
      %ins = vector.insert %w0#0, %a[%k] : f32 into vector<4xf32>
      vector.store %ins, %in[%b] : memref<256xf32>, vector<4xf32>
      %w2 = vector.extract_strided_slice %w {offsets = [0], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>
      %sls = vector.insert_strided_slice %w2, %a {offsets = [1], strides = [1]} : vector<2xf32> into vector<4xf32>
      vector.store %sls, %sl[%b] : memref<256xf32>, vector<4xf32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [_f32(r), _f32(r)] + [np.zeros(256, np.float32) for _ in range(3)]
    + [np.zeros(64, np.float32)] + [np.zeros(256, np.float32) for _ in range(2)],
    _shuffle_expect))


# 4. 2-D and transposed transfers (upstream's permutation-map lowering and
# VectorToSCF, fully unrolled to 1-D transfers): each work-item reads a 2x4
# block of a 128x4 matrix transposed (a 4x2 vector) and writes it to the
# transposed place of a 4x128 one.
CASES.append(Case("vector_transfer_transposed", "vt", module("""
    gpu.func @vt(%x: memref<128x4xf32>, %y: memref<4x128xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %pad = arith.constant 0.0 : f32
      %row = arith.muli %i, %c2 : index
      %t = vector.transfer_read %x[%row, %c0], %pad
          {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>}
          : memref<128x4xf32>, vector<4x2xf32>
      vector.transfer_write %t, %y[%c0, %row] {in_bounds = [true, true]} : vector<4x2xf32>, memref<4x128xf32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal((128, 4)).astype(np.float32), np.zeros((4, 128), np.float32)],
    lambda a: {1: a[0].T.copy()}))


def _lane_shuffle(x, mode, off, width):
    """gpu.shuffle's defined lanes (source in [0, width)); the others keep x."""
    lane = np.arange(64)
    src = lane ^ off if mode == "xor" else lane + off if mode == "down" else lane - off
    ok = (lane < width) & (src >= 0) & (src < width)
    return np.where(ok, x[np.clip(src, 0, 63)], x)


def _wide_shuffle_expect(a):
    return {2: _lane_shuffle(a[0], "xor", 5, 64), 3: _lane_shuffle(a[1], "down", 3, 16),
            4: _lane_shuffle(a[1], "up", 2, 32)}


# 5. gpu.shuffle of 64-bit values (two 32-bit shuffles, upstream's
# populateGpuShufflePatterns) and of f16 (zero-extended to 32 bits): xor,
# down and up with partial widths. gpu.shuffle defines the result only for
# lanes below `width` whose source lane is in [0, width) (GPUOps.td);
# ROCDL's lowering gives the other lanes values of its own (lanes >= width
# shuffle within their width-sized segment; `up` reads lane k - offset even
# below the segment). The kernel keeps its own value where the result is
# undefined, so NumPy checks the defined lanes only.
CASES.append(Case("shuffle_i64_f16", "sw", module("""
    gpu.func @sw(%x: memref<64xi64>, %h: memref<64xf16>, %o: memref<64xi64>, %p: memref<64xf16>,
                 %q: memref<64xf16>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xi64>
      %f = memref.load %h[%i] : memref<64xf16>
      %c5 = arith.constant 5 : i32
      %c3 = arith.constant 3 : i32
      %c2 = arith.constant 2 : i32
      %w64 = arith.constant 64 : i32
      %w16 = arith.constant 16 : i32
      %w32 = arith.constant 32 : i32
      %s, %ok = gpu.shuffle xor %v, %c5, %w64 : i64
      memref.store %s, %o[%i] : memref<64xi64>
      %ii = arith.index_cast %i : index to i32
      %t0, %ok2 = gpu.shuffle down %f, %c3, %w16 : f16
      %src = arith.addi %ii, %c3 : i32
      %dn = arith.cmpi slt, %src, %w16 : i32
      %t = arith.select %dn, %t0, %f : f16
      memref.store %t, %p[%i] : memref<64xf16>
      %u0, %ok3 = gpu.shuffle up %f, %c2, %w32 : f16
      %lo = arith.cmpi sge, %ii, %c2 : i32
      %hi = arith.cmpi slt, %ii, %w32 : i32
      %up = arith.andi %lo, %hi : i1
      %u = arith.select %up, %u0, %f : f16
      memref.store %u, %q[%i] : memref<64xf16>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.integers(-2**62, 2**62, 64, dtype=np.int64), r.standard_normal(64).astype(np.float16),
               np.zeros(64, np.int64), np.zeros(64, np.float16), np.zeros(64, np.float16)],
    _wide_shuffle_expect))


def _clusters(x, size, stride, f):
    out = np.zeros_like(x)
    for lane in range(64):
        block, off = lane // (size * stride) * size * stride, lane % stride
        m = [block + off + stride * k for k in range(size)]
        acc = x[m[0]]
        for j in m[1:]:
            acc = f(acc, x[j])
        out[lane] = acc
    return out


# 6. gpu.subgroup_reduce on i64, f16 and i8 values and with a strided
# cluster (upstream's lowering to a gpu.shuffle butterfly). Upstream has no
# ROCDL lowering of subgroup_reduce: NumPy only.
CASES.append(Case("subgroup_reduce_types", "sr", module("""
    gpu.func @sr(%x: memref<64xi64>, %h: memref<64xf16>, %b: memref<64xi8>, %y: memref<64xi32>,
                 %o: memref<64xi64>, %p: memref<64xf16>, %q: memref<64xi8>, %z: memref<64xi32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xi64>
      %f = memref.load %h[%i] : memref<64xf16>
      %c = memref.load %b[%i] : memref<64xi8>
      %d = memref.load %y[%i] : memref<64xi32>
      %r1 = gpu.subgroup_reduce add %v : (i64) -> i64
      memref.store %r1, %o[%i] : memref<64xi64>
      %r2 = gpu.subgroup_reduce maxnumf %f cluster(size = 16) : (f16) -> f16
      memref.store %r2, %p[%i] : memref<64xf16>
      %r3 = gpu.subgroup_reduce xor %c cluster(size = 8) : (i8) -> i8
      memref.store %r3, %q[%i] : memref<64xi8>
      %r4 = gpu.subgroup_reduce add %d cluster(size = 4, stride = 4) : (i32) -> i32
      memref.store %r4, %z[%i] : memref<64xi32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.integers(-2**40, 2**40, 64, dtype=np.int64), r.standard_normal(64).astype(np.float16),
               r.integers(-128, 128, 64).astype(np.int8), r.integers(-1000, 1000, 64).astype(np.int32),
               np.zeros(64, np.int64), np.zeros(64, np.float16), np.zeros(64, np.int8), np.zeros(64, np.int32)],
    lambda a: {4: _clusters(a[0], 64, 1, np.add), 5: _clusters(a[1], 16, 1, np.fmax),
               6: _clusters(a[2], 8, 1, np.bitwise_xor), 7: _clusters(a[3], 4, 4, np.add)}))


# 7. gpu.global_id, subgroup_id, num_subgroups (upstream's rewrites) and
# gpu.subgroup_broadcast (v_readlane / v_readfirstlane) in 2 blocks of 128.
CASES.append(Case("gpu_ids_broadcast", "gi", module("""
    gpu.func @gi(%x: memref<256xi32>, %g: memref<256xi32>, %s: memref<256xi32>, %n: memref<256xi32>,
                 %b: memref<256xi32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %gid = gpu.global_id x
      %v = memref.load %x[%gid] : memref<256xi32>
      %gi = arith.index_cast %gid : index to i32
      %c3 = arith.constant 3 : i32
      %gm = arith.muli %gi, %c3 : i32
      memref.store %gm, %g[%gid] : memref<256xi32>
      %sg = gpu.subgroup_id : index
      %sgi = arith.index_cast %sg : index to i32
      memref.store %sgi, %s[%gid] : memref<256xi32>
      %ns = gpu.num_subgroups : index
      %nsi = arith.index_cast %ns : index to i32
      memref.store %nsi, %n[%gid] : memref<256xi32>
      %l = arith.constant 9 : i32
      %bc = gpu.subgroup_broadcast %v, specific_lane %l : i32
      %fa = gpu.subgroup_broadcast %v, first_active_lane : i32
      %sum = arith.addi %bc, %fa : i32
      memref.store %sum, %b[%gid] : memref<256xi32>
      gpu.return
    }"""), (2, 1, 1), (128, 1, 1),
    lambda r: [r.integers(-1000, 1000, 256).astype(np.int32)] + [np.zeros(256, np.int32) for _ in range(4)],
    lambda a: {1: (np.arange(256) * 3).astype(np.int32), 2: ((np.arange(256) % 128) // 64).astype(np.int32),
               3: np.full(256, 2, np.int32),
               4: np.repeat(a[0].reshape(4, 64)[:, 9] + a[0].reshape(4, 64)[:, 0], 64).astype(np.int32)}))


def _scf_expect(a):
    v = a[0].astype(np.int64)
    m = np.arange(64) % 4
    sw = np.where(m == 0, 1, np.where(m == 2, 2 * v, v))
    par = v * 6                        # sum over k < 4 of k * v
    fa = a[0].copy().reshape(-1)
    out_fa = (fa + 1).astype(np.int32)
    return {1: sw.astype(np.int32), 2: (v + 7).astype(np.int32), 3: par.astype(np.int32), 4: out_fa}


# 8. scf.index_switch (nested scf.if), a one-block scf.execute_region
# (inlined), scf.parallel with an scf.reduce (nested scf.for carrying the
# sum), scf.forall on memrefs (scf.for).
CASES.append(Case("scf_switch_parallel_forall", "sp", module("""
    gpu.func @sp(%x: memref<256xi32>, %o: memref<64xi32>, %e: memref<64xi32>, %p: memref<64xi32>,
                 %f: memref<256xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %v = memref.load %x[%i] : memref<256xi32>
      %one = arith.constant 1 : i32
      %z = arith.constant 0 : i32
      %m = arith.andi %i, %c3 : index
      %r = scf.index_switch %m -> i32
      case 0 {
        scf.yield %one : i32
      }
      case 2 {
        %t = arith.addi %v, %v : i32
        scf.yield %t : i32
      }
      default {
        scf.yield %v : i32
      }
      memref.store %r, %o[%i] : memref<64xi32>
      %er = scf.execute_region -> i32 {
        %seven = arith.constant 7 : i32
        %t = arith.addi %v, %seven : i32
        scf.yield %t : i32
      }
      memref.store %er, %e[%i] : memref<64xi32>
      %pr = scf.parallel (%k) = (%c0) to (%c4) step (%c1) init (%z) -> i32 {
        %kk = arith.index_cast %k : index to i32
        %t = arith.muli %kk, %v : i32
        scf.reduce(%t : i32) {
        ^bb0(%l: i32, %rr: i32):
          %s = arith.addi %l, %rr : i32
          scf.reduce.return %s : i32
        }
      }
      memref.store %pr, %p[%i] : memref<64xi32>
      %b = arith.muli %i, %c4 : index
      scf.forall (%k) in (4) {
        %j = arith.addi %b, %k : index
        %w = memref.load %x[%j] : memref<256xi32>
        %t = arith.addi %w, %one : i32
        memref.store %t, %f[%j] : memref<256xi32>
      }
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.integers(-1000, 1000, 256).astype(np.int32), np.zeros(64, np.int32), np.zeros(64, np.int32),
               np.zeros(64, np.int32), np.zeros(256, np.int32)],
    lambda a: {**_scf_expect([a[0][:64]]), 4: (a[0] + 1).astype(np.int32)}))


# 9. memref.rank (a constant), memref.prefetch (no instruction),
# memref.distinct_objects (its operands).
CASES.append(Case("memref_rank_prefetch_distinct", "mr", module("""
    gpu.func @mr(%x: memref<64x4xf32>, %y: memref<64xf32>, %o: memref<64xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      memref.prefetch %x[%i, %c1], read, locality<3>, data : memref<64x4xf32>
      %a, %b = memref.distinct_objects %x, %y : memref<64x4xf32>, memref<64xf32>
      %rk = memref.rank %a : memref<64x4xf32>
      %u = memref.load %a[%i, %rk] : memref<64x4xf32>
      %v = memref.load %b[%i] : memref<64xf32>
      %r = arith.addf %u, %v : f32
      memref.store %r, %o[%i] : memref<64xf32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.standard_normal((64, 4)).astype(np.float32), _f32(r, 64), np.zeros(64, np.float32)],
    lambda a: {2: a[0][:, 2] + a[1]}))


def _buffer_atomic_inputs(r):
    return [r.integers(-50, 50, 64).astype(np.float32), r.integers(-50, 50, 64).astype(np.float32),
            r.integers(-1000, 1000, 64).astype(np.int32), r.integers(-1000, 1000, 64).astype(np.int32),
            r.integers(0, 4, 64).astype(np.int32), np.zeros(64, np.int32), np.zeros(64, np.int32)]


def _buffer_atomic_expect(a):
    lane = np.arange(64)
    sw = a[3][lane ^ 1]
    cas_old = a[4].copy()
    new = np.where(a[4] == 1, 100, a[4]).astype(np.int32)
    return {0: a[0] + a[1], 2: np.maximum(a[2], a[3]).astype(np.int32), 4: new,
            5: cas_old.astype(np.int32), 6: sw.astype(np.int32)}


# 10. amdgpu.raw_buffer_atomic_fadd / smax / cmpswap, amdgpu.swizzle_bitmode
# (xor 1: neighbouring lanes swap), amdgpu.memory_counter_wait and
# amdgpu.sched_barrier.
CASES.append(Case("amdgpu_buffer_atomics_swizzle", "ba", module("""
    gpu.func @ba(%x: memref<64xf32>, %y: memref<64xf32>, %m: memref<64xi32>, %n: memref<64xi32>,
                 %c: memref<64xi32>, %old: memref<64xi32>, %sw: memref<64xi32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %ii = arith.index_cast %i : index to i32
      %v = memref.load %y[%i] : memref<64xf32>
      amdgpu.raw_buffer_atomic_fadd %v -> %x[%ii] : f32 -> memref<64xf32>, i32
      %w = memref.load %n[%i] : memref<64xi32>
      amdgpu.raw_buffer_atomic_smax %w -> %m[%ii] : i32 -> memref<64xi32>, i32
      %one = arith.constant 1 : i32
      %hundred = arith.constant 100 : i32
      %r = amdgpu.raw_buffer_atomic_cmpswap %hundred, %one -> %c[%ii] : i32 -> memref<64xi32>, i32
      memref.store %r, %old[%i] : memref<64xi32>
      amdgpu.memory_counter_wait load(0) store(0) ds(0)
      amdgpu.sched_barrier allow = <none>
      %s = amdgpu.swizzle_bitmode %w 31 0 1 : i32
      memref.store %s, %sw[%i] : memref<64xi32>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1), _buffer_atomic_inputs, _buffer_atomic_expect))


def _half_expect(a):
    x, y = a[0].reshape(64, 4), a[1].reshape(64, 4)
    s = (x * y + x).astype(np.float16)
    r = np.zeros(64, np.float16)
    for k in range(4):
        r = (r.astype(np.float32) + s[:, k].astype(np.float32)).astype(np.float16)
    w = a[2].reshape(64, 2)
    return {3: s.reshape(-1), 4: r, 5: (w + w[:, ::-1] * 3).reshape(-1)}


# 11. Vectors of 16- and 64-bit elements in per-element ops (unpacked from
# their words, packed back): f16 multiply and add, an f16 reduction with an
# accumulator (in order: rounded to f16 after each add), i64 arithmetic with
# a shuffle. Small integers in f16: the products and sums are exact.
CASES.append(Case("vector_f16_i64_elementwise", "vh", module("""
    gpu.func @vh(%x: memref<256xf16>, %y: memref<256xf16>, %w: memref<128xi64>, %o: memref<256xf16>,
                 %r: memref<64xf16>, %q: memref<128xi64>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %c2 = arith.constant 2 : index
      %b = arith.muli %i, %c4 : index
      %b2 = arith.muli %i, %c2 : index
      %n0 = arith.constant 0 : index
      %n1 = arith.constant 1 : index
      %n2 = arith.constant 2 : index
      %n3 = arith.constant 3 : index
      %k0 = arith.addi %b, %n0 : index
      %x0 = memref.load %x[%k0] : memref<256xf16>
      %y0 = memref.load %y[%k0] : memref<256xf16>
      %k1 = arith.addi %b, %n1 : index
      %x1 = memref.load %x[%k1] : memref<256xf16>
      %y1 = memref.load %y[%k1] : memref<256xf16>
      %k2 = arith.addi %b, %n2 : index
      %x2 = memref.load %x[%k2] : memref<256xf16>
      %y2 = memref.load %y[%k2] : memref<256xf16>
      %k3 = arith.addi %b, %n3 : index
      %x3 = memref.load %x[%k3] : memref<256xf16>
      %y3 = memref.load %y[%k3] : memref<256xf16>
      %a = vector.from_elements %x0, %x1, %x2, %x3 : vector<4xf16>
      %v = vector.from_elements %y0, %y1, %y2, %y3 : vector<4xf16>
      %m = arith.mulf %a, %v : vector<4xf16>
      %s = arith.addf %m, %a : vector<4xf16>
      %s0:4 = vector.to_elements %s : vector<4xf16>
      memref.store %s0#0, %o[%k0] : memref<256xf16>
      memref.store %s0#1, %o[%k1] : memref<256xf16>
      memref.store %s0#2, %o[%k2] : memref<256xf16>
      memref.store %s0#3, %o[%k3] : memref<256xf16>
      %z = arith.constant 0.0 : f16
      %red = vector.reduction <add>, %s, %z : vector<4xf16> into f16
      memref.store %red, %r[%i] : memref<64xf16>
      %e0 = memref.load %w[%b2] : memref<128xi64>
      %c1 = arith.constant 1 : index
      %b21 = arith.addi %b2, %c1 : index
      %e1 = memref.load %w[%b21] : memref<128xi64>
      %wv = vector.from_elements %e0, %e1 : vector<2xi64>
      %sw = vector.shuffle %wv, %wv [1, 0] : vector<2xi64>, vector<2xi64>
      %three = arith.constant dense<3> : vector<2xi64>
      %t = arith.muli %sw, %three : vector<2xi64>
      %u = arith.addi %wv, %t : vector<2xi64>
      %u0 = vector.extract %u[0] : i64 from vector<2xi64>
      %u1 = vector.extract %u[1] : i64 from vector<2xi64>
      memref.store %u0, %q[%b2] : memref<128xi64>
      memref.store %u1, %q[%b21] : memref<128xi64>
      gpu.return
    }"""), (1, 1, 1), (64, 1, 1),
    lambda r: [r.integers(-4, 5, 256).astype(np.float16), r.integers(-4, 5, 256).astype(np.float16),
               r.integers(-2**40, 2**40, 128, dtype=np.int64), np.zeros(256, np.float16),
               np.zeros(64, np.float16), np.zeros(128, np.int64)],
    _half_expect))
