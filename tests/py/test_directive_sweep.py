"""Every assembler directive with edge operands (issue 28): `aster.assemble`
and `aster.raise_asm` return or raise a clean error within a second each, and
the process stays usable. The cases are in directive_sweep.py; they run in a
child process so that a hang or a crash is reported, not suffered."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))

# One case: at most this much CPU time (a hang or a runaway allocation is
# orders of magnitude more; the slowest clean case takes milliseconds).
CASE_SECONDS = 1.0

CHILD = textwrap.dedent(r"""
    import json, sys, time
    sys.path.insert(0, sys.argv[1])
    import aster, directive_sweep
    entry = sys.argv[2]
    for name, text in directive_sweep.cases():
        print(json.dumps({"start": name}), flush=True)
        t0 = time.process_time()
        try:
            if entry == "assemble":
                aster.assemble(text, "gfx942")
            else:
                aster.raise_asm(text, "gfx942")
            outcome = "ok"
        except (aster.AsterError, ValueError, TypeError) as e:
            outcome = type(e).__name__
            if not str(e).strip():
                outcome = "empty message"
        print(json.dumps({"name": name, "outcome": outcome,
                          "seconds": time.process_time() - t0}), flush=True)
    # Still usable: a good kernel assembles and raises after all of the above.
    good = "\t.text\n\t.globl k\n\t.p2align 8\n\t.type k,@function\nk:\n\ts_endpgm\n"
    assert len(aster.assemble(good, "gfx942")) > 0
    aster.raise_asm(good, "gfx942")
    print(json.dumps({"done": True}), flush=True)
""")


@pytest.mark.parametrize("entry", ["assemble", "raise_asm"])
def test_every_directive_with_edge_operands_returns_quickly(entry):
    sys.path.insert(0, HERE)
    import directive_sweep
    n = sum(1 for _ in directive_sweep.cases())
    try:
        r = subprocess.run([sys.executable, "-c", CHILD, HERE, entry], capture_output=True,
                           text=True, timeout=60 + 0.5 * n)
        out, err, rc = r.stdout, r.stderr, r.returncode
    except subprocess.TimeoutExpired as e:
        out, err, rc = (e.stdout or b"").decode(), (e.stderr or b"").decode(), "timeout"
    lines = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    started = [l["start"] for l in lines if "start" in l]
    assert rc == 0, f"{entry} did not come back from case {started[-1] if started else '?'!r} " \
                    f"(exit {rc}): {err[-2000:]}"
    results = [l for l in lines if "outcome" in l]
    assert len(results) == n and lines[-1] == {"done": True}
    slow = [(l["name"], round(l["seconds"], 2)) for l in results if l["seconds"] > CASE_SECONDS]
    assert not slow, f"{entry}: cases over {CASE_SECONDS} s: {slow}"
    empty = [l["name"] for l in results if l["outcome"] == "empty message"]
    assert not empty, f"{entry}: errors without a message: {empty}"


def test_p2align_minus_one_is_an_error_naming_the_line():
    # The input of issue 28, in a child with a timeout (it used to hang).
    code = ("import aster\n"
            "try:\n"
            "    aster.assemble('\\t.text\\n\\t.p2align\\t-1\\nk:\\n\\ts_endpgm\\n', 'gfx942')\n"
            "except aster.AsterError as e:\n"
            "    print(e)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    assert "line 2" in r.stdout and "alignment" in r.stdout, r.stdout


LLVM_MC = "llvm-mc-22"

# Valid forms of the directives aster handles itself (AlignDirectives.cpp):
# the bytes must be what LLVM MC's own handler gives.
VALID_P2ALIGN = [f"{d} {args}" for d in (".p2align", ".p2alignw", ".p2alignl")
                 for args in ("0", "2", "4", "8", "4, 0", "4, 0xbf800000", "4, 7", "4,,2",
                              "4,,15", "4,,16", "4, 0x1, 3", "5, 0xffff", "3, -1",
                              "(1+2)*2", "4 , , 64")]


@pytest.mark.parametrize("section", [".text", ".data"])
def test_valid_p2align_forms_emit_what_llvm_mc_emits(section, tmp_path):
    import shutil
    import aster
    import elf_facts
    if shutil.which(LLVM_MC) is None:
        pytest.fail("llvm-mc-22 is a build requirement (make deps installs llvm-22-tools)")
    # Whole words before each form: code alignment after a partial word is
    # refused (LayoutCheck.h) because LLVM MC never finishes it.
    body = "".join(f"\t.long 1\n\t{form}\n" for form in VALID_P2ALIGN)
    text = f"\t{section}\nk:\n\ts_nop 0\n{body}\ts_endpgm\n"
    src = tmp_path / "a.s"
    src.write_text(text)
    obj = tmp_path / "a.o"
    subprocess.run([LLVM_MC, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-filetype=obj",
                    str(src), "-o", str(obj)], check=True, capture_output=True)
    theirs = obj.read_bytes()
    ours = bytes(aster.assemble(text, "gfx942", link=False))
    def section_bytes(data):
        addr, off, size = elf_facts.sections(data)[section]
        return data[off:off + size]
    assert len(section_bytes(theirs)) > 100
    assert section_bytes(ours) == section_bytes(theirs)


@pytest.mark.parametrize("align", [".p2align 2", ".balign 4", ".align 8", ".p2alignl 4"])
def test_code_alignment_after_a_partial_word_is_an_error(align):
    # LLVM MC 22 pads code alignment with s_nop (4 bytes) and its layout loops
    # forever when the code before is not whole words (llvm-mc-22 hangs on
    # this text); aster refuses it and says how to write it.
    import aster
    text = f"\t.text\nk:\n\ts_nop 0\n\t.byte 1\n\t{align}\n\ts_endpgm\n"
    with pytest.raises(aster.AsterError, match="code alignment .* not a multiple of 4 bytes"):
        aster.assemble(text, "gfx942")
    # With a fill value it is data alignment, which LLVM MC finishes.
    assert aster.assemble(text.replace(align, align + ", 0"), "gfx942")


@pytest.mark.parametrize("text, message", [
    ("\t.rept 1<<40\n\ts_nop 0\n\t.endr\n", r"line 1: \.rept repeats its body"),
    ("\t.set n, 2048\n\t.rept n\n\t.rept n\n\ts_nop 0\n\t.endr\n\t.endr\n",
     r"line 3: \.rept repeats its body 4194304 times"),
    ("\tn = 1 << 20\n\t.rept 512\n\t.skip n\n\t.endr\n", r"line 3: \.skip makes 536870912 bytes"),
    ("\t.fill 0x10000000, 8, 0\n", r"line 1: \.fill makes 2147483648 bytes"),
])
def test_runaway_expansions_are_errors_naming_the_line(text, message):
    import aster
    with pytest.raises(aster.AsterError, match=message):
        aster.assemble(text, "gfx942")
