"""Linking in process (cc/target/Assembler.cpp): the code object aster's lld
run makes through memory (object in a memfd, code object through a pipe) is
byte for byte the one ld.lld-22, the command-line linker, makes of the same
object with the same flags (the oracle), for small and for large code objects
(larger than a pipe's buffer), and from several threads at once."""
import concurrent.futures
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


# 40000 instructions: 160 kB of code, more than a pipe holds (64 kB).
@pytest.mark.parametrize("n", [1, 40000])
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
