"""Resizing sections of a cubin: the layout step behind growing kernels.

A cubin (sm_90a, ELF64 little-endian, ET_EXEC) as nvcc/ptxas lay it out: section
contents in file order, the section header table and the program header table
among or after them; every sh_addr and p_vaddr is 0 (the driver places the code).
resize(i, data) gives section i new contents of a new size and moves everything
after it in the file by `delta` = the size change rounded up to the largest
section alignment (so every later section keeps its alignment; the gap is zeros):
  - sh_offset of every section at or after the section's old end,
  - e_shoff / e_phoff when the tables lie after it,
  - p_offset of program headers after it; p_filesz / p_memsz of a segment that
    holds the section (the growth, or delta when the segment reaches past it),
  - st_size of symbols of that section that reached its old end (the kernel's
    function symbol: st_size = its .text size in every corpus cubin).
Header fields are patched at their ELF64 positions (Elf64_Shdr: sh_offset at
+24, sh_size at +32; Elf64_Phdr: p_offset +8, p_filesz +32, p_memsz +40;
Elf64_Sym: st_size +16; Elf64_Ehdr: e_phoff +32, e_shoff +40) in the image read
by pyelftools; no ELF is written from scratch.  What it does not change:
relocation offsets and `.nv.info` contents (cubin.py fixes those), the FDE
address ranges of `.debug_frame` (the driver does not read them: the grown
kernels of tests/py/sass/test_grow.py ran on an H100, docs/sass.md).
Needs: Layout built from Module's parsed headers.  Guarantees: section i holds
`data` exactly; every other section's bytes are unchanged, at their new offsets.
"""
import struct

from .errors import SassError


class Layout:
    """A mutable copy of a cubin image and the header facts resize() updates."""

    def __init__(self, data, sections, header, segments, symbols, symtab):
        self.out = bytearray(data)
        self.secs = [dict(s) for s in sections]
        self.phoff, self.shoff = header['e_phoff'], header['e_shoff']
        self.shentsize, self.phentsize = header['e_shentsize'], header['e_phentsize']
        self.segs = [dict(p) for p in segments]
        self.symbols = symbols          # [(name, shndx, value, size, type)] as read
        self.symtab = symtab            # index of .symtab or None
        self.align = max([8] + [s['align'] or 1 for s in self.secs])

    def offset(self, i):
        return self.secs[i]['offset']

    def write(self, i, pos, data):
        """Overwrite bytes inside section i (no size change)."""
        s = self.secs[i]
        if pos + len(data) > s['size']:
            raise SassError(f'write past the end of section {s["name"]}')
        self.out[s['offset'] + pos:s['offset'] + pos + len(data)] = data

    def resize(self, i, data):
        s = self.secs[i]
        if s['type'] == 'SHT_NOBITS':
            raise SassError(f'section {s["name"]} has no file contents to resize')
        old, new = s['size'], len(data)
        start, end = s['offset'], s['offset'] + old
        grow = new - old
        delta = -(-grow // self.align) * self.align if grow > 0 else 0
        if grow < 0:
            raise SassError(f'section {s["name"]}: shrinking is not supported (pad instead)')
        out = self.out
        self.out = out[:start] + bytes(data) + bytes(delta - grow) + out[end:]
        for j, t in enumerate(self.secs):
            if j != i and t['offset'] >= end and t['type'] != 'SHT_NULL':
                t['offset'] += delta
        s['size'] = new
        if self.phoff >= end:
            self.phoff += delta
        if self.shoff >= end:
            self.shoff += delta
        for p in self.segs:
            if p['p_offset'] >= end:
                p['p_offset'] += delta
            elif p['p_offset'] <= start < p['p_offset'] + p['p_filesz']:
                add = delta if p['p_offset'] + p['p_filesz'] > end else grow
                p['p_filesz'] += add
                p['p_memsz'] += add
        self._write_headers(i, old, new)

    def _write_headers(self, i, old, new):
        o = self.out
        struct.pack_into('<Q', o, 32, self.phoff)
        struct.pack_into('<Q', o, 40, self.shoff)
        for j, t in enumerate(self.secs):
            at = self.shoff + j * self.shentsize
            struct.pack_into('<QQ', o, at + 24, t['offset'], t['size'])
        for k, p in enumerate(self.segs):
            at = self.phoff + k * self.phentsize
            struct.pack_into('<Q', o, at + 8, p['p_offset'])
            struct.pack_into('<QQ', o, at + 32, p['p_filesz'], p['p_memsz'])
        if self.symtab is None:
            return
        base = self.secs[self.symtab]['offset']
        for k, (name, shndx, value, size, typ) in enumerate(self.symbols):
            if shndx == i and size and value + size == old:
                struct.pack_into('<Q', o, base + k * 24 + 16, new - value)
