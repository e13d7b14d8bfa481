"""The symbolic operands of gfx9 program control in the instruction table:
hwreg(...) (s_getreg/s_setreg), sendmsg(...) (s_sendmsg), swizzle(...)
(ds_swizzle_b32) and gpr_idx(...) (s_set_gpr_idx_*).

The oracle is llvm-mc-22: every 16-bit value of each field is encoded into
an instruction word, disassembled by LLVM for gfx942 and gfx950, raised by
aster (raise_asm) and printed back; aster's text must be LLVM's for all 65536
values, and the code object aster builds from it must hold the bytes LLVM
assembles from its own text.
"""
import json
import shutil
import subprocess
import sys
import textwrap

import pytest

import aster

LLVM_MC = shutil.which("llvm-mc-22") or "/usr/lib/llvm-22/bin/llvm-mc"

# (what, the instruction's 4 bytes with the 16-bit field in bytes 0-1 as a
# format string, the rest of an 8-byte encoding)
FIELDS = {
    "hwreg": ("s_getreg_b32 s0", "{:#x},{:#x},0x80,0xb8"),
    "hwreg_set": ("s_setreg_b32 ..., s1", "{:#x},{:#x},0x01,0xb9"),
    "sendmsg": ("s_sendmsg", "{:#x},{:#x},0x90,0xbf"),
    "swizzle": ("ds_swizzle_b32 v0, v1", "{:#x},{:#x},0x7a,0xd8,0x01,0x00,0x00,0x00"),
}


def llvm_disassemble(byte_lines, target):
    r = subprocess.run([LLVM_MC, "-triple=amdgcn", f"-mcpu={target}", "-disassemble"],
                       input="\n".join(byte_lines), capture_output=True, text=True, check=True)
    return [ln.strip() for ln in r.stdout.splitlines()
            if ln.strip() and not ln.strip().startswith(".")]


def llvm_encode(lines, target):
    """The encoding llvm-mc-22 gives each line."""
    r = subprocess.run([LLVM_MC, "-triple=amdgcn", f"-mcpu={target}", "-show-encoding"],
                       input="\n".join(lines), capture_output=True, text=True, check=True)
    enc = [ln.split("encoding:")[1].strip() for ln in r.stdout.splitlines() if "encoding:" in ln]
    assert len(enc) == len(lines)
    return enc


def kernel_text(lines, target):
    return (f'\t.amdgcn_target "amdgcn-amd-amdhsa--{target}"\n\t.text\nk:\n' +
            "".join(f"\t{x}\n" for x in lines) + "\ts_endpgm\n")


@pytest.mark.parametrize("target", ["gfx942", "gfx950"])
@pytest.mark.parametrize("field", sorted(FIELDS))
def test_every_value_prints_as_llvm(field, target):
    fmt = FIELDS[field][1]
    words = [fmt.format(v & 0xff, v >> 8) for v in range(65536)]
    want = llvm_disassemble(words, target)
    assert len(want) == 65536
    raised = aster.raise_asm(kernel_text(want, target))
    got = [ln.strip() for ln in aster.compile(raised).asm.splitlines()]
    first = got.index(want[0])
    got = got[first:first + len(want)]
    bad = [(hex(v), w, g) for v, (w, g) in enumerate(zip(want, got)) if w != g]
    if field == "swizzle" and bad:
        # LLVM writes some bit-mask offsets as a BITMASK_PERM string it
        # assembles to another offset with its own spelling (BROADCAST,
        # SWAP, ...): aster writes that spelling. Both must be the same
        # bytes to llvm-mc.
        ws = llvm_encode([w for _, w, _ in bad], target)
        gs = llvm_encode([g for _, _, g in bad], target)
        bad = [b for b, x, y in zip(bad, ws, gs) if x != y]
    assert not bad, f"{len(bad)} values print differently, first: {bad[:5]}"


