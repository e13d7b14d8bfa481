"""Kernels of the amdgpu dialect's MX (microscaling) and sparse ops, closed in
issue 26 (item 2), each with its NumPy / ml_dtypes result, run by
test_lower_amdgpu_mx.py on aster's build and on LLVM's build (mlir-opt-22
convert-gpu-to-rocdl + llc-22 -mcpu=gfx950 / gfx942) of the same kernel:

  * amdgpu.scaled_ext_packed (gfx950): fp8 / bf8 / fp4 words to f32 / f16 /
    bf16 pairs, every word / byte index, a divergent and a constant scale.
    Expected: ml_dtypes' float8_e4m3fn / float8_e5m2 / float4_e2m1fn value
    times 2^(e - 127), e the f32 scale's exponent field (AMD CDNA4 ISA,
    "Small Float Data Format Conversion ops with SCALE": the float exponent
    portion of the scale is used), rounded once to the result type
    (ml_dtypes' bfloat16 for bf16).
  * amdgpu.packed_scaled_trunc (gfx950): f32 / f16 / bf16 pairs (and one f32)
    into fp8 / bf8 / fp4 words, every index, into an existing word and into
    undef (0). Expected: the value divided by the scale, rounded to nearest
    even by ml_dtypes (inputs in range: the formats' overflow rules are the
    emulator's tests' business, tests/py/test_emu_scale_cvt.py).
  * amdgpu.scaled_mfma (gfx950): 16x16x128 and 32x32x64, A / B formats
    f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN, f4E2M1FN (a fixed sample here, all
    25 pairs per shape behind ASTER_TEST_LONG), scales from registers
    (vector<4xf8E8M0FNU>, every byte index) and constants (f8E8M0FNU).
    Expected: the E8M0-scaled A @ B + C with AMD's register layouts
    (mfma_layouts.py: the Matrix Instruction Calculator's f8f6f4 layouts),
    elements from ml_dtypes (float6_e2m3fn, ...), scales float8_e8m0fnu; the
    sum in k order in double, rounded once (as tests/py/test_emu_f8f6f4.py
    checks against clang-22's builtins).
  * amdgpu.sparse_mfma (gfx942 and gfx950): f16 / bf16 / i8 / fp8 sources,
    index sets by abid. Expected: C + A @ B with A decompressed from its 2:4
    form: lane l holds values of A's row l % M, group g = l // M; value e at
    k = (K / G) g + 4 (e // 2) + its 2-bit position (index bits [2e+1:2e]
    of set abid; AMD CDNA3 ISA, "Sparse Matrix Multiply-Accumulate
    (SMFMAC)", and the Matrix Instruction Calculator's K[] matrix); B as the
    dense MFMA of twice the K (gfx942: one run of K / G values per lane;
    gfx950: two 16-byte runs, test_emu_gfx950_ops.py's reference).
"""
import ml_dtypes
import numpy as np

import mfma_layouts as ml
from lower_suite import Case, module
from sweep import LONG

CASES = []    # (Case, target)

SMALL = {"fp8": ("f8E4M3FN", ml_dtypes.float8_e4m3fn, 8),
         "bf8": ("f8E5M2", ml_dtypes.float8_e5m2, 8),
         "fp6": ("f6E2M3FN", ml_dtypes.float6_e2m3fn, 6),
         "bf6": ("f6E3M2FN", ml_dtypes.float6_e3m2fn, 6),
         "fp4": ("f4E2M1FN", ml_dtypes.float4_e2m1fn, 4)}
WIDE = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}


def _scale_of(bits):
    """2^(e - 127) of f32 scale bits (the exponent field only)."""
    return np.ldexp(1.0, ((np.asarray(bits, np.uint32) >> 23) & 0xff).astype(np.int64) - 127)


def _scales(rng, n=64):
    """Divergent f32 scales: powers of two 2^-3 .. 2^3 (f32 values)."""
    return np.ldexp(np.float32(1), rng.integers(-3, 4, n)).astype(np.float32)


def _small_values(words, fmt, pair):
    """The two narrow values of pair `pair` of each word (fp8/bf8: word
    `pair`, bytes 2 pair and 2 pair + 1; fp4: byte `pair`, low then high
    nibble), as float64."""
    _, dt, w = SMALL[fmt]
    words = words.astype(np.uint64)
    if w == 8:
        lo = (words >> np.uint64(16 * pair)) & np.uint64(0xff)
        hi = (words >> np.uint64(16 * pair + 8)) & np.uint64(0xff)
    else:
        lo = (words >> np.uint64(8 * pair)) & np.uint64(0xf)
        hi = (words >> np.uint64(8 * pair + 4)) & np.uint64(0xf)
    return [x.astype(np.uint8).view(dt).astype(np.float64) for x in (lo, hi)]


