"""amdgcn-lower's reductions of 8- and 16-bit values (issue 26 item 2:
gpu.all_reduce with an op or a region across 1-16 waves, gpu.subgroup_reduce,
on i8, i16, f16 and bf16), in lower_suite.py's Case form: each built by aster and by
LLVM, both checked against NumPy.

aster moves the dword holding the value (ds_swizzle / ds_bpermute / one LDS
dword per wave) and combines with the type's own arith lowering (an f16 add
is v_add_f16; LowerArith16.cpp), as LLVM's build of upstream's
AllReduceLowering does with its 16-bit gpu.shuffle and arith ops. LLVM's
build of gpu.all_reduce is wrong when the number of 32-lane warps is not a
power of two (lower_suite_gpu.py says why): those cases (192 work-items)
give LLVM the reduction written out serially (workgroup memory, a barrier,
an in-order loop: `llvm_mlir`). gpu.subgroup_reduce has no ROCDL lowering
upstream: LLVM builds the same 64-lane xor butterfly of 16-bit gpu.shuffle.

Inputs are small integers (in f16 / bf16 too) so every order of the
additions gives the same exact sum: aster's and LLVM's orders differ.
"""
import ml_dtypes
import numpy as np

from lower_suite import Case, module
from lower_suite_gpu import _linear_id, serial_all_reduce

CASES = []

_DT = {"i8": np.int8, "i16": np.int16, "f16": np.float16, "bf16": ml_dtypes.bfloat16}


def _inputs(ty, n, lo=-8, hi=8, odd=False):
    def make(r):
        x = r.integers(lo, hi, n).astype(np.int64)
        if odd:
            x = 2 * x + 1
        return [x.astype(np.float32).astype(_DT[ty]) if ty[0] in "fb" else x.astype(_DT[ty]),
                np.zeros(n, _DT[ty])]
    return make


def _all_reduce(name, ty, reduce, expect, block, known=True, llvm_mlir=None, lo=-8, hi=8,
                odd=False):
    bx, by = block
    n = bx * by
    attrs = f"attributes {{known_block_size = array<i32: {bx}, {by}, 1>}} " if known else ""
    text = module(f"""
    gpu.func @ar(%x: memref<{n}x{ty}>, %y: memref<{n}x{ty}>) kernel {attrs}{{
      {_linear_id(bx, by)}
      %v = memref.load %x[%i] : memref<{n}x{ty}>
      {reduce.replace("TY", ty)}
      memref.store %r, %y[%i] : memref<{n}x{ty}>
      gpu.return
    }}""")
    c = Case(name, "ar", text, (1, 1, 1), (bx, by, 1), _inputs(ty, n, lo, hi, odd),
             lambda a: {1: np.full(n, expect(a[0]), _DT[ty])}, llvm_mlir=llvm_mlir)
    c.compare = llvm_mlir is None
    return c


def _wrap(dt):
    return lambda x: x.astype(np.int64).sum().astype(dt)


# i16 add over 4 whole waves, wrapping (values up to 2^12: the sum leaves i16).
CASES.append(_all_reduce("all_reduce_i16_add_4w", "i16",
                         "%r = gpu.all_reduce add %v uniform {} : (TY) -> TY",
                         _wrap(np.int16), (256, 1), lo=-4096, hi=4096))
# i8 signed min, 100 work-items (a partial second wave), no known_block_size:
# the block size from the dispatch packet; the upper bits of each dword
# differ between lanes, so the compare must sign-extend first.
CASES.append(_all_reduce("all_reduce_i8_minsi_partial", "i8",
                         "%r = gpu.all_reduce minsi %v uniform {} : (TY) -> TY",
                         lambda x: x.min(), (100, 1), known=False, lo=-128, hi=128))
# i8 unsigned max, 2-D block 32 x 4 (two waves).
CASES.append(_all_reduce("all_reduce_i8_maxui_2d", "i8",
                         "%r = gpu.all_reduce maxui %v uniform {} : (TY) -> TY",
                         lambda x: x.view(np.uint8).max().view(np.int8), (32, 4),
                         lo=-128, hi=128))
