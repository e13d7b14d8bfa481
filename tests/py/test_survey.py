"""aster.survey (python -m aster.survey) on the test corpus.

Every HIP file the tests build (tests/emulator/hip, tests/py/*.hip,
tests/py/raise_corpus, tests/py/hip950), compiled by clang-22 for gfx942 and
gfx950 as a code object and as -S assembly, must raise, round-trip exactly
and be fully runnable on the emulator, except kernels that use an
instruction listed as not emulated (NOT_RUNNABLE, with the instruction: the
test fails if the list is stale either way). The survey's own ELF reading is
checked against llvm-readelf-22 (elf_facts.py).
"""
from pathlib import Path

import pytest

import aster
import elf_facts
from aster import survey
from conftest import HIP_INCLUDE

HERE = Path(__file__).parent
SOURCES = [*sorted(Path(HIP_INCLUDE).glob("*.hip")), *sorted(HERE.glob("*.hip")),
           *sorted((HERE / "raise_corpus").glob("*.hip")),
           *sorted((HERE / "hip950").glob("*.hip"))]
ARCHS = ("gfx942", "gfx950")
# kernel -> the instruction it uses that the emulator lists as not emulated
NOT_RUNNABLE = {
    "sendmsg_gs": "s_sendmsg sendmsg(MSG_GS",      # graphics message (emu_rows.hip)
    "sendmsg_m0": "s_sendmsghalt",                 # halts the wave (hazards_oracle.hip)
}


def _only950(src):
    return src.parent.name == "hip950" or src.stem.startswith("gfx950")


@pytest.fixture(scope="module")
def corpus_files(hip_hsaco, tmp_path_factory):
    d = tmp_path_factory.mktemp("survey")
    for src in SOURCES:
        for arch in ARCHS:
            if _only950(src) and arch != "gfx950":
                continue
            stem = f"{src.parent.name}_{src.stem}.{arch}"
            (d / f"{stem}.hsaco").write_bytes(hip_hsaco(src, arch=arch))
            (d / f"{stem}.s").write_bytes(hip_hsaco(src, arch=arch, flags=("-S",)))
    return d


@pytest.fixture(scope="module")
def rows(corpus_files):
    return survey.survey([str(corpus_files)])


def test_corpus_round_trips_and_runs(rows, summary):
    t = survey.totals(rows)
    summary.append(f"survey of the test corpus: files={t['files']} kernels={t['kernels']} "
                   f"raised={t['raised']} exact={t['exact']} runnable={t['runnable']}")
    assert t["files"] == 2 * (2 * len(SOURCES) - sum(map(_only950, SOURCES)))
    for r in rows:
        assert r["raised"] and r["exact"], (r["file"], r["error"])
        assert r["kernels"] >= 1, r["file"]
    seen = {}
    for r in rows:
        for k, missing in r["unsupported"].items():
            assert k in NOT_RUNNABLE, (r["file"], k, missing)
            assert any(NOT_RUNNABLE[k] in m for m in missing), (k, missing)
            seen[k] = True
    assert set(seen) == set(NOT_RUNNABLE)
    assert t["runnable"] == t["kernels"] - sum(len(r["unsupported"]) for r in rows)


def test_elf_reading_matches_llvm_readelf(corpus_files):
    for path in sorted(corpus_files.glob("*.hsaco"))[:12]:
        data = path.read_bytes()
        text, kds = survey.code_facts(data)
        assert text == elf_facts.text_bytes(data)
        want = elf_facts.descriptors(data)
        assert set(kds) == set(want)
        for k, kd in kds.items():
            assert kd == want[k][:16] + want[k][24:]


def test_a_changed_byte_is_reported(corpus_files):
    path = sorted(corpus_files.glob("*.hsaco"))[0]
    data = bytearray(path.read_bytes())
    text, _ = survey.code_facts(bytes(data))
    assert survey._first_diff(text, text[:4] + bytes([text[4] ^ 1]) + text[5:]) == " at pc 0x4"