def _finite_words(rng, fmt, n=64):
    """Random words of 8-bit (4-bit) fields, the NaN / infinity patterns of
    fp8 / bf8 replaced by zero (the conversions of those: the emulator's
    tests)."""
    by = rng.integers(0, 256, (n, 4)).astype(np.uint8)
    if fmt in ("fp8", "bf8"):
        v = by.view(SMALL[fmt][1]).astype(np.float64)
        by[~np.isfinite(v)] = 0
    return by.reshape(-1).view(np.uint32).copy()


# ---------------------------------------------------------------------------
# amdgpu.scaled_ext_packed
# ---------------------------------------------------------------------------
def _ext_case(fmt):
    t, _, w = SMALL[fmt]
    n = 32 // w
    pairs = 2 if w == 8 else 4
    lines, slots = [], []          # slots: (pair, dest, const scale?)
    for p in range(pairs):
        for dest in ("f32", "f16", "bf16"):
            slots.append((p, dest, False))
    slots.append((pairs - 1, "f32", True))
    at = 0
    for k, (p, dest, const) in enumerate(slots):
        sc = "%c025" if const else "%sc"
        nw = 2 if dest == "f32" else 1
        lines.append(f"""
      %r{k} = amdgpu.scaled_ext_packed %q[{p}], {sc} : vector<{n}x{t}> to vector<2x{dest}>
      %w{k} = vector.bitcast %r{k} : vector<2x{dest}> to vector<{nw}xi32>""")
        for j in range(nw):
            lines.append(f"""
      %e{k}_{j} = vector.extract %w{k}[{j}] : i32 from vector<{nw}xi32>
      %o{k}_{j} = arith.constant {64 * (at + j)} : index
      %a{k}_{j} = arith.addi %i, %o{k}_{j} : index
      memref.store %e{k}_{j}, %o[%a{k}_{j}] : memref<{64 * 40}xi32>""")
        at += nw
    text = module(f"""    gpu.func @ext(%x: memref<64xi32>, %s: memref<64xf32>, %o: memref<{64 * 40}xi32>) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %wd = memref.load %x[%i] : memref<64xi32>
      %sc = memref.load %s[%i] : memref<64xf32>
      %c025 = arith.constant 0.25 : f32
      %v = vector.from_elements %wd : vector<1xi32>
      %q = vector.bitcast %v : vector<1xi32> to vector<{n}x{t}>{"".join(lines)}
      gpu.return
    }}""")

    def inputs(r):
        return [_finite_words(r, fmt).view(np.int32), _scales(r), np.zeros(64 * 40, np.int32)]

    @np.errstate(over="ignore")
    def expect(a):
        words, s = a[0].view(np.uint32), a[1]
        out = np.zeros((40, 64), np.uint32)
        at = 0
        for p, dest, const in slots:
            scale = np.full(64, 0.25) if const else _scale_of(s.view(np.uint32))
            # (bf8's largest values times 8 overflow f16: infinity, as the
            # instruction rounds)
            lo, hi = (v * scale for v in _small_values(words, fmt, p))
            if dest == "f32":
                out[at] = lo.astype(np.float32).view(np.uint32)
                out[at + 1] = hi.astype(np.float32).view(np.uint32)
                at += 2
            else:
                out[at] = (lo.astype(WIDE[dest]).view(np.uint16).astype(np.uint32)
                           | hi.astype(WIDE[dest]).view(np.uint16).astype(np.uint32) << 16)
                at += 1
        return {2: out.reshape(-1).view(np.int32)}

    return Case(f"scaled_ext_packed_{fmt}", "ext", text, (1, 1, 1), (64, 1, 1), inputs, expect)


CASES += [(_ext_case(f), "gfx950") for f in ("fp8", "bf8", "fp4")]


