"""aster.nanokernels's pieces, each called (several times, with different
registers) from kernels built here, inlined, allocated, waited and padded by
the passes, run on the emulator (strict: a missing wait fails) and checked
against NumPy. MFMA register layouts come from AMD's matrix instruction
calculator as restated in mfma_layouts.py (not from the library)."""
import ml_dtypes
import numpy as np
import pytest

import aster
from aster import VGPR, AGPR, v
from aster.nanokernels import lds, mfma, reduce

from mfma_layouts import SHAPES, input_place, output_place
from test_emu_mfma_layouts import pack_input, pack_output

PIPE = "amdgcn-regalloc,amdgcn-waitcnt,amdgcn-hazards"
U32 = aster.ptr(np.uint32)
DT = {"f16": np.float16, "bf16": ml_dtypes.bfloat16}
STEPS = [("16x16x16_f16", "v_mfma_f32_16x16x16_f16"),
         ("16x16x16_bf16", "v_mfma_f32_16x16x16_bf16"),
         ("32x32x8_f16", "v_mfma_f32_32x32x8_f16"),
         ("32x32x8_bf16", "v_mfma_f32_32x32x8_bf16")]
# gfx950's double-K steps (8 k per lane, A/B in VGPR x4).
STEPS950 = [("16x16x32_f16", "v_mfma_f32_16x16x32_f16"),
            ("16x16x32_bf16", "v_mfma_f32_16x16x32_bf16"),
            ("32x32x16_f16", "v_mfma_f32_32x32x16_f16"),
            ("32x32x16_bf16", "v_mfma_f32_32x32x16_bf16")]


def small(rng, shape):
    return rng.integers(-4, 5, shape) / 2.0        # exact in f16/bf16 and in f32 sums


def store_acc(k, acc, n, out_ptr, acc_kind):
    """Stores the n accumulator registers of each lane to out[lane][0:n]."""
    off = k.v_mul_u32_u24(VGPR(), 4 * n, v[0])
    for q in range(0, n, 4):
        part = acc[q:q + 4]
        if acc_kind == "agpr":
            part = k.concat(*[k.v_accvgpr_read_b32(VGPR(), part[i]) for i in range(4)])
        k.global_store_dwordx4(off, part, out_ptr, offset=4 * q)


def zero_acc(k, n, acc_kind):
    if acc_kind == "agpr":
        return k.concat(*[k.v_accvgpr_write_b32(AGPR(), 0) for _ in range(n)])
    return k.concat(*[k.v_mov_b32(VGPR(), 0) for _ in range(n)])


@pytest.mark.parametrize("shape,name,target",
                         [s + ("gfx942",) for s in STEPS] + [s + ("gfx950",) for s in STEPS950])
@pytest.mark.parametrize("acc_kind", ["agpr", "vgpr"])
def test_mfma_step_two_calls(shape, name, target, acc_kind):
    """D = A1 @ B1 + A2 @ B2 with two calls of the step on other registers."""
    sh = SHAPES[name]
    nc = sh.m * sh.n // 64
    nab = mfma.SHAPES[shape][1]                       # VGPRs per lane of A (and B)
    step = mfma.mfma_step(shape, acc=acc_kind)
    m = aster.Module(target)
    k = m.kernel("k", args=[("a", U32), ("b", U32), ("d", aster.ptr(np.float32))], block=64)
    pa, pb, pd = k.load_arg("a"), k.load_arg("b"), k.load_arg("d")
    off = k.v_lshlrev_b32(VGPR(), nab.bit_length() + 1, v[0])   # 4 nab bytes per lane
    load = k.global_load_dwordx2 if nab == 2 else k.global_load_dwordx4
    frags = [load(VGPR(nab), off, p, offset=256 * nab * i)
             for i in range(2) for p in (pa, pb)]
    acc = zero_acc(k, nc, acc_kind)
    (acc,) = k.call(step, frags[0], frags[1], acc)
    (acc,) = k.call(step, frags[2], frags[3], acc)
    store_acc(k, acc, nc, pd, acc_kind)
    k.s_endpgm()
    rng = np.random.default_rng(7)
    A = small(rng, (2, 1, sh.m, sh.k))
    B = small(rng, (2, 1, sh.k, sh.n))
    dt = DT[sh.a]
    a = np.concatenate([pack_input(sh, "a", A[i].astype(dt)) for i in range(2)])
    b = np.concatenate([pack_input(sh, "b", np.swapaxes(B[i], 1, 2).astype(dt))
                        for i in range(2)])
    d = np.full((64, nc), np.nan, np.float32)
    aster.launch(aster.compile(m, PIPE), "k", grid=1, block=64, args=[a, b, d])
    want = pack_output(sh, (A[0] @ B[0] + A[1] @ B[1]).astype(np.float32))
    assert (d.view(np.uint32) == want).all()


