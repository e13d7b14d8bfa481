"""Read `nvdisasm -hex` output: per code section, the instructions with their 128-bit words.

nvdisasm (NVIDIA's disassembler, the oracle) prints each instruction as
    /*0040*/   @!P0 IMAD R9, R9, UR4, R0 ;   /* 0x0000000409097c24 */
                                              /* 0x000fe2000f8e0200 */
the first word holding bits 0-63 and the second bits 64-127.  Labels are
lines `.L_x_N:`.  Needs: text of `nvdisasm -hex FILE.cubin`.  Guarantees:
sections in file order; every instruction has offset, text (without the
trailing ';') and word (int, 128 bits); labels map name -> offset.
"""
import re

_SECTION = re.compile(r'^\s*\.section\s+(\.text\.[^,\s]+)')
_INST = re.compile(r'^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*/\* 0x([0-9a-f]{16}) \*/\s*$')
_HI = re.compile(r'^\s*/\* 0x([0-9a-f]{16}) \*/\s*$')
_LABEL = re.compile(r'^(\.L_[\w]+|[A-Za-z_$][\w$.]*):\s*$')


def parse(text):
    """Returns {section name: {'insts': [(offset, text, word)], 'labels': {name: offset}}}."""
    out = {}
    cur = None
    pending = None
    pending_labels = []
    for line in text.splitlines():
        m = _SECTION.match(line)
        if m:
            cur = out.setdefault(m.group(1), {'insts': [], 'labels': {}})
            pending_labels = []
            continue
        if cur is None:
            continue
        if pending is not None:
            h = _HI.match(line)
            if not h:
                raise ValueError(f'nvdisasm text: no second word after {pending[1]!r}')
            off, txt, lo = pending
            cur['insts'].append((off, txt, int(h.group(1), 16) << 64 | lo))
            for lb in pending_labels:
                cur['labels'][lb] = off
            pending_labels = []
            pending = None
            continue
        m = _INST.match(line)
        if m:
            txt = m.group(2).rstrip()
            if txt.endswith(';'):
                txt = txt[:-1].rstrip()
            pending = (int(m.group(1), 16), txt, int(m.group(3), 16))
            continue
        m = _LABEL.match(line.strip())
        if m and m.group(1) != cur.get('name'):
            pending_labels.append(m.group(1))
    for sec in out.values():
        if sec['insts']:
            end = sec['insts'][-1][0] + 16
            for lb in pending_labels:
                sec['labels'].setdefault(lb, end)
    return out
