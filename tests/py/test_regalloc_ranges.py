"""Register allocation of wide ranges: the 16-register accumulators of 32x32
MFMAs (AGPRs or VGPRs) and SGPR ranges of 2 and 8, read through parts
(`acc[4:8]`, amdgcn.part). Under register limits they are spilled whole (to
scratch, or SGPRs to VGPR lanes) and only the part read is reloaded; slots
whose lifetimes do not overlap share scratch bytes. Each kernel runs on the
emulator in strict mode allocated freely and under the limit, and both must
equal NumPy (the MFMA layout from AMD's matrix instruction calculator facts
in mfma_layouts.py, not from the emulator)."""
import re

import numpy as np
import pytest

import aster
from aster import AGPR, SGPR, VGPR, s, v
import mfma_layouts as L

SHAPE = L.SHAPES["v_mfma_f32_32x32x2_f32"]


def mfma_ref(A, B, C):
    """D = A @ B + C for v_mfma_f32_32x32x2_f32 in per-lane registers:
    A[l] / B[l] one f32 per lane, C (16, 64) -> D (16, 64)."""
    Am = np.zeros((32, 2), np.float64)
    Bm = np.zeros((2, 32), np.float64)
    for row in range(32):
        for k in range(2):
            lane, _ = L.input_place(SHAPE, 0, row, k)
            Am[row, k] = A[lane]
            Bm[k, row] = B[lane]
    D = Am @ Bm
    out = C.astype(np.float64).copy()
    for i in range(32):
        for j in range(32):
            lane, reg = L.output_place(SHAPE, 0, i, j)
            out[reg, lane] += D[i, j]
    return out.astype(np.float32)


def pointer_kernel(names, dtype=np.float32, shift=2):
    """Module and 64-lane kernel `k(names...: dtype*)`: the pointers loaded
    into SGPR pairs, `off` = lane << shift (bytes)."""
    m = aster.Module("gfx942")
    k = m.kernel("k", args=[(n, aster.ptr(dtype)) for n in names], block=(64, 1, 1))
    ptrs = [k.s_load_dwordx2(SGPR(2), s[0:2], 8 * i) for i in range(len(names))]
    off = k.v_lshlrev_b32(VGPR(), shift, v[0])
    k.s_waitcnt(lgkmcnt=0)
    return m, k, ptrs, off


def build_accumulators(n_acc, acc_cls):
    """n_acc accumulators live at once: acc_j = A_j B_j, then
    acc_j = A_(j+1) B_j + acc_j; each stored as 4 parts of 4 registers."""
    m, k, (pa, pb, po), off = pointer_kernel(["a", "b", "out"])
    As = [k.global_load_dword(VGPR(), off, pa, offset=256 * j) for j in range(n_acc)]
    Bs = [k.global_load_dword(VGPR(), off, pb, offset=256 * j) for j in range(n_acc)]
    k.s_waitcnt(vmcnt=0)
    accs = [k.v_mfma_f32_32x32x2_f32(acc_cls(16), As[j], Bs[j], 0) for j in range(n_acc)]
    accs = [k.v_mfma_f32_32x32x2_f32(acc_cls(16), As[(j + 1) % n_acc], Bs[j], accs[j])
            for j in range(n_acc)]
    for _ in range(3):   # MFMA results read by memory instructions: wait states
        k.s_nop(imm=7)
    ooff = k.v_lshlrev_b32(VGPR(), 2, v[0])
    for j in range(n_acc):
        oj = k.v_add_u32(VGPR(), 4096 * j, ooff)
        for q in range(16):     # out[j][reg q][lane]
            k.global_store_dword(oj, accs[j][q], po, offset=q * 256)
    k.s_endpgm()
    return m


