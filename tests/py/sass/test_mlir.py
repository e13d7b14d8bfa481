"""The `sass` MLIR dialect (cc/dialect/sass, ops generated from table.json): a raised
cubin printed as MLIR, parsed and verified by the dialect, and written back.
Oracles: the cubins ptxas wrote (byte-exact after raise -> MLIR text -> parse ->
cubin) and nvdisasm 13.0's text of them (an op prints the instruction as nvdisasm
did, sass_corpus.py); edits made in the MLIR text land where the text says.
"""
import re

import pytest

import aster
from aster import sass

from sass_corpus import files, sample


@pytest.mark.parametrize('which,step', [('own', 8), ('torch', 28)])
def test_corpus_through_mlir_byte_exact(which, step):
    for s in sample(which, step):
        data = files(which)[s]['cubin']
        m = sass.raise_cubin(data)
        text = sass.to_mlir(m)
        assert text.count('sass.kernel @') == len(m.kernels)
        m2 = sass.from_mlir(text)
        assert m2.cubin() == data, s


def test_ops_print_nvdisasm_text():
    """Each op's text is nvdisasm's line for the instruction (same words: the
    letters differ only where table.py's decoder spells it differently)."""
    f = files('own')['f32_axpy_c1']
    m = sass.raise_cubin(f['cubin'])
    text = m.mlir()
    ops = re.findall(r'sass\.[A-Z0-9_]+ "\[[^\]]*\] ([^"]*)"', text)
    k = m.kernels['f32_axpy_c1']
    want = [x.text for x in k.insts]
    assert ops == [re.sub(r' ?,? ?`\([^)]*\)', '', t) for t in want]
    for t in ops:
        if t.startswith(('IMAD', 'FFMA', 'LDG', 'STG', 'EXIT')):
            assert t in f['sass'], t


def test_edit_in_mlir_text():
    """Change an immediate and insert an op in the text: the cubin has them."""
    data = files('own')['f32_axpy_c1']['cubin']
    text = sass.raise_cubin(data).mlir()
    assert text.count('FFMA R') >= 1 and ', 1.5, ' in text
    text = text.replace(', 1.5, ', ', -2.25, ', 1)
    line = next(x for x in text.splitlines() if '-2.25' in x)
    text = text.replace(line, line + '\n    sass.FADD "[B------:R-:W-:Y:S04] FADD R9, R9, 1"', 1)
    m2 = sass.raise_cubin(sass.from_mlir(text).cubin())
    texts = [x.text for x in m2.kernels['f32_axpy_c1'].insts]
    i = next(i for i, t in enumerate(texts) if '-2.25' in t)
    assert texts[i + 1] == 'FADD R9, R9, 1'


def test_grown_kernel_through_mlir():
    data = files('own')['i32_mul_stride']['cubin']
    m = sass.raise_cubin(data)
    k = m.kernels['i32_mul_stride']
    for _ in range(40):
        k.insert(1, 'IMAD.MOV.U32 R14, RZ, RZ, 0x7', sass.barriers.conservative())
    direct = m.cubin()
    assert len(direct) > len(data)
    assert sass.from_mlir(sass.to_mlir(m)).cubin() == direct


def test_bad_mlir_raises_with_location():
    data = files('own')['f32_axpy_c1']['cubin']
    text = sass.raise_cubin(data).mlir()
    bad = text.replace(', 1.5, ', ', R300, ', 1)
    with pytest.raises(aster.AsterError, match=r'<string>:\d+:\d+: .*does not fit 8 bits'):
        sass.from_mlir(bad)
    with pytest.raises(aster.AsterError, match='not a row of the sm_90a SASS table'):
        sass.from_mlir(text.replace('FFMA R', 'FFMA.FROB R', 1))


def test_checked_in_mlir_gives_ptxas_cubin():
    """tests/lit/sass/raised-kernel.mlir (what to_mlir printed) parses back to
    ptxas's cubin, and to_mlir still prints that module (the compressed ELF
    attribute aside: zlib's bytes may differ between zlib builds)."""
    import os
    path = os.path.join(os.path.dirname(__file__), '..', '..', 'lit', 'sass', 'raised-kernel.mlir')
    text = open(path).read()
    data = files('own')['f32_add_flat']['cubin']
    assert sass.from_mlir(text, 'raised-kernel.mlir').cubin() == data
    body = ''.join(line for line in text.splitlines(True) if not line.startswith('//'))
    def blob(t):
        return re.sub(r'sass\.elf = "[^"]*"', 'sass.elf = ...', t)
    assert blob(sass.raise_cubin(data).mlir()) == blob(body.lstrip('\n'))
