"""Every gfx942 dense MFMA of the instruction table, and every gfx950 one the
emulator implements (the gfx950-only doubled-K shapes, and the gfx942 ones
in gfx950 code, fp8/bf8 then in the OCP formats), one instruction per
kernel built with aster's builder: each lane loads its A, B and C registers
from memory, the MFMA runs, each lane stores its D registers. The register
contents are placed and read back with AMD's published layouts
(mfma_layouts.py), and D is compared exactly with A @ B + C per block
computed by NumPy (inputs are small multiples of 1/4 or integers, so every
product and sum is exact in any summation order)."""
import ml_dtypes
import numpy as np
import pytest

import aster
from aster import s, v

from mfma_layouts import (GFX950_SHAPES, SHAPES, blgp_lane, cbsz_abid_block, input_dwords,
                          input_place, k_per_lane, output_dwords, output_place)

U32 = aster.ptr(np.uint32)


def mfma_names(arch):
    return sorted(i.name for i in aster.isa.instructions(arch) if i.name.startswith("v_mfma_"))


NAMES = mfma_names("gfx942")
# gfx950's f8f6f4 and scaled MFMAs have no emulator semantics yet (they are on
# aster-emu-isa-coverage's not-emulated list).
NAMES_950 = [n for n in mfma_names("gfx950") if "f8f6f4" not in n]

DTYPES = {"f32": np.float32, "xf32": np.float32, "f16": np.float16,
          "bf16": ml_dtypes.bfloat16, "fp8": ml_dtypes.float8_e4m3fnuz,
          "bf8": ml_dtypes.float8_e5m2fnuz, "i8": np.int8, "f64": np.float64,
          "i32": np.int32}
# gfx950's fp8/bf8 are the OCP formats.
DTYPES_950 = {**DTYPES, "fp8": ml_dtypes.float8_e4m3fn, "bf8": ml_dtypes.float8_e5m2}


def dtypes(arch):
    return DTYPES_950 if arch == "gfx950" else DTYPES


def values(ty, shape, rng):
    if ty == "i8":
        return rng.integers(-128, 128, shape)
    if ty == "i32":
        return rng.integers(-2**20, 2**20, shape)
    return rng.integers(-8, 9, shape) / 4.0       # exact in every float format here


def chunks(n):
    """(first, width) pieces of n dwords moved by dwordx4/x2/x1 accesses."""
    q = 0
    while q < n:
        w = 4 if n - q >= 4 else 2 if n - q >= 2 else 1
        yield q, w
        q += w


def mfma_kernel(name, acc=False, arch="gfx942", dst="c", **mods):
    """One MFMA; with acc, C/D and B live in AGPRs (moved there and back
    with v_accvgpr_write/read), else everything is in VGPRs. dst: "c" (D is
    C's registers), "other" (D in the VGPRs after C's) or "imm" (C is the
    inline constant 0, D C's registers)."""
    sh = SHAPES[name]
    na, nb, nc = input_dwords(sh, "a"), input_dwords(sh, "b"), output_dwords(sh)
    m = aster.Module(arch)
    k = m.kernel("one_mfma", args=[("a", U32), ("b", U32), ("c", U32), ("d", U32)],
                 block=(64, 1, 1))
    ptrs = {x: s[4 + 2 * i:6 + 2 * i] for i, x in enumerate("abcd")}
    for x, p in ptrs.items():
        k.load_arg(x, p)
    tid = k.workitem_id("x")
    ra = 4                                        # A, B, C in consecutive even-aligned VGPRs
    rb = ra + max(2, na)
    rc = rb + max(2, nb)
    A, B, C = (v[ra:ra + na] if na > 1 else v[ra], v[rb:rb + nb] if nb > 1 else v[rb],
               v[rc:rc + nc])
    loads = {"a": (ra, na), "b": (rb, nb), "c": (rc, nc)}
    k.s_waitcnt(lgkmcnt=0)
    for x, (first, n) in loads.items():
        for q, w in chunks(n):
            k.v_mul_u32_u24(v[1], 4 * n, tid)              # the lane's first dword
            k.v_add_u32(v[1], 4 * q, v[1])
            load = {4: k.global_load_dwordx4, 2: k.global_load_dwordx2, 1: k.global_load_dword}[w]
            load(v[first + q:first + q + w] if w > 1 else v[first + q], v[1], ptrs[x])
    k.s_waitcnt(vmcnt=0)
    if acc:
        AG = aster.a
        for i in range(nc):
            k.v_accvgpr_write_b32(AG[i], v[rc + i])
        for i in range(nb):
            k.v_accvgpr_write_b32(AG[nc + i], v[rb + i])
        C, B = AG[0:nc], (AG[nc:nc + nb] if nb > 1 else AG[nc])
        for _ in range(2):                                # VALU write -> MFMA read wait states
            k.s_nop(imm=7)
    rd = rc + nc if dst == "other" else rc
    getattr(k, name)(v[rd:rd + nc] if dst == "other" else C, A, B, 0 if dst == "imm" else C,
                     **mods)
    for _ in range(3):                                    # MFMA result hazard (wait states)
        k.s_nop(imm=7)
    if acc:
        for i in range(nc):
            k.v_accvgpr_read_b32(v[rc + i], aster.a[i])
    for q, w in chunks(nc):
        k.v_mul_u32_u24(v[1], 4 * nc, tid)
        k.v_add_u32(v[1], 4 * q, v[1])
        store = {4: k.global_store_dwordx4, 2: k.global_store_dwordx2, 1: k.global_store_dword}[w]
        store(v[1], v[rd + q:rd + q + w] if w > 1 else v[rd + q], ptrs["d"])
    k.s_endpgm()
    return m.hsaco()


