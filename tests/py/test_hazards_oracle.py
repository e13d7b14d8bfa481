"""amdgcn-hazards against an independent source: LLVM's own s_nops.

HIP kernels (tests/py/hazards_oracle.hip and the emulator's HIP corpus
tests/emulator/hip/*.hip) are compiled with clang-22 for gfx942 and gfx950 and
disassembled with llvm-objdump-22. For every run of s_nops LLVM put before an
instruction C, the instructions before C in its block (back to 24
instructions or 20 wait states) are rebuilt as an aster kernel with the
builder methods, that run of s_nops removed (LLVM's earlier s_nops kept), and
amdgcn-hazards runs on it. The pass must put at least as many wait states
right before C as LLVM did.

What this covers: the producer/consumer pairs LLVM pads in these kernels
(MFMA results read by VALU / stores / MFMA srcA, f64 MFMAs, VALU writes then
MFMA reads, vcc then v_cndmask / v_addc, v_readlane lane selects, wide
scratch stores then overwrites, VMEM clauses). Pairs whose window reaches a
block boundary (a branch or branch target) before 20 wait states, or
contains an instruction the builder cannot rebuild (DPP, v_dot2c), are not
checked; the counts are printed in the test summary. It checks the pass is
never below LLVM, not that it is never above.
"""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import aster
from conftest import HIP_INCLUDE
from test_builder import call_args

SOURCES = [Path(__file__).with_name("hazards_oracle.hip"),
           *sorted(Path(HIP_INCLUDE).glob("*.hip"))]
WINDOW = 24       # instructions looked back from C
REACH = 20        # wait states the longest rule needs (gfx950, 16 passes)
HEADER = re.compile(r"^([0-9a-f]+) <(\w+)>:")
LINE = re.compile(r"^\s+(\S.*?)\s*//\s*([0-9A-F]+):")
TARGET = re.compile(r"<(\w+)\+0x([0-9a-f]+)>")


def objdump():
    for cand in ("/usr/lib/llvm-22/bin/llvm-objdump", shutil.which("llvm-objdump-22")):
        if cand and os.access(cand, os.X_OK):
            return cand
    raise RuntimeError("llvm-objdump-22 not found (apt install llvm-22)")


def disassemble(hsaco, target, tmp_path):
    """{kernel: ([(address, text)], set of branch-target addresses)}, each
    kernel up to its s_endpgm."""
    path = tmp_path / f"k-{target}.hsaco"
    path.write_bytes(hsaco)
    out = subprocess.run([objdump(), "-d", f"--mcpu={target}", str(path)],
                         capture_output=True, text=True, check=True).stdout
    kernels, starts, name, done = {}, {}, None, False
    for line in out.splitlines():
        m = HEADER.match(line)
        if m:
            name, done = m.group(2), False
            starts[name] = int(m.group(1), 16)
            kernels[name] = ([], set())
            continue
        m = LINE.match(line)
        if not m or name is None or done:
            continue
        text, addr = m.group(1), int(m.group(2), 16)
        kernels[name][0].append((addr, text))
        t = TARGET.search(line)
        if t and t.group(1) in starts:
            kernels[name][1].add(starts[t.group(1)] + int(t.group(2), 16))
        done = text == "s_endpgm"
    return kernels


def nop_states(text):
    return int(text.split()[1]) + 1 if text.startswith("s_nop") else 0


def cases(insts, targets):
    """(window, LLVM's wait states before C) for each run of s_nops before an
    instruction C; window is the instructions before C in its block (earlier
    s_nops kept) and C last. None for a window cut short by a block boundary."""
    for j, (addr, text) in enumerate(insts):
        if text.startswith("s_nop") or j == 0 or not insts[j - 1][1].startswith("s_nop"):
            continue
        i = j
        while i > 0 and insts[i - 1][1].startswith("s_nop"):
            i -= 1
        llvm = sum(nop_states(t) for _, t in insts[i:j])
        window, states = [], 0
        for a, t in reversed(insts[:i]):
            if t.startswith(("s_branch", "s_cbranch", "s_setpc", "s_endpgm")) or \
                    len(window) >= WINDOW or states >= REACH:
                break
            window.append(t)
            states += nop_states(t) or 1
            if a in targets:
                break
        # Cut short by a block start other than the kernel's: other
        # predecessors may hold the producer.
        first = i - len(window)
        cut = states < REACH and first > 0 and (
            insts[first][0] in targets or insts[first - 1][1].startswith(("s_branch", "s_cbranch")))
        yield (None if cut else list(reversed(window)) + [text]), llvm


