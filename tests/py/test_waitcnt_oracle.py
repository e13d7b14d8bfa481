"""amdgcn-waitcnt against LLVM's own kernels: every kernel of the HIP corpus
(tests/emulator/hip, compiled by clang-22 -O3 for gfx942 and gfx950) is
raised (`aster.raise_code_object`, unknown="keep": instructions the table
cannot print back stay as text, which the pass reads), every s_waitcnt LLVM
placed is deleted, the pass puts its own back, and the corpus tests
(test_emu_corpus.py, test_emu_mfma_hip.py: NumPy references written from
each kernel's meaning) run on the result, on the emulator in strict mode
(which fails on any read of a register whose load is not known to have
completed). A failure counts against the pass only if the same test passes
on clang's code object and on the raised one with LLVM's waits. Device
functions (calls.hip: the pass runs on them too) and global variables
(globals.hip) are covered. The number of waits aster places (in kernels and
device functions) is compared with LLVM's (test_summary prints both).
"""
import hashlib
import inspect
import re
from pathlib import Path

import pytest

import aster
import test_emu_corpus as corpus
import test_emu_mfma_hip as mfma
from conftest import HIP_INCLUDE

HIP = Path(HIP_INCLUDE)
WAIT_LINE = re.compile(r"^\s*amdgcn\.s_waitcnt\b.*$\n", re.M)
class NotCovered(Exception):
    """Code the pass does not cover."""


RESULTS = {}          # hsaco digest -> (file, llvm waits, aster waits, opaque ops) or error


def rewait(h, name):
    """`h` raised, LLVM's waits deleted, amdgcn-waitcnt's inserted."""
    key = hashlib.sha256(h).hexdigest()
    m = aster.raise_code_object(h, unknown="keep")
    text = m.mlir()
    llvm = len(WAIT_LINE.findall(text))
    stripped = WAIT_LINE.sub("", text)
    assert "s_waitcnt" not in stripped
    # Waits in kernels and device functions (their `waitcnt` records).
    out = aster.compile(stripped, pipeline="amdgcn-waitcnt")
    ours = sum(int(n) for n in re.findall(r"waitcnt = \{[^}]*inserted = (\d+)", out.mlir))
    assert not re.search(r"waitcnt = \{[^}]*author = [1-9]", out.mlir)
    # With LLVM's waits kept, the pass counts them and adds what its model
    # still finds missing.
    kept = aster.compile(text, pipeline="amdgcn-waitcnt")
    added = sum(int(n) for n in re.findall(r"waitcnt = \{[^}]*inserted = (\d+)", kept.mlir))
    assert sum(int(n) for n in re.findall(r"waitcnt = \{[^}]*author = (\d+)", kept.mlir)) == llvm
    RESULTS[key] = (name, llvm, ours, added, text.count("amdgcn.data"))
    return out.hsaco


def cases():
    """(test function, its parameters) of the corpus modules, every
    parametrized combination, for the tests that take the corpus' code."""
    for mod in (corpus, mfma):
        for fname, f in sorted(vars(mod).items()):
            if not fname.startswith("test_") or not inspect.isfunction(f):
                continue
            params = list(inspect.signature(f).parameters)
            if not {"hip", "code", "hip_hsaco"} & set(params):
                continue
            combos = [{}]
            for mk in getattr(f, "pytestmark", []):
                if mk.name != "parametrize":
                    continue
                names = [n.strip() for n in mk.args[0].split(",")]
                combos = [{**c, **dict(zip(names, vals if len(names) > 1 else (vals,)))}
                          for c in combos for vals in mk.args[1]]
            for i, c in enumerate(combos):
                yield pytest.param(mod, f, c, id=f"{mod.__name__[9:]}.{fname[5:]}-{i}")


def roundtrip(h):
    """`h` raised and written back, waits kept (no pass)."""
    return aster.compile(aster.raise_code_object(h, unknown="keep").mlir()).hsaco


@pytest.mark.parametrize("mod,f,kw", cases())
@pytest.mark.parametrize("arch", ["gfx942", "gfx950"])
def test_corpus_rewaited(arch, mod, f, kw, hip_hsaco):
    def call(transform):
        def code(source, **opts):
            return transform(hip_hsaco(source, arch=arch, **opts), f"{Path(source).stem} {arch}")
        args = {"hip": lambda name: code(HIP / f"{name}.hip"),
                "code": code(mfma.HIP) if mod is mfma else None,
                "hip_hsaco": code}
        f(**{p: kw[p] if p in kw else args[p] for p in inspect.signature(f).parameters})

    try:
        call(rewait)
    except NotCovered as e:
        RESULTS[f.__name__, arch] = f"{f.__name__} {arch}: not covered ({str(e).splitlines()[0]})"
    except (aster.EmulatorError, AssertionError) as e:
        # Differential: only a failure the raised code without the pass does
        # not have is the pass's (and the corpus test must hold for the
        # code as compiled, e.g. the fp8 formats of gfx942 on gfx950).
        try:
            call(lambda h, name: h)
        except (aster.EmulatorError, AssertionError):
            RESULTS[f.__name__, arch] = f"{f.__name__} {arch}: the corpus test does not hold " \
                                        "for clang's code either"
            return
        try:
            call(lambda h, name: roundtrip(h))
        except (aster.EmulatorError, AssertionError) as e2:
            RESULTS[f.__name__, arch] = (f"{f.__name__} {arch}: the raised code fails without the pass "
                                   f"too (raising): {str(e2).splitlines()[0][:100]}")
            return
        raise e


def test_summary(summary):
    """The waits per code object, LLVM's vs aster's (printed with -s; the
    totals go to the run's summary)."""
    rows = sorted(v for v in RESULTS.values() if isinstance(v, tuple))
    if not rows:
        pytest.fail("run with the corpus tests of this file")
    llvm = sum(r[1] for r in rows)
    ours = sum(r[2] for r in rows)
    added = sum(r[3] for r in rows)
    print(f"\n{'code object':22} {'LLVM':>5} {'aster':>5} {'added to LLVM':>13} {'as text':>7}")
    for name, n_llvm, n_ours, n_added, opaque in rows:
        print(f"{name:22} {n_llvm:5d} {n_ours:5d} {n_added:13d} {opaque:7d}")
    notes = sorted(v for v in RESULTS.values() if isinstance(v, str))
    for v in notes:
        print(v)
    summary.append(f"waitcnt oracle: {len(rows)} clang-22 code objects raised, LLVM's waits "
                   f"deleted and re-placed, corpus tests pass in strict mode: LLVM {llvm} "
                   f"waits, aster {ours} (added to LLVM's own: {added}); {len(notes)} cases not "
                   "covered (listed with -s)")
