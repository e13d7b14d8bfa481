"""amdgcn-waitcnt and amdgcn-hazards on device functions, against LLVM.

tests/py/device_functions.hip (noinline __device__ functions with loads, an
MFMA result read by VALU, VALU-written vcc and lane selects) and the corpus'
calls.hip are compiled by clang-22 -O3 for gfx942 and raised. Every s_waitcnt
and s_nop, in kernels and device functions, is deleted and
amdgcn-waitcnt,amdgcn-hazards put theirs back. The oracle is what LLVM
placed in the same code:
- waits: in each device function, aster's waits are LLVM's (same places,
  same counts), the first being LLVM 22's function-entry
  `s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)`; totals (kernels too) printed;
- s_nops: wherever LLVM put s_nops in a device function, aster has at least
  as many wait states right there; totals printed;
- the rebuilt kernels run on the emulator (strict: a read of a register
  whose load is not known complete fails) against NumPy, as do clang's and
  the ones amdgcn-schedule reordered first (device functions and calling
  kernels: calls, returns, s_getpc_b64 and relocated literals are fences).
"""
import re
from pathlib import Path

import numpy as np
import pytest

import aster
from conftest import HIP_INCLUDE

SOURCES = [Path(__file__).with_name("device_functions.hip"), Path(HIP_INCLUDE) / "calls.hip"]
CODE = re.compile(r"amdgcn\.(kernel|device_function) @(\w+)")
OP = re.compile(r"^\s*(?:%[^=]+= )?amdgcn\.(\w+)(.*)$")
NOT_INST = {"reg", "undef", "part", "concat", "reloc", "module", "global"}
STRIP = re.compile(r"^\s*amdgcn\.(s_waitcnt|s_nop)\b.*\n", re.M)


def placements(mlir):
    """{(kind, name): (waits, nops)}: waits maps the index of the
    instruction a run of s_waitcnts precedes (counting neither waits nor
    s_nops) to their counter dicts, nops to the wait states of the s_nops
    there."""
    out, cur, n = {}, None, 0
    for line in mlir.splitlines():
        m = CODE.search(line)
        if m:
            cur, n = (m.group(1), m.group(2)), 0
            out[cur] = ({}, {})
            continue
        m = OP.match(line)
        if not m or cur is None or m.group(1) in NOT_INST:
            continue
        name, rest = m.groups()
        if name == "s_waitcnt":
            counts = dict(re.findall(r"(\w+cnt) = (\d+)", rest))
            out[cur][0].setdefault(n, []).append(counts)
        elif name == "s_nop":
            imm = re.search(r"imm = (\d+)", rest)
            out[cur][1][n] = out[cur][1].get(n, 0) + int(imm.group(1) if imm else 0) + 1
        else:
            n += 1
    return out


@pytest.fixture(scope="module")
def rebuilt(hip_hsaco):
    """[(source, clang's hsaco, LLVM's placements, aster's placements,
    aster's hsaco, aster's hsaco scheduled, ops the scheduler moved)]."""
    res = []
    for src in SOURCES:
        h = hip_hsaco(src)
        text = aster.raise_code_object(h, unknown="keep").mlir()
        stripped = STRIP.sub("", text)
        assert "s_waitcnt" not in stripped and "s_nop" not in stripped
        out = aster.compile(stripped, pipeline="amdgcn-waitcnt,amdgcn-hazards")
        # amdgcn-schedule on the same code (device functions and the kernels
        # calling them) first.
        sched = aster.compile(stripped, pipeline="amdgcn-schedule,amdgcn-waitcnt,amdgcn-hazards")
        moved = sum(int(n) for n in re.findall(r"moved = (\d+)", sched.mlir))
        res.append((src.name, h, placements(text), placements(out.mlir), out.hsaco,
                    sched.hsaco, moved))
    return res


