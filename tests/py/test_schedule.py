"""amdgcn-schedule on whole kernels and the Python schedules (aster.schedule).

* A naive MFMA K-loop (each step: load A, load B, MFMA; no waits written)
  after amdgcn-schedule,amdgcn-regalloc,amdgcn-waitcnt,amdgcn-hazards runs
  much faster in the timing model's cycles than without the scheduler, and
  both compute the published-layout reference (AMD's matrix instruction
  calculator, tests/py/mfma_layouts.py).
* An LDS + MFMA loop interleaved by `k.interleave(delay, rate)` is the same
  program as the hand-written schedule (same assembly), and computes the same.
* `unroll` / `pipeline` orders, `no_reorder`, and errors (a value read
  before it is defined, bad permutations, streams across blocks).
"""
import os
import re
import sys

import numpy as np
import pytest

import aster
import mfma_layouts as ml
from aster import VGPR, s, v

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "examples"))
import schedule_demo  # noqa: E402

REST = "amdgcn-regalloc,amdgcn-waitcnt,amdgcn-hazards"
SCHED = "amdgcn-schedule," + REST
MFMA = "v_mfma_f32_16x16x16_f16"
SH = ml.SHAPES[MFMA]


def reference(a_steps, b_steps):
    """sum over steps of A_s @ B_s, in and out of the lane layouts of
    v_mfma_f32_16x16x16_f16 (a_steps, b_steps: (steps, 64, 4) f16)."""
    d = np.zeros((16, 16), np.float64)
    for a_l, b_l in zip(a_steps, b_steps):
        A = np.zeros((16, 16))
        B = np.zeros((16, 16))
        for i in range(16):
            for kk in range(16):
                lane, slot = ml.input_place(SH, 0, i, kk)
                A[i, kk] = a_l[lane, slot]
                B[kk, i] = b_l[lane, slot]
        d += A @ B
    out = np.zeros((64, 4), np.float32)
    for i in range(16):
        for j in range(16):
            lane, slot = ml.output_place(SH, 0, i, j)
            out[lane, slot] = d[i, j]
    return out


# ---- the naive K-loop (examples/schedule_demo.py) -------------------------

def test_kloop_scheduled_is_faster_and_right():
    m = schedule_demo.build()
    naive, sched = aster.compile(m, REST), aster.compile(m, SCHED)
    assert "s_waitcnt" not in m.mlir()
    args = schedule_demo.args(np.random.default_rng(1))
    cycles = {}
    for name, c in (("naive", naive), ("scheduled", sched)):
        a, b, d = (x.copy() for x in args)
        cycles[name] = aster.launch(c, "kloop", 1, 64, [a, b, d], timing=True).cycles
        want = reference(a.transpose(1, 0, 2), b.transpose(1, 0, 2))
        np.testing.assert_array_equal(d, want)
    # The loads of a step are issued ahead of the MFMAs: the memory latency
    # overlaps instead of adding up step after step. (Each load touches 64
    # lines, one per lane: the CU's vector memory pipeline, 2 clocks a line,
    # then bounds the scheduled loop.)
    assert cycles["scheduled"] * 1.4 < cycles["naive"], cycles
    st = sched.metadata["kloop"].schedule
    assert st["cycles_after"] * 2 < st["cycles_before"]
    assert aster.check_equivalent(naive, sched, "kloop", schedule_demo.args, 3) == 3


def test_estimate_uses_the_timing_models_mfma_interval():
    """One fact in one place: the scheduler's estimate of independent MFMAs
    issues them at the interval the timing model simulates (passes x 4)."""
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(64, 1, 1))
    n = 12
    for i in range(n):
        k.v_mfma_f32_16x16x16_f16(aster.a[4 * i:4 * i + 4], v[0:2], v[2:4],
                                  aster.a[4 * i:4 * i + 4])
    k.s_endpgm()
    est = aster.compile(m, "amdgcn-schedule").metadata["k"].schedule["cycles_after"]
    r = aster.launch(aster.compile(m), "k", 1, 64, [], timing=True, uninitialized="ignore")
    # Both: n MFMAs 16 cycles apart (4 passes), then the end (the launch's
    # cycles from the wave's first issue: before it, dispatch and fetch).
    assert est == 16 * (n - 1) + 4 + 4        # last issue + a turn, + s_endpgm's turn
    run = r.cycles - int(r.trace.events["issue"].min())
    assert abs(run - est) <= 16 + 8, (run, est)