def pack_input(sh, which, mat):
    """mat[block, row, k] (row = i of A or j of B) -> per-lane registers."""
    kpl = k_per_lane(sh)
    lanes = np.zeros((64, kpl), mat.dtype)
    for b in range(sh.blocks):
        for r in range(sh.m):
            for kk in range(sh.k):
                lane, slot = input_place(sh, b, r, kk)
                lanes[lane, slot] = mat[b, r, kk]
    return np.ascontiguousarray(lanes).view(np.uint8).reshape(64, -1).view(np.uint32).copy()


def pack_output(sh, mat):
    per_lane = sh.m * sh.n * sh.blocks // 64
    lanes = np.zeros((64, per_lane), mat.dtype)
    for b in range(sh.blocks):
        for i in range(sh.m):
            for j in range(sh.n):
                lane, slot = output_place(sh, b, i, j)
                lanes[lane, slot] = mat[b, i, j]
    return lanes.view(np.uint32).copy()


def run_mfma(name, a, b, c, acc=False, arch="gfx942", dst="c", **mods):
    """D for A[block, i, k], B[block, k, j], C[block, i, j] placed in the
    registers by the published layout, read back the same way."""
    sh, dt = SHAPES[name], dtypes(arch)
    a_regs = pack_input(sh, "a", a.astype(dt[sh.a]))
    b_regs = pack_input(sh, "b", np.swapaxes(b, 1, 2).astype(dt[sh.b]))
    c_regs = pack_output(sh, c.astype(dt[sh.out]))
    d_regs = np.zeros_like(c_regs)
    aster.launch(mfma_kernel(name, acc, arch, dst, **mods), "one_mfma", (1, 1, 1), (64, 1, 1),
                 [a_regs, b_regs, c_regs, d_regs])
    return d_regs


def check(name, got, want):
    sh = SHAPES[name]
    expected = pack_output(sh, want.astype(DTYPES[sh.out]))   # f32 / i32 / f64 outputs
    if not np.array_equal(got, expected):
        g, e = got.view(DTYPES[sh.out]), expected.view(DTYPES[sh.out])
        bad = np.argwhere(g != e)[:4].tolist()
        pytest.fail(f"{name}: D differs at (lane, slot) {bad}: got {[g[tuple(x)] for x in bad]}, "
                    f"want {[e[tuple(x)] for x in bad]}")


def inputs(name):
    sh = SHAPES[name]
    rng = np.random.default_rng(sum(map(ord, name)))
    return (values(sh.a, (sh.blocks, sh.m, sh.k), rng),      # A[block, i, k]
            values(sh.b, (sh.blocks, sh.k, sh.n), rng),      # B[block, k, j]
            values(sh.out, (sh.blocks, sh.m, sh.n), rng))    # C[block, i, j]


