"""Module-level data: global variables of a code object (`amdgcn.global`).

    table = m.global_data("table", np.arange(8, dtype=np.float32), constant=True)
    counter = m.global_data("counter", np.zeros(1, np.int32))
    k.global_address(s[4:6], table)          # s[4:5] = &table (+ offset)
    k.global_load_dword(v[1], v[0], s[4:6])

`global_data` adds the array's bytes (little-endian, as NumPy holds them) as
a global of the module: constant ones in `.rodata` (HIP `__constant__`),
others in `.data` (`.bss` when given only a size: `m.global_data("buf",
nbytes=4096)`), `protected` like HIP's `__device__` variables. The code
object holds them; the emulator (like a GPU loader) maps them with the code.

`k.global_address(pair, g, offset=0)` writes the address of `g` (+ offset)
into an allocated SGPR pair with the three instructions clang uses,
`s_getpc_b64`, `s_add_u32 lo, lo, g@rel32@lo+4`, `s_addc_u32 hi, hi,
g@rel32@hi+12`: the linker fills in the literals, counted from the
`s_getpc_b64`, so the three stay together (they are emitted under
`no_reorder`). Any instruction source that takes a 32-bit literal also takes
`aster.Reloc(symbol, kind, addend)` (`rel32@lo`, `rel32@hi`,
`gotpcrel32@lo`, `gotpcrel32@hi`, `abs32@lo`, `abs32@hi`).
"""
import numpy as np

from . import _aster
from ._aster import Reloc
from .diagnostics import check_symbol, user_frame

__all__ = ["Global", "Reloc", "global_data", "global_address"]

_DTYPES = {"f": {2: "f16", 4: "f32", 8: "f64"}, "i": {1: "i8", 2: "i16", 4: "i32", 8: "i64"},
           "u": {1: "i8", 2: "i16", 4: "i32", 8: "i64"}, "b": {1: "i8"}}


class Global:
    """A global of a module: `.name`, `.nbytes`, `.section`, `.constant`."""

    def __init__(self, name, nbytes, section, constant):
        self.name, self.nbytes, self.section, self.constant = name, nbytes, section, constant

    def __repr__(self):
        return f"<aster.Global {self.name}: {self.nbytes} bytes in {self.section}>"


def _dtype_name(arr):
    if arr.dtype.name == "bfloat16":
        return "bf16"
    kind = _DTYPES.get(arr.dtype.kind)
    if kind is None or arr.dtype.itemsize not in kind:
        # Other element types (ml_dtypes' fp8, structured) go in as bytes.
        return "i8"
    return kind[arr.dtype.itemsize]


def global_data(module, name, data=None, *, nbytes=None, constant=False, align=None,
                section=None, linkage="protected"):
    file, line = user_frame()
    check_symbol(name, "global name")
    if name in module.functions or any(k.name == name for k in module.kernels):
        raise ValueError(f"module already has a kernel or function named {name!r}")
    if data is None and nbytes is None:
        raise TypeError("global_data() needs data (an array) or nbytes")
    raw, dtype = b"", "i8"
    if data is not None:
        arr = np.ascontiguousarray(data)
        if arr.dtype.byteorder == ">":
            arr = arr.astype(arr.dtype.newbyteorder("<"))
        dtype = _dtype_name(arr)
        if dtype == "i8" and arr.dtype.itemsize != 1:
            arr = arr.view(np.uint8)
        raw = arr.tobytes()
        # Element types MLIR has no name for go in as bytes.
    if nbytes is None:
        nbytes = len(raw)
    if isinstance(nbytes, bool) or not isinstance(nbytes, int) or nbytes < len(raw):
        raise ValueError(f"nbytes must be an int of at least the data's {len(raw)} bytes, "
                         f"got {nbytes!r}")
    if align is None:
        align = 16 if nbytes >= 16 else max(1, min(8, 1 << (max(nbytes, 1) - 1).bit_length()))
    if section is None:
        section = ".rodata" if constant else (".data" if any(raw) else ".bss")
    if linkage not in ("protected", "hidden", "default", "local"):
        raise ValueError(f"linkage must be 'protected', 'hidden', 'default' or 'local', got "
                         f"{linkage!r}")
    if not any(raw):
        raw = b""
    _aster.add_global(module._m, name, section, int(align), int(nbytes), raw, dtype,
                      bool(constant), linkage, file, line)
    return Global(name, nbytes, section, bool(constant))


def global_address(kernel, pair, g, offset=0):
    name = g.name if isinstance(g, Global) else g
    if not isinstance(name, str):
        raise TypeError(f"global_address() takes a Global or a symbol name, got {type(g).__name__}")
    if not (getattr(pair, "kind", None) == 1 and getattr(pair, "width", 0) == 2 and
            pair.index >= 0):
        raise TypeError(f"global_address() writes an allocated SGPR pair (s[i:i+2]), got {pair!r}")
    if isinstance(offset, bool) or not isinstance(offset, int) or not -2**31 <= offset < 2**31 - 12:
        raise ValueError(f"offset must be a 32-bit int, got {offset!r}")
    with kernel.no_reorder():
        kernel.s_getpc_b64(pair)
        kernel.s_add_u32(pair[0], pair[0], Reloc(name, "rel32@lo", offset + 4))
        kernel.s_addc_u32(pair[1], pair[1], Reloc(name, "rel32@hi", offset + 12))
