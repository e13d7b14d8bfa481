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
    return picked, [r for arch in rt.ARCHS for r in rt.check([p for _, p in picked[arch]], jobs=2)]


@pytest.mark.parametrize("arch", rt.ARCHS)
def test_sample_spans_every_folder(results, arch):
    picked, _ = results
    folders = {os.path.dirname(rel) for rel, _ in rt.code_objects(arch)}
    assert {os.path.dirname(rel) for rel, _ in picked[arch]} == folders
    assert len(picked[arch]) >= PER_ARCH


@pytest.mark.parametrize("way", rt.WAYS)
def test_sample_round_trips_exactly(results, summary, way):
    """Every sampled code object round-trips; through raise_asm, those whose
    LLVM listing llvm-mc-22 itself does not re-assemble to AMD's bytes
    (rt.LOSSY_LISTING, AMD's gfx950 MXFP4 kernels) are counted apart, and
    raise_code_object must round-trip each of them."""
    picked, res = results
    i = rt.WAYS.index(way)
    lossy = [p for p, *r in res if r[i] == rt.LOSSY_LISTING]
    bad = [f"{p}: {r[i]}" for p, *r in res if r[i] not in (None, rt.LOSSY_LISTING)]
    summary.append(f"aiter wheel, {way}: {len(res) - len(bad) - len(lossy)}/{len(res)} sampled "
                   f"code objects (gfx942 + gfx950) round-trip exactly"
                   + (f", {len(lossy)} from a listing LLVM does not re-assemble exactly"
                      if lossy else ""))
    assert not bad, "\n".join(bad[:5])
    assert way == "raise_asm" or not lossy
    assert all(r[0] is None for p, *r in res if p in lossy)


def test_listing_assembles_with_llvm():
    """The assembler file made from objdump's listing is LLVM's own text:
    llvm-mc-22 and ld.lld-22 make AMD's code bytes, descriptors and metadata
    from it (so raise_asm is checked against text LLVM takes)."""
    for arch in rt.ARCHS:
        rel, path = rt.sample(arch, 1)[0]
        data = path.read_bytes()
        assert rt.llvm_reassembles(data, rt.objdump_asm(data), arch), f"{arch}/{rel}"


SIZELESS = """\
\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
\t.amdhsa_code_object_version 5
\t.text
\t.globl\tfirst
\t.p2align\t8
\t.type\tfirst,@function
first:
\ts_cmp_eq_u32 s0, 0
\ts_cbranch_scc1 .Lend
\tv_mov_b32 v0, 1
.Lend:
\ts_endpgm
\t.long 0x12345678
\t.fill 3, 4, 0xbf9f0000
\t.globl\tsecond
\t.p2align\t8
\t.type\tsecond,@function
second:
\ts_endpgm
\t.fill 5, 4, 0xbf9f0000
\t.rodata
\t.p2align\t6
\t.amdhsa_kernel first
\t\t.amdhsa_next_free_vgpr 1
\t\t.amdhsa_next_free_sgpr 1
\t\t.amdhsa_accum_offset 4
\t.end_amdhsa_kernel
\t.p2align\t6
\t.amdhsa_kernel second
\t\t.amdhsa_next_free_vgpr 1
\t\t.amdhsa_next_free_sgpr 1
\t\t.amdhsa_accum_offset 4
\t.end_amdhsa_kernel
\t.amdgpu_metadata
---
amdhsa.kernels:
  - .name: first
    .symbol: first.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 1
    .vgpr_count: 1
    .max_flat_workgroup_size: 64
  - .name: second
    .symbol: second.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 1
    .vgpr_count: 1
    .max_flat_workgroup_size: 64
amdhsa.target: amdgcn-amd-amdhsa--gfx942
amdhsa.version: [1, 2]
...
\t.end_amdgpu_metadata
"""


def test_kernels_without_size():
    """Hand-written assembly without `.size`, assembled and linked by LLVM
    (llvm-mc-22, ld.lld-22): each kernel runs to the next function or the
    end of the code; the words after its s_endpgm (data, s_code_end
    padding) are its code tail; the round trip is exact."""
    import aster
    with tempfile.TemporaryDirectory() as tmp:
        src, obj, co = (os.path.join(tmp, n) for n in ("k.s", "k.o", "k.co"))
        with open(src, "w") as f:
            f.write(SIZELESS)
        subprocess.run(["llvm-mc-22", "-triple", "amdgcn-amd-amdhsa", "-mcpu=gfx942",
                        "-filetype=obj", src, "-o", obj], check=True, capture_output=True)
        subprocess.run(["ld.lld-22", "-shared", obj, "-o", co], check=True, capture_output=True)
        data = open(co, "rb").read()
    syms = elf_facts.symbols(data)
    assert syms["first"][1] == 0 and syms["second"][1] == 0          # no .size
    m = aster.raise_code_object(data)
    text = m.mlir()
    assert text.count("code_tail") == 2 and "0x12345678" in text
    assert elf_facts.differences(data, aster.compile(m).hsaco) == []