@pytest.mark.parametrize("shape,name", STEPS[::2])
@pytest.mark.parametrize("acc_kind", ["agpr", "vgpr"])
def test_store_result_writes_the_matrix(shape, name, acc_kind):
    """One step, then store_result into a wider row-major matrix: D lands at
    D[i][j] (checked without any lane layout on the way out)."""
    sh = SHAPES[name]
    nc = sh.m * sh.n // 64
    m = aster.Module()
    k = m.kernel("k", args=[("a", U32), ("b", U32), ("pitch", np.uint32),
                            ("d", aster.ptr(np.float32))], block=64)
    pa, pb, pitch, pd = (k.load_arg(x) for x in ("a", "b", "pitch", "d"))
    off = k.v_lshlrev_b32(VGPR(), 3, v[0])
    fa = k.global_load_dwordx2(VGPR(2), off, pa)
    fb = k.global_load_dwordx2(VGPR(2), off, pb)
    (acc,) = k.call(mfma.mfma_step(shape, acc_kind), fa, fb, zero_acc(k, nc, acc_kind))
    k.call(mfma.store_result(shape, acc_kind), acc, pd, pitch, v[0])
    k.s_endpgm()
    rng = np.random.default_rng(5)
    A = small(rng, (1, sh.m, sh.k))
    B = small(rng, (1, sh.k, sh.n))
    dt = DT[sh.a]
    a = pack_input(sh, "a", A.astype(dt))
    b = pack_input(sh, "b", np.swapaxes(B, 1, 2).astype(dt))
    cols = sh.n + 8
    d = np.full((sh.m, cols), -1.0, np.float32)
    aster.launch(aster.compile(m, PIPE), "k", grid=1, block=64, args=[a, b, 4 * cols, d])
    assert (d[:, :sh.n] == (A[0] @ B[0]).astype(np.float32)).all()
    assert (d[:, sh.n:] == -1).all()                    # nothing else written


def lds_image(tile, lds_row_bytes):
    """The LDS bytes global_to_lds writes for `tile` (rows x row bytes)."""
    rows, rb = tile.shape
    img = np.zeros((rows, lds_row_bytes), np.uint8)
    img[:, :rb] = tile
    return img.reshape(-1)


@pytest.mark.parametrize("rows,row_bytes,lds_row_bytes,stride",
                         [(16, 64, 64, 64), (32, 128, 144, 320), (8, 128, 128, 128),
                          (64, 16, 32, 48)])