@pytest.mark.parametrize("acc", [False, True], ids=["vgpr", "agpr"])
@pytest.mark.parametrize("arch,name", [("gfx942", n) for n in NAMES]
                         + [("gfx950", n) for n in NAMES_950])
def test_mfma_layout(arch, name, acc):
    if name not in SHAPES:
        pytest.fail(f"{name}: no published layout in mfma_layouts.SHAPES")
    if arch == "gfx942" and name in GFX950_SHAPES:
        pytest.fail(f"{name} is a gfx950 shape but the table lists it for gfx942")
    a, b, c = inputs(name)
    check(name, run_mfma(name, a, b, c, acc, arch), a @ b + c)     # exact (see module doc)


MULTI_BLOCK = [n for n in NAMES if n in SHAPES and SHAPES[n].blocks > 1]


@pytest.mark.parametrize("name", MULTI_BLOCK)
def test_mfma_cbsz_abid_broadcast_a_block(name):
    """CBSZ/ABID: the smallest and the largest broadcast group."""
    sh = SHAPES[name]
    a, b, c = inputs(name)
    for cbsz in sorted({1, sh.blocks.bit_length() - 1}):
        abid = (1 << cbsz) - 1
        src = [cbsz_abid_block(blk, cbsz, abid) for blk in range(sh.blocks)]
        check(name, run_mfma(name, a, b, c, cbsz=cbsz, abid=abid), a[src] @ b + c)


BLGP_CASES = [(n, g) for n in ("v_mfma_f32_16x16x16_f16", "v_mfma_f32_32x32x1_2b_f32",
                               "v_mfma_i32_4x4x4_16b_i8", "v_mfma_f32_32x32x16_bf8_fp8")
              for g in range(1, 8)]


@pytest.mark.parametrize("name,blgp", BLGP_CASES)
def test_mfma_blgp_lane_patterns(name, blgp):
    """BLGP: each lane's B comes from the lane the published pattern names;
    the expected B is rebuilt from where the normal layout put each value."""
    sh = SHAPES[name]
    a, b, c = inputs(name)
    where = {}                                  # (lane, slot) -> (block, k, j)
    for blk in range(sh.blocks):
        for j in range(sh.n):
            for kk in range(sh.k):
                where[input_place(sh, blk, j, kk)] = (blk, kk, j)
    b_eff = np.empty_like(b)
    for (lane, slot), (blk, kk, j) in where.items():
        b_eff[blk, kk, j] = b[where[(blgp_lane(lane, blgp), slot)]]
    check(name, run_mfma(name, a, b, c, blgp=blgp), a @ b_eff + c)


@pytest.mark.parametrize("name", [n for n in NAMES if n.startswith("v_mfma_f64")])
@pytest.mark.parametrize("neg", [1, 2, 4, 7])
def test_mfma_f64_neg(name, neg):
    """f64 MFMAs have NEG bits instead of BLGP: bit 0 negates A (src0),
    bit 1 B (src1), bit 2 C (src2), the VOP3P per-source order."""
    a, b, c = inputs(name)
    sa, sb, sc = (-1.0 if neg >> i & 1 else 1.0 for i in range(3))
    check(name, run_mfma(name, a, b, c, neg=neg), (sa * a) @ (sb * b) + sc * c)


ROUNDING_CASES = [("gfx942", "v_mfma_f32_32x32x8_f16"), ("gfx942", "v_mfma_f32_16x16x16_bf16"),
                  ("gfx950", "v_mfma_f32_16x16x32_f16"), ("gfx950", "v_mfma_f32_32x32x16_bf16")]


