"""Property test of register allocation (`amdgcn-regalloc`) on the emulator.

Random programs (tests/py/regalloc_programs.py: straight-line and with a
loop carrying values; VGPR/SGPR/AGPR values of 1, 2 and 4 registers, carry
chains, 64-bit shifts, v_readfirstlane, MFMA) are built twice: with virtual
registers allocated by `amdgcn-regalloc`, and naively with fresh physical
registers per value chosen by the generator. Both run on the emulator in
strict mode (reading an unwritten register is an error) and must write the
same output, which must also equal the generator's NumPy evaluation. Some
runs get tight register limits so the allocator must spill (VGPR -> AGPR,
then scratch memory; VGPR ranges, AGPR values and MFMA accumulators in
AGPRs -> scratch memory).
"""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import aster
import regalloc_programs as rp
from sweep import sweep

N_STRAIGHT = 120
N_LOOP = 60
N_TIGHT = 24           # straight-line programs under tight limits (spills)
N_TIGHT_LOOP = 6
N_TIGHT_RANGES = 12    # with ranges and MFMA values under tight VGPR limits
N_TIGHT_AGPR = 8       # with AGPR values under tight AGPR and VGPR limits
N_TIGHT_LOOP_RANGES = 8  # loops with ranges and MFMA values under a VGPR limit
PROGRAMS = {"count": 0}


def pipeline(max_vgprs=None, max_sgprs=None, max_agprs=None):
    opts = " ".join(f"{k}={v}" for k, v in (("max-vgprs", max_vgprs), ("max-sgprs", max_sgprs),
                                            ("max-agprs", max_agprs)) if v is not None)
    return "amdgcn-regalloc" + (f"{{{opts}}}" if opts else "")


def check(prog, seed, pipe):
    """Runs `prog` naive and allocated; both must equal the NumPy result."""
    inp = rp.random_input(seed)
    want = rp.evaluate(prog, inp)
    naive = rp.emit(prog, "naive").compile()
    allocated = rp.emit(prog, "virtual").compile(pipe)
    got_naive = rp.run(naive.hsaco, inp)
    got = rp.run(allocated.hsaco, inp)
    stored = prog.n_out
    lanes = want.reshape(rp.LANES, rp.LANE_DW)[:, :stored]
    assert np.count_nonzero(lanes) > 0, "the program stores nothing"
    np.testing.assert_array_equal(got_naive, want, err_msg="naive program vs NumPy")
    np.testing.assert_array_equal(got, want, err_msg=f"allocated ({pipe}) vs NumPy")
    PROGRAMS["count"] += 1
    return allocated


@pytest.mark.parametrize("seed", sweep(range(N_STRAIGHT), 30))
def test_straight_line(seed):
    n_ops = 10 + seed % 60
    check(rp.straight(seed, n_ops=n_ops), seed, pipeline())


@pytest.mark.parametrize("seed", sweep(range(N_LOOP), 15))
def test_loop(seed):
    check(rp.looping(1000 + seed, n_ops=6 + seed % 30), 1000 + seed, pipeline())


# Allocation under tight limits runs in a child process with a time limit,
# so that an allocator that does not terminate fails the test instead of
# hanging the run.
_CHILD = """
import sys
sys.path.insert(0, {here!r})
import regalloc_programs as rp
prog = rp.{kind}({seed}, **{kw!r})
out = rp.emit(prog, "virtual").compile({pipe!r})
sys.stdout.buffer.write(repr(out.metadata["prog"].regalloc).encode() + b"\\n" + out.hsaco)
"""


def compile_in_child(kind, seed, kw, pipe, timeout=20):
    """(regalloc stats, hsaco) of the program compiled with `pipe`."""
    code = _CHILD.format(here=os.path.dirname(os.path.abspath(__file__)), kind=kind,
                         seed=seed, kw=kw, pipe=pipe)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(aster.__file__)))] +
        os.environ.get("PYTHONPATH", "").split(os.pathsep)))
    try:
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=timeout,
                           env=env)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{pipe} did not finish in {timeout} s on {kind}({seed}, **{kw})")
    assert p.returncode == 0, p.stderr.decode()[-2000:]
    stats, hsaco = p.stdout.split(b"\n", 1)
    return eval(stats.decode()), hsaco


def check_tight(kind, seed, kw, limits, with_code=False):
    """Regalloc stats (and with `with_code` the code object) of the program
    compiled under `limits`, after checking its output on the emulator."""
    prog = getattr(rp, kind)(seed, **kw)
    need = rp.max_live(prog)["v"] if prog.loop is None else None
    pipe = pipeline(**limits(need))
    stats, hsaco = compile_in_child(kind, seed, kw, pipe)
    inp = rp.random_input(seed)
    want = rp.evaluate(prog, inp)
    np.testing.assert_array_equal(rp.run(rp.emit(prog, "naive").compile().hsaco, inp), want)
    np.testing.assert_array_equal(rp.run(hsaco, inp), want, err_msg=pipe)
    PROGRAMS["count"] += 1
    return (stats, hsaco) if with_code else stats