@pytest.mark.parametrize("target", ["gfx942", "gfx950"])
def test_symbolic_operands_assemble_to_llvm_bytes(target):
    """Raised and compiled, the code is the bytes LLVM assembles from its text."""
    lines = ["s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 4)", "s_getreg_b32 s1, hwreg(HW_REG_HW_ID)",
             "s_getreg_b32 s2, hwreg(HW_REG_XCC_ID, 1, 31)", "s_getreg_b32 s3, hwreg(63, 0, 1)",
             "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s1",
             "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0x12345",
             "s_sendmsg sendmsg(MSG_INTERRUPT)", "s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 1)",
             "s_sendmsghalt sendmsg(MSG_SYSMSG, SYSMSG_OP_REG_RD)", "s_sendmsg 1024",
             "ds_swizzle_b32 v0, v1 offset:swizzle(QUAD_PERM,3,2,1,0)",
             'ds_swizzle_b32 v0, v1 offset:swizzle(BITMASK_PERM,"01pip")',
             "ds_swizzle_b32 v0, v1 offset:swizzle(BROADCAST,8,3)",
             "ds_swizzle_b32 v0, v1 offset:swizzle(SWAP,16)", "ds_swizzle_b32 v0, v1",
             "s_set_gpr_idx_on s0, gpr_idx(SRC0,SRC2,DST)", "s_set_gpr_idx_on 5, gpr_idx()",
             "s_set_gpr_idx_mode gpr_idx(SRC1)", "s_set_gpr_idx_idx s4", "s_set_gpr_idx_off",
             "s_setvskip s0, 3", "s_swappc_b64 s[30:31], s[4:5]", "s_movrels_b64 s[0:1], s[2:3]",
             "s_movreld_b32 s0, 7"]
    text = kernel_text(lines, target)
    out = aster.compile(aster.raise_asm(text))
    want = aster.disassemble(aster.assemble(text, target, link=False), target)
    assert aster.disassemble(out.hsaco, target)[:len(want)] == want


def test_builder_takes_the_fields_as_numbers():
    m = aster.Module("gfx942")
    k = m.kernel("k")
    k.s_getreg_b32(aster.s[0], 1 | 3 << 11)
    k.s_setreg_b32(aster.s[1], 1 | 3 << 11)
    k.s_sendmsg(0x22)
    k.ds_swizzle_b32(aster.v[0], aster.v[1], offset=0x041f)
    k.s_set_gpr_idx_on(aster.s[2], 9)
    k.s_endpgm()
    asm = m.asm()
    for line in ["s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 4)",
                 "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s1",
                 "s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 0)",
                 "ds_swizzle_b32 v0, v1 offset:swizzle(SWAP,1)",
                 "s_set_gpr_idx_on s2, gpr_idx(SRC0,DST)"]:
        assert line in asm
    with pytest.raises(aster.AsterError, match="gpr_idx"):
        k.s_set_gpr_idx_on(aster.s[2], 16)


@pytest.mark.parametrize("line", ["s_getreg_b32 s0, hwreg(HW_REG_NOPE)",
                                  "s_getreg_b32 s0, hwreg(1, 0, 33)",
                                  "s_sendmsg sendmsg(MSG_NOPE)",
                                  "ds_swizzle_b32 v0, v1 offset:swizzle(SWAP,0)",
                                  "s_set_gpr_idx_on s0, gpr_idx(SRC3)"])
def test_bad_symbolic_operands_name_the_line(line):
    with pytest.raises(aster.AsterError, match=r"k\.s:4: "):
        aster.raise_asm(kernel_text([line], "gfx942"), name="k.s")


def test_lossy_bitmask_text_is_kept_as_text():
    """LLVM prints some bit-mask swizzles with a string its own assembler
    reads as another value (0x2c1e and 0x283e both print "pipi1"; llvm-mc
    assembles the text to 0x283e). Raising keeps LLVM's text; the bytes are
    what LLVM itself makes of that text. (A code object holding 0x2c1e
    round-trips through raise_code_object, which takes the offset from the
    code word and writes it as a number: test_raise.py.)"""
    lossy, canonical = llvm_disassemble([FIELDS["swizzle"][1].format(v & 0xff, v >> 8)
                                         for v in (0x2c1e, 0x283e)], "gfx942")
    assert lossy == canonical == 'ds_swizzle_b32 v0, v1 offset:swizzle(BITMASK_PERM,"pipi1")'
    text = kernel_text([lossy], "gfx942")
    out = aster.compile(aster.raise_asm(text))
    assert aster.disassemble(out.hsaco, "gfx942")[0] == lossy
    assert (aster.disassemble(out.hsaco, "gfx942")[:1] ==
            aster.disassemble(aster.assemble(text, "gfx942", link=False), "gfx942")[:1])


# --- Assembly as authors write it: macros, repeats, symbols, includes. ---
# What each construct means is llvm-mc-22's (the lit tests raise-*.mlir
# compare the bytes); here: where errors point, and that no input hangs.

