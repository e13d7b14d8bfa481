"""raise_cubin / Module.cubin: byte-exact round trips of the corpus cubins, .nv.info
records named as nvdisasm names them, and edits that re-encode and fix the ELF.
Oracles: the cubins ptxas wrote and nvdisasm's annotated text of them (sass_corpus.py);
the edits are the ones that ran NumPy-correct on an H100 (tools/sass/device_edits.py)."""
import os
import re
import struct
import sys

import pytest

from aster import sass
from aster.sass import nvinfo

from sass_corpus import files, sample

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', '..', 'tools', 'sass'))
import device_edits  # noqa: E402


@pytest.mark.parametrize('which,step', [('own', 4), ('torch', 24)])
def test_corpus_cubins_round_trip_byte_exact(which, step):
    stems = sample(which, step)
    for s in stems:
        data = files(which)[s]['cubin']
        m = sass.raise_cubin(data)
        assert all(x.text is not None for k in m.kernels.values() for x in k.insts), s
        assert m.cubin() == data, s


def test_nv_info_records_are_nvdisasm_attributes():
    """Our record codes -> names equal nvdisasm's `//----- nvinfo : EIATTR_X` lines."""
    for s in sample('own', 10):
        f = files('own')[s]
        m = sass.raise_cubin(f['cubin'])
        for sec in m.sections:
            if not sec['name'].startswith('.nv.info'):
                continue
            ours = ['EIATTR_' + r.name for r in nvinfo.parse(m._bytes(sec))]
            part = f['sass'].split(f'.section\t{sec["name"]},')[1].split('//------')[0]
            theirs = re.findall(r'nvinfo : (EIATTR_\w+)', part)
            assert ours == theirs, (s, sec['name'])


def test_params_regcount_and_constant_bank():
    m = sass.raise_cubin(files('own')['f32_add_flat']['cubin'])
    k = m.kernels['f32_add_flat']
    assert k.params == [(0, 0, 8), (1, 8, 8), (2, 16, 8), (3, 24, 4)]   # a, b, o, n
    assert m.regcount('f32_add_flat') == 12       # nvdisasm: EIATTR_REGCOUNT 0x0000000c
    assert len(m.constant_bank('f32_add_flat')) == 0x210 + 28
    assert '.L_x_' in k.asm() and 'EXIT' in k.asm()


def _exits(m, name):
    sec = m.by_name['.nv.info.' + name]
    r = [r for r in nvinfo.parse(m._bytes(sec)) if r.name == 'EXIT_INSTR_OFFSETS'][0]
    return list(struct.unpack(f'<{r.size // 4}I', r.value))


IN_PLACE = [s for s in sorted(device_edits.EDITS) + sorted(device_edits.BUILT)
            if not s.endswith(('grow100', 'grow_loop', 'extra_exit'))]   # those grow: test_grow.py


@pytest.mark.parametrize('stem', IN_PLACE)
def test_edits_re_encode_and_fix_attributes(stem):
    fn, base, _ = {**device_edits.EDITS, **device_edits.BUILT}[stem]
    data = files('own')[base]['cubin']
    m = sass.raise_cubin(data)
    fn(m, sass)
    out = m.cubin()
    assert len(out) == len(data) and out != data
    back = sass.raise_cubin(out)
    k = back.kernels[base]
    exits = [i * 16 for i, x in enumerate(k.insts) if re.match(r'(@!?P\d )?EXIT', x.text)]
    assert _exits(back, base) == exits
    # only the kernel's code and its attribute sections changed
    text = back.by_name['.text.' + base]
    changed = [i for i in range(len(data)) if data[i] != out[i]]
    allowed = [(s['offset'], s['offset'] + s['size']) for s in back.sections
               if s['name'] in ('.text.' + base, '.nv.info.' + base, '.nv.info')]
    assert all(any(a <= i < b for a, b in allowed) for i in changed)
    assert text['size'] == m.kernels[base].size
    if 'registers' in stem and 'low' not in stem:
        assert back.regcount(base) == 48
    if stem.endswith('shift_loop'):
        bra = [x for x in k.insts if 'BRA' in x.text and x.text.startswith('@')][0]
        assert k.labels[bra.text.split('`(')[1][:-1]] is k.insts[15]   # loop head moved by one


def test_bad_input_raises():
    """(Insertions past the NOP padding grow the section: test_grow.py.)"""
    m = sass.raise_cubin(files('own')['i32_add_flat']['cubin'])
    k = m.kernels['i32_add_flat']
    with pytest.raises(sass.SassError, match='not in the sm_90a table'):
        k.set(2, 'FROB R1, R2')
    with pytest.raises(sass.SassError):
        sass.raise_cubin(b'\x7fELF' + b'\0' * 60)
    with pytest.raises(sass.SassError):
        sass.raise_cubin('not bytes')


def _nvdisasm_of_edits():
    """nvdisasm 13.0's text and low 64 bits of the edited cubins of the H100 run
    (corpus/edits_nvdisasm.txt, from tools/sass/run_all.sh)."""
    out, cur = {}, None
    path = os.path.join(os.path.dirname(__file__), 'corpus', 'edits_nvdisasm.txt')
    for line in open(path):
        if line.startswith('== '):
            cur = out.setdefault(line[3:].strip()[:-6], [])
            continue
        m = re.match(r'\s*/\*([0-9a-f]+)\*/\s+(.*?)\s*;?\s*/\* 0x([0-9a-f]{16}) \*/', line)
        if m:
            cur.append((int(m.group(1), 16), m.group(2).rstrip(' ;'), int(m.group(3), 16)))
    return out


@pytest.mark.parametrize('stem', sorted(device_edits.EDITS))
def test_nvdisasm_reads_our_edits_as_written(stem):
    """The bits aster writes for each edit are what nvdisasm disassembled in the H100 run,
    and nvdisasm's text of them is the text the edit asked for."""
    fn, base, _ = device_edits.EDITS[stem]
    m = sass.raise_cubin(files('own')[base]['cubin'])
    fn(m, sass)
    k = sass.raise_cubin(m.cubin()).kernels[base]
    theirs = _nvdisasm_of_edits()[stem]
    assert len(theirs) == len(k.insts)
    for (off, txt, lo), x in zip(theirs, k.insts):
        assert lo == x.word & ((1 << 64) - 1), (off, txt, x.text)
    wanted = {'imm_int': 'IADD3 R7, R2, 0x1234, RZ', 'imm_float': 'FFMA R9, R2, -2.25, R5',
              'opcode': 'FMUL R9, R4, R3', 'shift_loop': 'IMAD.MOV.U32 R14, RZ, RZ, 0x7',
              'more_registers': 'IMAD.MOV.U32 R9, RZ, RZ, R40'}
    for tag, text in wanted.items():
        if stem.endswith('__' + tag):
            assert text in [t for _, t, _ in theirs]
