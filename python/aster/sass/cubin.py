"""Raise a cubin (NVIDIA ELF code object, sm_90a) to editable instructions and write it back.

raise_cubin(data) -> Module: .kernels {name: Kernel} (instructions decoded by the
table, labels as names of branch targets, parameters from `.nv.info.<name>`,
constant banks `.nv.constant<N>.<name>`), .regcount(name).
Module.cubin() re-encodes every instruction from its text and control bits
(table.py, control.py) into the original ELF image and fixes the attributes that
depend on the code: EXIT_INSTR_OFFSETS and the other instruction-offset lists of
`.nv.info.<name>`, relocation offsets into the code, and REGCOUNT of `.nv.info`
(raised, never lowered, to a multiple of 8 covering the registers an edited
kernel names, with 2 to spare).
The ELF is read with pyelftools (read-only).  A kernel that still fits its
section (an insertion consumes its trailing NOP padding, a deletion appends
NOPs) is patched in place; one that does not grows: its `.text.<name>` section
takes the instructions padded with NOPs to a multiple of 128 bytes (ptxas's
section sizes: every corpus kernel), and layout.py moves what follows.  An edit
that changes the number of EXITs rewrites the EXIT_INSTR_OFFSETS record, growing
`.nv.info.<name>` the same way.
Needs: pyelftools, table.json.  Guarantees: for an unedited module, cubin() ==
the input bytes (every corpus cubin: tests/py/sass/test_cubin.py); errors are
SassError naming the kernel and instruction.
"""
import io
import re
import struct

from . import control, layout, nvinfo, table
from .errors import SassError

NOP_CTRL = control.Control(stall=0, yield_=0)   # ptxas's padding NOPs (corpus)
_REG = re.compile(r'(?<![\w.])R(\d+)(\.64|\.128)?')


class Instruction:
    """One instruction: text (nvdisasm syntax, `.reuse` flags aside) and control bits.
    `text` is None for a word the table cannot explain (kept as raw bits).
    `pc`: the offset the cubin had it at (None for an inserted instruction);
    relocations and `.nv.info` offset lists follow it to its new offset."""
    __slots__ = ('text', 'ctrl', 'word', 'target', 'pc')

    def __init__(self, text, ctrl=None, word=None, target=None, pc=None):
        self.text = text
        self.ctrl = ctrl if ctrl is not None else control.Control()
        self.word = word          # original 128 bits (raw instructions keep them)
        self.target = target      # label name, for branches
        self.pc = pc

    def __repr__(self):
        return f'{self.ctrl} {self.text if self.text is not None else hex(self.word)}'


