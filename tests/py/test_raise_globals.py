"""Global variables: amdgcn.global and relocation operands (amdgcn.reloc).

Oracles: clang-22 code objects of HIP kernels with `__constant__` and
`__device__` variables (a lookup table, a table reached through the GOT, a
table of pointers, atomic counters) and LLVM's llvm-readelf-22, which reads
their code bytes, data sections, dynamic symbols and relocations; NumPy for
what the kernels compute. Raised (from the code object and from clang's -S
text) and compiled again, the code object has the same .text bytes, the same
data bytes and the same symbols and relocations, and runs on the emulator as
clang's does; edited (code inserted, which moves every address), it still
runs right, because its addresses are symbolic.
"""
from pathlib import Path

import numpy as np
import pytest

import aster
import elf_facts
from aster import s, v
from conftest import HIP_INCLUDE

ARCHS = ("gfx942", "gfx950")
TABLE = Path(__file__).with_name("raise_corpus") / "globals_table.hip"
GLOBALS = Path(HIP_INCLUDE) / "globals.hip"
LUT = np.array([0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5,
                -1, -2, -3, -4, -5, -6, -7, -8], np.float32)
SCALE = np.array([1, 2, 3, 4], np.int32)


def run_lookup(code, n=64):
    idx = np.random.default_rng(5).integers(0, 1000, 64).astype(np.int32)
    out, counts = np.zeros(64, np.float32), np.zeros(9, np.int32)
    aster.launch(code, "lookup", (1, 1, 1), (64, 1, 1), [idx, out, counts, np.int32(n)])
    j = idx[:n] & 15
    want = LUT[j] * SCALE[j & 3].astype(np.float32) + LUT[j]
    np.testing.assert_array_equal(out[:n], want)
    np.testing.assert_array_equal(counts[:8], np.bincount(j & 7, minlength=8))
    assert counts[8] == n
    return out


def run_globals(code):
    out, out2 = np.zeros(128, np.float32), np.zeros(128, np.int32)
    aster.launch(code, "globals", (1, 1, 1), (128, 1, 1), [out, out2])
    t = np.arange(128)
    np.testing.assert_array_equal(out, (t % 8 + 1) + 128.0)
    np.testing.assert_array_equal(out2, 10 * (t % 3 + 1))


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("src", [TABLE, GLOBALS], ids=["globals_table", "globals"])
def test_raised_globals_round_trip_and_run(hip_hsaco, src, arch):
    h = hip_hsaco(src, arch=arch)
    asm = hip_hsaco(src, arch=arch, flags=("-S",)).decode()
    run = run_lookup if src == TABLE else run_globals
    run(h)                                             # clang's code object
    for how, m in (("raise_code_object", aster.raise_code_object(h)),
                   ("raise_asm", aster.raise_asm(asm))):
        text = m.mlir()
        assert "amdgcn.global @" in text and "amdgcn.reloc @" in text, how
        out = aster.compile(m)
        diff = elf_facts.differences(h, out.hsaco, image=True)
        assert not diff, f"{src.stem} ({arch}) {how}: the round trip changed the {', '.join(diff)}"
        run(out.hsaco)


def test_raised_globals_ir(hip_hsaco):
    """globals.hip's variables as raised from the code object: sections,
    linkage, the pointer table's relocations, the GOT-free references."""
    text = aster.raise_code_object(hip_hsaco(GLOBALS)).mlir()
    assert 'amdgcn.global @table {alignment = 16 : i64, bytes = 32 : i64' in text
    assert 'section = ".data"' in text and 'section = ".bss"' in text
    assert "{offset = 0 : i64, symbol = @a0}" in text and "{offset = 8 : i64, symbol = @a1}" in text
    assert 'amdgcn.reloc @gcount "rel32@lo" 4' in text
    assert 'amdgcn.reloc @ptrs "rel32@hi" 12' in text
    text = aster.raise_code_object(hip_hsaco(TABLE)).mlir()
    assert 'amdgcn.reloc @scale "gotpcrel32@lo" 4' in text      # default visibility: via the GOT
    assert 'linkage = "default"' in text and "constant" in text
    assert "{addend = 32 : i64, offset = 8 : i64, symbol = @lut}" in text