# ---- an LDS + MFMA loop interleaved from Python ---------------------------

def lds_mfma(mode):
    """A, B fragments of 4 steps go to LDS once; a loop of 3 iterations
    reads them back and multiplies. mode: "naive" (read, read, MFMA per step),
    "interleaved" (k.interleave), "hand" (the interleaved order written out)."""
    m = aster.Module("gfx942", name="lds_mfma")
    f16 = aster.ptr(np.float16)
    k = m.kernel("lds_mfma", args=[("a", f16), ("b", f16), ("d", aster.ptr(np.float32))],
                 block=(64, 1, 1), lds=2 * 4 * 64 * 8)
    pa, pb, pd = k.load_arg("a"), k.load_arg("b"), k.load_arg("d")
    goff = k.v_lshlrev_b32(VGPR(), 5, v[0])           # 4 steps x 8 bytes per lane
    loff = k.v_lshlrev_b32(VGPR(), 3, v[0])           # LDS: step-major, 8 bytes per lane
    for j in range(4):
        for p, base in ((pa, 0), (pb, 4 * 512)):
            x = k.global_load_dwordx2(VGPR(2, align=2), goff, p, offset=8 * j)
            k.ds_write_b64(loff, x, offset=base + 512 * j)
    k.s_waitcnt(vmcnt=0, lgkmcnt=0)
    acc0 = k.concat(*[k.v_mov_b32(VGPR(), 0) for _ in range(4)])

    def read(j):
        return (k.ds_read_b64(VGPR(2, align=2), loff, offset=512 * j),
                k.ds_read_b64(VGPR(2, align=2), loff, offset=4 * 512 + 512 * j))

    with k.loop(s[20], 3, carry=[acc0]) as L:
        acc = L.carry[0]
        if mode == "naive":
            for j in range(4):
                A, B = read(j)
                acc = k.v_mfma_f32_16x16x16_f16(VGPR(4), A, B, acc)
        elif mode == "interleaved":
            with k.stream() as reads:
                frags = [read(j) for j in range(4)]
            with k.stream() as mfmas:
                for A, B in frags:
                    acc = k.v_mfma_f32_16x16x16_f16(VGPR(4), A, B, acc)
            # step j's reads at slot j, its MFMA at slot 1 + j: one step ahead
            k.interleave([aster.schedule.chunks(reads, 2), mfmas], delay=[0, 1], rate=1)
        else:  # the same schedule written by hand
            frags = [read(0), read(1)]
            acc = k.v_mfma_f32_16x16x16_f16(VGPR(4), *frags[0], acc)
            frags.append(read(2))
            acc = k.v_mfma_f32_16x16x16_f16(VGPR(4), *frags[1], acc)
            frags.append(read(3))
            acc = k.v_mfma_f32_16x16x16_f16(VGPR(4), *frags[2], acc)
            acc = k.v_mfma_f32_16x16x16_f16(VGPR(4), *frags[3], acc)
        L.next(acc)
    k.global_store_dwordx4(k.v_lshlrev_b32(VGPR(), 4, v[0]), L.results[0], pd)
    k.s_endpgm()
    return m


def lds_args(rng):
    a = rng.integers(-3, 4, (64, 4, 4)).astype(np.float16)
    b = rng.integers(-3, 4, (64, 4, 4)).astype(np.float16)
    return [a, b, np.zeros((64, 4), np.float32)]


def body(asm):
    return asm.split("lds_mfma:\n", 1)[1].split(".Lfunc_end", 1)[0]


def test_interleaved_lds_mfma_matches_hand_schedule():
    inter, hand, naive = (aster.compile(lds_mfma(x), REST)
                          for x in ("interleaved", "hand", "naive"))
    assert body(inter.asm) == body(hand.asm)
    assert body(inter.asm) != body(naive.asm)
    loop = body(inter.asm).split(".LBB0_1:")[1].split(".LBB0_2:")[0]
    seq = re.findall(r"\t(ds_read_b64|v_mfma\w+)", loop)
    assert seq == ["ds_read_b64"] * 4 + [MFMA] + ["ds_read_b64"] * 2 + [MFMA] + \
        ["ds_read_b64"] * 2 + [MFMA] * 2
    args = lds_args(np.random.default_rng(5))
    a, b, d = (x.copy() for x in args)
    r_inter = aster.launch(inter, "lds_mfma", 1, 64, [a, b, d], timing=True)
    steps = [a[:, j] for j in range(4)] * 3
    np.testing.assert_array_equal(d, reference(steps, [b[:, j] for j in range(4)] * 3))
    r_naive = aster.launch(naive, "lds_mfma", 1, 64, [x.copy() for x in args], timing=True)
    assert r_inter.cycles < r_naive.cycles
    assert aster.check_equivalent(naive, inter, "lds_mfma", lds_args, 3) == 3


