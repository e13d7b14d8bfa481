"""aster.nanokernels.tiles (the GEMM's pieces), each called from kernels built
here, inlined, scheduled, allocated, waited and padded by the passes, run on
the strict emulator for gfx942 and gfx950 and checked against NumPy models
of the documented behaviour: raw buffer bounds (a dword reaching past
num_records reads 0), the K mask, the v_perm transpose, and a fragment ->
MFMA -> edge store round trip whose result is NumPy's A @ B (the MFMA
operand layout is AMD's, so the fragments must follow it)."""
import ml_dtypes
import numpy as np
import pytest

import aster
from aster import VGPR, AGPR, v
from aster.nanokernels import lds, mfma, tiles

PIPE = "amdgcn-inline,amdgcn-schedule,amdgcn-regalloc,amdgcn-waitcnt,amdgcn-hazards"
U32 = aster.ptr(np.uint32)
ARCHS = ["gfx942", "gfx950"]


def dword_reads(words, nbytes, byte_offsets):
    """What a raw buffer over `nbytes` returns for dwords at byte offsets."""
    o = np.asarray(byte_offsets)
    ok = o + 4 <= nbytes
    return np.where(ok, words[np.minimum(o // 4, len(words) - 1)], 0).astype(np.uint32)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("step", [512, 2000])
def test_buffer_loads_bounds_and_advance(arch, step):
    nbytes = 1002                                       # ends mid-dword
    m = aster.Module(arch)
    k = m.kernel("k", args=[("src", U32), ("n", np.uint32), ("step", np.uint32),
                            ("out", U32)], block=64)
    src, n, st, out = (k.load_arg(x) for x in ("src", "n", "step", "out"))
    (d,) = k.call(tiles.raw_buffer, src, n)
    off16 = k.v_lshlrev_b32(VGPR(), 4, v[0])
    off8 = k.v_lshlrev_b32(VGPR(), 3, v[0])
    x4, x2 = k.call(tiles.buffer_loads(((0, 4, 0), (1, 2, 1000))), d, off16, off8)
    (d2,) = k.call(tiles.advance_buffer, d, st)
    (y4,) = k.call(tiles.buffer_loads(((0, 4, 16),)), d2, off16)
    o = k.v_mul_u32_u24(VGPR(), 40, v[0])
    k.global_store_dwordx4(o, x4, out)
    k.global_store_dwordx2(o, x2, out, offset=16)
    k.global_store_dwordx4(o, y4, out, offset=24)
    k.s_endpgm()
    words = np.random.default_rng(1).integers(1, 2**32, 1024, dtype=np.uint32)
    got = np.zeros((64, 10), np.uint32)
    aster.launch(aster.compile(m, PIPE), "k", grid=1, block=64,
                 args=[words, nbytes, step, got])
    lane = np.arange(64)[:, None]
    want = np.concatenate([
        dword_reads(words, nbytes, 16 * lane + 4 * np.arange(4)),
        dword_reads(words, nbytes, 1000 + 8 * lane + 4 * np.arange(2)),
        dword_reads(words[step // 4:], max(nbytes - step, 0), 16 + 16 * lane + 4 * np.arange(4))],
        axis=1)
    assert (got == want).all()
    assert (got[:, :4] != 0).any() and (got[:, :4] == 0).any()   # both sides of the edge


def lds_dump(k, out, nbytes):
    """Copies LDS [0, nbytes) to out with ds_read_b32 (64 lanes x 4 bytes)."""
    off = k.v_lshlrev_b32(VGPR(), 2, v[0])
    for q in range(0, nbytes, 256):
        x = k.ds_read_b32(VGPR(), off, offset=q)
        k.global_store_dword(k.v_add_u32(VGPR(), q, off), x, out)


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("K", [5, 13, 40, 100])
def test_write_kmajor_masks_k(arch, K):
    """Two chunks per lane (the lane's chunk starts at k0 = 8 (lane % 8)),
    elements k0 + e >= K zeroed, rows of 24 bytes."""
    m = aster.Module(arch)
    k = m.kernel("k", args=[("src", U32), ("K", np.int32), ("out", U32)], block=64, lds=3072)
    src, K_, out = k.load_arg("src"), k.load_arg("K"), k.load_arg("out")
    off = k.v_lshlrev_b32(VGPR(), 4, v[0])
    c0 = k.global_load_dwordx4(VGPR(4), off, src)
    c1 = k.global_load_dwordx4(VGPR(4), off, src, offset=1024)
    kc = k.v_and_b32(VGPR(), 7, v[0])
    x0 = k.v_sub_u32(VGPR(), k.s_lshl_b32(aster.SGPR(), K_, 4), k.v_lshlrev_b32(VGPR(), 7, kc))
    xs = [x0] + [k.v_subrev_u32(VGPR(), 32 * j, x0) for j in range(1, 4)]
    addr = k.v_mul_u32_u24(VGPR(), 24, v[0])
    k.call(tiles.write_kmajor((0, 1536)), c0, c1, *xs, addr)
    k.s_waitcnt(lgkmcnt=0)
    lds_dump(k, out, 3072)
    k.s_endpgm()
    data = np.random.default_rng(K).integers(1, 2**16, (2, 64, 8), dtype=np.uint16)
    got = np.zeros(3072 // 4, np.uint32)
    aster.launch(aster.compile(m, PIPE), "k", grid=1, block=64, args=[data.view(np.uint32).reshape(-1), K, got])
    k0 = 8 * (np.arange(64) % 8)
    keep = (k0[:, None] + np.arange(8)) < K
    want = np.zeros((2, 64, 12), np.uint16)
    want[:, :, :8] = np.where(keep, data, 0)
    g = got.view(np.uint16).reshape(2, 64, 12)
    assert (g[:, :, :8] == want[:, :, :8]).all()


@pytest.mark.parametrize("arch", ARCHS)
def test_write_transposed(arch):
    """Lane l holds 2 groups of 4 rows x 4 columns (16-bit); column c of
    group g lands at l * 8 + c * 1024 + g * 512 as its 4 rows."""
    m = aster.Module(arch)
    k = m.kernel("k", args=[("src", U32), ("out", U32)], block=64, lds=4096)
    src, out = k.load_arg("src"), k.load_arg("out")
    off = k.v_lshlrev_b32(VGPR(), 3, v[0])
    regs = [k.global_load_dwordx2(VGPR(2), off, src, offset=512 * i) for i in range(8)]
    sel = [k.s_mov_b32(aster.SGPR(), x) for x in (tiles.SEL_LO, tiles.SEL_HI)]
    k.call(tiles.write_transposed(2, 1024, 512, 0), *regs, *sel, off)
    k.s_waitcnt(lgkmcnt=0)
    lds_dump(k, out, 4096)
    k.s_endpgm()
    R = np.random.default_rng(3).integers(0, 2**16, (2, 4, 64, 4), dtype=np.uint16)  # g, row, lane, col
    got = np.zeros(1024, np.uint32)
    aster.launch(aster.compile(m, PIPE), "k", grid=1, block=64,
                 args=[R.view(np.uint32).reshape(-1), got])
    g = got.view(np.uint16).reshape(4, 2, 64, 4)      # col, group, lane, row
    assert (g == np.transpose(R, (3, 0, 2, 1))).all()


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("K", [3, 6, 16])
def test_mask_fragments(arch, K):
    m = aster.Module(arch)
    k = m.kernel("k", args=[("src", U32), ("K", np.int32), ("out", U32)], block=64)
    src, K_, out = k.load_arg("src"), k.load_arg("K"), k.load_arg("out")
    off = k.v_lshlrev_b32(VGPR(), 3, v[0])
    f0 = k.global_load_dwordx2(VGPR(2), off, src)
    f1 = k.global_load_dwordx2(VGPR(2), off, src, offset=512)
    kq = k.v_and_b32(VGPR(), 3, v[0])
    y0 = k.v_sub_u32(VGPR(), k.s_lshl_b32(aster.SGPR(), K_, 4), k.v_lshlrev_b32(VGPR(), 6, kq))
    y1 = k.v_subrev_u32(VGPR(), 32, y0)
    g0, g1 = k.call(tiles.mask_fragments(2), f0, f1, y0, y1)
    k.global_store_dwordx2(off, g0, out)
    k.global_store_dwordx2(off, g1, out, offset=512)
    k.s_endpgm()
    data = np.random.default_rng(K).integers(1, 2**16, (2, 64, 4), dtype=np.uint16)
    got = np.zeros(256, np.uint32)
    aster.launch(aster.compile(m, PIPE), "k", grid=1, block=64,
                 args=[data.view(np.uint32).reshape(-1), K, got])
    k0 = 4 * (np.arange(64) % 4)
    want = np.where((k0[:, None] + np.arange(4)) < K, data, 0)
    assert (got.view(np.uint16).reshape(2, 64, 4) == want).all()


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("mt,dtype", [(32, "f16"), (16, "bf16")])
def test_fragments_mfma_and_edge_store(arch, mt, dtype):
    """A (mt x 2 mk) and B^T (mt x 2 mk) as K-contiguous padded LDS rows ->
    read_fragments at lds.fragment_offset -> two MFMA steps -> store_offset +
    store_result_buffer into a C whose right and bottom edges cut the tile:
    C[row0:, col0:] = (A @ B) cut to C, everything else untouched."""
    mk = {32: 8, 16: 16}[mt]
    K = 2 * mk
    rs = (K + 4) * 2                                   # padded row bytes (as the GEMM)
    a_bytes = mt * rs
    Mc, Nc, row0, col0 = mt + 5, mt + 3, 9, 7
    m = aster.Module(arch)
    k = m.kernel("k", args=[("img", U32), ("c", aster.ptr(np.float32)), ("M", np.int32),
                            ("N", np.int32)], block=64, lds=4096)
    img, pc, M_, N_ = (k.load_arg(x) for x in ("img", "c", "M", "N"))
    off = k.v_lshlrev_b32(VGPR(), 2, v[0])
    for q in range(0, 2 * a_bytes, 256):               # the LDS image, dword by dword
        k.ds_write_b32(off, k.global_load_dword(VGPR(), off, img, offset=q), offset=q)
    k.s_waitcnt(vmcnt=0, lgkmcnt=0)
    (frag,) = k.call(lds.fragment_offset(mt, rs), v[0])
    A = k.call(tiles.read_fragments((0, 2 * mk)), frag)
    B = k.call(tiles.read_fragments((a_bytes, a_bytes + 2 * mk)), frag)
    step = mfma.mfma_step(f"{mt}x{mt}x{mk}_{dtype}")
    nc = mt * mt // 64
    acc = k.concat(*[k.v_accvgpr_write_b32(AGPR(), 0) for _ in range(nc)])
    for s_ in range(2):
        (acc,) = k.call(step, A[s_], B[s_], acc)
    S = aster.SGPR
    pitch = k.s_lshl_b32(S(), N_, 2)
    (dc,) = k.call(tiles.raw_buffer, pc, k.s_mul_i32(S(), pitch, M_))
    (o,) = k.call(tiles.store_offset(mt), v[0], k.s_mov_b32(S(), row0),
                  k.s_mov_b32(S(), col0), N_, pitch)
    k.call(tiles.store_result_buffer(mt), acc, dc, pitch, o)
    k.s_endpgm()
    dt = {"f16": np.float16, "bf16": ml_dtypes.bfloat16}[dtype]
    rng = np.random.default_rng(mt)
    a = (rng.integers(-4, 5, (mt, K)) / 4).astype(dt)
    bt = (rng.integers(-4, 5, (mt, K)) / 4).astype(dt)
    image = np.zeros((2, mt, rs // 2), dt)
    image[0, :, :K], image[1, :, :K] = a, bt
    words = np.zeros(4096 // 4, np.uint32)
    words[:image.nbytes // 4] = image.view(np.uint32).reshape(-1)
    c = np.full((Mc, Nc), -1.0, np.float32)
    aster.launch(aster.compile(m, PIPE), "k", grid=1, block=64, args=[words, c, Mc, Nc])
    want = np.full((Mc, Nc), -1.0, np.float32)
    prod = (a.astype(np.float64) @ bt.astype(np.float64).T).astype(np.float32)
    want[row0:, col0:] = prod[:Mc - row0, :Nc - col0]
    assert (c == want).all()


@pytest.mark.parametrize("bad", [lambda: tiles.buffer_loads(((0, 3, 0),)),
                                 lambda: tiles.buffer_loads(((0, 4, 5000),)),
                                 lambda: tiles.write_kmajor(()),
                                 lambda: tiles.read_fragments((70000,)),
                                 lambda: tiles.store_offset(8),
                                 lambda: tiles.store_result_buffer(32, acc="sgpr")])
def test_bad_parameters_are_errors(bad):
    with pytest.raises(ValueError):
        bad()