class Kernel:
    def __init__(self, module, name, sec):
        self.module, self.name, self._sec = module, name, sec
        self.insts = []
        self.labels = {}          # name -> Instruction (or None: end of code)
        self.params = []          # [(ordinal, offset, size)]
        self.edited = False

    @property
    def size(self):
        return self._sec['size']

    def __repr__(self):
        return f'Kernel({self.name}, {len(self.insts)} instructions, params={self.params})'

    # ------------------------------------------------------------- editing
    def index(self, inst):
        for i, x in enumerate(self.insts):
            if x is inst:
                return i
        raise SassError(f'{self.name}: instruction not in kernel')

    def set(self, i, text, ctrl=None):
        """Replace instruction i's text (and control bits); re-encoded by cubin()."""
        old = self.insts[i]
        table.encode(text, i * 16, self._label_offsets(), ctrl or old.ctrl)  # validate now
        old.text = text
        if ctrl is not None:
            old.ctrl = ctrl
        self.edited = True

    def insert(self, i, text, ctrl=None):
        inst = Instruction(text, ctrl)
        self.insts.insert(i, inst)
        try:
            table.encode(text, i * 16, self._label_offsets(), inst.ctrl)
        except Exception:
            del self.insts[i]
            raise
        self.edited = True
        return inst

    def delete(self, i):
        inst = self.insts.pop(i)
        for name, tgt in list(self.labels.items()):
            if tgt is inst:  # a label on a deleted instruction moves to the next one
                self.labels[name] = self.insts[i] if i < len(self.insts) else None
        self.edited = True

    def asm(self):
        """Text listing: labels, control bits, instructions."""
        at = {}
        for name, tgt in self.labels.items():
            at.setdefault(id(tgt), []).append(name)
        lines = []
        for i, x in enumerate(self.insts):
            for name in at.get(id(x), []):
                lines.append(f'{name}:')
            lines.append(f'  /*{i * 16:04x}*/ {x.ctrl} {x.text if x.text is not None else ".raw " + hex(x.word)} ;')
        return '\n'.join(lines) + '\n'

    # ------------------------------------------------------------- encoding
    def _label_offsets(self):
        pos = {id(x): i * 16 for i, x in enumerate(self.insts)}
        return {n: (pos[id(t)] if t is not None else len(self.insts) * 16) for n, t in self.labels.items()
                if t is None or id(t) in pos}

    def _fit(self):
        """Instruction list of the section's size (padding NOPs consumed/added), or
        grown to a multiple of 8 instructions (128 bytes) when it does not fit."""
        n = self.size // 16
        insts = list(self.insts)
        while len(insts) > n and insts[-1].text == 'NOP' and insts[-1] not in self.labels.values():
            insts.pop()
        if len(insts) > n:
            n = -(-len(insts) // 8) * 8
        while len(insts) < n:
            insts.append(Instruction('NOP', NOP_CTRL))
        return insts

    def encode(self):
        insts = self._fit()
        self.insts = insts
        labels = self._label_offsets()
        out = bytearray()
        for i, x in enumerate(insts):
            if x.text is None:
                out += x.word.to_bytes(16, 'little')
                continue
            try:
                w = table.encode(x.text, i * 16, labels, x.ctrl)
            except SassError as e:
                raise SassError(f'{self.name} at 0x{i * 16:04x}: {e}') from None
            out += w.to_bytes(16, 'little')
        return bytes(out)

    def registers_needed(self):
        top = -1
        for x in self.insts:
            if x.text is None:
                continue
            for m in _REG.finditer(x.text):
                r = int(m.group(1))
                width = {'.64': 2, '.128': 4}.get(m.group(2) or '', 1)
                if '.64' in x.text.split()[0 if not x.text.startswith('@') else 1] and width == 1:
                    width = 2
                top = max(top, r + width - 1)
        return top + 1


class Module:
    """A raised cubin.  `kernels` by name; `cubin()` the ELF bytes back."""

    def __init__(self, data, decode=True):
        try:
            from elftools.elf.elffile import ELFFile
            from elftools.common.exceptions import ELFError
        except ImportError as e:  # pragma: no cover - a requirement (requirements-dev.txt)
            raise SassError('aster.sass needs pyelftools (pip install pyelftools)') from e
        self.data = bytes(data)
        try:
            elf = ELFFile(io.BytesIO(self.data))
            if elf['e_machine'] != 'EM_CUDA':
                raise SassError(f'not a cubin: ELF machine {elf["e_machine"]}')
            self.sm = elf['e_flags'] >> 8 & 0xff
            self.sections = []
            for i, s in enumerate(elf.iter_sections()):
                h = s.header
                self.sections.append(dict(index=i, name=s.name, type=h.sh_type, offset=h.sh_offset,
                                          size=h.sh_size, info=h.sh_info, link=h.sh_link,
                                          entsize=h.sh_entsize, align=h.sh_addralign))
            self.header = {k: elf.header[k] for k in ('e_phoff', 'e_shoff', 'e_phentsize', 'e_shentsize')}
            self.segments = [{k: seg.header[k] for k in ('p_type', 'p_offset', 'p_filesz', 'p_memsz')}
                             for seg in elf.iter_segments()]
            symtab = elf.get_section_by_name('.symtab')
            self.symbols = [(sy.name, sy['st_shndx'], sy['st_value'], sy['st_size'], sy['st_info']['type'])
                            for sy in (symtab.iter_symbols() if symtab else [])]
        except ELFError as e:
            raise SassError(f'not a cubin: {e}') from None
        self.by_name = {s['name']: s for s in self.sections}
        self.kernels = {}
        for s in self.sections:
            if s['name'].startswith('.text.'):
                k = Kernel(self, s['name'][6:], s)
                if decode:
                    self._raise_kernel(k)
                info = self.by_name.get('.nv.info.' + k.name)
                if info:
                    k.params = nvinfo.kparams(nvinfo.parse(self._bytes(info)))
                self.kernels[k.name] = k

    def _bytes(self, s):
        return self.data[s['offset']:s['offset'] + s['size']]

    def constant_bank(self, kernel, bank=0):
        s = self.by_name.get(f'.nv.constant{bank}.{kernel}')
        return None if s is None else self._bytes(s)

    def regcount(self, kernel):
        sym = self._symbol_index(kernel)
        info = self.by_name.get('.nv.info')
        if info is None:
            return None
        rc = nvinfo.regcounts(nvinfo.parse(self._bytes(info)))
        return rc.get(sym, (None,))[0]

    def set_regcount(self, kernel, n):
        """Force REGCOUNT of `kernel` (written by cubin()); default: raised as needed."""
        self._forced_regs = getattr(self, '_forced_regs', {})
        self._forced_regs[kernel] = n
        self.kernels[kernel].edited = True

    def _symbol_index(self, name):
        for i, (n, *_rest) in enumerate(self.symbols):
            if n == name and _rest[3] == 'STT_FUNC':
                return i
        return None

    def _raise_kernel(self, k):
        code = self._bytes(k._sec)
        if len(code) % 16:
            raise SassError(f'{k.name}: code size {len(code)} is not a multiple of 16')
        names = {}
        for n, shndx, value, size, typ in self.symbols:
            if shndx == k._sec['index'] and typ in ('STT_FUNC', 'STT_NOTYPE') and n:
                names.setdefault(value, n)
        targets = {}

        def label_of(pc):
            def f(rel):
                t = pc + 16 + rel
                if t not in targets:
                    targets[t] = names.get(t) or f'.L_x_{t // 16}'
                return targets[t]
            return f
        for i in range(len(code) // 16):
            w = int.from_bytes(code[i * 16:i * 16 + 16], 'little')
            text = table.decode(w, i * 16, label_of(i * 16))
            k.insts.append(Instruction(text, control.unpack(w), w, pc=i * 16))
        for t, name in targets.items():
            if t % 16 or not 0 <= t <= len(code):
                raise SassError(f'{k.name}: branch target 0x{t:x} is outside the code')
            k.labels[name] = k.insts[t // 16] if t < len(code) else None
        # a word that decodes but does not re-encode to itself is kept raw
        offs = k._label_offsets()
        for i, x in enumerate(k.insts):
            if x.text is not None and table.encode(x.text, i * 16, offs, x.ctrl) != x.word:
                x.text = None

    # ------------------------------------------------------------- writing
    def cubin(self):
        lay = layout.Layout(self.data, self.sections, self.header, self.segments, self.symbols,
                            self.by_name['.symtab']['index'] if '.symtab' in self.by_name else None)
        for k in self.kernels.values():
            code = k.encode()
            i = k._sec['index']
            if len(code) == k._sec['size']:
                lay.write(i, 0, code)
            else:
                lay.resize(i, code)
            if k.edited:
                self._fix_attributes(lay, k)
        return bytes(lay.out)

    def referenced_offsets(self, k):
        """Offsets in k's code that relocations or `.nv.info` offset lists (but
        EXIT_INSTR_OFFSETS, recomputed) name."""
        out = set()
        info = self.by_name.get('.nv.info.' + k.name)
        if info:
            for r in nvinfo.parse(self._bytes(info)):
                if r.name in nvinfo.OFFSET_LISTS and r.name != 'EXIT_INSTR_OFFSETS':
                    out.update(struct.unpack(f'<{r.size // 4}I', r.value))
        for s in self.sections:
            if s['type'] in ('SHT_REL', 'SHT_RELA') and s['info'] == k._sec['index'] and s['entsize']:
                for e in range(s['size'] // s['entsize']):
                    o = struct.unpack_from('<Q', self.data, s['offset'] + e * s['entsize'])[0]
                    out.add(o - o % 16)
        return out

    def _fix_attributes(self, lay, k):
        remap = {}
        for i, x in enumerate(k.insts):
            if x.pc is not None:
                remap.setdefault(x.pc, i * 16)
        info = self.by_name.get('.nv.info.' + k.name)
        if info:
            data = self._bytes(info)
            resized = None
            for r in nvinfo.parse(data):
                if r.name not in nvinfo.OFFSET_LISTS:
                    continue
                if r.name == 'EXIT_INSTR_OFFSETS':
                    offs = [i * 16 for i, x in enumerate(k.insts)
                            if x.text is not None and re.match(r'^(@!?U?P\w+\s+)?EXIT\b', x.text)]
                else:
                    offs = [remap.get(o, o) for o in struct.unpack(f'<{r.size // 4}I', r.value)]
                payload = struct.pack(f'<{len(offs)}I', *offs)
                if len(payload) != r.size:
                    if resized is not None or r.name != 'EXIT_INSTR_OFFSETS':
                        raise SassError(f'{k.name}: the edit changes the number of {r.name} entries')
                    resized = (r, payload)
                else:
                    lay.write(info['index'], r.pos, payload)
            if resized is not None:
                r, payload = resized
                cur = bytes(lay.out[lay.offset(info['index']):lay.offset(info['index']) + info['size']])
                lay.resize(info['index'], nvinfo.replace(cur, r, payload))
        for s in lay.secs:   # relocations into this kernel's code
            if s['type'] in ('SHT_REL', 'SHT_RELA') and s['info'] == k._sec['index'] and s['entsize']:
                for e in range(s['size'] // s['entsize']):
                    p = s['offset'] + e * s['entsize']
                    o = struct.unpack_from('<Q', lay.out, p)[0]
                    struct.pack_into('<Q', lay.out, p, remap.get(o - o % 16, o - o % 16) + o % 16)
        sym = self._symbol_index(k.name)
        info = self.by_name.get('.nv.info')
        if sym is not None and info:
            rc = nvinfo.regcounts(nvinfo.parse(self._bytes(info)))
            if sym in rc:
                n, pos = rc[sym]
                # Raised to a multiple of 8 with 2 to spare: on an H100 a kernel naming
                # R40 with REGCOUNT 41 raised an illegal-instruction error, with 48 it ran.
                top = k.registers_needed()
                grown = n if top <= n else -(-(top + 2) // 8) * 8
                need = getattr(self, '_forced_regs', {}).get(k.name) or grown
                if need != n:
                    lay.write(info['index'], pos, struct.pack('<I', need))


def raise_cubin(data):
    """A cubin's bytes -> Module (see the module docstring)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise SassError(f'raise_cubin takes the bytes of a cubin, not {type(data).__name__}')
    return Module(bytes(data))
