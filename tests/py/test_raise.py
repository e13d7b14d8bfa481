"""Raising existing code: aster.raise_code_object / aster.raise_asm.

The oracle is clang-22 and LLVM's own tools: every HIP kernel of the test
corpus (tests/emulator/hip and tests/py/raise_corpus: DPP reductions,
direct-to-LDS loads, fp8 conversions, wave reductions) is compiled for gfx942
and gfx950; its code object, raised and compiled again by aster, must have
the same code bytes, the same kernel descriptors (the entry offset, a layout
fact, must point at the kernel) and the same metadata, all read with
llvm-readelf-22 (elf_facts.py). The same for clang's -S assembly raised with
raise_asm, against clang's code object of the same source.
"""
from pathlib import Path

import pytest

import aster
import elf_facts
from conftest import HIP_INCLUDE

ARCHS = ("gfx942", "gfx950")
SOURCES = [*sorted(Path(HIP_INCLUDE).glob("*.hip")),
           *sorted(Path(__file__).with_name("raise_corpus").glob("*.hip"))]
# Not raised yet, with the reason (asserted to fail, so the list stays honest).
NOT_RAISED = {
    "calls": "device functions that are not kernels (s_swappc_b64 calls)",
}
NOT_RAISED_ASM = {
    **NOT_RAISED,
    "globals": "refers to global variables by symbol (@rel32); data sections are not raised",
}


@pytest.fixture(scope="module")
def corpus(hip_hsaco):
    """[(name, arch, hsaco bytes, clang -S text)]"""
    out = []
    for src in SOURCES:
        for arch in ARCHS:
            if src.stem.startswith("gfx950") and arch != "gfx950":
                continue
            h = hip_hsaco(src, arch=arch)
            s = hip_hsaco(src, arch=arch, flags=("-S",)).decode()
            out.append((src.stem, arch, h, s))
    return out


def same_code_object(h, h2):
    """Which of (code bytes, descriptors, metadata) differ."""
    diff = []
    if elf_facts.text_bytes(h) != elf_facts.text_bytes(h2):
        diff.append("code bytes")
    if elf_facts.descriptors(h) != elf_facts.descriptors(h2):
        diff.append("descriptors")
    if elf_facts.metadata(h) != elf_facts.metadata(h2):
        diff.append("metadata")
    return diff


def _roundtrip(corpus, summary, raise_fn, not_raised, what):
    exact, kept, known = [], [], []
    for name, arch, h, s in corpus:
        where = f"{name} ({arch})"
        if name in not_raised:
            with pytest.raises(aster.AsterError):
                aster.compile(raise_fn(h, s, "keep"))
            known.append(where)
            continue
        try:
            m = raise_fn(h, s, "error")
            exact.append(where)
        except aster.AsterError as e:
            assert "not in aster's instruction table" in str(e) or "would write it" in str(e) \
                or "cannot read" in str(e) or "not available" in str(e) \
                or "unknown modifier" in str(e) or "not optional" in str(e) \
                or "accepts only" in str(e), f"{where}: {e}"
            m = raise_fn(h, s, "keep")
            kept.append(where)
        diff = same_code_object(h, aster.compile(m).hsaco)
        assert not diff, f"{where}: {what} round trip changed the {', '.join(diff)}"
    summary.append(f"{what}: {len(exact) + len(kept)}/{len(corpus)} clang-22 code objects "
                   f"round-trip exactly ({len(exact)} entirely in the table, {len(kept)} with "
                   f"unknown='keep'); not raised: {', '.join(known) or 'none'}")
    return exact, kept


def test_roundtrip_code_objects(corpus, summary):
    _roundtrip(corpus, summary, lambda h, s, u: aster.raise_code_object(h, unknown=u),
               NOT_RAISED, "raise_code_object")


def test_roundtrip_asm(corpus, summary):
    _roundtrip(corpus, summary, lambda h, s, u: aster.raise_asm(s, unknown=u),
               NOT_RAISED_ASM, "raise_asm")


VADD = """
#include "common.h"
KERNEL vadd(const float *a, const float *b, float *c, int n) {
  int i = bid_x() * 64 + tid_x();
  if (i < n) c[i] = a[i] + b[i];
}
"""


def test_raised_ir_holds_the_kernel(hip_hsaco):
    h = hip_hsaco(VADD, name="vadd")
    text = aster.raise_code_object(h).mlir()
    assert "amdgcn.kernel @vadd" in text
    assert "amdgcn.global_load_dword" in text and "amdgcn.v_add_f32" in text
    assert "amdgcn.s_cbranch_execz ^bb" in text   # branch with successors
    assert "next_free_vgpr" in text and '".args"' in text and '"global_buffer"' in text
    assert '".name" = "n"' in text                 # argument names from the metadata


def test_unknown_instruction_names_line_and_text():
    text = ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.text\nk:\n"
            "\tv_mov_b32 v0, 1\n\tv_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n"
            "\ts_endpgm\n")
    with pytest.raises(aster.AsterError, match=r"k\.s:5: v_mov_b32_dpp v1, v0 quad_perm"):
        aster.raise_asm(text, name="k.s")
    m = aster.raise_asm(text, name="k.s", unknown="keep")
    assert "amdgcn.data" in m.mlir()
    assert "v_mov_b32_dpp v1, v0 quad_perm:[1,0,3,2]" in aster.compile(m).asm


def test_unknown_in_code_object_names_pc(hip_hsaco):
    src = Path(HIP_INCLUDE) / "waveops.hip"
    with pytest.raises(aster.AsterError, match=r"waveops pc 0x[0-9a-f]+: v_mov_b32_dpp"):
        aster.raise_code_object(hip_hsaco(src))


def test_exact_encodings_are_kept():
    """_e64 where LLVM would pick _e32, and literals, come back as written."""
    lines = ["v_add_u32_e64 v0, v1, v2", "v_add_f32_e32 v0, 0x40490fdb, v1",
             "v_mov_b32_e32 v3, 1.0", "s_mov_b32 s0, 0x12345678", "v_cmp_gt_i32_e64 s[0:1], v0, v1"]
    text = ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.text\nk:\n" +
            "".join(f"\t{x}\n" for x in lines) + "\ts_endpgm\n")
    out = aster.compile(aster.raise_asm(text))
    want = aster.disassemble(aster.assemble(text, "gfx942", link=False), "gfx942")
    assert aster.disassemble(out.hsaco, "gfx942")[:len(want)] == want


def _lit_modules():
    root = Path(__file__).resolve().parents[1] / "lit"
    for path in sorted(root.rglob("*.mlir")):
        for i, chunk in enumerate(path.read_text().split("// -----")):
            if "amdgcn.kernel" in chunk:
                yield f"{path.relative_to(root)}#{i}", chunk


def test_roundtrip_lit_modules(summary):
    """Every lit test module aster can compile: its assembly, raised and
    compiled again, gives the same code object."""
    done = 0
    for where, chunk in _lit_modules():
        out = None
        for pipeline in (None, "amdgcn-regalloc"):
            try:
                out = aster.compile(aster.parse(chunk, where), pipeline)
                break
            except aster.AsterError:
                pass  # an error test, or needs allocation
        if out is None:
            continue
        m = aster.raise_asm(out.asm, name=where)
        diff = same_code_object(out.hsaco, aster.compile(m).hsaco)
        assert not diff, f"{where}: raise_asm round trip changed the {', '.join(diff)}"
        done += 1
    assert done >= 10
    summary.append(f"raise_asm: {done} lit test modules round-trip exactly")