def test_global_to_lds(rows, row_bytes, lds_row_bytes, stride):
    """The tile (rows `stride` bytes apart in global memory) lands in LDS
    with rows `lds_row_bytes` apart; read back whole with ds_read_b32."""
    size = rows * lds_row_bytes
    copy = lds.global_to_lds(rows, row_bytes, lds_row_bytes)
    m = aster.Module()
    k = m.kernel("k", args=[("src", U32), ("stride", np.uint32), ("out", U32)], block=64,
                 lds=size + 256)
    src, st, out = k.load_arg("src"), k.load_arg("stride"), k.load_arg("out")
    base = k.v_mov_b32(VGPR(), 256)                    # the tile 256 bytes into LDS
    k.call(copy, src, st, v[0], base)
    off = k.v_lshlrev_b32(VGPR(), 2, v[0])
    addr = k.v_add_u32(VGPR(), 256, off)
    for q in range(0, size, 256):                      # 64 lanes x 4 bytes per read
        x = k.ds_read_b32(VGPR(), addr, offset=q)
        k.global_store_dword(k.v_add_u32(VGPR(), q, off), x, out)
    k.s_endpgm()
    rng = np.random.default_rng(rows)
    mem = rng.integers(0, 256, (rows, stride), dtype=np.uint8)
    got = np.zeros(size // 4, np.uint32)
    aster.launch(aster.compile(m, PIPE), "k", grid=1, block=64,
                 args=[mem.view(np.uint32).reshape(-1), stride, got])
    want = lds_image(mem[:, :row_bytes], lds_row_bytes)
    # Padding bytes are not written: compare the tile's bytes only.
    img = got.view(np.uint8).reshape(rows, lds_row_bytes)[:, :row_bytes]
    assert (img == want.reshape(rows, lds_row_bytes)[:, :row_bytes]).all()


def test_global_to_lds_checks_its_shape():
    with pytest.raises(ValueError, match="power of two"):
        lds.global_to_lds(16, 48)
    with pytest.raises(ValueError, match="multiple of 1024"):
        lds.global_to_lds(4, 64)
    with pytest.raises(ValueError, match="rows must be 16 or 32"):
        lds.lds_fragment(8, 64)


@pytest.mark.parametrize("shape,name,ktiles", [("16x16x16_f16", "v_mfma_f32_16x16x16_f16", 2),
                                               ("32x32x8_bf16", "v_mfma_f32_32x32x8_bf16", 4)])
@pytest.mark.parametrize("target", ["gfx942", "gfx950"])
def test_tile_product_through_lds(shape, name, ktiles, target):
    """A (M x K) and B^T (N x K) tiles copied from bigger matrices to padded
    LDS tiles, their fragments loaded per k-step and multiplied: D = A @ B."""
    sh = SHAPES[name]
    M, K = sh.m, sh.k * ktiles
    row_bytes = 2 * K
    rows = max(M, 1024 // row_bytes)                   # copy whole 1 KiB steps
    pad = row_bytes + 16
    nc = M * M // 64
    m = aster.Module(target)
    k = m.kernel("k", args=[("a", U32), ("bt", U32), ("pitch", np.uint32),
                            ("d", aster.ptr(np.float32))], block=64, lds=2 * rows * pad)
    pa, pbt, pitch, pd = (k.load_arg(x) for x in ("a", "bt", "pitch", "d"))
    base_a = k.v_mov_b32(VGPR(), 0)
    base_b = k.v_mov_b32(VGPR(), rows * pad)
    copy = lds.global_to_lds(rows, row_bytes, pad)
    k.call(copy, pa, pitch, v[0], base_a)
    k.call(copy, pbt, pitch, v[0], base_b)
    acc = zero_acc(k, nc, "agpr")
    for t in range(ktiles):
        frag = lds.lds_fragment(M, pad, offset=t * sh.k * 2)
        (fa,) = k.call(frag, v[0], base_a)
        (fb,) = k.call(frag, v[0], base_b)
        (acc,) = k.call(mfma.mfma_step(shape), fa, fb, acc)
    store_acc(k, acc, nc, pd, "agpr")
    k.s_endpgm()
    rng = np.random.default_rng(3)
    dt = DT[sh.a]
    cols = K + 24                                      # the matrices are wider than the tile
    A = small(rng, (rows, cols)).astype(dt)
    BT = small(rng, (rows, cols)).astype(dt)
    d = np.full((64, nc), np.nan, np.float32)
    aster.launch(aster.compile(m, PIPE), "k", grid=1, block=64,
                 args=[A.view(np.uint32).reshape(-1), BT.view(np.uint32).reshape(-1),
                       2 * cols, d])
    D = A[:M, :K].astype(np.float32) @ BT[:M, :K].astype(np.float32).T
    for i in range(M):
        for j in range(M):
            lane, slot = output_place(sh, 0, i, j)
            assert d[lane, slot] == D[i, j], (i, j)


def test_fragment_layout_is_the_calculators():
    """lds_fragment's address rule against input_place: lane l's 4 values
    are k = 4 (l // M) .. +3 of row l % M."""
    for M in (16, 32):
        name = "v_mfma_f32_16x16x16_f16" if M == 16 else "v_mfma_f32_32x32x8_f16"
        sh = SHAPES[name]
        for row in range(M):
            for kk in range(sh.k):
                lane, slot = input_place(sh, 0, row, kk)
                assert (lane % M, 4 * (lane // M) + slot) == (row, kk)


@pytest.mark.parametrize("kind", ["f32", "u32"])
@pytest.mark.parametrize("target", ["gfx942", "gfx950"])
def test_wave_sum(kind, target):
    """Two wave sums (of x and of y, other registers) in every lane."""
    piece = reduce.wave_sum_f32 if kind == "f32" else reduce.wave_sum_u32
    m = aster.Module(target)
    k = m.kernel("k", args=[("x", U32), ("out", U32)], block=64)
    px, po = k.load_arg("x"), k.load_arg("out")
    off = k.v_lshlrev_b32(VGPR(), 2, v[0])
    x = k.global_load_dword(VGPR(), off, px)
    y = k.global_load_dword(VGPR(), off, px, offset=256)
    (sx,) = k.call(piece, x)
    (sy,) = k.call(piece, y)
    k.global_store_dword(off, sx, po)
    k.global_store_dword(off, sy, po, offset=256)
    k.s_endpgm()
    rng = np.random.default_rng(11)
    if kind == "f32":
        vals = rng.integers(-1000, 1000, (2, 64)).astype(np.float32)
        want = vals.sum(axis=1, dtype=np.float64).astype(np.float32)
        data = vals.view(np.uint32)
    else:
        data = rng.integers(0, 2**32, (2, 64), dtype=np.uint64).astype(np.uint32)
        want = (data.astype(np.uint64).sum(axis=1) % 2**32).astype(np.uint32)
        want = want.view(np.uint32)
    out = np.zeros((2, 64), np.uint32)
    aster.launch(aster.compile(m, PIPE), "k", grid=1, block=64,
                 args=[data.reshape(-1).copy(), out.reshape(-1)])
    got = out.view(np.float32) if kind == "f32" else out
    assert (got == np.asarray(want).reshape(2, 1).view(got.dtype)).all(), got