# f16 add over 8 waves (v_add_f16 per step; the exact sum of small integers).
CASES.append(_all_reduce("all_reduce_f16_add_8w", "f16",
                         "%r = gpu.all_reduce add %v uniform {} : (TY) -> TY",
                         lambda x: x.astype(np.float64).sum().astype(np.float16), (512, 1)))
# bf16 region (max as compare + select) over 192 work-items (3 waves; 6
# 32-lane warps: LLVM builds the serial form).
_BF16_MAX = """%r = gpu.all_reduce %v uniform {
      ^bb0(%a: TY, %b: TY):
        %gt = arith.cmpf ogt, %a, %b : TY
        %m = arith.select %gt, %a, %b : TY
        gpu.yield %m : TY
      } : (TY) -> TY"""
CASES.append(_all_reduce("all_reduce_bf16_region_192", "bf16", _BF16_MAX,
                         lambda x: x.astype(np.float32).max().astype(ml_dtypes.bfloat16),
                         (192, 1), llvm_mlir=serial_all_reduce(192, "bf16", """%gt = arith.cmpf ogt, %a, %b : bf16
        %m = arith.select %gt, %a, %b : bf16"""), lo=-100, hi=100))
# i16 region (unsigned min as compare + select) over 16 waves.
CASES.append(_all_reduce("all_reduce_i16_region_16w", "i16", """%r = gpu.all_reduce %v uniform {
      ^bb0(%a: TY, %b: TY):
        %lt = arith.cmpi ult, %a, %b : TY
        %m = arith.select %lt, %a, %b : TY
        gpu.yield %m : TY
      } : (TY) -> TY""", lambda x: x.view(np.uint16).min().view(np.int16), (1024, 1),
                         lo=-30000, hi=30000))
# i16 mul, 64 work-items in one wave (no LDS step); odd factors, so the
# wrapped product is not 0.
CASES.append(_all_reduce("all_reduce_i16_mul_1w", "i16",
                         "%r = gpu.all_reduce mul %v uniform {} : (TY) -> TY",
                         lambda x: np.multiply.reduce(x.astype(np.int64)).astype(np.int16),
                         (64, 1), lo=-3, hi=3, odd=True))


def _subgroup(name, ty, kind, arith, cluster, expect):
    """gpu.subgroup_reduce of a 16- or 8-bit value (whole wave or clusters);
    LLVM's text the xor butterfly of gpu.shuffle over log2(cluster) steps."""
    body = f"""
    gpu.func @sr(%x: memref<128x{ty}>, %y: memref<128x{ty}>) kernel
        attributes {{known_block_size = array<i32: 128, 1, 1>}} {{
      %i = gpu.thread_id x
      %s0 = memref.load %x[%i] : memref<128x{ty}>
      %w64 = arith.constant 64 : i32
REDUCE
      memref.store %s, %y[%i] : memref<128x{ty}>
      gpu.return
    }}"""
    cl = f" cluster(size = {cluster})" if cluster < 64 else ""
    ours = f"      %s = gpu.subgroup_reduce {kind} %s0{cl} : ({ty}) -> {ty}"
    steps = cluster.bit_length() - 1
    theirs = "\n".join(
        f"      %c{k} = arith.constant {1 << k} : i32\n"
        f"      %o{k}, %k{k} = gpu.shuffle xor %s{k}, %c{k}, %w64 : {ty}\n"
        f"      %s{k + 1 if k + 1 < steps else ''} = {arith} %s{k}, %o{k} : {ty}"
        for k in range(steps))
    return Case(name, "sr", module(body.replace("REDUCE", ours)), (1, 1, 1), (128, 1, 1),
                _inputs(ty, 128, -100, 100),
                lambda a: {1: np.repeat(expect(a[0].reshape(-1, cluster)), cluster)},
                llvm_mlir=module(body.replace("REDUCE", theirs)))


