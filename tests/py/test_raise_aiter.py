"""AMD's own code objects raised and compiled back byte-exact.

The amd-aiter wheel (pinned test dependency) ships AMD's hand-written
gfx942/gfx950 kernels: symbols without `.size`, MFMA operands loaded straight
into AGPRs, SDWA conversions, code-end padding. A fixed sample of 100 code
objects per architecture, every folder of aiter_meta/hsa/<arch> in it,
goes through aster.raise_code_object and through aster.raise_asm of LLVM's
disassembly (llvm-objdump-22's listing made an assembler file,
aiter_roundtrip.py); compiled again, each must have the same code bytes,
descriptors and metadata as AMD's file, read with llvm-readelf-22
(elf_facts). `make raise-aiter` runs the whole set.
"""
import os
import subprocess
import tempfile

import pytest

import aiter_roundtrip as rt
import elf_facts

PER_ARCH = 100


@pytest.fixture(scope="module")
def results():
    picked = {arch: rt.sample(arch, PER_ARCH) for arch in rt.ARCHS}
    paths = [p for arch in rt.ARCHS for _, p in picked[arch]]
    return picked, rt.check(paths, jobs=2)


@pytest.mark.parametrize("arch", rt.ARCHS)
def test_sample_spans_every_folder(results, arch):
    picked, _ = results
    folders = {os.path.dirname(rel) for rel, _ in rt.code_objects(arch)}
    assert {os.path.dirname(rel) for rel, _ in picked[arch]} == folders
    assert len(picked[arch]) >= PER_ARCH


@pytest.mark.parametrize("way", rt.WAYS)
def test_sample_round_trips_exactly(results, summary, way):
    picked, res = results
    i = rt.WAYS.index(way)
    bad = [f"{p}: {r[i]}" for p, *r in res if r[i] is not None]
    summary.append(f"aiter wheel, {way}: {len(res) - len(bad)}/{len(res)} sampled code objects "
                   f"(gfx942 + gfx950) round-trip exactly")
    assert not bad, "\n".join(bad[:5])


def test_listing_assembles_with_llvm():
    """The assembler file made from objdump's listing is LLVM's own text:
    llvm-mc-22 and ld.lld-22 make AMD's code bytes, descriptors and metadata
    from it (so raise_asm is checked against text LLVM takes)."""
    mc = "llvm-mc-22"
    lld = "ld.lld-22"
    for arch in rt.ARCHS:
        rel, path = rt.sample(arch, 1)[0]
        data = path.read_bytes()
        with tempfile.TemporaryDirectory() as tmp:
            src, obj, co = (os.path.join(tmp, n) for n in ("k.s", "k.o", "k.co"))
            with open(src, "w") as f:
                f.write(rt.objdump_asm(data))
            subprocess.run([mc, "-triple", "amdgcn-amd-amdhsa", f"-mcpu={arch}", "-filetype=obj",
                            src, "-o", obj], check=True, capture_output=True)
            subprocess.run([lld, "-shared", obj, "-o", co], check=True, capture_output=True)
            assert elf_facts.differences(data, open(co, "rb").read()) == [], f"{arch}/{rel}"
