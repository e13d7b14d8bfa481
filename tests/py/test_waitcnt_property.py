"""Property test of s_waitcnt insertion (`amdgcn-waitcnt`) on the strict emulator.

Random programs of the register-allocation generator (tests/py/
regalloc_programs.py) with `memory=True` (global loads, scalar loads, LDS
writes and reads in the body, also inside loops) and `waits=False` (not one
s_waitcnt written) are compiled three ways: allocated then waited
("amdgcn-regalloc,amdgcn-waitcnt": registers tracked), with fresh physical
registers per value and waited ("amdgcn-waitcnt" alone), and waited on
virtual values before allocation ("amdgcn-waitcnt,amdgcn-regalloc"). Each
runs on the emulator in strict mode, which fails on any read (or non-memory
overwrite) of a register whose load is not known to have completed, and must
write what NumPy computes. Under tight register limits the allocator spills
to scratch: its reload waits are replaced by the pass.

Minimality: every field of every inserted wait, weakened by one (vmcnt(N) ->
vmcnt(N+1)), must make the strict run fail. The only exception is a wait
right before a memory instruction that overwrites a register a scalar load
is still writing: SMEM returns out of order, so the older load could land
last and the hardware needs lgkmcnt(0) there, but the emulator does not
check an overwrite by a load (test_weakened_waits counts these).
"""
import re

import numpy as np
import pytest

import aster
import regalloc_programs as rp
from sweep import sweep

N_STRAIGHT = 100
N_LOOP = 60
N_TIGHT = 16
N_WEAKEN = 20
PIPELINES = {"after": ("virtual", "amdgcn-regalloc,amdgcn-waitcnt,amdgcn-hazards"),
             "naive": ("naive", "amdgcn-waitcnt,amdgcn-hazards"),
             "before": ("virtual", "amdgcn-waitcnt,amdgcn-regalloc,amdgcn-hazards")}


def program(kind, seed):
    if kind == "straight":
        return rp.straight(seed, n_ops=10 + seed % 50, memory=True, waits=False)
    return rp.looping(seed, n_ops=6 + seed % 24, memory=True, waits=False,
                      count=2 + seed % 3)


RUNS = {"programs": 0}


def check(prog, seed, mode, pipe):
    RUNS["programs"] += 1
    inp = rp.random_input(seed)
    want = rp.evaluate(prog, inp)
    c = rp.emit(prog, mode).compile(pipe)
    assert not any(op.name == "s_waitcnt" for op in prog.ops)
    np.testing.assert_array_equal(rp.run(c.hsaco, inp), want)
    return c


@pytest.mark.parametrize("how", sorted(PIPELINES))
@pytest.mark.parametrize("seed", sweep(range(N_STRAIGHT), 25))
def test_straight(seed, how):
    check(program("straight", seed), seed, *PIPELINES[how])


@pytest.mark.parametrize("how", sorted(PIPELINES))
@pytest.mark.parametrize("seed", sweep(range(N_LOOP), 15))
def test_loop(seed, how):
    check(program("loop", 500 + seed), 500 + seed, *PIPELINES[how])


@pytest.mark.parametrize("seed", sweep(range(N_TIGHT), 4))
def test_spills_replaced(seed):
    """Under a VGPR limit the allocator reloads from scratch; the pass
    replaces its reload waits and the program stays right."""
    prog = rp.straight(900 + seed, n_ops=40, memory=True, waits=False, single_only=True,
                       agpr=False)
    limit = max(rp.op_need(prog) + 2, rp.max_live(prog)["v"] // 2)
    c = check(prog, 900 + seed, "virtual",
              f"amdgcn-regalloc{{max-vgprs={limit} max-agprs=0}},amdgcn-waitcnt")
    ra, wc = c.metadata["prog"].regalloc, c.metadata["prog"].waitcnt
    assert ra["scratch_spills"] > 0
    assert wc["replaced"] > 0 and "spill_wait" not in c.mlir


WAIT = re.compile(r"amdgcn\.s_waitcnt \{([^}]*)\}")
WEAKENED = {"tried": 0, "failed": 0, "smem_overwrite": 0}


@pytest.mark.parametrize("kind", ["straight", "loop"])
@pytest.mark.parametrize("seed", sweep(range(N_WEAKEN), 5))
def test_weakened_waits(seed, kind):
    """No inserted wait is stronger than needed: each field weakened by one
    makes the strict emulator fail (see the module docstring for the one
    exception, which is checked to be that case)."""
    seed += 700
    prog = program(kind, seed)
    inp = rp.random_input(seed)
    for mode, pipe in (PIPELINES["after"], PIPELINES["naive"]):
        text = rp.emit(prog, mode).compile(pipe.replace(",amdgcn-hazards", "")).mlir
        for m in WAIT.finditer(text):
            fields = dict(re.findall(r"(\w+) = (\d+) : i32", m.group(1)))
            for f, n in fields.items():
                weak = dict(fields, **{f: int(n) + 1})
                body = ", ".join(f"{k} = {v} : i32" for k, v in weak.items())
                changed = text[:m.start()] + "amdgcn.s_waitcnt {" + body + "}" + text[m.end():]
                WEAKENED["tried"] += 1
                try:
                    rp.run(aster.compile(changed).hsaco, inp)
                except aster.EmulatorError as e:
                    assert "strict mode" in str(e)
                    WEAKENED["failed"] += 1
                    continue
                # Not caught: must be a scalar load overwriting a register a
                # scalar load is still writing (lgkmcnt(0) before an s_load).
                nxt = text[m.end():].lstrip().split("\n", 1)[0]
                assert f == "lgkmcnt" and n == "0" and "amdgcn.s_load" in nxt, \
                    f"{f}({n}) weakened passes strict mode, before: {nxt}"
                WEAKENED["smem_overwrite"] += 1
    assert WEAKENED["tried"] > 0


def test_weakened_summary(summary):
    """Reports the weakening counts (run after test_weakened_waits)."""
    summary.append(f"waitcnt property test: {RUNS['programs']} random programs with loads "
                   "and no written waits (straight, loops, spills; waited after, before and "
                   "without allocation) match NumPy in strict mode")
    if WEAKENED["tried"]:
        summary.append(f"waitcnt weakening: {WEAKENED['tried']} fields of inserted waits "
                       f"weakened by one, {WEAKENED['failed']} made strict mode fail, "
                       f"{WEAKENED['smem_overwrite']} before an s_load overwriting a pending "
                       "SMEM result (not checked by the emulator)")
