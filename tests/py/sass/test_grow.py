"""Sections that grow: insertions past a kernel's trailing NOP padding grow its
`.text.<name>` section (python/aster/sass/layout.py), and edits that change the
number of EXITs grow `.nv.info.<name>`.
Oracles (not ours): LLVM's ELF reader (llvm-readelf-22 must read the grown cubin
without a warning and report the sizes asserted here) and the cubins ptxas wrote
(every section but the edited ones keeps ptxas's bytes; the re-raised instruction
list equals the edited one, branch targets compared by instruction index).
A grown kernel of each kind ran NumPy-correct on an H100 (docs/sass.md).
"""
import subprocess
import tempfile

import pytest
from elftools.elf.elffile import ELFFile
import io

from aster import sass
from aster.sass import nvinfo

from sass_corpus import files


def _listing(k):
    """(text with branch targets as instruction indices, control bits), padding NOPs dropped."""
    pos = {id(x): i for i, x in enumerate(k.insts)}
    where = {n: (pos[id(t)] if t is not None else len(k.insts)) for n, t in k.labels.items()}
    out = []
    for x in k.insts:
        t = x.text
        for n, i in where.items():
            t = t.replace(f'`({n})', f'`(@{i})')
        out.append((t, x.ctrl))
    while out and out[-1][0] == 'NOP':
        out.pop()
    return out


def _sections(data):
    e = ELFFile(io.BytesIO(data))
    return {s.name: (s.header.sh_size, s.data() if s.header.sh_type != 'SHT_NOBITS' else b'')
            for s in e.iter_sections()}


def _readelf(data):
    with tempfile.NamedTemporaryFile(suffix='.cubin') as f:
        f.write(data)
        f.flush()
        r = subprocess.run(['llvm-readelf-22', '-S', '-l', '-s', '--wide', f.name],
                           capture_output=True, text=True)
    assert r.returncode == 0 and not r.stderr, r.stderr
    return r.stdout


@pytest.mark.parametrize('stem,grow', [('i32_mul_stride', 1), ('f32_add_flat', 100),
                                       ('u32_sad', 100)])
def test_growth_moves_what_follows(stem, grow):
    data = files('own')[stem]['cubin']
    m = sass.raise_cubin(data)
    k = m.kernels[stem]
    pad = 0
    while k.insts[-1 - pad].text == 'NOP':
        pad += 1
    for _ in range(pad + grow):       # `grow` instructions more than the section holds
        k.insert(1, 'IMAD.MOV.U32 R14, RZ, RZ, 0x7', sass.barriers.conservative())
    want = _listing(k)
    out = m.cubin()
    n_new = len(k.insts) - pad + 0   # instructions before padding to 128 bytes
    size = -(-(len(want)) * 16 // 128) * 128
    m2 = sass.raise_cubin(out)
    k2 = m2.kernels[stem]
    assert k2.size == size > k.size - 16 * (pad + grow)
    assert _listing(k2) == want
    # EXIT offsets name the EXITs of the grown code
    info = nvinfo.parse(m2._bytes(m2.by_name['.nv.info.' + stem]))
    exits = [r for r in info if r.name == 'EXIT_INSTR_OFFSETS'][0]
    import struct
    got = list(struct.unpack(f'<{exits.size // 4}I', exits.value))
    assert got == [i * 16 for i, x in enumerate(k2.insts) if x.text.endswith('EXIT')]
    # every section but the code, its offset lists / relocations and the symbol
    # table (the kernel's st_size) and .nv.info (REGCOUNT, raised for R14) keeps ptxas's bytes; the kernel symbol covers the code
    before, after = _sections(data), _sections(out)
    for name, (sz, b) in before.items():
        if name not in ('.text.' + stem, '.symtab', '.nv.info', '.nv.info.' + stem, '.rela.text.' + stem):
            assert after[name] == (sz, b), name
    assert after['.text.' + stem][0] == size
    text = _readelf(out)
    line = [x for x in text.splitlines() if x.rstrip().endswith(' ' + stem) and 'FUNC' in x][0]
    assert int(line.split()[2]) == size
    assert n_new > 0


def test_exit_count_change_grows_nv_info():
    stem = 'f32_add_flat'
    data = files('own')[stem]['cubin']
    m = sass.raise_cubin(data)
    k = m.kernels[stem]
    k.insert(1, '@!PT EXIT', sass.barriers.conservative())    # a never-taken extra EXIT
    k.insert(3, '@!PT EXIT', sass.barriers.conservative())
    out = m.cubin()
    m2 = sass.raise_cubin(out)
    k2 = m2.kernels[stem]
    assert _listing(k2) == _listing(k)
    sec = m2.by_name['.nv.info.' + stem]
    old = m.by_name['.nv.info.' + stem]
    assert sec['size'] == old['size'] + 8
    exits = [r for r in nvinfo.parse(m2._bytes(sec)) if r.name == 'EXIT_INSTR_OFFSETS'][0]
    import struct
    offs = list(struct.unpack(f'<{exits.size // 4}I', exits.value))
    assert offs == [i * 16 for i, x in enumerate(k2.insts) if x.text.endswith('EXIT')]
    assert len(offs) == 2 + len([x for x in sass.raise_cubin(data).kernels[stem].insts
                                 if x.text.endswith('EXIT')])
    # the records after it are ptxas's (moved, not changed)
    names_old = [r.name for r in nvinfo.parse(m._bytes(old))]
    names_new = [r.name for r in nvinfo.parse(m2._bytes(sec))]
    assert names_old == names_new
    _readelf(out)


@pytest.mark.parametrize('via_mlir', [False, True])
def test_offset_lists_follow_their_instructions(via_mlir):
    """INT_WARP_WIDE_INSTR_OFFSETS (ptxas's list of the instructions it names) still
    names the same instructions after 20 insertions before them grow the kernel,
    also through the MLIR dialect (`sass.pc` on those ops)."""
    stem = 'atomic_add_i32'
    data = files('own')[stem]['cubin']

    def named(m):
        k = m.kernels[stem]
        rec = [r for r in nvinfo.parse(m._bytes(m.by_name['.nv.info.' + stem]))
               if r.name == 'INT_WARP_WIDE_INSTR_OFFSETS'][0]
        import struct
        return [k.insts[o // 16].text for o in struct.unpack(f'<{rec.size // 4}I', rec.value)]
    m = sass.raise_cubin(data)
    want = named(m)
    assert want and all(t is not None and t != 'NOP' for t in want)
    k = m.kernels[stem]
    for _ in range(20):
        k.insert(1, 'IMAD.MOV.U32 R14, RZ, RZ, 0x7', sass.barriers.conservative())
    if via_mlir:
        m = sass.from_mlir(sass.to_mlir(m))
    out = m.cubin()
    assert len(out) > len(data)
    assert named(sass.raise_cubin(out)) == want
