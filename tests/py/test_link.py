"""Linking in process (cc/target/Linker.cpp): the code object aster's lld
run makes through memory (object in a memfd, code object through a pipe,
read after the link or by a drain thread) is
byte for byte the one ld.lld-22, the command-line linker, makes of the same
object with the same flags (the oracle), for small and for large code objects
(larger than a pipe's buffer), from several threads at once, in a forked
child, and after user code closed or reused the descriptors the link keeps
between links."""
import concurrent.futures
import multiprocessing
import os
import shutil
import subprocess

import pytest

import aster
from aster import v
import elf_facts

LLD = shutil.which("ld.lld-22") or "/usr/lib/llvm-22/bin/ld.lld"


def _object(n, name="k"):
    """An ELF relocatable object (LLVM MC) of a kernel of n v_add_u32."""
    m = aster.Module("gfx942")
    k = m.kernel(name, block=(64, 1, 1))
    for _ in range(n):
        k.v_add_u32(v[1], v[0], v[1])
    k.s_endpgm()
    return aster.assemble(m.asm(), "gfx942", link=False), m


def _ld_lld(obj, tmp_path):
    src, out = tmp_path / "k.o", tmp_path / "k.hsaco"
    src.write_bytes(obj)
    subprocess.run([LLD, "-shared", "--no-undefined", "--threads=1", str(src), "-o", str(out)],
                   check=True, capture_output=True)
    return out.read_bytes()


# 1 and 12000 instructions (48 kB of code): the code object surely fits in
# the enlarged pipe and is read after lld returns (no drain thread);
# 40000 instructions: 160 kB of code, more than the bound allows (and more
# than a default pipe holds, 64 kB): a thread drains the pipe while lld writes.
@pytest.mark.parametrize("n", [1, 12000, 40000])
def test_in_process_link_is_ld_lld_byte_for_byte(n, tmp_path):
    obj, m = _object(n)
    ours = aster.compile(m).hsaco
    assert ours == _ld_lld(obj, tmp_path)
    assert elf_facts.sections(ours)[".text"][2] == 4 * n + 4


def test_links_from_threads_at_once(tmp_path):
    objs = [_object(i + 1, f"k{i}") for i in range(8)]
    want = [_ld_lld(o, tmp_path) for o, _ in objs]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda om: aster.compile(om[1]).hsaco, objs * 4))
    assert got == want * 4


def test_no_temporary_files_are_left(tmp_path, monkeypatch):
    """The link leaves nothing in the temporary directory (on Linux it never
    creates a file there; elsewhere it removes its two files)."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    obj, m = _object(3)
    before = set(os.listdir(tmp_path))
    aster.compile(m).hsaco
    assert set(os.listdir(tmp_path)) == before


def test_link_errors_are_aster_errors():
    text = "\t.text\n\t.globl k\nk:\n\ts_getpc_b64 s[0:1]\n" \
           "\ts_add_u32 s0, s0, missing@rel32@lo+4\n\ts_endpgm\n"
    with pytest.raises(aster.AsterError, match="undefined symbol: missing"):
        aster.assemble(text, "gfx942")


def _channel_fds():
    """The descriptors the in-process link keeps (its memfd and pipes are
    the only ones named so: /proc/self/fd links)."""
    out = {}
    for fd in os.listdir("/proc/self/fd"):
        try:
            out[int(fd)] = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            pass
    return {fd: t for fd, t in out.items() if "aster-object" in t}


def _hsaco_in_child(conn):
    obj, m = _object(5)
    conn.send(aster.compile(m).hsaco)
    conn.close()


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc (Linux)")
def test_link_after_fork_and_after_descriptors_changed(tmp_path):
    """A forked child links with its own descriptors (the parent's are
    shared with the parent); a descriptor closed by user code, or its number
    reused for a user's file, makes a new channel and leaves that file alone."""
    obj, m = _object(5)
    want = _ld_lld(obj, tmp_path)
    assert aster.compile(m).hsaco == want
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe()
    p = ctx.Process(target=_hsaco_in_child, args=(child,))
    p.start()
    got = parent.recv()
    p.join(60)
    assert p.exitcode == 0 and got == want
    assert aster.compile(m).hsaco == want  # the parent's channel still works

    memfd = next(iter(_channel_fds()))
    os.close(memfd)
    assert aster.compile(m).hsaco == want
    memfd = next(iter(_channel_fds()))  # the new channel's (the number may be the same)
    user = tmp_path / "user.txt"
    with open(user, "w") as f:
        f.write("user data")
        os.dup2(f.fileno(), memfd)  # the number now names the user's file
    assert aster.compile(m).hsaco == want
    assert user.read_text() == "user data"
    os.close(memfd)