# ---- unroll, pipeline, no_reorder, errors ---------------------------------

def _kernel():
    m = aster.Module("gfx942")
    k = m.kernel("k", args=[("p", aster.ptr(np.uint32))], block=(64, 1, 1))
    return m, k



def test_unroll_orders_bodies_by_key():
    m, k = _kernel()
    p = k.load_arg("p")
    off = k.v_lshlrev_b32(VGPR(), 2, v[0])
    seen = []

    def body(i, j):
        seen.append((i, j))
        return k.global_load_dword(VGPR(), off, p, offset=4 * (4 * i + j))

    vals = k.unroll((2, 3), body, key=lambda i, j: ((i + j) % 2, j, i))
    k.s_endpgm()
    assert seen == [(i, j) for i in range(2) for j in range(3)]     # emitted row-major
    assert set(vals) == set(seen)
    text = aster.compile(m, "amdgcn-regalloc").mlir
    loads = [line for line in text.splitlines() if "global_load_dword" in line]
    offsets = [int((re.findall(r"offset = (\d+)", line) or [0])[0]) for line in loads]
    want = sorted(seen, key=lambda ij: ((ij[0] + ij[1]) % 2, ij[1], ij[0]))
    assert offsets == [4 * (4 * i + j) for i, j in want]


def test_pipeline_prologue_steady_epilogue():
    m, k = _kernel()
    log = []
    stages = [lambda i, c: log.append(("load", i)), lambda i, c: log.append(("add", i)),
              lambda i, c: log.append(("store", i))]
    k.pipeline(4, stages)
    assert log == [("load", 0),
                   ("add", 0), ("load", 1),
                   ("store", 0), ("add", 1), ("load", 2),
                   ("store", 1), ("add", 2), ("load", 3),
                   ("store", 2), ("add", 3),
                   ("store", 3)]


def test_pipeline_passes_values_between_stages():
    m, k = _kernel()
    p = k.load_arg("p")
    off = k.v_lshlrev_b32(VGPR(), 2, v[0])

    def load(i, c):
        c["x"] = k.global_load_dword(VGPR(), off, p, offset=256 * i)

    def add(i, c):
        c["y"] = k.v_add_u32(VGPR(), c["x"], i + 1)

    def store(i, c):
        k.global_store_dword(off, c["y"], p, offset=256 * i)

    k.pipeline(4, [load, add, store])
    k.s_endpgm()
    x = np.arange(256, dtype=np.uint32) * 7
    want = x + np.repeat(np.arange(1, 5, dtype=np.uint32), 64)
    for pipe in (REST, SCHED):
        buf = x.copy()
        aster.launch(aster.compile(m, pipe), "k", 1, 64, [buf])
        np.testing.assert_array_equal(buf, want)


def test_no_reorder_keeps_written_order():
    m, k = _kernel()
    p = k.load_arg("p")
    off = k.v_lshlrev_b32(VGPR(), 2, v[0])
    with k.no_reorder():
        y = k.v_add_u32(VGPR(), off, 1)
        x = k.global_load_dword(VGPR(), off, p)
    k.global_store_dword(off, k.v_add_u32(VGPR(), x, y), p)
    k.s_endpgm()
    c = aster.compile(m, SCHED)
    assert c.metadata["k"].schedule["frozen"] == 1
    names = re.findall(r"\t(v_add_u32|global_load_dword)\b", c.asm)
    assert names[:2] == ["v_add_u32", "global_load_dword"]


def test_interleave_rejects_use_before_definition():
    m, k = _kernel()
    p = k.load_arg("p")
    off = k.v_lshlrev_b32(VGPR(), 2, v[0])
    with k.stream() as loads:
        x = k.global_load_dword(VGPR(), off, p)
    with k.stream() as adds:
        k.v_add_u32(VGPR(), x, 1)
    before = m.mlir()
    with pytest.raises(aster.AsterError, match="would come before global_load_dword"):
        k.interleave([loads, adds], order=[1, 0])
    assert m.mlir() == before                      # left as it was
    with pytest.raises(ValueError, match="permutation"):
        k.interleave([loads, adds], order=[0, 0])
    with pytest.raises(ValueError, match="rate"):
        k.interleave([loads, adds], rate=[1, 0])
    with pytest.raises(ValueError, match="one per stream"):
        k.interleave([loads, adds], delay=[0, 1, 2])


