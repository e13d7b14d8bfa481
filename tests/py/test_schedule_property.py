"""Property test of `amdgcn-schedule` on the strict emulator.

Random programs of the register-allocation generator (tests/py/
regalloc_programs.py: VALU/SALU ops, ranges, MFMAs, global, scalar and LDS
loads, LDS writes, stores, loops carrying values) with no s_waitcnt written
are scheduled, then allocated, waited and padded. Each must (1) write what
NumPy computes (an oracle independent of aster) and (2) be equivalent to the
unscheduled program by `aster.check_equivalent` (more random inputs), in
strict mode (a read of a register whose load has not completed, an
out-of-bounds access or an uninitialized register fails the run). Programs
run with virtual registers (SSA dependences), with every value in its own
physical registers (dependences through hardware registers), in both
scheduler modes and with tie-breaking seeds, and with a low VGPR limit.
"""
import numpy as np
import pytest

import aster
import regalloc_programs as rp
from sweep import sweep

REST = "amdgcn-regalloc,amdgcn-waitcnt,amdgcn-hazards"
NAIVE_REST = "amdgcn-waitcnt,amdgcn-hazards"
SCHEDULES = {
    "latency": "amdgcn-schedule",
    "pressure": "amdgcn-schedule{mode=pressure seed=7}",
    "seeded": "amdgcn-schedule{seed=12345}",
    "tight": "amdgcn-schedule{max-vgprs=8 max-sgprs=8}",
}
N_STRAIGHT = 80
N_LOOP = 50
N_NAIVE = 50
TRIALS = 2
COUNTS = {"programs": 0, "trials": 0, "moved": 0, "faster": 0, "slower": 0}


def _factory(rng):
    return [rng.integers(0, 2**32, rp.IN_WORDS, dtype=np.uint32),
            np.zeros(rp.OUT_WORDS, np.uint32)]


def check(prog, seed, mode, sched, pipeline=None):
    """Schedules `prog` emitted in `mode` and checks it against NumPy and
    against the unscheduled program (`pipeline`: where the pass goes)."""
    rest = REST if mode == "virtual" else NAIVE_REST
    m = rp.emit(prog, mode)
    plain = aster.compile(m, rest)
    done = aster.compile(m, pipeline or f"{sched},{rest}")
    st = done.metadata["prog"].schedule
    assert st is not None and st["cycles_after"] <= st["cycles_before"]
    inp = rp.random_input(seed)
    np.testing.assert_array_equal(rp.run(done.hsaco, inp), rp.evaluate(prog, inp))
    COUNTS["trials"] += aster.check_equivalent(plain, done, "prog", _factory, TRIALS,
                                               block=rp.LANES, seed=seed)
    COUNTS["programs"] += 1
    COUNTS["moved"] += st["moved"] > 0
    COUNTS["faster"] += st["cycles_after"] < st["cycles_before"]
    return st


@pytest.mark.parametrize("how", sorted(SCHEDULES))
@pytest.mark.parametrize("seed", sweep(range(N_STRAIGHT), 20))
def test_straight(seed, how):
    prog = rp.straight(3000 + seed, n_ops=10 + seed % 40, memory=True, waits=False)
    check(prog, 3000 + seed, "virtual", SCHEDULES[how])


@pytest.mark.parametrize("how", ["latency", "pressure"])
@pytest.mark.parametrize("seed", sweep(range(N_LOOP), 12))
def test_loop(seed, how):
    prog = rp.looping(3500 + seed, n_ops=6 + seed % 24, memory=True, waits=False,
                      count=2 + seed % 3)
    check(prog, 3500 + seed, "virtual", SCHEDULES[how])


@pytest.mark.parametrize("seed", sweep(range(N_NAIVE), 12))
def test_physical_registers(seed):
    """Every value in its own physical registers (no allocator): the
    scheduler follows registers, not SSA values."""
    prog = rp.straight(3800 + seed, n_ops=10 + seed % 40, memory=True, waits=False)
    check(prog, 3800 + seed, "naive", SCHEDULES["latency"])