def test_waits_in_device_functions_are_llvms(rebuilt, summary):
    totals = {"device_function": [0, 0], "kernel": [0, 0]}
    functions, bad = 0, []
    for src, _, llvm, ours, *_ in rebuilt:
        assert llvm.keys() == ours.keys()
        for (kind, name), (lw, _) in llvm.items():
            ow = ours[(kind, name)][0]
            totals[kind][0] += sum(map(len, lw.values()))
            totals[kind][1] += sum(map(len, ow.values()))
            if kind != "device_function":
                continue
            functions += 1
            # LLVM 22 (SIInsertWaitcnts) waits for everything first in a
            # non-kernel function: the oracle of aster's entry convention.
            assert lw.get(0) == [{"vmcnt": "0", "expcnt": "0", "lgkmcnt": "0"}], (src, name, lw)
            if ow != lw:
                bad.append(f"{src}: {name}: LLVM {lw}, aster {ow}")
    summary.append(f"device-function waits ({functions} functions): LLVM "
                   f"{totals['device_function'][0]}, aster {totals['device_function'][1]}; "
                   f"kernels calling them: LLVM {totals['kernel'][0]}, aster {totals['kernel'][1]}")
    assert functions >= 5
    assert not bad, "\n".join(bad)


def test_nops_in_device_functions_cover_llvms(rebuilt, summary):
    places = llvm_states = our_states = 0
    bad = []
    for src, _, llvm, ours, *_ in rebuilt:
        for (kind, name), (_, ln) in llvm.items():
            if kind != "device_function":
                continue
            on = ours[(kind, name)][1]
            llvm_states += sum(ln.values())
            our_states += sum(on.values())
            for at, states in ln.items():
                places += 1
                if on.get(at, 0) < states:
                    bad.append(f"{src}: {name}: before instruction {at}: LLVM {states} "
                               f"wait states, aster {on.get(at, 0)}")
    summary.append(f"device-function s_nops: {places} LLVM places, wait states LLVM "
                   f"{llvm_states}, aster {our_states}")
    assert places >= 4
    assert not bad, "\n".join(bad)


def quarters(shape, seed):
    return np.random.default_rng(seed).integers(-8, 9, shape).astype(np.float64) / 4


def run_all(code):
    """Runs the kernels of device_functions.hip on `code`; their outputs
    and NumPy's."""
    got, want = {}, {}
    n = 100
    p = quarters(n, 1).astype(np.float32)
    out = np.full(256, np.nan, np.float32)
    aster.launch(code, "dev_gather", (4, 1, 1), (64, 1, 1), [p, out, n])
    i = np.arange(256)
    got["gather"], want["gather"] = out, (p[i % n] + np.float32(2) * p[(i + 1) % n]) - p[(i * 7) % n]
    a, b = quarters((16, 16), 2), quarters((16, 16), 3)
    d = np.full(256, np.nan, np.float32)
    aster.launch(code, "dev_mfma", (1, 1, 1), (64, 1, 1),
                 [a.astype(np.float16), b.astype(np.float16), d, 0.5])
    got["mfma"], want["mfma"] = d.reshape(16, 16), (a @ b * 0.5).astype(np.float32)
    v = np.random.default_rng(4).integers(-1000, 1000, 64).astype(np.int32)
    o = np.zeros(64, np.int32)
    aster.launch(code, "dev_lane", (1, 1, 1), (64, 1, 1), [v, o, 5])
    got["lane"], want["lane"] = o, v[(5 * 3 + 1) & 63] + v
    return got, want


@pytest.mark.parametrize("which", ["clang", "aster", "aster-scheduled"])
def test_rebuilt_kernels_match_numpy(rebuilt, which):
    src, clang, _, _, ours, scheduled, moved = rebuilt[0]
    assert src == "device_functions.hip"
    if which == "aster-scheduled":
        assert moved > 0  # the scheduler changed something
    got, want = run_all({"clang": clang, "aster": ours, "aster-scheduled": scheduled}[which])
    for k in want:
        np.testing.assert_array_equal(got[k], want[k], err_msg=k)
