"""The LDS serves ds_read_b128 in AMD's read phases, not in runs of 8 lanes.

AMD's Composable Kernel documentation ("Understanding AMD GPU LDS and Bank
Conflicts", docs/conceptual/ck_tile/hardware/lds_bank_conflicts.rst, Read
Access Pattern) gives the 8 lanes served together by ds_read_b128 as
0-3 + 20-23, 4-7 + 16-19, 8-11 + 28-31, 12-15 + 24-27 and the same + 32;
ds_write_b128's phases are lanes 0-7, 8-15, ... (same page, Write Access
Pattern). A pattern conflict-free in AMD's read phases and 2-way
conflicting in runs of 8 lanes tells the two apart: the model must count it
conflict-free. (AMD's gfx950 asm FP4 GEMMs read their LDS tiles in such a
pattern: counted in runs of 8 lanes they spent most of their time in LDS
bank conflicts, bench/bench_fidelity.py family f4gemm.)"""
import numpy as np

import aster
from aster import s, v

READ_PHASES = [list(range(b, b + 4)) + list(range(c, c + 4))
               for h in (0, 32) for b, c in ((0, 20), (4, 16), (8, 28), (12, 24))
               for b, c in [(b + h, c + h)]]


def phase_addresses():
    """Lane -> byte address: phase p's 8 lanes read the 8 16-byte pieces of
    LDS row p (128 bytes: every bank once)."""
    addr = np.zeros(64, np.uint32)
    for p, lanes in enumerate(READ_PHASES):
        for j, lane in enumerate(lanes):
            addr[lane] = p * 128 + j * 16
    return addr


def ds_b128(op, addr, target="gfx942", device=None):
    """The timed launch of one ds_read_b128 ("read") or ds_write_b128 at `addr`."""
    m = aster.Module(target)
    k = m.kernel("k", args=[("addr", aster.ptr(np.uint32))], block=(64, 1, 1), lds=4096)
    k.load_arg("addr", s[4:6])
    k.v_lshlrev_b32(v[1], 2, v[0])
    k.s_waitcnt(lgkmcnt=0)
    k.global_load_dword(v[2], v[1], s[4:6])
    k.s_waitcnt(vmcnt=0)
    if op == "read":
        k.ds_read_b128(v[4:8], v[2])
    else:
        k.ds_write_b128(v[2], v[4:8])
    k.s_waitcnt(lgkmcnt=0)
    k.s_endpgm()
    return aster.launch(m, "k", 1, 64, [addr], timing=True, uninitialized="ignore",
                        device=device)


def conflict_factor(op, addr):
    return ds_b128(op, addr).trace.summary()["lds_conflict_factor"]


def test_phases_cover_the_wave_once():
    assert sorted(sum(READ_PHASES, [])) == list(range(64))


def test_read_b128_is_served_in_amds_read_phases():
    addr = phase_addresses()
    # In runs of 8 lanes the same pattern is 2-way conflicting: lanes 0-3
    # and 4-7 read rows 0 and 1 at the same banks.
    runs = max(len({(a // 4 + d) % 32 for a in addr[g:g + 8] for d in range(4)})
               for g in range(0, 64, 8))
    assert runs == 16                       # 8 lanes x 4 dwords on 16 banks
    assert conflict_factor("read", addr) == 1


def test_write_b128_is_served_in_runs_of_8_lanes():
    """The same addresses written: ds_write_b128's phases are runs of 8
    lanes, so the pattern is 2-way conflicting."""
    assert conflict_factor("write", phase_addresses()) == 2


def test_consecutive_read_b128_stays_conflict_free():
    assert conflict_factor("read", np.arange(64, dtype=np.uint32) * 16) == 1