def run_accumulators(m, pipeline, n_acc, seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(-4, 5, 64 * n_acc).astype(np.float32)
    b = rng.integers(-4, 5, 64 * n_acc).astype(np.float32)
    out = np.zeros(16 * 64 * n_acc, np.float32)
    c = aster.compile(m, pipeline=pipeline)
    aster.launch(c, "k", grid=1, block=64, args=[a, b, out], strict=True,
                 uninitialized="error")
    want = []
    for j in range(n_acc):
        acc = mfma_ref(a[64 * j:64 * j + 64], b[64 * j:64 * j + 64], np.zeros((16, 64)))
        nxt = (j + 1) % n_acc
        want.append(mfma_ref(a[64 * nxt:64 * nxt + 64], b[64 * j:64 * j + 64], acc))
    return c, out.reshape(n_acc, 16, 64), np.stack(want)


def stats(c):
    d = re.search(r"regalloc = \{([^}]*)\}", c.mlir).group(1)
    return {k: int(x) for k, x in re.findall(r"(\w+) = (\d+) : i32", d)}


@pytest.mark.parametrize("acc_cls,limit", [(AGPR, "max-agprs=32"), (VGPR, "max-vgprs=40")])
def test_mfma_32x32_accumulators_spill_whole(acc_cls, limit):
    n_acc = 3
    m = build_accumulators(n_acc, acc_cls)
    free, got_free, want = run_accumulators(m, "amdgcn-regalloc", n_acc, 1)
    np.testing.assert_array_equal(got_free, want)
    assert stats(free)["spills"] == 0
    tight, got, want = run_accumulators(m, f"amdgcn-regalloc{{{limit}}}", n_acc, 1)
    np.testing.assert_array_equal(got, want)
    st = stats(tight)
    cls = "agpr" if acc_cls is AGPR else "vgpr"
    assert st[cls] <= int(limit.split("=")[1]) and st["scratch_spills"] > 0
    p = "a" if acc_cls is AGPR else "v"
    # saved whole, 4 registers per store; reloaded one part (register) at a time
    assert re.search(rf"scratch_store_dwordx4 off, {p}\[\d+:\d+\], s\d+ offset:48", tight.asm)
    assert len(re.findall(rf"scratch_load_dword {p}\d+, off, s\d+ offset:\d+", tight.asm)) >= 16
    # the private segment holds them
    assert tight.metadata["k"].private_segment >= st["scratch_bytes"]


def test_disjoint_slots_share_scratch():
    """Four phases, each with two 16-AGPR accumulators under max-agprs=16,
    spilled to scratch and read back within the phase: the phases' slots
    share the same bytes."""
    phases = 4
    m, k, (pa, po), off = pointer_kernel(["a", "out"])
    x = k.global_load_dword(VGPR(), off, pa)
    y = k.global_load_dword(VGPR(), off, pa, offset=256)
    k.s_waitcnt(vmcnt=0)
    for p in range(phases):
        acc1 = k.v_mfma_f32_32x32x2_f32(AGPR(16), x, y, 0)
        acc2 = k.v_mfma_f32_32x32x2_f32(AGPR(16), y, x, 0)
        for _ in range(3):
            k.s_nop(imm=7)
        op1 = k.v_add_u32(VGPR(), 8192 * p, off)
        op2 = k.v_add_u32(VGPR(), 8192 * p + 4096, off)
        for q in range(16):
            k.global_store_dword(op1, acc1[q], po, offset=q * 256)
            k.global_store_dword(op2, acc2[q], po, offset=q * 256)
    k.s_endpgm()
    a = np.random.default_rng(3).integers(-4, 5, 128).astype(np.float32)
    c = aster.compile(m, pipeline="amdgcn-regalloc{max-agprs=16}")
    out = np.zeros(phases * 2 * 16 * 64, np.float32)
    aster.launch(c, "k", grid=1, block=64, args=[a, out], strict=True, uninitialized="error")
    zero = np.zeros((16, 64))
    want = np.stack([mfma_ref(a[:64], a[64:], zero), mfma_ref(a[64:], a[:64], zero)])
    np.testing.assert_array_equal(out.reshape(phases, 2, 16, 64), np.stack([want] * phases))
    st = stats(c)
    # both accumulators of a phase go to scratch (a part reloaded for its
    # store needs an AGPR of the 16); 8 slots of 64 bytes take 128 bytes
    assert st["agpr"] == 16 and st["scratch_spills"] == 2 * phases
    assert st["scratch_bytes"] == 128 and c.metadata["k"].private_segment == 128


def test_sgpr_ranges_spill_to_lanes():
    """SGPR pairs (pointers) and an SGPR octet (8 scalars from s_load_dwordx8)
    under max-sgprs=12: spilled to VGPR lanes, parts reloaded by v_readlane."""
    m, k, (px, po), off = pointer_kernel(["x", "out"], np.uint32)
    oct_ = k.s_load_dwordx8(SGPR(8), px, 0)
    k.s_waitcnt(lgkmcnt=0)
    sums = [k.s_add_u32(SGPR(), oct_[i], oct_[(i + 3) % 8]) for i in range(8)]
    vals = [k.v_add_u32(VGPR(), sums[i], v[0]) for i in range(8)]
    vals += [k.v_add_u32(VGPR(), oct_[7 - i], vals[i]) for i in range(8)]
    for i, x in enumerate(vals):
        k.global_store_dword(off, x, po, offset=256 * i)
    k.s_endpgm()
    x = np.random.default_rng(5).integers(0, 2**31, 8, dtype=np.uint32)
    want = []
    lane = np.arange(64, dtype=np.uint64)
    for i in range(8):
        want.append((x[i].astype(np.uint64) + x[(i + 3) % 8] + lane) & 0xFFFFFFFF)
    for i in range(8):
        want.append((want[i] + x[7 - i]) & 0xFFFFFFFF)
    want = np.stack(want).astype(np.uint32)
    for pipeline in ("amdgcn-regalloc", "amdgcn-regalloc{max-sgprs=12}"):
        c = aster.compile(m, pipeline=pipeline)
        out = np.zeros(16 * 64, np.uint32)
        aster.launch(c, "k", grid=1, block=64, args=[x, out], strict=True,
                     uninitialized="error")
        np.testing.assert_array_equal(out.reshape(16, 64), want)
    st = stats(c)
    assert st["sgpr"] <= 12 and st["spills"] > 0
    assert "v_writelane_b32" in c.asm and re.search(r"v_readlane_b32 s\d+, v\d+, [1-7]\b", c.asm)


def test_part_bad_input():
    m = aster.Module("gfx942")
    k = m.kernel("k")
    acc = k.v_mfma_f32_32x32x2_f32(AGPR(16), v[0], v[1], 0)
    with pytest.raises(ValueError, match="must start at a multiple of 2"):
        acc[3:5]
    with pytest.raises(IndexError, match="non-empty"):
        acc[4:4]
    with pytest.raises(IndexError, match="out of range"):
        acc[16]
    with pytest.raises(TypeError, match="int or a slice"):
        acc["x"]
    q = k.s_load_dwordx4(SGPR(4), s[0:2], 0)
    with pytest.raises(ValueError, match="multiple of 2"):
        q[1:3]
    assert acc[4:8].width == 4 and acc[15].width == 1 and q[2:4].width == 2


def random_accumulator_program(seed):
    """A random chain over 32x32 accumulators (AGPR or VGPR): new ones
    (A_r B_r'), accumulations onto a random live one, single registers of a
    random one stored right away; at the end every register of each live
    accumulator is stored. Returns (module, limit pipeline, n_out, model)
    where model(a, b) is the NumPy output."""
    rng = np.random.default_rng(seed)
    acc_cls = AGPR if rng.random() < 0.6 else VGPR
    n_in = 3
    m, k, (pa, pb, po), off = pointer_kernel(["a", "b", "out"])
    As = [k.global_load_dword(VGPR(), off, pa, offset=256 * j) for j in range(n_in)]
    Bs = [k.global_load_dword(VGPR(), off, pb, offset=256 * j) for j in range(n_in)]
    k.s_waitcnt(vmcnt=0)
    live, steps, n_out = [], [], 0     # live: [(Value, model index)]
    outs = []                           # (model index, register) per output slot
    base = {}

    def store(val, reg):
        nonlocal n_out
        blk = n_out // 16
        if blk not in base:
            base[blk] = k.v_add_u32(VGPR(), 4096 * blk, off)
        k.global_store_dword(base[blk], val[reg], po, offset=(n_out % 16) * 256)
        n_out += 1

    for _ in range(int(rng.integers(5, 11))):
        what = rng.random()
        if not live or (what < 0.35 and len(live) < 4):
            i, j = int(rng.integers(n_in)), int(rng.integers(n_in))
            live.append((k.v_mfma_f32_32x32x2_f32(acc_cls(16), As[i], Bs[j], 0), len(steps)))
            steps.append((i, j, None))
        elif what < 0.7:
            t = int(rng.integers(len(live)))
            i, j = int(rng.integers(n_in)), int(rng.integers(n_in))
            val, idx = live[t]
            live[t] = (k.v_mfma_f32_32x32x2_f32(acc_cls(16), As[i], Bs[j], val), len(steps))
            steps.append((i, j, idx))
        else:
            val, idx = live[int(rng.integers(len(live)))]
            reg = int(rng.integers(16))
            store(val, reg)
            outs.append((idx, reg))
    for val, idx in live:
        for reg in range(16):
            store(val, reg)
            outs.append((idx, reg))
    k.s_endpgm()
    cls = "agprs" if acc_cls is AGPR else "vgprs"
    need = 16 * max(1, len(live))
    lim = int(rng.integers(16, need + 1)) if cls == "agprs" else int(rng.integers(24, 24 + need))
    pipeline = f"amdgcn-regalloc{{max-{cls}={lim}}}"

    def model(a, b):
        vals = []
        for i, j, prev in steps:
            c = np.zeros((16, 64)) if prev is None else vals[prev]
            vals.append(mfma_ref(a[64 * i:64 * i + 64], b[64 * j:64 * j + 64], c))
        return np.stack([vals[idx][reg] for idx, reg in outs])

    return m, pipeline, n_out, model


def test_random_accumulator_programs():
    """32 random programs over 32x32 accumulators allocated under random
    limits (most spill whole ranges and reload parts): equal to NumPy and to
    the same program allocated freely."""
    spilled = 0
    for seed in range(32):
        m, pipeline, n_out, model = random_accumulator_program(seed)
        rng = np.random.default_rng(100 + seed)
        a = rng.integers(-3, 4, 64 * 3).astype(np.float32)
        b = rng.integers(-3, 4, 64 * 3).astype(np.float32)
        want = model(a, b)
        for pl in ("amdgcn-regalloc", pipeline):
            c = aster.compile(m, pipeline=pl)
            out = np.zeros(n_out * 64, np.float32)
            aster.launch(c, "k", grid=1, block=64, args=[a, b, out], strict=True,
                         uninitialized="error")
            np.testing.assert_array_equal(out.reshape(n_out, 64), want,
                                          err_msg=f"seed {seed} {pl}")
        spilled += stats(c)["scratch_spills"] > 0
    print(f"regalloc wide ranges: 32 random accumulator programs, {spilled} spilled to scratch")
    assert spilled >= 16, spilled


def test_scratch_slots_in_a_loop():
    """VGPR pairs defined before a loop and read in every iteration, and
    pairs spilled inside the iteration, under max-vgprs=12: the outer slots
    live through the whole loop (back edge included), so inner slots may not
    share their bytes; three iterations must equal NumPy."""
    m, k, (px, po), off = pointer_kernel(["x", "out"], np.uint64, shift=3)
    P = [k.global_load_dwordx2(VGPR(2), off, px, offset=512 * i) for i in range(4)]
    acc = k.global_load_dwordx2(VGPR(2), off, px, offset=512 * 4)
    k.s_waitcnt(vmcnt=0)
    # (not load results, which are spilled only when read in their block)
    P = [k.v_lshl_add_u64(VGPR(2), x, 0, 0) for x in P]
    with k.loop(s[20], 3, carry=[acc]) as L:
        # the outer pairs are read first, then inner pairs spill: their
        # slots come after the outer slots' last reload in the body
        u = k.v_lshl_add_u64(VGPR(2), P[0], 0, P[1])
        u = k.v_lshl_add_u64(VGPR(2), u, 1, P[2])
        u = k.v_lshl_add_u64(VGPR(2), u, 2, P[3])
        w = [k.v_lshl_add_u64(VGPR(2), L.carry[0], j, u) for j in range(7)]
        r = k.v_lshl_add_u64(VGPR(2), w[0], 0, w[1])
        for j in range(2, 7):
            r = k.v_lshl_add_u64(VGPR(2), r, j - 1, w[j])
        L.next(r)
    # (the outer pairs are not read after the loop: only the back edge keeps
    # their slots live past their last reload in the body)
    k.global_store_dwordx2(off, L.results[0], po)
    k.s_endpgm()
    x = np.random.default_rng(9).integers(0, 2**63, 5 * 64, dtype=np.uint64)
    Pn = [x[64 * i:64 * i + 64] for i in range(4)]
    a = x[256:320].copy()
    with np.errstate(over="ignore"):
        for _ in range(3):
            u = Pn[0] + Pn[1]
            u = (u << np.uint64(1)) + Pn[2]
            u = (u << np.uint64(2)) + Pn[3]
            w = [(a << np.uint64(j)) + u for j in range(7)]
            r = w[0] + w[1]
            for j in range(2, 7):
                r = (r << np.uint64(j - 1)) + w[j]
            a = r
    want = a
    for pipeline in ("amdgcn-regalloc", "amdgcn-regalloc{max-vgprs=12}"):
        c = aster.compile(m, pipeline=pipeline)
        out = np.zeros(64, np.uint64)
        aster.launch(c, "k", grid=1, block=64, args=[x, out], strict=True,
                     uninitialized="error")
        np.testing.assert_array_equal(out, want, err_msg=pipeline)
    st = stats(c)
    assert st["vgpr"] <= 12 and st["scratch_spills"] >= 2


def test_concat_builds_ranges():
    """k.concat: a pair from two 32-bit results (in place: no copy), the
    same parts swapped (copies), an SGPR pair and an AGPR quad; equal to
    NumPy on the emulator."""
    m, k, (po,), off = pointer_kernel(["out"], np.uint32, shift=3)
    lo = k.v_add_u32(VGPR(), 5, v[0])
    hi = k.v_mul_lo_u32(VGPR(), 3, v[0])
    k.global_store_dwordx2(off, k.concat(lo, hi), po)          # read only there
    a = k.v_add_u32(VGPR(), 7, v[0])
    b = k.v_add_u32(VGPR(), 9, v[0])
    k.global_store_dwordx2(off, k.concat(a, b), po, offset=512)
    k.global_store_dwordx2(off, k.concat(b, a), po, offset=1024)
    s_lo = k.s_mov_b32(SGPR(), 11)
    s_hi = k.s_mov_b32(SGPR(), 13)
    sp = k.v_mov_b64(VGPR(2), k.concat(s_lo, s_hi))
    k.global_store_dwordx2(off, sp, po, offset=1536)
    quad = k.concat(*[k.v_accvgpr_write_b32(AGPR(), x) for x in (a, b, b, a)])
    k.global_store_dwordx4(k.v_lshlrev_b32(VGPR(), 4, v[0]), quad, po, offset=2048)
    k.s_endpgm()
    c = aster.compile(m, pipeline="amdgcn-regalloc")
    out = np.zeros(512 + 256, np.uint32)
    aster.launch(c, "k", grid=1, block=64, args=[out], strict=True, uninitialized="error")
    lane = np.arange(64, dtype=np.uint32)
    pairs = out[:512].reshape(4, 64, 2)
    np.testing.assert_array_equal(pairs[0], np.stack([lane + 5, 3 * lane], 1))
    np.testing.assert_array_equal(pairs[1], np.stack([lane + 7, lane + 9], 1))
    np.testing.assert_array_equal(pairs[2], np.stack([lane + 9, lane + 7], 1))
    np.testing.assert_array_equal(pairs[3], np.stack([np.full(64, 11), np.full(64, 13)], 1))
    np.testing.assert_array_equal(out[512:].reshape(64, 4),
                                  np.stack([lane + 7, lane + 9, lane + 9, lane + 7], 1))
    body = c.asm.split("s_endpgm")[0]
    # the first pair is built in place: its parts were given its registers
    first = body.split("global_store_dwordx2")[0]
    assert "v_mov_b32" not in first, first
    assert "v_accvgpr_mov_b32" in body or "v_accvgpr_write_b32" in body


def test_concat_accumulator_from_memory_under_pressure():
    """C tiles loaded into AGPRs (global_load_dwordx4 x 4), concatenated into
    16-register accumulators, D = A B + C with 32x32 MFMAs, stored by parts;
    two of them under max-agprs=20 (spills), equal to NumPy."""
    m, k, (pa, pc, po), off = pointer_kernel(["a", "c", "out"])
    x = k.global_load_dword(VGPR(), off, pa)
    y = k.global_load_dword(VGPR(), off, pa, offset=256)
    off16 = k.v_lshlrev_b32(VGPR(), 6, v[0])    # 64 bytes per lane: C[lane][16]
    accs = []
    for t in range(2):
        base = k.v_add_u32(VGPR(), 4096 * t, off16)
        quads = [k.global_load_dwordx4(AGPR(4), base, pc, offset=16 * q) for q in range(4)]
        k.s_waitcnt(vmcnt=0)
        accs.append(k.v_mfma_f32_32x32x2_f32(AGPR(16), x if t == 0 else y, y, k.concat(*quads)))
    for _ in range(3):
        k.s_nop(imm=7)
    for t, acc in enumerate(accs):
        ot = k.v_add_u32(VGPR(), 4096 * t, off)
        for q in range(16):
            k.global_store_dword(ot, acc[q], po, offset=256 * q)
    k.s_endpgm()
    rng = np.random.default_rng(11)
    a = rng.integers(-3, 4, 128).astype(np.float32)
    cc = rng.integers(-3, 4, 2 * 64 * 16).astype(np.float32)
    want = np.stack([mfma_ref(a[:64] if t == 0 else a[64:], a[64:],
                              cc[1024 * t:1024 * (t + 1)].reshape(64, 16).T) for t in range(2)])
    for pipeline in ("amdgcn-regalloc", "amdgcn-regalloc{max-agprs=20}"):
        c = aster.compile(m, pipeline=pipeline)
        out = np.zeros(2 * 16 * 64, np.float32)
        aster.launch(c, "k", grid=1, block=64, args=[a, cc, out], strict=True,
                     uninitialized="error")
        np.testing.assert_array_equal(out.reshape(2, 16, 64), want, err_msg=pipeline)
    st = stats(c)
    assert st["agpr"] <= 20 and st["spills"] > 0


def test_concat_bad_input():
    m = aster.Module("gfx942")
    k = m.kernel("k")
    x = k.v_mov_b32(VGPR(), 1)
    y = k.s_mov_b32(SGPR(), 1)
    with pytest.raises(TypeError, match="virtual registers of one class"):
        k.concat(x, y)
    with pytest.raises(TypeError, match="at least one"):
        k.concat()
    with pytest.raises(TypeError, match="takes Values"):
        k.concat(x, v[3])
    with pytest.raises(aster.AsterError, match="at most 32"):
        k.concat(*[x] * 33)