def test_edited_kernel_keeps_its_addresses(hip_hsaco):
    """Code inserted at the kernel's start moves every instruction: clang's
    literal PC offsets would now be wrong, the raised symbolic ones are
    rewritten by the linker, and the kernel still computes the same."""
    for arch in ARCHS:
        m = aster.raise_code_object(hip_hsaco(TABLE, arch=arch))
        k = m.kernels[0]
        adds = [op.operands[1] for op in k.ops if op.name == "s_add_u32"]
        assert "lut@rel32@lo+4" in adds and "scale@gotpcrel32@lo+4" in adds
        with k.insert_before(k.ops[0]):
            for _ in range(3):
                k.s_nop(0)
        out = aster.compile(m)
        h = hip_hsaco(TABLE, arch=arch)
        assert len(elf_facts.text_bytes(out.hsaco)) != len(elf_facts.text_bytes(h)) or \
            elf_facts.text_bytes(out.hsaco) != elf_facts.text_bytes(h)
        run_lookup(out.hsaco)


def test_edited_global_data(hip_hsaco):
    """A raised global's data changed in the IR changes what the kernel reads."""
    h = hip_hsaco(TABLE)
    text = aster.raise_code_object(h).mlir()
    # lut's first word 0.5f (0x3f000000) becomes 100.0f (0x42c80000).
    assert "1056964608" in text
    m = aster.parse(text.replace("1056964608", "1120403456", 1))
    idx = np.zeros(64, np.int32)                     # every lane reads lut[0] * scale[0] + lut[0]
    out, counts = np.zeros(64, np.float32), np.zeros(9, np.int32)
    aster.launch(aster.compile(m).hsaco, "lookup", (1, 1, 1), (64, 1, 1),
                 [idx, out, counts, np.int32(64)])
    np.testing.assert_array_equal(out, np.full(64, 200.0, np.float32))


def test_builder_global_data_and_address():
    """m.global_data + k.global_address: a constant table and a counter
    built from Python; the kernel reads table[lane % 8] and counts the lanes
    with an atomic, on the emulator, against NumPy."""
    for arch in ARCHS:
        m = aster.Module(arch)
        table = np.array([3.0, 1.0, 4.0, 1.5, 5.0, 9.0, 2.5, 6.0], np.float32)
        tab = m.global_data("table", table, constant=True)
        cnt = m.global_data("count", nbytes=4)
        assert tab.section == ".rodata" and cnt.section == ".bss"
        k = m.kernel("k", args=[("out", aster.ptr(np.float32)), ("n", aster.ptr(np.int32))],
                     block=(64, 1, 1))
        k.s_load_dwordx4(s[4:8], s[0:2], 0)
        k.v_and_b32(v[1], 7, v[0])
        k.v_lshlrev_b32(v[1], 2, v[1])
        k.global_address(s[8:10], tab)
        k.global_load_dword(v[2], v[1], s[8:10])
        k.global_address(s[10:12], "count")
        k.v_mov_b32(v[3], 0)
        k.v_mov_b32(v[4], 1)
        k.global_atomic_add(v[3], v[4], s[10:12])
        k.s_waitcnt(vmcnt=0, lgkmcnt=0)
        k.v_lshlrev_b32(v[5], 2, v[0])
        k.global_store_dword(v[5], v[2], s[4:6])
        k.s_barrier()
        k.global_load_dword(v[6], v[3], s[10:12], sc1=True)
        k.s_waitcnt(vmcnt=0)
        k.global_store_dword(v[3], v[6], s[6:8])
        k.s_endpgm()
        text = m.mlir()
        assert "amdgcn.global @table" in text and '"rel32@lo" 4' in text
        code = aster.compile(m)
        assert "table@rel32@lo+4" in code.asm and "count@rel32@hi+12" in code.asm
        out, n = np.zeros(64, np.float32), np.zeros(1, np.int32)
        aster.launch(code.hsaco, "k", (1, 1, 1), (64, 1, 1), [out, n])
        np.testing.assert_array_equal(out, table[np.arange(64) % 8])
        assert n[0] == 64
        # The code object holds the table, as llvm-readelf reads it.
        syms = elf_facts.dynamic_symbols(code.hsaco)
        assert syms["table"][1] == 32 and syms["table"][2] == "OBJECT"
        data = elf_facts.data_sections(code.hsaco)
        assert table.tobytes() in data[".rodata"]


