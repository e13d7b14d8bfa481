"""aster inside the user's process: forked children, threads, and inputs that
make LLVM stop (fatal errors) or loop (lexer errors) must give exceptions,
never a dead or hung process.

The cases that once killed or hung the process run in a subprocess with a
timeout, so a regression fails the test instead of taking pytest down."""
import concurrent.futures
import multiprocessing as mp
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import aster
from aster import v, s

TIMEOUT = 120


def _build(n=4):
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(64, 1, 1))
    for _ in range(n):
        k.v_add_u32(v[1], v[0], v[1])
    k.s_endpgm()
    return m


def _store_kernel():
    """c[tid] = tid + 7 through a global store; returns a Module."""
    m = aster.Module("gfx942")
    k = m.kernel("store", block=(64, 1, 1), args=[("c", aster.ptr(np.int32))])
    k.load_arg("c", s[4:6])
    k.s_waitcnt(lgkmcnt=0)
    k.v_lshlrev_b32(v[1], 2, v[0])
    k.v_add_u32(v[2], 7, v[0])
    k.global_store_dword(v[1], v[2], s[4:6])
    k.s_endpgm()
    return m


def _compile_and_launch(i):
    """Work done in a pool worker: compile, assemble, link, disassemble, run."""
    h = aster.compile(_build(i % 5 + 1)).hsaco
    text = aster.disassemble(h, "gfx942")
    obj = aster.assemble("\t.text\nk:\n\ts_endpgm\n", "gfx942")
    c = np.zeros(64, np.int32)
    aster.launch(aster.compile(_store_kernel()).hsaco, "store", grid=1, block=64, args=[c])
    return len(h), len(text), len(obj), int(c.sum())


def _expected(i):
    h = aster.compile(_build(i % 5 + 1)).hsaco
    return len(h), len(aster.disassemble(h, "gfx942")), \
        len(aster.assemble("\t.text\nk:\n\ts_endpgm\n", "gfx942")), sum(range(64)) + 7 * 64


@pytest.mark.parametrize("method", ["fork", "forkserver", "spawn"])
def test_pools_compile_link_and_launch_after_the_parent_did(method):
    # The parent compiles, links and launches first: state it leaves behind
    # (lld's thread pool, locks) must not hang or break the children.
    expected = [_expected(i) for i in range(6)]
    with mp.get_context(method).Pool(2) as pool:
        got = pool.map_async(_compile_and_launch, range(6)).get(timeout=TIMEOUT)
    assert got == expected


def test_fork_while_another_thread_links():
    # A fork() in the middle of another thread's links: the child must not
    # inherit lld's lock held.
    import threading
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            aster.compile(_build(2)).hsaco

    t = threading.Thread(target=spin)
    t.start()
    try:
        ctx = mp.get_context("fork")
        for _ in range(3):
            with ctx.Pool(1) as pool:
                got = pool.map_async(_compile_and_launch, [1]).get(timeout=TIMEOUT)
            assert got == [_expected(1)]
    finally:
        stop.set()
        t.join()


def test_threads_compile_and_launch_at_once():
    expected = [_expected(i) for i in range(16)]
    with concurrent.futures.ThreadPoolExecutor(4) as ex:
        got = list(ex.map(_compile_and_launch, range(16)))
    assert got == expected


def _run_isolated(code, *args):
    """Runs `code` (with `args` in sys.argv[1:]) in a fresh interpreter: a crash
    or hang there fails the test instead of taking pytest down. Returns stdout."""
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, f"exit {r.returncode}\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}"
    return r.stdout


def test_llvm_fatal_error_in_mc_is_an_exception():
    out = _run_isolated(r'''
        import aster
        bad = "\t.text\nk:\n\ts_endpgm\n.Lend:\n\t.size k, .Lend-undefined_sym\n"
        for _ in range(3):   # and the process goes on assembling after it
            try:
                aster.assemble(bad, "gfx942")
                print("no error")
            except aster.AsterError as e:
                print("AsterError:", e)
        print(len(aster.assemble("\t.text\nk:\n\ts_endpgm\n", "gfx942")) > 0)
    ''')
    lines = out.splitlines()
    assert lines[:3] == ["AsterError: assembly failed: Size expression must be absolute."] * 3
    assert lines[3] == "True"


# Text that makes llvm-mc-22 loop forever: an error token (unterminated
# string or comment, malformed number) that swallows the end of statement,
# inside the operand list of a statement MC then tries to skip.
HANGS = [
    ('\tmdgcn-amd-amdhsa--,gfx942"\n', 1, "unterminated string constant"),
    ("\ts_nop ,/*\n", 1, "unterminated comment"),
    ("\t.text\n\ts_nop ,0x\n", 2, "invalid hexadecimal number"),
    ("\ts_endpgm\n\ts_nop ,08\n", 2, "invalid octal number"),
    ("\ts_nop ,0x1p\n", 1, "invalid hexadecimal floating-point constant"),
    ("\ta,'ab\n", 1, ""),
]