def test_stream_must_stay_in_one_block():
    m, k = _kernel()
    with pytest.raises(aster.AsterError, match="one block"):
        with k.stream():
            k.s_nop(0)
            k.here("L")
            k.s_nop(0)


def test_modular_order():
    order = aster.schedule.modular_order([4, 2], delay=[0, 1], rate=[1, 2])
    assert order == [(0, 0), (0, 1), (1, 0), (0, 2), (0, 3), (1, 1)]
    assert aster.schedule.modular_order([3, 3], rate=[0.5, 1]) == \
        [(0, 0), (1, 0), (0, 1), (0, 2), (1, 1), (1, 2)]


def test_check_equivalent_finds_a_difference():
    def build(add):
        m, k = _kernel()
        p = k.load_arg("p")
        off = k.v_lshlrev_b32(VGPR(), 2, v[0])
        x = k.global_load_dword(VGPR(), off, p)
        k.global_store_dword(off, k.v_add_u32(VGPR(), x, add), p)
        k.s_endpgm()
        return aster.compile(m, REST)

    def args(rng):
        return [rng.integers(0, 2**32, 64, dtype=np.uint32)]

    assert aster.check_equivalent(build(1), build(1), "k", args, 4) == 4
    with pytest.raises(aster.NotEquivalent, match="argument 0 differs in 64 of 64"):
        aster.check_equivalent(build(1), build(2), "k", args, 2)


def test_bad_mode_is_an_error():
    m, k = _kernel()
    k.s_endpgm()
    with pytest.raises(aster.AsterError):
        aster.compile(m, "amdgcn-schedule{mode=fast}")


def test_bench_kernels_never_slower():
    """The three kernels of bench/bench_schedule.py: scheduled, they compute
    the same (check_equivalent inside) and take fewer simulated cycles."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "bench"))
    import bench_schedule
    for name in bench_schedule.CYCLE_KERNELS:
        before, after, st = bench_schedule.cycles(name)
        assert after < before, (name, before, after)
        assert st["cycles_after"] < st["cycles_before"]


def _staged(loop):
    """out[i] = in[i] + 3 over 8 rows of 64 lanes: load, add, store stages."""
    m, k = _kernel()
    p = k.load_arg("p")
    off = k.v_lshlrev_b32(VGPR(), 2, v[0])

    def load(c):
        c["x"] = k.global_load_dword(VGPR(), c["off"], p)

    def add(c):
        c["y"] = k.v_add_u32(VGPR(), c["x"], 3)

    def store(c):
        k.global_store_dword(c["off"], c["y"], p)

    def advance(st):
        return {"off": k.v_add_u32(VGPR(), 256, st["off"])}

    if loop:
        k.pipeline_loop(s[20], 8, [load, add, store], {"off": off}, advance)
    else:
        st = {"off": off}
        for _ in range(8):
            c = dict(st)
            load(c), add(c), store(c)
            st = advance(st)
    k.s_endpgm()
    return m


def test_pipeline_loop_prologue_loop_epilogue():
    m = _staged(True)
    c = aster.compile(m, REST)
    body = c.asm.split(".LBB0_1:\n")[1].split("s_cbranch_scc1")[0]
    # steady state: the store of iteration i, the add of i + 1, the load of i + 2
    names = re.findall(r"\t(global_store_dword|global_load_dword|v_add_u32 v\d+, v\d+, 3\n)",
                       body)
    assert [x.split()[0] for x in names] == ["global_store_dword", "v_add_u32",
                                             "global_load_dword"], body
    assert "s_mov_b32 s20, 6" in c.asm                  # 8 iterations, 2 in prologue/epilogue
    x = np.arange(512, dtype=np.uint32)
    aster.launch(c, "k", 1, 64, [x])
    np.testing.assert_array_equal(x, np.arange(512, dtype=np.uint32) + 3)

    def args(rng):
        return [rng.integers(0, 2**32, 512, dtype=np.uint32)]

    plain = aster.compile(_staged(False), REST)
    assert aster.check_equivalent(plain, aster.compile(m, SCHED), "k", args, 3) == 3
    with pytest.raises(ValueError, match="n must be"):
        _kernel()[1].pipeline_loop(s[20], 2, [print] * 3, {}, lambda st: st)
