"""A raised cubin as an MLIR module of the `sass` dialect, and back.

    text = sass.to_mlir(m)
    m2 = sass.from_mlir(text)         # parsed and verified by the dialect (C++)
    assert m2.cubin() == m.cubin()    # byte-exact for unedited modules

The module: `sass.kernel @name` per kernel (attributes `params` [ordinal,
offset, size] from `.nv.info.<name>`, `constant_banks`, `regcount`), its code
as blocks of instruction ops (cc/dialect/sass: ops generated from table.json,
printed as nvdisasm's text with the control bits first; branch targets are
block successors); the instructions relocations or `.nv.info` offset lists name
carry `sass.pc` (their offset in the cubin, followed to their new place).  The
builtin module holds `sass.elf`: the cubin with its code sections zeroed
(zlib + base64) -- everything but the code, which comes back from the ops.
Encoding: the dialect's ops are turned back into instruction text by the
dialect's printer (formatInst) and encoded by table.py, the one encoder,
checked against all 139,680 corpus instructions; a second encoder in C++ would
be a second copy of the same facts.  `regcount` is written back when edited.
Needs: aster._aster (the compiled dialect).  Guarantees: from_mlir(to_mlir(m))
gives m's cubin bytes for every module whose cubin() equals its input
(tests/py/sass/test_mlir.py on a fixed sample, `make sass-corpus` on all);
text that does not parse or verify raises AsterError with its location.
"""
import base64
import re
import zlib

from . import control
from .cubin import Instruction, Module
from .errors import SassError

_LABEL = re.compile(r'`\(([^)]+)\)')


def _zeroed(m):
    out = bytearray(m.data)
    for k in m.kernels.values():
        s = k._sec
        out[s['offset']:s['offset'] + s['size']] = bytes(s['size'])
    return bytes(out)


def _mlir_str(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def to_mlir(m):
    """MLIR text (verified) of a raised module."""
    from .. import _aster
    blob = base64.b64encode(zlib.compress(_zeroed(m), 9)).decode()
    mattrs = f'{{sass.elf = "{blob}", sass.sm = {m.sm} : i64}}'
    kernels = []
    for k in m.kernels.values():
        where = {id(x): i for i, x in enumerate(k.insts)}
        targets = {n: (where[id(t)] if t is not None else len(k.insts)) for n, t in k.labels.items()
                   if t is None or id(t) in where}
        refs = m.referenced_offsets(k) if m.data else set()
        insts = []
        for x in k.insts:
            pc = x.pc if x.pc is not None and x.pc in refs else -1
            ctrl = x.ctrl.pack() >> control.SHIFT
            if x.text is None:
                insts.append(('', 0, -1, f'0x{x.word:032x}', pc))
                continue
            lab = _LABEL.search(x.text)
            tgt = -1
            if lab:
                if lab.group(1) not in targets:
                    raise SassError(f'{k.name}: branch target {lab.group(1)!r} is not a label')
                tgt = targets[lab.group(1)]
            insts.append((x.text, ctrl, tgt, '', pc))
        params = ', '.join(f'array<i64: {o}, {off}, {sz}>' for o, off, sz in k.params)
        banks = sorted(int(s['name'][len('.nv.constant'):].split('.')[0]) for s in m.sections
                       if s['name'].startswith('.nv.constant') and s['name'].endswith('.' + k.name))
        attrs = [f'params = [{params}]', f'constant_banks = array<i64: {", ".join(map(str, banks))}>']
        rc = m.regcount(k.name)
        if rc is not None:
            attrs.append(f'regcount = {rc} : i64')
        kernels.append((k.name, '{' + ', '.join(attrs) + '}', insts))
    return _aster.sass_build(mattrs, kernels)


def from_mlir(text, name='<string>'):
    """A Module from MLIR text of the sass dialect (parsed and verified in C++)."""
    from .. import _aster
    mattrs, kernels = _aster.sass_read(text, name)
    if 'sass.elf' not in mattrs:
        raise SassError('sass module: no `sass.elf` attribute (the cubin around the code)')
    m = Module(zlib.decompress(base64.b64decode(mattrs['sass.elf'])), decode=False)
    for kname, kattrs, insts in kernels:
        k = m.kernels.get(kname)
        if k is None:
            raise SassError(f'sass module: kernel {kname!r} is not in the cubin of `sass.elf`')
        k.insts = []
        for text_, ctrl, tgt, raw, pc in insts:
            if raw:
                w = int(raw, 16)
                k.insts.append(Instruction(None, control.unpack(w), w, pc=pc if pc >= 0 else None))
            else:
                k.insts.append(Instruction(text_, control.unpack(ctrl << control.SHIFT),
                                           pc=pc if pc >= 0 else None))
        n = len(k.insts)
        k.labels = {}
        for x in k.insts:
            lab = x.text and _LABEL.search(x.text)
            if lab:
                i = int(lab.group(1).rsplit('_', 1)[1])
                k.labels[lab.group(1)] = k.insts[i] if i < n else None
        k.edited = True
        rc = kattrs.get('regcount')
        if rc is not None and rc != m.regcount(kname):
            m.set_regcount(kname, rc)
    return m


def _module_mlir(self):
    """This module as MLIR text of the `sass` dialect (to_mlir)."""
    return to_mlir(self)


# Module.mlir() is defined here, above cubin.py (which must not import this
# module back); aster.sass imports this module, so every Module has it.
Module.mlir = _module_mlir