HEAD = ('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n'  # line 1
        "\t.text\n"                                       # line 2
        ".macro add dst, src\n"                           # line 3
        "\tv_add_u32_e32 v\\dst, 1, v\\src\n"             # line 4
        "\ts_sethalt \\dst\n"                             # line 5
        ".endm\n"                                         # line 6
        ".macro outer r\n"                                # line 7
        "\t.rept 2\n"                                     # line 8
        "\tadd \\r, \\r\n"                                # line 9
        "\t.endr\n"                                       # line 10
        ".endm\n"                                         # line 11
        "k:\n")                                           # line 12


def test_an_unknown_instruction_in_a_macro_names_the_line_and_the_call():
    """s_sethalt is an instruction llvm-mc-22 knows that aster's table does
    not: the error names the macro's line and the line that called it."""
    text = HEAD + "\tv_mov_b32_e32 v1, 0\n\tadd 2, 1\n\ts_endpgm\n"   # call on line 14
    with pytest.raises(aster.AsterError,
                       match=r"k\.s:5 \(in macro 'add' called at k\.s:14\): s_sethalt 2"):
        aster.raise_asm(text, name="k.s")
    m = aster.raise_asm(text, name="k.s", unknown="keep")
    assert "s_sethalt 2" in str(m)


def test_an_mc_error_in_a_nested_expansion_names_every_call():
    """An operand MC rejects (v300 does not exist), two macros and a .rept deep."""
    text = HEAD + "\touter 300\n\ts_endpgm\n"                          # call on line 13
    with pytest.raises(aster.AsterError) as e:
        aster.raise_asm(text, name="k.s")
    msg = str(e.value)
    assert msg.startswith("k.s:4 (in macro 'add' called at k.s:9, in .rept at k.s:8, "
                          "in macro 'outer' called at k.s:13): "), msg


def test_an_error_in_an_included_file_names_the_include(tmp_path):
    (tmp_path / "defs.inc").write_text("\t.set vA, 3\n\tv_mov_b32_e32 v[vA], bogus_operand(\n")
    text = '\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n\t.text\nk:\n\t.include "defs.inc"\n'
    with pytest.raises(aster.AsterError, match=r"defs\.inc:2 \(included from k\.s:4\): "):
        aster.raise_asm(text, name="k.s", include_dir=tmp_path)
    with pytest.raises(aster.AsterError, match=r"k\.s:4: .*defs\.inc"):
        aster.raise_asm(text, name="k.s")   # not found without the directory


def test_include_is_found_next_to_a_source_path(tmp_path):
    (tmp_path / "defs.inc").write_text("\t.set vA, 3\n")
    text = ('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n\t.text\n\t.include "defs.inc"\n'
            "k:\n\tv_mov_b32_e32 v[vA], 0\n\ts_endpgm\n")
    m = aster.raise_asm(text, name=str(tmp_path / "k.s"))
    assert "v_mov_b32_e32 v3, 0" in aster.compile(m).asm


def test_expanded_ops_keep_the_call_in_their_location():
    text = HEAD + "\tadd 2, 1\n\ts_endpgm\n"
    m = aster.raise_asm(text, name="k.s", unknown="keep")
    locs = m.mlir(locations=True)
    assert "macro 'add'" in locs and 'callsite(' in locs


# Edge operands (issue 28 item 2). test_directive_sweep.py sweeps every
# directive through raise_asm too; here the cases only macros and repeats
# make: an edge number reaching a .rept through a macro argument or a
# default, .elseif, nested repeats. Each returns or raises AsterError, in a
# child process, well within a second; the child stays usable after them.
EDGE = ["-1", "0", "2147483647", "4294967296", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "", "foo", "undefined_sym + 1",
        "1 << 40", "(1 << 62) * 4", "0x", "1 /"]
DIRECTIVES = [
    ".macro m a\n\t.rept \\a\n\ts_nop 0\n\t.endr\n\t.endm\n\tm {x}",
    ".macro m a={x}\n\t.rept \\a\n\t.rept \\a\n\ts_nop 0\n\t.endr\n\t.endr\n\t.endm\n\tm",
    ".if 0\n\t.elseif {x}\n\ts_nop 1\n\t.endif",
    ".rept {x}\n\t.irp r, 1, 2\n\ts_nop \\r\n\t.endr\n\t.endr",
    "s_getreg_b32 s0, hwreg({x}, 0, 32)", "s_sendmsg sendmsg({x})",
]


