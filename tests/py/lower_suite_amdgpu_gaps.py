"""Kernels of the amdgpu dialect's gaps closed in issue 26 (item 2), each
with its NumPy (ml_dtypes for 8-bit floats) result, run by
test_lower_amdgpu_gaps.py on aster's build and on LLVM's build (mlir-opt-22
convert-gpu-to-rocdl + llc-22) of the same kernel:

  * amdgpu.mfma: the 2-block 32x32 shapes (32 accumulator registers), fp8 /
    bf8 (FNUZ on gfx942, OCP on gfx950), xf32, f64 (2-register sources,
    negateA/B/C), cbsz / abid / blgp. Expected D from AMD's published register
    layouts (mfma_layouts.py: the Matrix Instruction Calculator) and
    A @ B + C per block (inputs exact in every format, so any summation order
    gives the same bits).
  * amdgpu.dpp: row shifts / rotates, wave shifts, mirrors, broadcasts,
    quad_perm, row_mask / bank_mask, bound_ctrl; NumPy reads the source lane
    as AMD's CDNA3 ISA ("Data Parallel Processing", DPP_CTRL) names it.
  * amdgpu.ext_packed_fp8 / packed_trunc_2xfp8 / packed_stoch_round_fp8
    against ml_dtypes' float8_e4m3fnuz / e5m2fnuz (gfx942) and e4m3fn /
    e5m2 (gfx950); stochastic rounding against test_emu_formats'
    sr_fp8_reference (AMD's rocjitsu definition).
  * amdgpu.raw_buffer_load / store of 8/16/64-bit elements and vectors, out
    of range reads 0 and dropped stores (CDNA3 ISA "Buffer Instructions":
    range checking); fat_raw_buffer_cast with validBytes / resetOffset;
    gather_to_lds; permlane_swap (gfx950).
"""
import ml_dtypes
import numpy as np

from lower_suite import Case, module
from mfma_layouts import SHAPES, blgp_lane, cbsz_abid_block, input_place

CASES = []    # (Case, target)

# ---------------------------------------------------------------------------
# amdgpu.mfma
# ---------------------------------------------------------------------------
MLIR_T = {"f32": "f32", "xf32": "f32", "f16": "f16", "bf16": "bf16", "i8": "i8", "f64": "f64",
          "i32": "i32"}
F8 = {("gfx942", "fp8"): ("f8E4M3FNUZ", ml_dtypes.float8_e4m3fnuz),
      ("gfx942", "bf8"): ("f8E5M2FNUZ", ml_dtypes.float8_e5m2fnuz),
      ("gfx950", "fp8"): ("f8E4M3FN", ml_dtypes.float8_e4m3fn),
      ("gfx950", "bf8"): ("f8E5M2", ml_dtypes.float8_e5m2)}
NP_T = {"f32": np.float32, "xf32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16,
        "i8": np.int8, "f64": np.float64, "i32": np.int32}
BITS = {"f64": 64, "f32": 32, "xf32": 32, "i32": 32, "f16": 16, "bf16": 16, "i8": 8, "fp8": 8,
        "bf8": 8}


def _elem(arch, ty):
    return F8[(arch, ty)] if ty in ("fp8", "bf8") else (MLIR_T[ty], NP_T[ty])