@pytest.mark.parametrize("text,line,message", HANGS)
def test_text_that_makes_mc_loop_is_rejected_with_its_line(text, line, message):
    out = _run_isolated('''
        import sys, aster
        try:
            aster.assemble(sys.argv[1], "gfx942")
            print("no error")
        except aster.AsterError as e:
            print(e)
    ''', text)
    assert out.startswith(f"line {line}: ")
    assert message in out


def test_the_lex_check_skips_metadata_yaml():
    # MC reads .amdgpu_metadata as raw YAML: a single-quoted YAML string there
    # is not an (invalid) character literal.
    text = ('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n\t.text\nk:\n\ts_endpgm\n'
            "\t.amdgpu_metadata\n---\namdhsa.kernels: []\n"
            "amdhsa.target: 'amdgcn-amd-amdhsa--gfx942'\n"
            "amdhsa.version:\n  - 1\n  - 2\n...\n\t.end_amdgpu_metadata\n")
    assert aster.assemble(text, "gfx942")[:4] == b"\x7fELF"
    with pytest.raises(aster.AsterError, match="line 2: single quote way too long"):
        aster.assemble("\t.text\n\t'amdgcn-amd'\n", "gfx942")


def test_clang_assembly_passes_the_lex_check(tmp_path):
    # LLVM's own printed assembly (strings, metadata YAML, comments) assembles.
    from conftest import CLANG_FLAGS, HIP_INCLUDE, _clang
    out = tmp_path / "k.s"
    subprocess.run([_clang(), *CLANG_FLAGS, "--offload-arch=gfx942", "-S", "-I", HIP_INCLUDE,
                    os.path.join(HIP_INCLUDE, "lds_reduce.hip"), "-o", str(out)], check=True)
    asm = out.read_text()
    assert ".amdgpu_metadata" in asm and '"' in asm
    assert aster.assemble(asm, "gfx942")[:4] == b"\x7fELF"


def test_lld_errors_beyond_its_error_limit_are_an_exception():
    # lld stops with a fatal "too many errors" after 20 errors: that must not
    # exit the process.
    calls = "".join(f"\ts_getpc_b64 s[0:1]\n\ts_add_u32 s0, s0, undefined_{i}@rel32@lo+4\n"
                    for i in range(30))
    text = ".text\nk:\n" + calls + "\ts_endpgm\n"
    out = _run_isolated('''
        import sys, aster
        try:
            aster.assemble(sys.argv[1], "gfx942", link=True)
            print("no error")
        except aster.AsterError as e:
            print("AsterError:", str(e)[:200])
        print(len(aster.assemble(".text\\nk:\\n s_endpgm\\n", "gfx942")) > 0)
    ''', text)
    assert out.startswith("AsterError: lld failed")
    assert "undefined" in out
    assert out.splitlines()[-1] == "True"


@pytest.mark.parametrize("bad,good", [
    ("      - .address_space: global\n", "      - 7\n      - .address_space: global\n"),
    ("        .offset: 0\n", "        .offset: zero\n"),
    ("    .max_flat_workgroup_size: 64\n", "    .max_flat_workgroup_size: [1, 2]\n"),
])
def test_raise_asm_of_malformed_metadata_is_an_aster_error(bad, good):
    # Found by the raise fuzz target: metadata of an unexpected shape made an
    # AttributeError inside aster instead of an AsterError naming the kernel
    # (or, where llvm-mc-22's own check rejects the block first, its line).
    text = aster.compile(_store_kernel()).asm
    assert bad in text
    with pytest.raises(aster.AsterError, match=r"kernel 'store'|<asm>:\d+: invalid HSA metadata"):
        aster.raise_asm(text.replace(bad, good), "gfx942")


REGRESSIONS = os.path.join(os.path.dirname(__file__), "..", "fuzz", "regressions")


@pytest.mark.parametrize("path", sorted(
    os.path.join(t, f) for t in os.listdir(REGRESSIONS)
    for f in os.listdir(os.path.join(REGRESSIONS, t))))
def test_fuzz_findings_stay_fixed(path):
    # Inputs the fuzz targets once failed on (tests/fuzz/regressions/<target>/),
    # replayed through their target in a child process.
    target = os.path.dirname(path)
    out = _run_isolated('''
        import sys
        sys.path.insert(0, sys.argv[1])
        import targets
        with open(sys.argv[3], "rb") as f:
            targets.ALL[sys.argv[2]](f.read())
        print("ok")
    ''', os.path.join(REGRESSIONS, ".."), target, os.path.join(REGRESSIONS, path))
    assert out.splitlines()[-1] == "ok"


def test_a_function_size_that_is_not_whole_words_is_an_aster_error():
    # Fuzz finding (tests/fuzz/regressions/raise/crash-0457...): a code object
    # whose symbol table gives a kernel 49 bytes made raising keep a data op
    # with no words, whose printing read an empty optional (std::bad_alloc).
    path = os.path.join(REGRESSIONS, "raise", "crash-04570a56429bcd67869aada531eb35cd62d276ed")
    with open(path, "rb") as f:
        data = f.read()[2:]     # the target's two choice bytes, then the code object
    with pytest.raises(aster.AsterError, match=r"to_mfma pc 0x1c30: the function ends 1 byte"):
        aster.raise_code_object(data, unknown="keep")
