"""SASS instruction text -> table key and operand field values (and back for printing).

An instruction's text as nvdisasm prints it, e.g.
    @!P0 IMAD.WIDE R2, R5, 0x4, R2.reuse
splits into a guard (predicate index, negation), an opcode with its modifiers
(`IMAD.WIDE`), and operands.  Each operand becomes a *kind* (its text with every
register index and number replaced by `%` and a class name: `R`, `UR`, `P`, `UP`, `B`,
`SB` registers; `I` hex integers; `D` decimal numbers (integers, or
integral floats in float instructions); `F` floating-point literals; `L` branch targets)
and a list of field values in order.  The key `OPCODE kind,kind,...` names one
row of the instruction table (aster/sass/table.py); the values fill its fields.
Named registers are indices: RZ = R255, URZ = UR63, PT = P7, UPT = UP7
(sm_90 encodings, checked by the table generator against nvdisasm's words).
`.reuse` flags are not part of the key: they are control bits (control.py).
Needs: text of one instruction.  Guarantees: tokenize(text) -> Inst whose
`fields` are (class, value) with ints, floats kept as text for the table's
conversion; `labels` resolves `(.L_x_N) targets to offsets relative to pc+16.
"""
import re

from .errors import SassError

_GUARD = re.compile(r'^@(!?)(U?P)(\d|T)\s+')
_TOKEN = re.compile(
    r'`\((?P<label>[^)]+)\)'
    r'|(?<![\w.])(?P<reg>UR|UP|SB|R|P|B)(?P<idx>\d+|Z|T)(?!\w)'
    r'|(?<![\w.])(?P<hex>-?0x[0-9a-fA-F]+)(?!\w)'
    r'|(?<![\w.])(?P<flt>[-+]?(?:\d+\.\d*(?:e[-+]?\d+)?|\d+e[-+]?\d+|INF|QNAN|NAN))(?![\w])'
    r'|(?<![\w.])(?P<dec>-?\d+)(?![\w.])')
_NAMED = {('R', 'Z'): 255, ('UR', 'Z'): 63, ('P', 'T'): 7, ('UP', 'T'): 7}


class Inst:
    """One tokenized instruction: key (opcode + operand kinds), fields, reuse flags."""
    __slots__ = ('opcode', 'kinds', 'fields', 'reuse', 'text')

    def __init__(self, opcode, kinds, fields, reuse, text):
        self.opcode, self.kinds, self.fields, self.reuse, self.text = opcode, kinds, fields, reuse, text

    @property
    def key(self):
        return self.opcode + ' ' + ','.join(self.kinds)

    def values(self):
        return [v for _, v in self.fields]


def split_operands(s):
    out, depth, cur = [], 0, ''
    for ch in s:
        if ch in '[{(':
            depth += 1
        elif ch in ']})':
            depth -= 1
        if ch == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def tokenize(text, pc=None, labels=None):
    """Parse one instruction; branch targets need pc and labels ({name: offset})."""
    t = text.strip()
    if t.endswith(';'):
        t = t[:-1].rstrip()
    fields = []
    m = _GUARD.match(t)
    if m:
        cls = m.group(2)
        idx = 7 if m.group(3) == 'T' else int(m.group(3))
        fields += [('G' if cls == 'P' else 'UG', idx), ('Gn', 1 if m.group(1) else 0)]
        t = t[m.end():]
        gkind = ['@%' + cls]
    else:
        fields += [('G', 7), ('Gn', 0)]
        gkind = []
    parts = t.split(None, 1)
    if not parts:
        raise SassError(f'empty SASS instruction: {text!r}')
    opcode = parts[0]
    ops = split_operands(parts[1]) if len(parts) > 1 else []
    kinds, reuse = list(gkind), []
    for i, op in enumerate(ops):
        if '.reuse' in op:
            reuse.append(i)
            op = op.replace('.reuse', '')
        kind, pos = '', 0
        for mt in _TOKEN.finditer(op):
            kind += op[pos:mt.start()]
            pos = mt.end()
            if mt.group('label'):
                name = mt.group('label')
                if labels is None or name not in labels or pc is None:
                    raise SassError(f'branch target {name!r} of {text!r} is not a known label')
                kind += '%L'
                fields.append(('L', labels[name] - (pc + 16)))
            elif mt.group('reg'):
                cls, idx = mt.group('reg'), mt.group('idx')
                v = _NAMED.get((cls, idx)) if not idx.isdigit() else int(idx)
                if v is None:
                    raise SassError(f'unknown register {cls}{idx} in {text!r}')
                kind += '%' + cls
                fields.append((cls, v))
            elif mt.group('hex'):
                kind += '%I'
                fields.append(('I', int(mt.group('hex'), 16)))
            elif mt.group('flt'):
                kind += '%F'
                fields.append(('F', mt.group('flt')))
            else:
                kind += '%D'
                fields.append(('D', int(mt.group('dec'))))
        kind += op[pos:]
        kinds.append(kind)
    return Inst(opcode, kinds, fields, tuple(reuse), text)
