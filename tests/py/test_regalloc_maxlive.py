"""Register allocation uses exactly MaxLive registers on straight-line SSA
code without ranges (SSA interference graphs are chordal), checked against
an independent MaxLive computed here by backward liveness over the program
(tests/py/regalloc_programs.py `max_live`), not by the allocator.

For every program the registers the assembly names (`aster.compile(...).asm`)
are counted: with single-register values they are exactly v0..v(MaxLive-1)
(and the SGPRs likewise, above the pinned pointers); with ranges the count is
at least MaxLive and the ratio is reported.
"""
import re

import pytest

import regalloc_programs as rp

N_SINGLE = 60
N_RANGES = 40
RATIOS = []


def registers_named(asm, prefix):
    """Registers of class `prefix` ('v', 's', 'a') the kernel body names."""
    body = asm.split("\nprog:\n", 1)[1].split(".Lfunc_end", 1)[0]
    used = set()
    for lo, hi in re.findall(rf"\b{prefix}\[(\d+):(\d+)\]", body):
        used.update(range(int(lo), int(hi) + 1))
    for r in re.findall(rf"\b{prefix}(\d+)\b", body):
        used.add(int(r))
    return used


@pytest.mark.parametrize("seed", range(N_SINGLE))
def test_single_registers_use_exactly_maxlive(seed):
    prog = rp.straight(5000 + seed, n_ops=10 + 3 * seed, single_only=True, pinned_ptrs=True)
    live = rp.max_live(prog)
    out = rp.emit(prog, "virtual").compile("amdgcn-regalloc")
    stats = out.metadata["prog"].regalloc
    assert stats["vgpr_maxlive"] == live["v"]
    assert stats["vgpr"] == live["v"]
    vregs = registers_named(out.asm, "v")
    assert vregs == set(range(live["v"])), f"VGPRs named: {sorted(vregs)}"
    # SGPRs: the pointers are pinned at s[2:6], so at least s0..s5 are named
    assert stats["sgpr"] == max(live["s"], 6)
    assert registers_named(out.asm, "s") == set(range(max(live["s"], 6)))
    if live["a"]:
        assert stats["agpr"] == live["a"]
        assert registers_named(out.asm, "a") == set(range(live["a"]))


@pytest.mark.parametrize("seed", range(N_RANGES))
def test_ranges_use_at_least_maxlive(seed):
    prog = rp.straight(6000 + seed, n_ops=20 + 2 * seed)
    live = rp.max_live(prog)
    out = rp.emit(prog, "virtual").compile("amdgcn-regalloc")
    stats = out.metadata["prog"].regalloc
    used = len(registers_named(out.asm, "v"))
    assert stats["vgpr_maxlive"] == live["v"]
    assert stats["vgpr"] >= used >= live["v"]
    RATIOS.append(stats["vgpr"] / live["v"])


def test_zz_report(summary):
    assert len(RATIOS) == N_RANGES
    summary.append(f"regalloc MaxLive: {N_SINGLE} single-register programs use exactly MaxLive "
                   f"VGPRs/SGPRs; {N_RANGES} programs with ranges use "
                   f"{min(RATIOS):.2f}-{max(RATIOS):.2f}x MaxLive VGPRs "
                   f"(mean {sum(RATIOS) / len(RATIOS):.3f})")