# The whole wave's i16 add (wrapping); clusters of 16 lanes of an f16 max;
# i8 xor in clusters of 4.
CASES.append(_subgroup("subgroup_reduce_i16_add", "i16", "add", "arith.addi", 64,
                       lambda x: x.astype(np.int64).sum(axis=1).astype(np.int16)))
CASES.append(_subgroup("subgroup_reduce_f16_max_c16", "f16", "maxnumf", "arith.maxnumf", 16,
                       lambda x: x.max(axis=1)))
CASES.append(_subgroup("subgroup_reduce_i8_xor_c4", "i8", "xor", "arith.xori", 4,
                       lambda x: np.bitwise_xor.reduce(x, axis=1)))


# Every op kind in one kernel (2 waves): i16 add, mul, minsi, maxsi, minui,
# maxui, and, or, xor; f16 add, minnumf, maxnumf, and mul of +-1 values
# (exact), work-item 0 writing the 13 results. (f16 minimumf / maximumf: the
# arith ops themselves are not lowered for f16 yet, LowerArith16.cpp.)
_I16_KINDS = ["add", "mul", "minsi", "maxsi", "minui", "maxui", "and", "or", "xor"]
_F16_KINDS = ["add", "minnumf", "maxnumf"]


def _kinds_text():
    lines = []
    for k, kind in enumerate(_I16_KINDS):
        lines.append(f"%ri{k} = gpu.all_reduce {kind} %v uniform {{}} : (i16) -> i16")
        lines.append(f"%ci{k} = arith.constant {k} : index")
    for k, kind in enumerate(_F16_KINDS):
        lines.append(f"%rf{k} = gpu.all_reduce {kind} %h uniform {{}} : (f16) -> f16")
        lines.append(f"%cf{k} = arith.constant {k} : index")
    lines.append("%rm = gpu.all_reduce mul %s uniform {} : (f16) -> f16")
    lines.append("%c3 = arith.constant 3 : index")
    stores = [f"memref.store %ri{k}, %yi[%ci{k}] : memref<9xi16>" for k in range(len(_I16_KINDS))]
    stores += [f"memref.store %rf{k}, %yf[%cf{k}] : memref<4xf16>" for k in range(len(_F16_KINDS))]
    stores.append("memref.store %rm, %yf[%c3] : memref<4xf16>")
    return module(f"""
    gpu.func @kinds(%x: memref<128xi16>, %hx: memref<128xf16>, %sx: memref<128xf16>,
                    %yi: memref<9xi16>, %yf: memref<4xf16>) kernel
        attributes {{known_block_size = array<i32: 128, 1, 1>}} {{
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<128xi16>
      %h = memref.load %hx[%i] : memref<128xf16>
      %s = memref.load %sx[%i] : memref<128xf16>
      """ + "\n      ".join(lines) + """
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %i, %c0 : index
      scf.if %first {
        """ + "\n        ".join(stores) + """
      }
      gpu.return
    }""")


def _kinds_inputs(r):
    return [r.integers(-30000, 30000, 128).astype(np.int16),
            r.integers(-50, 50, 128).astype(np.float16),
            r.choice(np.array([-1, 1], np.float16), 128),
            np.zeros(9, np.int16), np.zeros(4, np.float16)]


def _kinds_expect(a):
    x, h, s = a[0], a[1], a[2]
    w = x.astype(np.int64)
    u = x.view(np.uint16)
    ints = [w.sum(), np.multiply.reduce(w), x.min(), x.max(), u.min(), u.max(),
            np.bitwise_and.reduce(x), np.bitwise_or.reduce(x), np.bitwise_xor.reduce(x)]
    fl = [h.astype(np.float64).sum(), h.min(), h.max(), np.multiply.reduce(s.astype(np.float64))]
    return {3: np.array([np.int64(v) & 0xffff for v in ints], np.uint16).view(np.int16),
            4: np.array(fl, np.float16)}


CASES.append(Case("all_reduce_narrow_kinds", "kinds", _kinds_text(), (1, 1, 1), (128, 1, 1),
                  _kinds_inputs, _kinds_expect))