def _lanes_of(sh, ty):
    """(elements per lane, 32-bit words per lane) of A/B of shape sh."""
    kpl = sh.m * sh.k * sh.blocks // 64
    return kpl, max(1, kpl * BITS[ty] // 32)


def _mfma_text(sh, arch, attrs):
    """The kernel: each lane loads its A, B, C words, one amdgpu.mfma, stores D."""
    na, wa = _lanes_of(sh, sh.a)
    nb, wb = _lanes_of(sh, sh.b)
    nc = sh.m * sh.n * sh.blocks // 64
    wc = nc * BITS[sh.out] // 32
    ta, tb, tc = _elem(arch, sh.a)[0], _elem(arch, sh.b)[0], MLIR_T[sh.out]
    lines, names, types = ["      %i = gpu.thread_id x\n"], [], []
    for n, arr, cnt, w, t in (("a", "x", na, wa, ta), ("b", "y", nb, wb, tb), ("c", "z", nc, wc, tc)):
        lines.append(f"      %{n}_c = arith.constant {w} : index\n"
                     f"      %{n}_at = arith.muli %i, %{n}_c : index\n"
                     f"      %{n}_w = vector.load %{arr}[%{n}_at] : memref<{64 * w}xi32>, vector<{w}xi32>\n"
                     f"      %{n}_v = vector.bitcast %{n}_w : vector<{w}xi32> to vector<{cnt}x{t}>\n")
        if cnt == 1:
            lines.append(f"      %{n}_s = vector.extract %{n}_v[0] : {t} from vector<1x{t}>\n")
            names.append(f"%{n}_s")
            types.append(t)
        else:
            names.append(f"%{n}_v")
            types.append(f"vector<{cnt}x{t}>")
    lines.append(f"      %r = amdgpu.mfma {sh.m}x{sh.n}x{sh.k} {names[0]} * {names[1]} + {names[2]} "
                 f"{attrs} : {types[0]}, {types[1]}, {types[2]}\n")
    if nc == 1:
        lines.append(f"      %r_v = vector.broadcast %r : {tc} to vector<1x{tc}>\n"
                     f"      %r_w = vector.bitcast %r_v : vector<1x{tc}> to vector<{wc}xi32>\n")
    else:
        lines.append(f"      %r_w = vector.bitcast %r : {types[2]} to vector<{wc}xi32>\n")
    lines.append(f"      vector.store %r_w, %o[%c_at] : memref<{64 * wc}xi32>, vector<{wc}xi32>\n")
    return module(f"""    gpu.func @mfma(%x: memref<{64 * wa}xi32>, %y: memref<{64 * wb}xi32>, %z: memref<{64 * wc}xi32>, %o: memref<{64 * wc}xi32>) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
{"".join(lines)}      gpu.return
    }}"""), (wa, wb, wc)


def _values(ty, shape, rng):
    if ty == "i8":
        return rng.integers(-128, 128, shape).astype(np.float64)
    if ty == "i32":
        return rng.integers(-2**20, 2**20, shape).astype(np.float64)
    return rng.integers(-8, 9, shape) / 4.0       # exact in every float format here


def _pack_in(sh, mat, dt):
    """mat[block, row, k] (row = i of A, j of B) -> per-lane words, as the layout places them."""
    kpl = sh.m * sh.k * sh.blocks // 64
    lanes = np.zeros((64, kpl), dt)
    for b in range(sh.blocks):
        for r in range(sh.m):
            for k in range(sh.k):
                lane, slot = input_place(sh, b, r, k)
                lanes[lane, slot] = mat[b, r, k]
    by = np.ascontiguousarray(lanes).view(np.uint8).reshape(64, -1)
    if by.shape[1] < 4:
        by = np.concatenate([by, np.zeros((64, 4 - by.shape[1]), np.uint8)], 1)
    return by.reshape(-1).view(np.int32).copy()


def _pack_out(sh, mat):
    from mfma_layouts import output_place
    per = sh.m * sh.n * sh.blocks // 64
    lanes = np.zeros((64, per), NP_T[sh.out])
    for b in range(sh.blocks):
        for i in range(sh.m):
            for j in range(sh.n):
                lane, slot = output_place(sh, b, i, j)
                lanes[lane, slot] = mat[b, i, j]
    return lanes.reshape(-1).view(np.int32).copy()


def mfma_case(name, arch="gfx942", cbsz=0, abid=0, blgp=0, neg=0):
    """amdgpu.mfma of the instruction `name` with these modifiers (blgp: the
    amdgpu.MFMAPermB enum value = the BLGP field; neg: bit 0 negateA, 1 B,
    2 C, f64 only)."""
    sh = SHAPES[name]
    blgp_names = ["none", "bcast_first_32", "bcast_second_32", "rotate_16_right",
                  "bcast_first_16", "bcast_second_16", "bcast_third_16", "bcast_fourth_16"]
    extra = "".join(f", {n}" for b, n in ((1, "negateA"), (2, "negateB"), (4, "negateC")) if neg & b)
    red = ", reducePrecision" if sh.a == "xf32" else ""
    attrs = (f"{{blocks = {sh.blocks} : i32, abid = {abid} : i32, cbsz = {cbsz} : i32{red}{extra}}} "
             f"blgp = {blgp_names[blgp]}")
    text, (wa, wb, wc) = _mfma_text(sh, arch, attrs)
    da, db = _elem(arch, sh.a)[1], _elem(arch, sh.b)[1]

    def mats(r):
        a = _values(sh.a, (sh.blocks, sh.m, sh.k), r)
        b = _values(sh.b, (sh.blocks, sh.k, sh.n), r)
        c = _values(sh.out, (sh.blocks, sh.m, sh.n), r)
        return a, b, c

    def inputs(r):
        a, b, c = mats(r)
        return [_pack_in(sh, a.astype(da), da), _pack_in(sh, np.swapaxes(b, 1, 2).astype(db), db),
                _pack_out(sh, c), np.zeros(64 * wc, np.int32)]

    def expect(args):
        a, b, c = mats(np.random.default_rng(0))
        a = a[[cbsz_abid_block(x, cbsz, abid) for x in range(sh.blocks)]] if cbsz else a
        if blgp:
            where = {}
            for blk in range(sh.blocks):
                for j in range(sh.n):
                    for k in range(sh.k):
                        where[input_place(sh, blk, j, k)] = (blk, k, j)
            b_eff = np.empty_like(b)
            for (lane, slot), at in where.items():
                b_eff[at] = b[where[(blgp_lane(lane, blgp), slot)]]
            b = b_eff
        sa, sb, sc = (-1.0 if neg >> i & 1 else 1.0 for i in range(3))
        return {3: _pack_out(sh, (sa * a) @ (sb * b) + sc * c)}

    tag = "".join(f"_{k}{v}" for k, v in (("cbsz", cbsz), ("abid", abid), ("blgp", blgp), ("neg", neg)) if v)
    return Case(f"mfma_{name[7:]}_{arch}{tag}", "mfma", text, (1, 1, 1), (64, 1, 1), inputs, expect,
                launch={}), arch


MFMA = [mfma_case("v_mfma_f32_32x32x1_2b_f32"), mfma_case("v_mfma_f32_32x32x4_2b_f16"),
        mfma_case("v_mfma_f32_32x32x4_2b_bf16"), mfma_case("v_mfma_i32_32x32x4_2b_i8"),
        mfma_case("v_mfma_f32_16x16x32_fp8_fp8"), mfma_case("v_mfma_f32_16x16x32_bf8_fp8"),
        mfma_case("v_mfma_f32_32x32x16_fp8_bf8"), mfma_case("v_mfma_f32_32x32x16_bf8_bf8"),
        mfma_case("v_mfma_f32_16x16x8_xf32"), mfma_case("v_mfma_f32_32x32x4_xf32"),
        mfma_case("v_mfma_f64_16x16x4_f64"), mfma_case("v_mfma_f64_4x4x4_4b_f64"),
        mfma_case("v_mfma_f64_16x16x4_f64", neg=5), mfma_case("v_mfma_f64_4x4x4_4b_f64", neg=2),
        mfma_case("v_mfma_f32_4x4x1_16b_f32", cbsz=4, abid=9),
        mfma_case("v_mfma_f32_16x16x4_4b_f16", cbsz=2, abid=3, blgp=3),
        mfma_case("v_mfma_i32_32x32x4_2b_i8", cbsz=1, abid=1, blgp=1),
        mfma_case("v_mfma_f32_32x32x8_f16", blgp=2), mfma_case("v_mfma_f32_16x16x16_bf16", blgp=6),
        mfma_case("v_mfma_f32_16x16x32_bf8_fp8", blgp=4),
        mfma_case("v_mfma_f32_16x16x32_fp8_fp8", "gfx950"),
        mfma_case("v_mfma_f32_32x32x16_bf8_fp8", "gfx950"),
        mfma_case("v_mfma_f32_16x16x32_f16", "gfx950")]

# ---------------------------------------------------------------------------
# amdgpu.dpp
# ---------------------------------------------------------------------------
DPP_KINDS = [  # (kind, argument text, attributes text)
    ("row_shl", "( 1 : i32 )", "{ bound_ctrl = true }"), ("row_shr", "( 3 : i32 )", ""),
    ("row_ror", "( 5 : i32 )", ""), ("wave_shl", "", "{ bound_ctrl = true }"), ("wave_shr", "", ""),
    ("wave_rol", "", ""), ("wave_ror", "", ""), ("row_mirror", "", ""), ("row_half_mirror", "", ""),
    ("row_bcast_15", "", "{ row_mask = 0xa : i32 }"), ("row_bcast_31", "", "{ row_mask = 0xc : i32 }"),
    ("quad_perm", "( [1 : i32, 0 : i32, 3 : i32, 3 : i32] )", ""),
    ("row_shl", "( 15 : i32 )", "{ row_mask = 0x5 : i32, bank_mask = 0x6 : i32 }")]


def _dpp_source(kind, arg, lane):
    """The lane `lane` reads (None: an invalid lane), CDNA3 ISA DPP_CTRL:
    row_shl:n reads lane + n of its 16-lane row, row_shr:n lane - n, row_ror:n
    rotates right within the row, wave_shl/shr/rol/ror by one lane of the
    wave (shifts: invalid past the ends), row_mirror / row_half_mirror
    reverse the row / 8-lane half row, row_bcast:15 reads lane 15 of the row
    below (rows 1-3), row_bcast:31 lane 31 (rows 2-3), quad_perm picks within
    each 4 lanes."""
    row, r = lane // 16 * 16, lane % 16
    if kind == "row_shl":
        return lane + arg if r + arg < 16 else None
    if kind == "row_shr":
        return lane - arg if r - arg >= 0 else None
    if kind == "row_ror":
        return row + (r - arg) % 16
    if kind == "wave_shl":
        return lane + 1 if lane < 63 else None
    if kind == "wave_shr":
        return lane - 1 if lane > 0 else None
    if kind == "wave_rol":
        return (lane + 1) % 64
    if kind == "wave_ror":
        return (lane - 1) % 64
    if kind == "row_mirror":
        return row + 15 - r
    if kind == "row_half_mirror":
        return lane // 8 * 8 + 7 - lane % 8
    if kind == "row_bcast_15":
        return row - 1 if row else None
    if kind == "row_bcast_31":
        return 31 if row >= 32 else None
    return lane // 4 * 4 + arg[lane % 4]


def _dpp_expect(src, old, kind, arg, row_mask=0xf, bank_mask=0xf, bound_ctrl=False):
    out = old.copy()
    for lane in range(64):
        if not (row_mask >> (lane // 16) & 1 and bank_mask >> (lane % 16 // 4) & 1):
            continue
        s = _dpp_source(kind, arg, lane)
        if s is None:
            if bound_ctrl:
                out[lane] = 0
        else:
            out[lane] = src[s]
    return out


def _dpp_case():
    lines = ["      %i = gpu.thread_id x\n",
             "      %a = memref.load %x[%i] : memref<64xi32>\n",
             "      %b = memref.load %y[%i] : memref<64xi32>\n",
             "      %af = arith.bitcast %a : i32 to f32\n      %bf = arith.bitcast %b : i32 to f32\n",
             "      %c64 = arith.constant 64 : index\n"]
    for k, (kind, arg, attrs) in enumerate(DPP_KINDS):
        t, a, b = ("f32", "%af", "%bf") if k % 2 else ("i32", "%a", "%b")
        lines.append(f"      %r{k} = amdgpu.dpp {b} {a} {kind} {arg} {attrs} : {t}\n")
        if t == "f32":
            lines.append(f"      %s{k} = arith.bitcast %r{k} : f32 to i32\n")
        else:
            lines.append(f"      %s{k} = arith.addi %r{k}, %c0i : i32\n")
        lines.append(f"      %at{k} = arith.constant {64 * k} : index\n"
                     f"      %o{k} = arith.addi %i, %at{k} : index\n"
                     f"      memref.store %s{k}, %o[%o{k}] : memref<{64 * len(DPP_KINDS)}xi32>\n")
    lines.insert(1, "      %c0i = arith.constant 0 : i32\n")
    text = module(f"""    gpu.func @dpp(%x: memref<64xi32>, %y: memref<64xi32>, %o: memref<{64 * len(DPP_KINDS)}xi32>) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
{"".join(lines)}      gpu.return
    }}""")

    def inputs(r):
        return [r.integers(1, 2**30, 64).astype(np.int32), r.integers(1, 2**30, 64).astype(np.int32),
                np.zeros(64 * len(DPP_KINDS), np.int32)]

    def expect(args):
        x, y, _ = args
        outs = []
        for kind, arg, attrs in DPP_KINDS:
            n = None
            if arg:
                n = eval(arg.replace(": i32", "").replace("(", "").replace(")", ""))
            kw = {}
            for key in ("row_mask", "bank_mask"):
                if key in attrs:
                    kw[key] = int(attrs.split(key + " = ")[1].split(" ")[0], 16)
            kw["bound_ctrl"] = "bound_ctrl = true" in attrs
            outs.append(_dpp_expect(x, y, kind, n, **kw))
        return {2: np.concatenate(outs)}
    return Case("dpp_kinds", "dpp", text, (1, 1, 1), (64, 1, 1), inputs,
                lambda a: expect(inputs(np.random.default_rng(0))))


CASES.append((_dpp_case(), "gfx942"))


# ---------------------------------------------------------------------------
# 8-bit float conversions
# ---------------------------------------------------------------------------
def _fp8_case(arch, fmt):
    """ext_packed_fp8 of bytes 0 and 3 and of word 1 (vector<2xf32>),
    packed_trunc_2xfp8 into word 1 of an existing word, packed_stoch_round_fp8
    into byte 2 with a divergent random word."""
    t, dt = F8[(arch, fmt)]
    text = module(f"""    gpu.func @fp8(%w: memref<64xi32>, %f: memref<128xf32>, %s: memref<64xi32>, %o: memref<384xi32>) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c192 = arith.constant 192 : index
      %c256 = arith.constant 256 : index
      %c320 = arith.constant 320 : index
      %word = memref.load %w[%i] : memref<64xi32>
      %v1 = vector.broadcast %word : i32 to vector<1xi32>
      %q = vector.bitcast %v1 : vector<1xi32> to vector<4x{t}>
      %e0 = amdgpu.ext_packed_fp8 %q[0] : vector<4x{t}> to f32
      %e3 = amdgpu.ext_packed_fp8 %q[3] : vector<4x{t}> to f32
      %p1 = amdgpu.ext_packed_fp8 %q[1] : vector<4x{t}> to vector<2xf32>
      %p1a = vector.extract %p1[0] : f32 from vector<2xf32>
      %p1b = vector.extract %p1[1] : f32 from vector<2xf32>
      %j = arith.addi %i, %c64 : index
      %fa = memref.load %f[%i] : memref<128xf32>
      %fb = memref.load %f[%j] : memref<128xf32>
      %tr = amdgpu.packed_trunc_2xfp8 %fa, %fb into %q[word 1] : f32 to vector<4x{t}> into vector<4x{t}>
      %seed = memref.load %s[%i] : memref<64xi32>
      %sr = amdgpu.packed_stoch_round_fp8 %fa + %seed into %q[2] : f32 to vector<4x{t}> into vector<4x{t}>
      %trw = vector.bitcast %tr : vector<4x{t}> to vector<1xi32>
      %srw = vector.bitcast %sr : vector<4x{t}> to vector<1xi32>
      %tri = vector.extract %trw[0] : i32 from vector<1xi32>
      %sri = vector.extract %srw[0] : i32 from vector<1xi32>
      %b0 = arith.bitcast %e0 : f32 to i32
      %b3 = arith.bitcast %e3 : f32 to i32
      %ba = arith.bitcast %p1a : f32 to i32
      %bb = arith.bitcast %p1b : f32 to i32
      memref.store %b0, %o[%i] : memref<384xi32>
      %o1 = arith.addi %i, %c64 : index
      memref.store %b3, %o[%o1] : memref<384xi32>
      %o2 = arith.addi %i, %c128 : index
      memref.store %ba, %o[%o2] : memref<384xi32>
      %o3 = arith.addi %i, %c192 : index
      memref.store %bb, %o[%o3] : memref<384xi32>
      %o4 = arith.addi %i, %c256 : index
      memref.store %tri, %o[%o4] : memref<384xi32>
      %o5 = arith.addi %i, %c320 : index
      memref.store %sri, %o[%o5] : memref<384xi32>
      gpu.return
    }}""")
    fi = ml_dtypes.finfo(dt)

    def inputs(r):
        by = r.integers(0, 256, 256).astype(np.uint8)
        by[np.isnan(by.view(dt).astype(np.float32))] = 0x11      # no NaN encodings: a NaN's
        words = by.view(np.uint32)                                # payload is not compared here
        # f32 inputs inside the format's range, with exact values and ties.
        f = (r.standard_normal(128) * float(fi.max) / 8).astype(np.float32)
        f[:4] = [0.0, float(fi.max), -float(fi.tiny), 1.0]
        return [words.view(np.int32), f, r.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32).view(np.int32),
                np.zeros(384, np.int32)]

    def expect(a):
        from test_emu_formats import sr_fp8_reference
        w, f, seed = a[0].view(np.uint32), a[1], a[2].view(np.uint32)
        by = w.view(np.uint8).reshape(64, 4)
        as_f = by.copy().view(dt).astype(np.float32)          # each byte as the format
        tr = by.copy()
        tr[:, 2] = f[:64].astype(dt).view(np.uint8)
        tr[:, 3] = f[64:].astype(dt).view(np.uint8)
        sr = by.copy()
        sr[:, 2] = sr_fp8_reference(f[:64].view(np.uint32), seed, dt)
        return {3: np.concatenate([as_f[:, 0].view(np.int32), as_f[:, 3].view(np.int32),
                                   as_f[:, 2].view(np.int32), as_f[:, 3].view(np.int32),
                                   tr.reshape(-1).view(np.int32), sr.reshape(-1).view(np.int32)])}
    return Case(f"fp8_conversions_{fmt}_{arch}", "fp8", text, (1, 1, 1), (64, 1, 1), inputs, expect,
                nan_any={}), arch


CASES += [_fp8_case(a, f) for a in ("gfx942", "gfx950") for f in ("fp8", "bf8")]

# ---------------------------------------------------------------------------
# Buffers: narrow raw_buffer_load / store, out of range, fat buffers, gather_to_lds
# ---------------------------------------------------------------------------
def _buffer_case(t, n, np_t):
    vt = t if n == 1 else f"vector<{n}x{t}>"
    S = max(256, 128 * n)       # elements: lanes 56..63 of the far access fall past the end
    text = module(f"""    gpu.func @buf(%x: memref<{S}x{t}>, %o: memref<{S}x{t}>) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %ii = arith.index_cast %i : index to i32
      %cn = arith.constant {n} : i32
      %k = arith.muli %ii, %cn : i32
      %c200 = arith.constant {S - 56 * n} : i32
      %far = arith.addi %k, %c200 : i32
      %v = amdgpu.raw_buffer_load %x[%k] : memref<{S}x{t}>, i32 -> {vt}
      %w = amdgpu.raw_buffer_load %x[%far] : memref<{S}x{t}>, i32 -> {vt}
      amdgpu.raw_buffer_store %v -> %o[%k] : {vt} -> memref<{S}x{t}>, i32
      amdgpu.raw_buffer_store %w -> %o[%far] : {vt} -> memref<{S}x{t}>, i32
      gpu.return
    }}""")

    def inputs(r):
        x = (r.integers(-100, 100, S)).astype(np_t)
        return [x, np.full(S, 7, np_t)]

    def expect(a):
        x = a[0]
        o = np.full(S, 7, np_t)
        off = S - 56 * n
        for lane in range(64):
            for e in range(n):
                o[lane * n + e] = x[lane * n + e]
        for lane in range(64):
            at = lane * n + off
            if at + n <= S:            # whole element range inside the buffer; else dropped
                o[at:at + n] = x[at:at + n]
        return {1: o}
    return Case(f"raw_buffer_{t}_x{n}", "buf", text, (1, 1, 1), (64, 1, 1), inputs, expect), "gfx942"


CASES += [_buffer_case(t, n, d) for t, n, d in (
    ("i8", 1, np.int8), ("i16", 1, np.int16), ("f16", 1, np.float16), ("bf16", 1, ml_dtypes.bfloat16),
    ("f16", 2, np.float16), ("f16", 4, np.float16), ("i8", 4, np.int8), ("i8", 8, np.int8),
    ("f64", 1, np.float64), ("i32", 3, np.int32))]


def _fat_case():
    text = module("""    gpu.func @fat(%x: memref<1024xf32>, %o: memref<64xf32>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %i = gpu.thread_id x
      %vb = arith.constant 160 : i64
      %b = amdgpu.fat_raw_buffer_cast %x validBytes(%vb) : memref<1024xf32> to memref<1024xf32, #amdgpu.address_space<fat_raw_buffer>>
      %c7 = arith.constant 7 : index
      %j = arith.addi %i, %c7 : index
      %v = memref.load %b[%j] : memref<1024xf32, #amdgpu.address_space<fat_raw_buffer>>
      %two = arith.constant 2.0 : f32
      %w = arith.mulf %v, %two : f32
      memref.store %w, %b[%i] : memref<1024xf32, #amdgpu.address_space<fat_raw_buffer>>
      memref.store %v, %o[%i] : memref<64xf32>
      gpu.return
    }""")

    def inputs(r):
        return [r.standard_normal(1024).astype(np.float32), np.zeros(64, np.float32)]

    def expect(a):
        x = a[0].copy()
        v = np.where(np.arange(64) + 7 < 40, x[np.arange(64) + 7], 0).astype(np.float32)
        x[:40] = (v * 2)[:40]         # validBytes 160: elements 0..39 in range
        return {0: x, 1: v}
    return Case("fat_raw_buffer_valid_bytes", "fat", text, (1, 1, 1), (64, 1, 1), inputs, expect), "gfx942"


CASES.append(_fat_case())


def _gather_case(t, np_t):
    """Each lane gathers x[3 * lane + 7]; the wave's data lands in LDS from
    element 8 on, a dword per lane (sub-dword data zero-extended: CDNA3 ISA
    "Global Load LDS"), read back as the lane's element and (8/16-bit) the
    one after it (0)."""
    s = 4 // np.dtype(np_t).itemsize
    text = module(f"""    gpu.func @gather(%x: memref<256x{t}>, %o: memref<128x{t}>) workgroup(%l: memref<512x{t}, #gpu.address_space<workgroup>>) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %c1 = arith.constant {1 if s > 1 else 0} : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c7 = arith.constant 7 : index
      %cs = arith.constant {s} : index
      %c64 = arith.constant 64 : index
      %j = arith.muli %i, %c3 : index
      %k = arith.addi %j, %c7 : index
      amdgpu.gather_to_lds %x[%k], %l[%c8] : {t}, memref<256x{t}>, memref<512x{t}, #gpu.address_space<workgroup>>
      amdgpu.lds_barrier
      %is = arith.muli %i, %cs : index
      %at = arith.addi %is, %c8 : index
      %at1 = arith.addi %at, %c1 : index
      %v = memref.load %l[%at] : memref<512x{t}, #gpu.address_space<workgroup>>
      %w = memref.load %l[%at1] : memref<512x{t}, #gpu.address_space<workgroup>>
      %i64 = arith.addi %i, %c64 : index
      memref.store %v, %o[%i] : memref<128x{t}>
      memref.store %w, %o[%i64] : memref<128x{t}>
      gpu.return
    }}""")

    def inputs(r):
        return [r.integers(-100, 100, 256).astype(np_t), np.zeros(128, np_t)]

    def expect(a):
        x = a[0]
        v = x[np.arange(64) * 3 + 7]
        # the element after (sub-dword types): the zero-extended high bytes
        w = np.zeros(64, np_t) if s > 1 else v
        return {1: np.concatenate([v, w])}
    return Case(f"gather_to_lds_{t}", "gather", text, (1, 1, 1), (64, 1, 1), inputs, expect), "gfx942"


CASES += [_gather_case(t, d) for t, d in (("i32", np.int32), ("f16", np.float16), ("i8", np.int8))]


def _permlane_case(rl, opts=""):
    text = module(f"""    gpu.func @swap(%x: memref<128xi32>, %o: memref<128xi32>) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %j = arith.addi %i, %c64 : index
      %a = memref.load %x[%i] : memref<128xi32>
      %b = memref.load %x[%j] : memref<128xi32>
      %lo = arith.extui %a : i32 to i64
      %hi0 = arith.extui %b : i32 to i64
      %s32 = arith.constant 32 : i64
      %hi = arith.shli %hi0, %s32 : i64
      %w = arith.ori %lo, %hi : i64
      %r = amdgpu.permlane_swap %w {rl}{" { " + opts + " }" if opts else ""} : i64
      %r0 = arith.trunci %r : i64 to i32
      %r1s = arith.shrui %r, %s32 : i64
      %r1 = arith.trunci %r1s : i64 to i32
      memref.store %r0, %o[%i] : memref<128xi32>
      memref.store %r1, %o[%j] : memref<128xi32>
      gpu.return
    }}""")

    def inputs(r):
        return [r.integers(-2**31, 2**31, 128, dtype=np.int64).astype(np.int32), np.zeros(128, np.int32)]

    def expect(a):
        x = a[0]
        src = np.arange(64) ^ rl          # lane l takes lane l ^ 16 (l ^ 32): CDNA4 ISA swap
        return {1: np.concatenate([x[:64][src], x[64:][src]])}
    name = f"permlane{rl}_swap_i64" + ("_" + "_".join(o.split(" = ")[0] for o in opts.split(", "))
                                        if opts else "")
    return Case(name, "swap", text, (1, 1, 1), (64, 1, 1), inputs, expect), "gfx950"


# fetch_inactive / bound_ctrl: the VOP3 form's fi:1 / bound_ctrl:1 (what
# llc-22 selects); with every lane active the result is the same swap.
CASES += [_permlane_case(16), _permlane_case(32),
          _permlane_case(16, "fetch_inactive = true, bound_ctrl = true"),
          _permlane_case(32, "fetch_inactive = true")]
CASES = MFMA + CASES
