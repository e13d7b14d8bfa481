"""aiter's packed kernel-argument structs, laid out from the wheel's own C source.

aiter's interface code (``aiter_meta/csrc/py_itfs_cu/*.cu`` and headers such as
``csrc/include/mha_fwd.h``) fills a ``struct __attribute__((packed)) KernelArgs``
field by field and hands its bytes to ``hipModuleLaunchKernel`` through
``HIP_LAUNCH_PARAM_BUFFER_POINTER``: the code object's metadata plays no part.
`struct_layout` reads that struct from the installed wheel, so the offsets are
AMD's and not a transcription; `Layout.pack` fills it the way the interface code
does and returns an `aster.kernargs.Packed` that `aster.launch` takes as `args`.

Needs: the amd-aiter wheel (aster.aiter.wheel). Field types understood: pointers
(``void*``, ``const void*``: 8 bytes, a NumPy array or None), ``unsigned int``,
``uint32_t``, ``int``, ``int32_t``, ``float`` (4 bytes) and aiter's padding
structs ``p1``/``p2``/``p3`` (4/8/12 bytes, from ``csrc/include/aiter_hip_common.h``).
Anything else in a struct is an `AsterError` naming the file and line, never a
guess. A field the caller does not set is zero, as in the value-initialised
struct (the interface code leaves unused pointers unset; zero is the value its
kernels are documented to ignore).
"""
from __future__ import annotations

import functools
import re
import struct as _struct
from dataclasses import dataclass

import numpy as np

from .. import kernargs as _kernargs
from .wheel import wheel_file

__all__ = ["Field", "Layout", "struct_layout", "launch"]

# C type -> (size, struct format or None for pointers / padding).
_SCALARS = {
    "unsigned int": (4, "<I"), "uint32_t": (4, "<I"), "uint": (4, "<I"),
    "int": (4, "<i"), "int32_t": (4, "<i"), "float": (4, "<f"),
}
_PADDING = {"p1": 4, "p2": 8, "p3": 12}


def _error(msg):
    from .. import AsterError
    return AsterError(msg)


@dataclass(frozen=True)
class Field:
    name: str
    ctype: str      # "ptr", "pad", or a key of _SCALARS
    offset: int
    size: int


class Layout:
    """One packed struct: its fields in order and its size (``sizeof``)."""

    def __init__(self, name, source, fields):
        self.name, self.source, self.fields = name, source, list(fields)
        self.size = sum(f.size for f in self.fields)
        self._by_name = {f.name: f for f in self.fields if f.ctype != "pad"}

    def __repr__(self):
        return f"<aster.aiter Layout {self.name} ({self.size} bytes) from {self.source}>"

    def offset(self, name):
        return self[name].offset

    def __getitem__(self, name):
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"{self.name} ({self.source}) has no field '{name}'") from None

    def pack(self, **values):
        """The struct's bytes with `values` set by field name (arrays or None
        for pointers, ints for unsigned/int fields, floats for float fields;
        unset fields and padding are zero), as an aster.kernargs.Packed."""
        data = bytearray(self.size)
        pointers, names = {}, {}
        for name, value in values.items():
            f = self[name]
            if f.ctype == "ptr":
                if value is not None and not isinstance(value, np.ndarray):
                    raise TypeError(f"{self.name}.{name} is a pointer: pass a NumPy array or "
                                    f"None, got {type(value).__name__}")
                pointers[f.offset], names[f.offset] = value, name
                continue
            size, fmt = _SCALARS[f.ctype]
            if fmt == "<f":
                if isinstance(value, (bool, np.bool_)) or not isinstance(
                        value, (int, float, np.integer, np.floating)):
                    raise TypeError(f"{self.name}.{name} is a float, got {value!r}")
                _struct.pack_into(fmt, data, f.offset, float(value))
            else:
                if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
                    raise TypeError(f"{self.name}.{name} is {f.ctype}, got {value!r}")
                lo, hi = (0, 2**32 - 1) if fmt == "<I" else (-2**31, 2**31 - 1)
                if not lo <= int(value) <= hi:
                    raise ValueError(f"{self.name}.{name} ({f.ctype}): {value} is out of range")
                _struct.pack_into(fmt, data, f.offset, int(value))
        for f in self.fields:       # every pointer slot is a buffer (unset: null)
            if f.ctype == "ptr" and f.offset not in pointers:
                pointers[f.offset], names[f.offset] = None, f.name
        return _kernargs.raw(bytes(data), pointers, names)


def _strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


@functools.lru_cache(maxsize=None)
def struct_layout(relative, name="KernelArgs", occurrence=0):
    """The packed struct `name` of the wheel file `relative` (e.g.
    ``"aiter_meta/csrc/py_itfs_cu/asm_pa.cu"``); `occurrence` picks among
    several structs of that name in one file (0 = the first)."""
    path = wheel_file(relative)
    text = _strip_comments(path.read_text())
    pattern = re.compile(r"struct\s+__attribute__\s*\(\(\s*packed\s*\)\)\s+" + re.escape(name)
                         + r"\s*\{(.*?)\}\s*;", re.S)
    found = list(pattern.finditer(text))
    if len(found) <= occurrence:
        raise _error(f"{relative}: no packed struct '{name}' (occurrence {occurrence})")
    m = found[occurrence]
    line0 = text.count("\n", 0, m.start(1)) + 1
    fields, offset = [], 0
    for i, raw in enumerate(m.group(1).split("\n")):
        for decl in filter(None, (d.strip() for d in raw.split(";"))):
            d = re.match(r"^(const\s+)?(void\s*\*|unsigned\s+int|[A-Za-z_]\w*)\s*(\*?)\s*"
                         r"([A-Za-z_]\w*)$", decl)
            if not d:
                raise _error(f"{relative}:{line0 + i}: cannot read the field '{decl}' of "
                             f"{name}")
            ctype = re.sub(r"\s+", " ", d.group(2)).replace(" *", "*")
            if d.group(3) or ctype == "void*":
                if ctype not in ("void*", "void"):
                    raise _error(f"{relative}:{line0 + i}: pointer field '{decl}' of {name} "
                                 "is not a void*")
                fields.append(Field(d.group(4), "ptr", offset, 8))
            elif ctype in _PADDING:
                fields.append(Field(d.group(4), "pad", offset, _PADDING[ctype]))
            elif ctype in _SCALARS:
                fields.append(Field(d.group(4), ctype, offset, _SCALARS[ctype][0]))
            else:
                raise _error(f"{relative}:{line0 + i}: field type '{ctype}' of {name} is "
                             "not one aster.aiter.kernargs reads")
            offset += fields[-1].size
    return Layout(name, relative, fields)


def launch(arch, relative, kernel, grid, block, packed, *, timing=False, device="emu",
           slack=0, profile=None, **options):
    """Runs `kernel` of the wheel's code object `relative` (under
    ``aiter_meta/hsa/<arch>``) with the packed arguments `packed` as aiter's
    ``AiterAsmKernel::launch_kernel`` does (no dynamic LDS). `device`: "emu"
    (aster's emulator, strict) or "hip" (a ROCm GPU); `slack`: see
    aster.launch; `profile`: the timing model's device profile (aster.launch's
    `device`; None: the arch's flagship). Returns the LaunchResult."""
    from ..runtime import launch as _launch
    from .wheel import code_object
    if arch not in ("gfx942", "gfx950"):
        raise ValueError(f"arch must be 'gfx942' or 'gfx950', got {arch!r}")
    return _launch(code_object(arch, relative), kernel, grid, block, packed, backend=device,
                   timing=timing, slack=slack, device=profile, **options)