@pytest.mark.parametrize("arch,name", ROUNDING_CASES)
def test_mfma_16bit_inputs_any_bits(arch, name):
    """One-block f16/bf16 MFMAs (the host's vectorised path, SemMFMA.cpp)
    on every kind of input: random 16-bit patterns (NaNs, infinities,
    subnormals) and wide-range values whose sums round. Expected: each
    input converted by NumPy / ml_dtypes, products exact in float64, summed
    in k order in float64, plus C, rounded once to f32 (the emulator's
    documented sum, SemMFMA.cpp's header); NaNs where NumPy has them."""
    sh, dt = SHAPES[name], dtypes(arch)
    rng = np.random.default_rng(7)
    shape_a, shape_b = (sh.blocks, sh.m, sh.k), (sh.blocks, sh.k, sh.n)
    for kind in ("bits", "wide"):
        if kind == "bits":
            a = rng.integers(0, 1 << 16, shape_a).astype(np.uint16).view(dt[sh.a])
            b = rng.integers(0, 1 << 16, shape_b).astype(np.uint16).view(dt[sh.b])
        else:
            a = (rng.standard_normal(shape_a) * 2.0 ** rng.integers(-20, 12, shape_a)).astype(dt[sh.a])
            b = (rng.standard_normal(shape_b) * 2.0 ** rng.integers(-20, 12, shape_b)).astype(dt[sh.b])
        c = rng.standard_normal((sh.blocks, sh.m, sh.n)).astype(np.float32)
        acc = np.zeros((sh.blocks, sh.m, sh.n))
        with np.errstate(invalid="ignore", over="ignore"):
            a64, b64 = a.astype(np.float64), b.astype(np.float64)
            for kk in range(sh.k):
                acc = acc + a64[:, :, kk, None] * b64[:, None, kk, :]
            want = (acc + c.astype(np.float64)).astype(np.float32)
        got = run_mfma(name, a, b, c, arch=arch).view(np.float32)
        expected = pack_output(sh, want).view(np.float32)
        assert np.array_equal(got, expected, equal_nan=True), \
            f"{name} ({kind}): {int((got != expected).sum())} results differ"


@pytest.mark.parametrize("dst", ["other", "imm"])
@pytest.mark.parametrize("arch,name", ROUNDING_CASES)
def test_mfma_16bit_d_apart_from_c(arch, name, dst):
    """The host's tiled path writes D in place when D is C; here D is other
    registers than C, or C the inline constant 0 (D then C's registers).
    Random 16-bit patterns against the same NumPy / ml_dtypes sums as
    test_mfma_16bit_inputs_any_bits."""
    sh, dt = SHAPES[name], dtypes(arch)
    rng = np.random.default_rng(11)
    a = rng.integers(0, 1 << 16, (1, sh.m, sh.k)).astype(np.uint16).view(dt[sh.a])
    b = rng.integers(0, 1 << 16, (1, sh.k, sh.n)).astype(np.uint16).view(dt[sh.b])
    c = rng.standard_normal((1, sh.m, sh.n)).astype(np.float32)
    acc = np.zeros((1, sh.m, sh.n))
    with np.errstate(invalid="ignore", over="ignore"):
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        for kk in range(sh.k):
            acc = acc + a64[:, :, kk, None] * b64[:, None, kk, :]
        want = (acc + (0.0 if dst == "imm" else c.astype(np.float64))).astype(np.float32)
    got = run_mfma(name, a, b, c, arch=arch, dst=dst).view(np.float32)
    expected = pack_output(sh, want).view(np.float32)
    assert np.array_equal(got, expected, equal_nan=True), \
        f"{name} ({dst}): {int((got != expected).sum())} results differ"


def test_every_gfx942_dense_mfma_has_a_published_shape(summary):
    assert NAMES, "the table lists no gfx942 MFMA"
    missing = [n for n in NAMES + NAMES_950 if n not in SHAPES]
    assert not missing, f"no published layout data for {missing}"
    assert set(GFX950_SHAPES) <= set(NAMES_950) - set(NAMES)
    summary.append(f"MFMA layouts: {len(NAMES)} gfx942 dense MFMA instructions checked against "
                   "AMD's published register layouts (VGPR and AGPR operands), CBSZ/ABID on "
                   f"{len(MULTI_BLOCK)} multi-block ones, BLGP 1-7 on "
                   f"{len({n for n, _ in BLGP_CASES})}, NEG on the f64 ones; gfx950: "
                   f"{len(NAMES_950)} ({len(GFX950_SHAPES)} gfx950-only shapes, fp8/bf8 as OCP)")
