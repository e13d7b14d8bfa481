"""Modules and kernels built from Python: one method per instruction."""
import sys

import numpy as np

from . import _aster
from ._isa_gen import InstructionBuilder

_getframe = sys._getframe
_THIS_DIR = __file__.rsplit("/", 1)[0]


def _user_frame():
    """File and line of the first caller outside the aster package."""
    f = _getframe(2)
    while f is not None and f.f_code.co_filename.startswith(_THIS_DIR):
        f = f.f_back
    if f is None:
        return "<unknown>", 0
    return f.f_code.co_filename, f.f_lineno


_SCALAR_TYPES = {
    np.dtype(np.int8): "i8", np.dtype(np.uint8): "i8", np.dtype(np.int16): "i16",
    np.dtype(np.uint16): "i16", np.dtype(np.int32): "i32", np.dtype(np.uint32): "i32",
    np.dtype(np.int64): "i64", np.dtype(np.uint64): "i64", np.dtype(np.float16): "f16",
    np.dtype(np.float32): "f32", np.dtype(np.float64): "f64",
}


class ptr:
    """A kernel argument pointing to global memory of `dtype` elements."""

    def __init__(self, dtype):
        self.dtype = np.dtype(dtype)

    def mlir(self):
        elem = _SCALAR_TYPES.get(self.dtype, "i8")
        return f"!amdgcn.ptr<{elem}>"


def _arg_type(t):
    if isinstance(t, ptr):
        return t.mlir()
    try:
        return _SCALAR_TYPES[np.dtype(t)]
    except (TypeError, KeyError):
        raise TypeError(f"kernel argument type must be aster.ptr(dtype) or a NumPy "
                        f"scalar dtype, got {t!r}") from None


class Kernel(InstructionBuilder):
    """Builds one kernel; every instruction of the table is a method."""

    __slots__ = ("_kb", "_emit_raw", "module", "name")

    def __init__(self, module, kb, name):
        self._kb = kb
        self._emit_raw = kb.emit
        self.module = module
        self.name = name

    def _emit(self, index, dsts, srcs, mods, target):
        f = _getframe(2)
        return self._emit_raw(index, dsts, srcs, mods, target, f.f_code.co_filename,
                              f.f_lineno)

    def label(self, name="L"):
        """A new label: pass it to branches, place it with `bind`."""
        return self._kb.new_label(name)

    def bind(self, label):
        """Places `label` here: following instructions start at it."""
        self._kb.bind(label)

    def finish(self):
        self._kb.finish()


class Module:
    """A code object for one target, holding kernels."""

    def __init__(self, target="gfx942", name="module"):
        self.target = target
        self._m = _aster.new_module(target, name)
        self._kernels = []

    @classmethod
    def _wrap(cls, raw, target):
        m = cls.__new__(cls)
        m.target = target
        m._m = raw
        m._kernels = []
        return m

    def kernel(self, name, args=(), block=(256, 1, 1), lds=0, **attrs):
        """Adds a kernel. `args` is a list of (name, type) with type
        `aster.ptr(np.float32)` or a NumPy scalar dtype."""
        file, line = _user_frame()
        names = [n for n, _ in args]
        types = [_arg_type(t) for _, t in args]
        attrs = dict(attrs)
        attrs["block"] = list(block)
        if lds:
            attrs["lds"] = lds
        kb = _aster.add_kernel(self._m, name, names, types, attrs, file, line)
        k = Kernel(self, kb, name)
        self._kernels.append(k)
        return k

    def _finish(self):
        for k in self._kernels:
            k.finish()

    def __str__(self):
        return str(self._m)

    def asm(self):
        self._finish()
        return self._m.asm()

    def hsaco(self):
        self._finish()
        return self._m.hsaco()

    def verify(self):
        self._finish()
        self._m.verify()


def parse(text, name="<string>"):
    """Parses textual amdgcn IR into a Module."""
    raw = _aster.parse(text, name)
    return Module._wrap(raw, None)