# ---------------------------------------------------------------------------
# amdgpu.packed_scaled_trunc
# ---------------------------------------------------------------------------
def _trunc_case(fmt):
    t, dt, w = SMALL[fmt]
    n = 32 // w
    pairs = 2 if w == 8 else 4
    # (source type, index, into existing?, one element?)
    slots = [("f32", p, True, False) for p in range(pairs)]
    slots += [("f16", p, True, False) for p in range(pairs)]
    slots += [("bf16", pairs - 1, False, False), ("f32", 0, False, True), ("f16", 1, True, True),
              ("f32c", 1, True, False)]    # f32 with the constant (uniform) scale 16.0
    lines = []
    for k, (src, p, ex, one) in enumerate(slots):
        sv = {"f32": "%f2", "f16": "%h2", "bf16": "%b2", "f32c": "%f2"}[src]
        scl = "%c16f" if src == "f32c" else "%sc"
        if one:
            sv = {"f32": "%f1", "f16": "%h1"}[src]
        cnt = 1 if one else 2
        into = f"%q[{p}]" if ex else f"undef[{p}]"
        tail = f" into vector<{n}x{t}>" if ex else ""
        lines.append(f"""
      %t{k} = amdgpu.packed_scaled_trunc {sv} into {into}, {scl} : vector<{cnt}x{src[:4].rstrip("c")}> to vector<{n}x{t}>{tail}
      %u{k} = vector.bitcast %t{k} : vector<{n}x{t}> to vector<1xi32>
      %e{k} = vector.extract %u{k}[0] : i32 from vector<1xi32>
      %o{k} = arith.constant {64 * k} : index
      %a{k} = arith.addi %i, %o{k} : index
      memref.store %e{k}, %o[%a{k}] : memref<{64 * len(slots)}xi32>""")
    text = module(f"""    gpu.func @trunc(%x: memref<128xf32>, %h: memref<64xi32>, %bb: memref<64xi32>, %ex: memref<64xi32>, %s: memref<64xf32>, %o: memref<{64 * len(slots)}xi32>) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %j = arith.addi %i, %c64 : index
      %x0 = memref.load %x[%i] : memref<128xf32>
      %x1 = memref.load %x[%j] : memref<128xf32>
      %f2 = vector.from_elements %x0, %x1 : vector<2xf32>
      %f1 = vector.from_elements %x0 : vector<1xf32>
      %hw = memref.load %h[%i] : memref<64xi32>
      %hv = vector.from_elements %hw : vector<1xi32>
      %h2 = vector.bitcast %hv : vector<1xi32> to vector<2xf16>
      %h0 = vector.extract %h2[0] : f16 from vector<2xf16>
      %h1 = vector.from_elements %h0 : vector<1xf16>
      %bw = memref.load %bb[%i] : memref<64xi32>
      %bv = vector.from_elements %bw : vector<1xi32>
      %b2 = vector.bitcast %bv : vector<1xi32> to vector<2xbf16>
      %exw = memref.load %ex[%i] : memref<64xi32>
      %exv = vector.from_elements %exw : vector<1xi32>
      %q = vector.bitcast %exv : vector<1xi32> to vector<{n}x{t}>
      %sc = memref.load %s[%i] : memref<64xf32>
      %c16f = arith.constant 16.0 : f32{"".join(lines)}
      gpu.return
    }}""")
    top = {"fp8": 400.0, "bf8": 50000.0, "fp4": 6.0}[fmt]

    def inputs(r):
        s = _scales(r)
        x = (r.uniform(-top, top, 128) * np.tile(s, 2)).astype(np.float32)
        x[:8] = 0.0
        x[8] = -0.0
        h = (r.uniform(-min(top, 60000.0), min(top, 60000.0), 128) * np.tile(s, 2))
        if fmt == "bf8":
            h = np.clip(h, -65000, 65000)
        hw = h.astype(np.float16).view(np.uint16).reshape(2, 64)
        b = (r.uniform(-top, top, 128) * np.tile(s, 2)).astype(ml_dtypes.bfloat16)
        bw = b.view(np.uint16).reshape(2, 64)
        pack = lambda u: (u[0].astype(np.uint32) | u[1].astype(np.uint32) << 16).view(np.int32)
        ex = r.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32).view(np.int32)
        return [x, pack(hw), pack(bw), ex, s, np.zeros(64 * len(slots), np.int32)]

    def narrow(v, scale):
        q = (np.asarray(v, np.float64) / scale).astype(np.float32).astype(dt)
        return q.view(np.uint8).astype(np.uint32) & ((1 << w) - 1)

    def expect(a):
        x, hw, bw, ex, s = a[0], a[1].view(np.uint32), a[2].view(np.uint32), a[3].view(np.uint32), a[4]
        scale = _scale_of(s.view(np.uint32))
        halves = lambda u, d: [(u & 0xffff).astype(np.uint16).view(d).astype(np.float64),
                               (u >> 16).astype(np.uint16).view(d).astype(np.float64)]
        out = np.zeros((len(slots), 64), np.uint32)
        for k, (src, p, into, one) in enumerate(slots):
            sc = np.full(64, 16.0) if src == "f32c" else scale
            if src in ("f32", "f32c"):
                v0, v1 = x[:64].astype(np.float64), x[64:].astype(np.float64)
            else:
                v0, v1 = halves(hw if src == "f16" else bw, np.float16 if src == "f16" else
                                ml_dtypes.bfloat16)
            if one:
                v1 = np.zeros(64)
            pair = narrow(v0, sc) | narrow(v1, sc) << w
            sh = (16 if w == 8 else 8) * p
            mask = np.uint32(((1 << (2 * w)) - 1) << sh)
            base = ex if into else np.zeros(64, np.uint32)
            out[k] = (base & ~mask) | (pair << np.uint32(sh)).astype(np.uint32)
        return {5: out.reshape(-1).view(np.int32)}

    return Case(f"packed_scaled_trunc_{fmt}", "trunc", text, (1, 1, 1), (64, 1, 1), inputs, expect)