@pytest.mark.parametrize("seed", sweep(range(2000, 2000 + N_TIGHT), 6))
def test_spills(seed):
    """VGPR limits at 70% of the program's MaxLive: VGPRs spill to AGPRs;
    every fourth program also gets few AGPRs, so values go to scratch."""
    scratch = seed % 4 == 3
    stats = check_tight("straight", seed, {"n_ops": 50, "mfma": False, "ranges": False},
                        lambda need: {"max_vgprs": max(6, need * 7 // 10),
                                      "max_agprs": 2 if scratch else None})
    assert stats["spills"] > 0
    assert (stats["scratch_spills"] > 0) == scratch


@pytest.mark.parametrize("seed", sweep(range(3000, 3000 + N_TIGHT_LOOP), 2))
def test_loop_spills(seed):
    stats = check_tight("looping", seed, {"n_ops": 30}, lambda need: {"max_vgprs": 8})
    assert stats["vgpr"] <= 8


@pytest.mark.parametrize("seed", sweep(range(3500, 3500 + N_TIGHT_LOOP_RANGES), 2))
def test_loop_spills_with_ranges(seed):
    """A loop reading ranges and MFMA results defined before it, under a
    VGPR limit below what the program needs: ranges are reloaded from
    scratch inside the loop."""
    kw = {"n_ops": 30, "ranges": True, "mfma": True}
    limit = max(12, rp.op_need(rp.looping(seed, **kw)) + 1 + 3)
    stats = check_tight("looping", seed, kw, lambda need: {"max_vgprs": limit})
    assert stats["vgpr"] <= limit
    assert stats["spills"] > 0


@pytest.mark.parametrize("seed", sweep(range(4000, 4000 + N_TIGHT_RANGES), 3))
def test_spills_with_ranges(seed):
    """Ranges and MFMA accumulators under VGPR limits at 70% of MaxLive:
    VGPR ranges (2 and 4 registers) spill whole to scratch memory, single
    VGPRs to AGPRs; every program must allocate and compute the right
    output. The limit leaves room for the op needing the most VGPRs at once
    (an MFMA: operands, accumulator and result) plus the pinned thread id and
    the alignment of a 4-register result; below that no spilling helps."""
    kw = {"n_ops": 40, "mfma": True, "ranges": True}
    prog = rp.straight(seed, **kw)
    need, floor = rp.max_live(prog)["v"], rp.op_need(prog) + 1 + 3
    limit = max(floor, need * 7 // 10)
    stats = check_tight("straight", seed, kw, lambda need: {"max_vgprs": limit})
    assert stats["vgpr"] <= limit
    assert stats["spills"] > 0 or limit >= need   # fewer than MaxLive: spilled


AGPR_KW = {"n_ops": 60, "mfma": True, "ranges": True, "mfma_weight": 6, "agpr_acc": 0.9,
           "acc_any": True}


def agpr_limit(prog):
    """70% of the program's AGPR MaxLive, but room for the op needing the
    most AGPRs at once plus the alignment of a 4-register range."""
    return max(rp.op_need(prog, "a") + 3, rp.max_live(prog)["a"] * 7 // 10)


def agpr_seeds(n, start=4500):
    """The first `n` seeds from `start` whose program's AGPR MaxLive (counting
    its MFMA accumulators) is above agpr_limit, judged by the generator."""
    seeds, seed = [], start
    while len(seeds) < n:
        prog = rp.straight(seed, **AGPR_KW)
        if rp.max_live(prog)["a"] > agpr_limit(prog):
            seeds.append(seed)
        seed += 1
    return seeds


@pytest.mark.parametrize("seed", sweep(agpr_seeds(N_TIGHT_AGPR), 2))
def test_agpr_spills(seed):
    """The program's own AGPR values (v_accvgpr_write_b32 results and MFMA
    accumulators of 4 AGPRs, often accumulated onto again much later) with
    AGPRs limited below their MaxLive and VGPRs to 70% of theirs: AGPRs and
    AGPR ranges spill straight to scratch, VGPR ranges to scratch, single
    VGPRs to the remaining AGPRs or scratch."""
    prog = rp.straight(seed, **AGPR_KW)
    limit_a = agpr_limit(prog)
    assert any(d.cls == "a" and d.width == 4 for op in prog.ops for d in op.dsts)
    stats, hsaco = check_tight(
        "straight", seed, AGPR_KW,
        lambda need: {"max_vgprs": max(rp.op_need(prog) + 1 + 3, need * 7 // 10),
                      "max_agprs": limit_a}, with_code=True)
    assert stats["agpr"] <= limit_a
    assert stats["spills"] > 0 and stats["scratch_spills"] > 0
    # An accumulator went to scratch whole, straight from its AGPRs.
    code = "\n".join(aster.disassemble(hsaco, "gfx942"))
    assert re.search(r"scratch_store_dwordx4 off, a\[\d+:\d+\]", code), code
    assert re.search(r"scratch_load_dwordx4 a\[\d+:\d+\], off", code), code


def test_zz_count(summary):
    """Records how many programs ran (this file's tests run in order)."""
    total = (N_STRAIGHT + N_LOOP + N_TIGHT + N_TIGHT_LOOP + N_TIGHT_RANGES +
             N_TIGHT_AGPR + N_TIGHT_LOOP_RANGES)
    summary.append(f"regalloc property test: {PROGRAMS['count']} of {total} random "
                   "programs allocated, run and compared (naive == allocated == NumPy)")
    assert total >= 200