def test_bad_files_give_a_row_with_the_error(tmp_path, capsys):
    bad = tmp_path / "bad.s"
    bad.write_text('.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n.text\nk:\n  v_bogus_op v0, v1\n')
    corrupt = tmp_path / "corrupt.hsaco"
    corrupt.write_bytes(b"\x7fELF\x02\x01" + bytes(20))
    rc = survey.main([str(bad), str(corrupt)])
    out = capsys.readouterr().out
    assert rc == 1
    assert "bad.s:4: v_bogus_op v0, v1" in out
    assert "corrupt.hsaco" in out and "raised=no" in out
    assert "total: files=2 kernels=0 raised=0 (from the text: 0) exact=0" in out


def test_cli_module(corpus_files):
    import subprocess
    import sys
    one = sorted(corpus_files.glob("*vadd.gfx942.hsaco"))[0]
    p = subprocess.run([sys.executable, "-m", "aster.survey", str(one)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "total: files=1 kernels=1 raised=1 (from the text: 1) exact=1 runnable=1/1" in p.stdout


# Generator-style assembly (as Tensile writes: .set register numbers, a .macro,
# /* */ comments, `.section .rodata,#alloc`) and a hand-written numeric hwreg:
# raise_asm names the first line it does not take; the survey raises LLVM MC's
# code object instead, and it round-trips and runs.
GENERATED = r"""
/* generated-style kernel */
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.globl gen
.p2align 8
.type gen,@function
.section .rodata,#alloc
.p2align 6
.amdhsa_kernel gen
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 4 // vgprs
  .amdhsa_next_free_sgpr 8
  .amdhsa_accum_offset 4
.end_amdhsa_kernel
.text
.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: gen
    .symbol: gen.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 4
    .max_flat_workgroup_size: 64
    .args:
      - { .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
...
.end_amdgpu_metadata
gen:
.set sgprArgs, 0
.set sgprOut, 4
.set vgprT, 1
.macro SCALE_BY dst:req, src:req, k:req
    v_mul_u32_u24 v[\dst], \k, v[\src]
.endm
s_load_dwordx2 s[sgprOut:sgprOut+1], s[sgprArgs:sgprArgs+1], 0 /* out */
SCALE_BY vgprT, 0, 4
s_getreg_b32 s6, hwreg(4, 0, 32)
v_mov_b32 v2, s6
s_waitcnt lgkmcnt(0)
global_store_dword v[vgprT], v2, s[sgprOut:sgprOut+1]
s_endpgm
.Lgen_end:
.size gen, .Lgen_end-gen
"""


def test_generated_assembly_is_raised_through_its_code_object(tmp_path):
    path = tmp_path / "gen.s"
    path.write_text(GENERATED)
    with pytest.raises(aster.AsterError, match=r"gen\.s:\d+: "):
        aster.raise_asm(GENERATED, name=str(path))
    (row,) = survey.survey([str(path)])
    assert row["raised"] and row["exact"] and row["via"] == "code object", row
    assert row["kernels"] == 1 and row["runnable"] == 1
    assert row["asm_error"].startswith(str(path) + ":")
    # what MC made of the macro is in the raised kernel
    co = aster.assemble(GENERATED, "gfx942")
    names = [op.name for op in aster.raise_code_object(co).kernels[0].ops]
    assert "v_mul_u32_u24" in " ".join(names) and "s_getreg_b32" in " ".join(names)


def test_kernel_symbol_without_size_is_a_named_failure(tmp_path):
    """Not handled yet (asserted so the note stays honest): a kernel symbol
    without `.size` (Tensile's kernels have none) gives a size-0 symbol:
    raise_code_object takes the last function's extent as empty (another's
    would run over the padding to the next function)."""
    path = tmp_path / "nosize.s"
    path.write_text(GENERATED.replace(".size gen, .Lgen_end-gen", ""))
    (row,) = survey.survey([str(path)])
    assert not row["raised"]
    assert "gen: the code does not end with s_endpgm or a branch" in row["error"]
