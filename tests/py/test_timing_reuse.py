"""What the timing model keeps from one instruction, wave or launch to the
next to save host time (cc/emulator/timing: the LDS bank-cycle memo of an
instruction, waves and tag storage pooled between launches) never changes
a result: the LDS cycles still follow the ISA guide's 32-bank rule when an
instruction's addresses change from one iteration to the next, and a launch
gives the same cycles, events and summary after other launches as before
them."""
import json
import os
import sys

import numpy as np
import pytest

import aster
from aster import s, v

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples"))
import vector_add  # noqa: E402


def lds_loop(step_op, step, iters=4):
    """One ds_read_b32 in a loop; lane l reads at l * 4 * stride bytes,
    the address register changed by `step_op` after each read."""
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(64, 1, 1), lds=64 * 1024)
    k.v_lshlrev_b32(v[1], 2, v[0])
    with k.loop(s[8], iters):
        k.ds_read_b32(v[2], v[1])
        k.s_waitcnt(lgkmcnt=0)
        getattr(k, step_op)(v[1], step, v[1])
    k.s_endpgm()
    return m


def bank_clocks(dwords):
    """The ISA guide's rule: 32 banks of 4 bytes; 32 lanes of b32 per clock
    group; a group takes as many clocks as the most distinct dwords one bank
    holds."""
    clocks = 0
    for g in range(0, 64, 32):
        banks = {}
        for d in dwords[g:g + 32]:
            banks.setdefault(d % 32, set()).add(d)
        clocks += max(len(x) for x in banks.values())
    return clocks


@pytest.mark.parametrize("step_op,step,strides", [
    # the stride doubles: 1, 2, 4, 8 (a memo that kept the first result
    # would give 1 clock per group throughout)
    ("v_mul_u32_u24", 2, [1, 2, 4, 8]),
    # every lane moves by 4 bytes: the same conflicts, banks rotated
    ("v_add_u32", 4, [1, 1, 1, 1]),
    # every lane moves by 100 bytes (25 dwords)
    ("v_add_u32", 100, [1, 1, 1, 1]),
])
def test_lds_cycles_follow_changing_addresses(step_op, step, strides):
    r = aster.launch(lds_loop(step_op, step), "k", 1, 64, [], timing=True)
    want, base = 0, np.arange(64)
    shift = 0
    for stride in strides:
        want += bank_clocks(list(base * stride + shift))
        if step_op == "v_add_u32":
            shift += step // 4
    assert r.trace.lds_cycles == want
    assert r.trace.lds_ideal_cycles == 2 * len(strides)


def timed_vadd(groups):
    hsaco = aster.compile(vector_add.build(block=256)).hsaco
    n = groups * 256
    a = np.arange(n, dtype=np.float32)
    b = np.ones(n, np.float32)
    c = np.zeros(n, np.float32)
    r = aster.launch(hsaco, "vector_add", groups, 256, [a, b, c, n], timing=True)
    return r, c


def fingerprint(r):
    return (r.cycles, r.trace.events.tobytes(),
            json.dumps(r.trace.summary(), sort_keys=True, default=str))


def test_launch_unchanged_by_earlier_launches():
    """Waves, their timing state and cache tags are reused from earlier
    launches (of other kernels, with more registers and other memory
    levels): the same launch gives the same cycles, events and summary
    before and after them."""
    first, c1 = timed_vadd(64)
    aster.launch(lds_loop("v_mul_u32_u24", 2), "k", 1, 64, [], timing=True)
    timed_vadd(640)
    again, c2 = timed_vadd(64)
    assert fingerprint(first) == fingerprint(again)
    assert np.array_equal(c1, c2)
    assert np.array_equal(c1, np.arange(64 * 256, dtype=np.float32) + 1)