@pytest.mark.parametrize("seed", range(30))
def test_after_allocation(seed):
    """After amdgcn-regalloc (spills under a tight limit included) the
    scheduler sees only hardware registers."""
    spill = seed % 3 == 0
    prog = rp.straight(4100 + seed, n_ops=10 + seed % 40, memory=True, waits=False,
                       single_only=spill, agpr=not spill)
    limit = ""
    if spill:  # the limit of the waitcnt spill test: reloads from scratch
        n = max(rp.op_need(prog) + 2, rp.max_live(prog)["v"] // 2)
        limit = f"{{max-vgprs={n} max-agprs=0}}"
    check(prog, 4100 + seed, "virtual", None,
          f"amdgcn-regalloc{limit},amdgcn-schedule,amdgcn-waitcnt,amdgcn-hazards")


def test_tight_limit_keeps_pressure():
    """With a VGPR limit below what hoisting every load needs, MaxLive after
    scheduling stays at most max(limit, MaxLive before)."""
    prog = rp.straight(4242, n_ops=60, memory=True, waits=False, mfma=False)
    free = check(prog, 4242, "virtual", "amdgcn-schedule{max-vgprs=1000}")
    tight = check(prog, 4242, "virtual", "amdgcn-schedule{max-vgprs=4}")
    assert tight["vgpr_maxlive_after"] <= max(4, tight["vgpr_maxlive_before"]) + 4
    assert tight["vgpr_maxlive_after"] <= free["vgpr_maxlive_after"]


def _lds_program(seed):
    """Random LDS writes and reads on one address value at offsets 0..60
    (each lane its own 64 bytes), VALU between; every read stored. Returns
    the module and the NumPy reference of the output."""
    rng = np.random.default_rng(seed)
    m = aster.Module("gfx942")
    k = m.kernel("prog", args=[("inp", aster.ptr(np.uint32)), ("out", aster.ptr(np.uint32))],
                 block=(rp.LANES, 1, 1), lds=rp.LANES * 64)
    pout = k.load_arg("out")
    addr = k.v_lshlrev_b32(aster.VGPR(), 6, aster.v[0])          # lane * 64
    lane = np.arange(rp.LANES, dtype=np.uint32)
    lds = np.zeros((rp.LANES, 16), np.uint32)
    for o in range(16):                                          # defined contents
        k.ds_write_b32(addr, aster.v[0], offset=4 * o)
        lds[:, o] = lane
    outs = []
    for _ in range(int(rng.integers(10, 30))):
        o = int(rng.integers(0, 16))
        if rng.random() < 0.5 or len(outs) == 15:             # at most 15 outputs
            c = int(rng.integers(1, 60))
            x = k.v_add_u32(aster.VGPR(), c, aster.v[0])
            k.ds_write_b32(addr, x, offset=4 * o)
            lds[:, o] = lane + c
        else:
            outs.append(k.ds_read_b32(aster.VGPR(), addr, offset=4 * o))
            lds_copy = lds[:, o].copy()
            outs[-1] = (outs[-1], lds_copy)
    ooff = k.v_lshlrev_b32(aster.VGPR(), 2, aster.v[0])
    want = np.zeros(rp.OUT_WORDS, np.uint32)
    for j, (val, ref) in enumerate(outs):
        k.global_store_dword(ooff, val, pout, offset=256 * j)
        want[64 * j:64 * j + 64] = ref
    k.s_endpgm()
    return m, want


@pytest.mark.parametrize("seed", range(40))
def test_lds_same_address_offsets(seed):
    """Reads and writes of one LDS address value at random offsets: the
    scheduler may pass a read over a write only at another offset."""
    m, want = _lds_program(5000 + seed)
    plain = aster.compile(m, REST)
    done = aster.compile(m, "amdgcn-schedule," + REST)
    np.testing.assert_array_equal(rp.run(done.hsaco, rp.random_input(seed)), want)
    COUNTS["trials"] += aster.check_equivalent(plain, done, "prog", _factory, TRIALS,
                                               block=rp.LANES, seed=seed)
    COUNTS["programs"] += 1
    COUNTS["moved"] += done.metadata["prog"].schedule["moved"] > 0


def test_schedule_summary(summary):
    summary.append(f"schedule property test: {COUNTS['programs']} random programs (loads, LDS, "
                   f"MFMA, loops, same-address LDS offsets; virtual and physical registers, "
                   f"after allocation; 4 option sets) scheduled == "
                   f"NumPy and == unscheduled in {COUNTS['trials']} strict emulator trials; "
                   f"{COUNTS['moved']} reordered, {COUNTS['faster']} estimated faster")