def test_bad_globals_and_relocs():
    m = aster.Module("gfx942")
    with pytest.raises(aster.AsterError, match="is constant but its section '.data' is writable"):
        m.global_data("t", np.ones(4, np.float32), constant=True, section=".data")
    with pytest.raises(aster.AsterError, match="alignment 3 is not a power of two"):
        m.global_data("u", np.ones(4, np.float32), align=3)
    with pytest.raises(ValueError, match="not a symbol with a kind"):
        aster.Reloc("t", "rel64")
    k = m.kernel("k")
    with pytest.raises(aster.AsterError, match="cannot take a relocation"):
        k.v_add_u32(v[0], v[1], aster.Reloc("k", "rel32@lo", 4))
    text = """amdgcn.module @m target("gfx942") {
      amdgcn.kernel @k() {
        %0 = amdgcn.reloc @nowhere "rel32@lo" 4 : i32
        %s = amdgcn.reg : !amdgcn.sgpr<4>
        %d = amdgcn.s_add_u32 %s, %0 : (!amdgcn.sgpr<4>, i32) -> !amdgcn.sgpr<4>
        amdgcn.s_endpgm
      }
    }"""
    with pytest.raises(aster.AsterError, match="names @nowhere, which is no global"):
        aster.parse(text).verify()


def test_raise_asm_external_symbol_is_an_error():
    """A relocation to a symbol the text does not define (an external one):
    an error naming it, not a code object with an undefined symbol."""
    text = ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.text\nk:\n"
            "\ts_getpc_b64 s[4:5]\n\ts_add_u32 s4, s4, ext@rel32@lo+4\n"
            "\ts_addc_u32 s5, s5, ext@rel32@hi+12\n\ts_endpgm\n")
    with pytest.raises(aster.AsterError, match=r"k: ext@rel32@lo\+4 names a symbol the code "
                                               r"defines nowhere"):
        aster.raise_asm(text)


def test_raise_asm_data_directives():
    """Data directives of hand-written assembly: strings, zero fill, short
    values, a pointer with an addend; the code object holds those bytes."""
    text = ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.text\n\t.globl k\nk:\n"
            "\ts_getpc_b64 s[4:5]\n\ts_add_u32 s4, s4, msg@rel32@lo+4\n"
            "\ts_addc_u32 s5, s5, msg@rel32@hi+12\n\ts_endpgm\n"
            "\t.section .rodata.str,\"a\",@progbits\n\t.protected msg\n\t.globl msg\nmsg:\n\t.asciz \"hi\\n\"\n"
            "\t.short 0x1234\n\t.zero 3\n\t.size msg, 9\n"
            "\t.data\n\t.p2align 3\n\t.globl p\np:\n\t.quad msg+2\n")
    m = aster.raise_asm(text)
    ir = m.mlir()
    assert 'amdgcn.global @msg' in ir and 'section = ".rodata.str"' in ir
    assert "{addend = 2 : i64, offset = 0 : i64, symbol = @msg}" in ir
    h = aster.compile(m).hsaco
    assert b"hi\n\x00\x34\x12\x00\x00\x00" in elf_facts.data_sections(h)[".rodata"]
    assert any(r[1] == "R_AMDGPU_RELATIVE64" for r in elf_facts.dynamic_relocations(h))


def test_deep_metadata_yaml_is_an_error():
    """Metadata YAML nested 50000 deep (which overflowed the stack of LLVM's
    YAML reader, found by fuzzing raise_asm): an error, not a crash."""
    for doc in ("[" * 50000 + "]" * 50000, "- " * 50000 + "x", " " * 600 + "a: 1"):
        text = ("\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\t.amdgpu_metadata\n---\n"
                "amdhsa.kernels: " + doc + "\n...\n\t.end_amdgpu_metadata\n")
        with pytest.raises(aster.AsterError, match="nests too deep|cannot read|metadata"):
            aster.raise_asm(text)