def rebuild(k, text):
    """Emits the asm line `text` with the builder; False if it cannot."""
    name = text.split(" ", 1)[0]
    base = re.sub(r"_e(32|64)$", "", name)
    rest = text[len(name):]
    if base.endswith("_dpp"):
        return False
    if base.endswith("_sdwa"):
        # The same registers read and written without the byte/word selects
        # (aster has no SDWA forms): the same hazards.
        base = base[:-len("_sdwa")]
        rest = re.sub(r" (dst_sel|dst_unused|src0_sel|src1_sel):\w+", "", rest)
    if base.startswith("scratch_"):
        # aster's scratch forms need saddr: LLVM's `off` becomes s105, an SGPR
        # these kernels never write.
        parts = rest.split(", ")
        if parts[-1].split(" ")[0] == "off":
            parts[-1] = "s105" + parts[-1][len("off"):]
        rest = ", ".join(parts)
    line = base + rest
    try:
        pos, kw, label = call_args(base, line)
        if label:
            return False
        getattr(k, base)(*pos, **kw)
        return True
    except (KeyError, AttributeError, TypeError, ValueError, aster.AsterError):
        return False


def body(asm, name):
    """Instruction lines of kernel `name` in aster's assembly."""
    text = asm.split(f"\n{name}:\n", 1)[1]
    lines = []
    for line in text.split("\n"):
        line = line.strip()
        if line == "s_endpgm":
            return lines
        if line and not line.startswith(".") and not line.endswith(":"):
            lines.append(line)
    raise AssertionError(f"no s_endpgm in {name}")


@pytest.mark.parametrize("target", ["gfx942", "gfx950"])
def test_pass_pads_at_least_as_much_as_llvm(target, hip_hsaco, tmp_path, summary):
    m = aster.Module(target)
    checked, skipped = [], {"block boundary": 0, "not rebuildable": 0}
    n = 0
    for src in SOURCES:
        if src.name.startswith("gfx950") and target != "gfx950":
            continue
        kernels = disassemble(hip_hsaco(src, arch=target), target, tmp_path)
        for kname, (insts, targets) in kernels.items():
            for window, llvm in cases(insts, targets):
                if window is None:
                    skipped["block boundary"] += 1
                    continue
                k = m.kernel(f"c{n}", block=(64, 1, 1))
                ok = all([rebuild(k, t) for t in window])
                k.s_endpgm()
                n += 1
                if not ok:
                    skipped["not rebuildable"] += 1
                    continue
                checked.append((f"c{n - 1}", kname, window, llvm))
    m.run_pipeline("amdgcn-hazards")
    asm = m.asm()
    bad, ours, theirs = [], 0, 0
    for name, kname, window, llvm in checked:
        lines = body(asm, name)
        assert lines[-1].split()[0] == re.sub(r"_(e32|e64|sdwa)$", "", window[-1].split()[0])
        before = 0
        for line in reversed(lines[:-1]):
            if not line.startswith("s_nop"):
                break
            before += nop_states(line)
        ours, theirs = ours + before, theirs + llvm
        if before < llvm:
            bad.append(f"{kname}: {window[-1]!r}: pass {before}, LLVM {llvm}; window {window}")
    summary.append(f"hazards oracle {target}: {len(checked)} LLVM s_nop runs checked "
                   f"(pass >= LLVM each; wait states pass {ours}, LLVM {theirs}), "
                   f"skipped {skipped}")
    assert not bad, "\n".join(bad)
    assert len(checked) >= 10, f"only {len(checked)} cases checked"