CASES += [(_trunc_case(f), "gfx950") for f in ("fp8", "bf8", "fp4")]


# ---------------------------------------------------------------------------
# amdgpu.scaled_mfma
# ---------------------------------------------------------------------------
def _lane_values(rng, fmt):
    """Per lane 32 random finite elements of `fmt` packed into words (element
    e at bits [e w, (e + 1) w)) and their values."""
    _, dt, w = SMALL[fmt]
    pats = rng.integers(0, 1 << w, (64, 32), dtype=np.uint64)
    vals = pats.astype(np.uint8).view(dt).astype(np.float64)
    pats[~np.isfinite(vals)] = 0
    vals[~np.isfinite(vals)] = 0.0
    words = np.zeros((64, w), np.uint32)
    for e in range(32):
        bit = e * w
        words[:, bit // 32] |= ((pats[:, e] << np.uint64(bit % 32)) & 0xffffffff).astype(np.uint32)
        if bit % 32 + w > 32:
            words[:, bit // 32 + 1] |= (pats[:, e] >> np.uint64(32 - bit % 32)).astype(np.uint32)
    return words, vals


def _scale_words(rng, idx):
    """Random words whose byte idx is an E8M0 exponent 118 .. 135 (2^-9 .. 2^8)."""
    w = rng.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    e = rng.integers(118, 136, 64).astype(np.uint32)
    return (w & ~np.uint32(0xff << (8 * idx))) | e << np.uint32(8 * idx), e


def scaled_mfma_case(m, fa, fb, ia=0, ib=0, const_a=None, scalar_b=False):
    """amdgpu.scaled_mfma mxmxK of A in format fa, B in fb, scales from the
    bytes ia / ib of per-lane words (const_a: A's scale the f8E8M0FNU
    constant of that value instead; scalar_b: B's scale the scalar
    f8E8M0FNU of the word's low byte, arith.trunci + arith.bitcast)."""
    k = 2048 // m
    regs = m * m // 64
    (ta, _, wa), (tb, _, wb) = SMALL[fa], SMALL[fb]
    sa = (f"      %sa = arith.constant {const_a} : f8E8M0FNU\n" if const_a is not None else
          "      %saw = memref.load %p[%i] : memref<64xi32>\n"
          "      %sav = vector.from_elements %saw : vector<1xi32>\n"
          "      %sa = vector.bitcast %sav : vector<1xi32> to vector<4xf8E8M0FNU>\n")
    sat = "f8E8M0FNU" if const_a is not None else "vector<4xf8E8M0FNU>"
    sb = ("      %sb8 = arith.trunci %sbw : i32 to i8\n"
          "      %sb = arith.bitcast %sb8 : i8 to f8E8M0FNU\n" if scalar_b else
          "      %sbv = vector.from_elements %sbw : vector<1xi32>\n"
          "      %sb = vector.bitcast %sbv : vector<1xi32> to vector<4xf8E8M0FNU>\n")
    sbt = "f8E8M0FNU" if scalar_b else "vector<4xf8E8M0FNU>"
    text = module(f"""    gpu.func @smfma(%x: memref<{64 * wa}xi32>, %y: memref<{64 * wb}xi32>, %z: memref<{64 * regs}xf32>, %p: memref<64xi32>, %q: memref<64xi32>, %o: memref<{64 * regs}xf32>) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %cwa = arith.constant {wa} : index
      %cwb = arith.constant {wb} : index
      %cr = arith.constant {regs} : index
      %ia = arith.muli %i, %cwa : index
      %ib = arith.muli %i, %cwb : index
      %ic = arith.muli %i, %cr : index
      %aw = vector.load %x[%ia] : memref<{64 * wa}xi32>, vector<{wa}xi32>
      %bw = vector.load %y[%ib] : memref<{64 * wb}xi32>, vector<{wb}xi32>
      %a = vector.bitcast %aw : vector<{wa}xi32> to vector<32x{ta}>
      %b = vector.bitcast %bw : vector<{wb}xi32> to vector<32x{tb}>
      %c = vector.load %z[%ic] : memref<{64 * regs}xf32>, vector<{regs}xf32>
{sa}      %sbw = memref.load %q[%i] : memref<64xi32>
{sb}      %d = amdgpu.scaled_mfma {m}x{m}x{k} (%sa[{ia}] * %a) * (%sb[{ib}] * %b) + %c : {sat}, vector<32x{ta}>, {sbt}, vector<32x{tb}>, vector<{regs}xf32>
      vector.store %d, %o[%ic] : memref<{64 * regs}xf32>, vector<{regs}xf32>
      gpu.return
    }}""")
    sh = ml._s(m, m, k, 1, "fp8", "f32")

    def gen(r):
        wa_, va = _lane_values(r, fa)
        wb_, vb = _lane_values(r, fb)
        swa, ea = _scale_words(r, ia)
        swb, eb = _scale_words(r, ib)
        c = r.standard_normal((64, regs)).astype(np.float32)
        return wa_, va, wb_, vb, swa, ea, swb, eb, c

    def inputs(r):
        wa_, _, wb_, _, swa, _, swb, _, c = gen(r)
        return [wa_.reshape(-1).view(np.int32), wb_.reshape(-1).view(np.int32), c.reshape(-1),
                swa.view(np.int32), swb.view(np.int32), np.zeros(64 * regs, np.float32)]

    def expect(args):
        _, va, _, vb, _, ea, _, eb, c = gen(np.random.default_rng(0))
        e8 = lambda e: np.asarray(e, np.uint32).astype(np.uint8).view(ml_dtypes.float8_e8m0fnu)
        # a scalar scale is zero-extended to the word (upstream's zext): a
        # byte other than 0 of it is E8M0 0 = 2^-127 (ml_dtypes)
        sa_ = (np.full(64, float(const_a) if ia == 0 else 2.0 ** -127) if const_a is not None
               else e8(ea).astype(np.float64))
        sb_ = e8(eb).astype(np.float64)
        if scalar_b and ib:
            sb_ = np.full(64, 2.0 ** -127)
        want = ml.scaled_one_block_reference(sh, va, vb, sa_, sb_, c)
        return {5: want.reshape(-1)}

    tag = (f"_ia{ia}_ib{ib}" + ("_consta" if const_a is not None else "")
           + ("_scalarb" if scalar_b else ""))
    return Case(f"scaled_mfma_{m}_{fa}_{fb}{tag}", "smfma", text, (1, 1, 1), (64, 1, 1),
                inputs, expect)


MX_FORMATS = ("fp8", "bf8", "fp6", "bf6", "fp4")
MFMA_SAMPLE = [scaled_mfma_case(16, "fp8", "fp8"), scaled_mfma_case(16, "bf6", "fp4", 3, 1),
               scaled_mfma_case(16, "fp4", "fp6", 0, 2, const_a=2.0),
               scaled_mfma_case(32, "bf8", "fp6", 1, 2), scaled_mfma_case(32, "fp4", "fp4", 0, 3),
               scaled_mfma_case(32, "fp8", "bf6", 1, 0, const_a=0.5),
               scaled_mfma_case(16, "fp6", "bf8", 1, 0, scalar_b=True),
               # a scalar scale read at byte 2: zero-extended (LLVM's zext),
               # E8M0 0 = 2^-127, not the word's byte 2 trunci left in the register
               scaled_mfma_case(16, "fp8", "fp4", 0, 2, scalar_b=True)]
MFMA_ALL = [scaled_mfma_case(m, a, b, (i + j) % 4, (i * 3 + j) % 4)
            for m in (16, 32) for i, a in enumerate(MX_FORMATS) for j, b in enumerate(MX_FORMATS)]
CASES += [(c, "gfx950") for c in (MFMA_ALL if LONG else MFMA_SAMPLE)]


# ---------------------------------------------------------------------------
# amdgpu.sparse_mfma
# ---------------------------------------------------------------------------
SPARSE_T = {"f16": ("f16", np.float16, 16), "bf16": ("bf16", ml_dtypes.bfloat16, 16),
            "i8": ("i8", np.int8, 8),
            ("gfx942", "fp8"): ("f8E4M3FNUZ", ml_dtypes.float8_e4m3fnuz, 8),
            ("gfx942", "bf8"): ("f8E5M2FNUZ", ml_dtypes.float8_e5m2fnuz, 8),
            ("gfx950", "fp8"): ("f8E4M3FN", ml_dtypes.float8_e4m3fn, 8),
            ("gfx950", "bf8"): ("f8E5M2", ml_dtypes.float8_e5m2, 8)}


def _sp_type(arch, ty):
    return SPARSE_T[(arch, ty)] if ty in ("fp8", "bf8") else SPARSE_T[ty]


def sparse_case(arch, m, k, ta, tb=None, abid=0):
    """amdgpu.sparse_mfma mxmxk on `arch`, A of type ta (B: tb), index set abid."""
    tb = tb or ta
    (mta, da, bits), (mtb, db, _) = _sp_type(arch, ta), _sp_type(arch, tb)
    cv = m * (k // 2) // 64            # compressed A values per lane
    nb = 2 * cv                        # B values per lane
    wa, wb = cv * bits // 32, nb * bits // 32
    regs = m * m // 64
    integer = ta == "i8"
    ct = "i32" if integer else "f32"
    it = "vector<2xi16>" if bits == 8 else "vector<4xi8>"
    text = module(f"""    gpu.func @sp(%x: memref<{64 * wa}xi32>, %y: memref<{64 * wb}xi32>, %z: memref<{64 * regs}x{ct}>, %ix: memref<64xi32>, %o: memref<{64 * regs}x{ct}>) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %cwa = arith.constant {wa} : index
      %cwb = arith.constant {wb} : index
      %cr = arith.constant {regs} : index
      %ia = arith.muli %i, %cwa : index
      %ib = arith.muli %i, %cwb : index
      %ic = arith.muli %i, %cr : index
      %aw = vector.load %x[%ia] : memref<{64 * wa}xi32>, vector<{wa}xi32>
      %bw = vector.load %y[%ib] : memref<{64 * wb}xi32>, vector<{wb}xi32>
      %a = vector.bitcast %aw : vector<{wa}xi32> to vector<{cv}x{mta}>
      %b = vector.bitcast %bw : vector<{wb}xi32> to vector<{nb}x{mtb}>
      %c = vector.load %z[%ic] : memref<{64 * regs}x{ct}>, vector<{regs}x{ct}>
      %xw = memref.load %ix[%i] : memref<64xi32>
      %xv = vector.from_elements %xw : vector<1xi32>
      %idx = vector.bitcast %xv : vector<1xi32> to {it}
      %d = amdgpu.sparse_mfma {m}x{m}x{k} %a * %b + %c sparse(%idx : {it}) {{abid = {abid} : i32}} : vector<{cv}x{mta}>, vector<{nb}x{mtb}>, vector<{regs}x{ct}>
      vector.store %d, %o[%ic] : memref<{64 * regs}x{ct}>, vector<{regs}x{ct}>
      gpu.return
    }}""")
    G = 64 // m

    def gen(r):
        if integer:
            a = r.integers(-128, 128, (64, cv)).astype(np.float64)
            b = r.integers(-128, 128, (64, nb)).astype(np.float64)
            c = r.integers(-2**20, 2**20, (64, regs)).astype(np.int32)
        else:
            a = (r.integers(-8, 9, (64, cv)) / 4).astype(np.float64)
            b = (r.integers(-8, 9, (64, nb)) / 4).astype(np.float64)
            c = (r.integers(-64, 65, (64, regs)) / 8).astype(np.float32)
        # per value pair: two distinct positions of four, increasing
        pick = np.sort(np.array([r.choice(4, 2, replace=False) for _ in range(64 * 16)]), 1)
        pos = pick.reshape(64, 16, 2)
        idx = np.zeros(64, np.uint64)
        for g in range(16):
            idx |= ((pos[:, g, 0] | pos[:, g, 1] << 2).astype(np.uint64) << np.uint64(4 * g))
        return a, b, c, (idx & 0xffffffff).astype(np.uint32)

    def inputs(r):
        a, b, c, idx = gen(r)
        return [a.astype(da).reshape(-1).view(np.int32), b.astype(db).reshape(-1).view(np.int32),
                c.reshape(-1), idx.view(np.int32), np.zeros(64 * regs, c.dtype)]

    def expect(args):
        a, b, c, idx = gen(np.random.default_rng(0))
        A, B = np.zeros((m, k)), np.zeros((k, m))
        set_bits = 2 * cv if arch == "gfx942" else 16
        shift = set_bits * abid if (arch == "gfx942" or bits == 16) else 0
        for l in range(64):
            g = l // m
            for e in range(cv):
                pos = (int(idx[l]) >> (shift + 2 * e)) & 3
                A[l % m, (k // G) * g + 4 * (e // 2) + pos] += a[l, e]
            for e in range(nb):
                kk = (g * nb + e if arch == "gfx942" else
                      (e // cv) * cv * G + cv * g + e % cv)
                B[kk, l % m] = b[l, e]
        sh = ml._s(m, m, 8, 1, "f16", "i32" if integer else "f32")
        prod = A @ B
        want = c.astype(np.float64).copy()
        for i in range(m):
            for j in range(m):
                lane, slot = ml.output_place(sh, 0, i, j)
                want[lane, slot] += prod[i, j]
        return {4: want.astype(c.dtype).reshape(-1)}

    name = f"sparse_mfma_{arch}_{m}x{m}x{k}_{ta}" + (f"_{tb}" if tb != ta else "") + \
        (f"_abid{abid}" if abid else "")
    return Case(name, "sp", text, (1, 1, 1), (64, 1, 1), inputs, expect), arch


CASES += [sparse_case("gfx942", 16, 32, "f16"), sparse_case("gfx942", 32, 16, "bf16", abid=2),
          sparse_case("gfx942", 16, 64, "i8", abid=1), sparse_case("gfx942", 32, 32, "fp8", "bf8"),
          sparse_case("gfx950", 16, 64, "f16", abid=1), sparse_case("gfx950", 32, 64, "bf8", "fp8"),
          sparse_case("gfx950", 16, 128, "i8")]


# ---------------------------------------------------------------------------
# amdgpu.gather_to_lds from a fat buffer
# ---------------------------------------------------------------------------
def _fat_gather_case(t, np_t, arch):
    """Each lane gathers b[2 * lane + 5] through a fat buffer of validBytes
    = 100 elements' bytes: the wave's data lands in LDS from element 4 on, a
    dword per lane (sub-dword data zero-extended), lanes past the valid
    range write 0 (CDNA3 ISA "Buffer Instructions": range checking; "Global
    Load LDS" / buffer_load ... lds: lane l at M0 + 4 l)."""
    s = 4 // np.dtype(np_t).itemsize
    nb = 100 * np.dtype(np_t).itemsize
    text = module(f"""    gpu.func @fgather(%x: memref<256x{t}>, %o: memref<64x{t}>) workgroup(%l: memref<512x{t}, #gpu.address_space<workgroup>>) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %cs = arith.constant {s} : index
      %vb = arith.constant {nb} : i64
      %b = amdgpu.fat_raw_buffer_cast %x validBytes(%vb) : memref<256x{t}> to memref<256x{t}, #amdgpu.address_space<fat_raw_buffer>>
      %j = arith.muli %i, %c2 : index
      %k = arith.addi %j, %c5 : index
      amdgpu.gather_to_lds %b[%k], %l[%c4] : {t}, memref<256x{t}, #amdgpu.address_space<fat_raw_buffer>>, memref<512x{t}, #gpu.address_space<workgroup>>
      amdgpu.lds_barrier
      %is = arith.muli %i, %cs : index
      %at = arith.addi %is, %c4 : index
      %v = memref.load %l[%at] : memref<512x{t}, #gpu.address_space<workgroup>>
      memref.store %v, %o[%i] : memref<64x{t}>
      gpu.return
    }}""")

    def inputs(r):
        return [r.integers(-100, 100, 256).astype(np_t), np.zeros(64, np_t)]

    def expect(a):
        at = np.arange(64) * 2 + 5
        return {1: np.where(at < 100, a[0][np.minimum(at, 255)], 0).astype(np_t)}
    return Case(f"gather_to_lds_fat_buffer_{t}_{arch}", "fgather", text, (1, 1, 1), (64, 1, 1),
                inputs, expect), arch


CASES += [_fat_gather_case("i32", np.int32, "gfx942"), _fat_gather_case("f16", np.float16, "gfx942"),
          _fat_gather_case("i8", np.int8, "gfx950")]


# ---------------------------------------------------------------------------
# arith casts of narrow floats (upstream's ArithToAMDGPU / arith expansions)
# ---------------------------------------------------------------------------
def _upstream_casts(text, arch):
    """LLVM's source: the same rewrites by mlir-opt-22 (convert-arith-to-amdgpu
    for the chipset, arith-expand with the F8E8M0 / F4E2M1 patterns) that
    aster.lower runs inside (LowerArithNarrowFloat.cpp); convert-gpu-to-rocdl
    has no lowering of these casts itself."""
    import subprocess
    p = subprocess.run(["mlir-opt-22", "--pass-pipeline=builtin.module(gpu.module("
                        f"convert-arith-to-amdgpu{{chipset={arch}}},"
                        "arith-expand{include-f8e8m0=true include-f4e2m1=true}))"],
                       input=text, capture_output=True, text=True, check=True)
    return p.stdout


def _cast_case(arch):
    """Per lane: byte 2 of word x as the target's fp8 (E4M3: FNUZ on gfx942,
    OCP on gfx950) extended to f32; y truncated to its bf8 (E5M2) and to
    f8E8M0FNU; byte 0 of x as f8E8M0FNU extended to f32; on gfx950 also
    arith.scaling_extf of the fp8 byte with that E8M0 scale. Expected:
    ml_dtypes (float8_e4m3fn[uz], float8_e5m2[fnuz] with round to nearest
    even; float8_e8m0fnu) except E8M0 truncf, which upstream defines as the
    f32 exponent field (round toward zero; ExpandOps.cpp) and E8M0 extf of 0,
    which upstream maps to 0.0 (ml_dtypes: 2^-127)."""
    f8, b8 = ("f8E4M3FNUZ", "f8E5M2FNUZ") if arch == "gfx942" else ("f8E4M3FN", "f8E5M2")
    d8 = {"f8E4M3FNUZ": ml_dtypes.float8_e4m3fnuz, "f8E5M2FNUZ": ml_dtypes.float8_e5m2fnuz,
          "f8E4M3FN": ml_dtypes.float8_e4m3fn, "f8E5M2": ml_dtypes.float8_e5m2}
    scaled = arch == "gfx950"
    extra = """
      %se = arith.scaling_extf %e8, %m0 : {f8}, f8E8M0FNU to f32
      %c256 = arith.constant 256 : index
      %i4 = arith.addi %i, %c256 : index
      memref.store %se, %o[%i4] : memref<320xf32>""".format(f8=f8) if scaled else ""
    text = module(f"""    gpu.func @casts(%x: memref<64xi32>, %y: memref<64xf32>, %o: memref<320xf32>, %p: memref<128xi32>) kernel
        attributes {{known_block_size = array<i32: 64, 1, 1>}} {{
      %i = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c192 = arith.constant 192 : index
      %w = memref.load %x[%i] : memref<64xi32>
      %yv = memref.load %y[%i] : memref<64xf32>
      %v = vector.from_elements %w : vector<1xi32>
      %q = vector.bitcast %v : vector<1xi32> to vector<4x{f8}>
      %e8 = vector.extract %q[2] : {f8} from vector<4x{f8}>
      %e = arith.extf %e8 : {f8} to f32
      memref.store %e, %o[%i] : memref<320xf32>
      %t = arith.truncf %yv : f32 to {b8}
      %tb = arith.bitcast %t : {b8} to i8
      %tw = arith.extui %tb : i8 to i32
      memref.store %tw, %p[%i] : memref<128xi32>
      %w8 = arith.trunci %w : i32 to i8
      %m0 = arith.bitcast %w8 : i8 to f8E8M0FNU
      %me = arith.extf %m0 : f8E8M0FNU to f32
      %i1 = arith.addi %i, %c64 : index
      memref.store %me, %o[%i1] : memref<320xf32>
      %mt = arith.truncf %yv : f32 to f8E8M0FNU
      %mb = arith.bitcast %mt : f8E8M0FNU to i8
      %mw = arith.extui %mb : i8 to i32
      %j1 = arith.addi %i, %c64 : index
      memref.store %mw, %p[%j1] : memref<128xi32>{extra}
      gpu.return
    }}""")

    def inputs(r):
        by = r.integers(0, 256, (64, 4)).astype(np.uint8)
        v = by[:, 2].view(d8[f8]).astype(np.float64)
        by[~np.isfinite(v), 2] = 0                     # no NaN payloads to compare
        by[:, 0] = r.integers(100, 150, 64)            # E8M0 exponents 2^-27 .. 2^22
        y = (r.standard_normal(64) * np.ldexp(1.0, r.integers(-6, 10, 64))).astype(np.float32)
        y[:4] = [0.0, -0.0, 1.5, -3.0]
        return [by.reshape(-1).view(np.int32).copy(), y, np.zeros(320, np.float32),
                np.zeros(128, np.int32)]

    def expect(a):
        by = a[0].view(np.uint8).reshape(64, 4)
        y = a[1]
        out = np.zeros(320, np.float32)
        e8 = by[:, 2].view(d8[f8]).astype(np.float32)
        out[:64] = e8
        m0 = by[:, 0].view(ml_dtypes.float8_e8m0fnu).astype(np.float32)
        out[64:128] = m0
        if scaled:
            out[256:] = (e8.astype(np.float64) * m0).astype(np.float32)
        p = np.zeros(128, np.int32)
        p[:64] = y.astype(d8[b8]).view(np.uint8)
        p[64:] = (y.view(np.uint32) >> 23) & 0xff
        return {2: out, 3: p}

    return Case(f"narrow_float_casts_{arch}", "casts", text, (1, 1, 1), (64, 1, 1), inputs, expect,
                llvm_mlir=_upstream_casts(text, arch)), arch


CASES += [_cast_case("gfx942"), _cast_case("gfx950")]