def _run_child(code, inputs, tmp_path, timeout):
    """Runs `code` in a fresh interpreter with `inputs` (JSON) on stdin; the
    code writes its JSON answer to the file named by sys.argv[1] (stdout is
    the assembly's: `.print` writes there)."""
    answer = tmp_path / "answer.json"
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code), str(answer)],
                       input=json.dumps(inputs), capture_output=True, text=True,
                       timeout=timeout)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(answer.read_text())


def test_directive_edge_operands_return_or_raise_quickly(tmp_path):
    cases = [d.format(x=x) for d in DIRECTIVES for x in EDGE]
    got = _run_child('''
        import json, sys, time, aster
        cases = json.loads(sys.stdin.read())
        res = []
        for c in cases:
            text = ('\\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\\n\\t.text\\nk:\\n\\t' + c +
                    '\\n\\ts_endpgm\\n')
            t = time.perf_counter()
            try:
                aster.raise_asm(text, name="e.s")
                kind = "ok"
            except aster.AsterError:
                kind = "error"
            except Exception as e:   # anything else is a finding
                kind = type(e).__name__ + ": " + str(e)
            res.append((c, kind, time.perf_counter() - t))
        ok = aster.raise_asm('\\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\\n\\t.text\\nk:\\n\\ts_endpgm\\n')
        open(sys.argv[1], "w").write(
            json.dumps({"res": res, "usable": "s_endpgm" in aster.compile(ok).asm}))
    ''', cases, tmp_path, timeout=60 + len(cases))
    assert got["usable"]
    bad = [(c, k) for c, k, _ in got["res"] if k not in ("ok", "error")]
    assert not bad, bad[:5]
    slow = [(c, round(dt, 2)) for c, _, dt in got["res"] if dt > 1.0]
    assert not slow, slow[:5]
    # the huge counts are refused, not expanded
    kinds = {c: k for c, k, _ in got["res"]}
    assert kinds[".macro m a\n\t.rept \\a\n\ts_nop 0\n\t.endr\n\t.endm\n\tm 4294967296"] == "error"
    assert kinds[".rept 2147483647\n\t.irp r, 1, 2\n\ts_nop \\r\n\t.endr\n\t.endr"] == "error"


def test_expansion_bombs_stop_with_an_error(tmp_path):
    """Macros that call macros ten times, six deep (10^6 copies), and nested
    repeats each under the per-directive bound but not together."""
    macros = "".join(f".macro m{i}\n" + f"\tm{i - 1}\n" * 10 + ".endm\n" for i in range(1, 7))
    bombs = [".macro m0\n\ts_nop 0\n.endm\n" + macros + "k:\n\tm6\n",
             ".macro m0\n.endm\n" + macros + "k:\n\tm6\n",
             "k:\n\t.rept 5000\n\t.rept 5000\n\ts_nop 0\n\t.endr\n\t.endr\n"]
    res = _run_child('''
        import json, sys, time, aster
        res = []
        for b in json.loads(sys.stdin.read()):
            t = time.perf_counter()
            try:
                aster.raise_asm('\\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\\n\\t.text\\n' + b)
                res.append(("ok", ""))
            except aster.AsterError as e:
                res.append(("error", str(e)))
        open(sys.argv[1], "w").write(json.dumps(res))
    ''', bombs, tmp_path, timeout=120)
    assert [k for k, _ in res] == ["error"] * 3, res
    assert all("more than" in m for _, m in res), res


# Text that lexes, but whose macro argument, substituted unquoted into the
# copy, is one of the tokens that make llvm-mc-22 loop forever (see
# test_reliability.py's HANGS): refused, naming the call's line.
SUBSTITUTED_HANGS = ["s_nop ,/*", "s_nop ,0x", "s_nop ,08", "s_nop ,0x1p", "a,'ab"]


def test_macro_arguments_that_would_make_mc_loop_are_refused(tmp_path):
    res = _run_child('''
        import json, sys, aster
        res = []
        for bad in json.loads(sys.stdin.read()):
            text = ('\\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\\n\\t.text\\n'
                    '.macro m a\\n\\t\\\\a\\n.endm\\nk:\\n\\tm "' + bad + '"\\n\\ts_endpgm\\n')
            try:
                aster.raise_asm(text, name="k.s")
                res.append("ok")
            except aster.AsterError as e:
                res.append(str(e))
        open(sys.argv[1], "w").write(json.dumps(res))
    ''', SUBSTITUTED_HANGS, tmp_path, timeout=120)
    assert all(r.startswith("k.s:7: ") for r in res), res
