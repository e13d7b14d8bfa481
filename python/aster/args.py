"""Kernel argument types and the layouts the hardware and the code object use.

Arguments are NumPy dtypes (scalars passed by value) or `ptr(dtype)` (a global
pointer). The kernarg segment layout is code object v5's, as aster's
translator writes it (cc/target/KernelMetadata.cpp): each argument is aligned
to its own size, pointers are 8 bytes.
"""
from dataclasses import dataclass

import numpy as np

__all__ = ["ptr", "KernelArg", "kernarg_layout", "SGPR_SETUP", "sgpr_layout"]


def _scalar_names():
    names = {
        np.dtype(np.int8): "i8", np.dtype(np.uint8): "i8", np.dtype(np.bool_): "i8",
        np.dtype(np.int16): "i16", np.dtype(np.uint16): "i16",
        np.dtype(np.int32): "i32", np.dtype(np.uint32): "i32",
        np.dtype(np.int64): "i64", np.dtype(np.uint64): "i64",
        np.dtype(np.float16): "f16", np.dtype(np.float32): "f32",
        np.dtype(np.float64): "f64",
    }
    try:  # bfloat16 comes from ml_dtypes when it is installed
        import ml_dtypes
        names[np.dtype(ml_dtypes.bfloat16)] = "bf16"
    except ImportError:
        pass
    return names


_SCALARS = _scalar_names()


def _dtype(t, what):
    if isinstance(t, ptr):
        raise TypeError(f"{what}: a pointer cannot point to a pointer")
    try:
        dt = np.dtype(t)
    except TypeError:
        raise TypeError(f"{what}: expected a NumPy scalar dtype (np.float32, 'int32', "
                        f"...), got {t!r}") from None
    if dt not in _SCALARS:
        raise TypeError(f"{what}: dtype {dt} is not supported (use an integer, bool, "
                        "float16/32/64 or bfloat16 dtype)")
    return dt


class ptr:
    """A kernel argument pointing to global memory of `dtype` elements:
    `aster.ptr(np.float32)`. It is 8 bytes in the kernarg segment."""

    __slots__ = ("dtype",)

    def __init__(self, dtype):
        self.dtype = _dtype(dtype, "aster.ptr(dtype)")

    def mlir(self):
        return f"!amdgcn.ptr<{_SCALARS[self.dtype]}>"

    size = 8

    def __eq__(self, other):
        return isinstance(other, ptr) and other.dtype == self.dtype

    def __hash__(self):
        return hash(("ptr", self.dtype))

    def __repr__(self):
        return f"aster.ptr(np.{self.dtype.name})"


def arg_type(t, name="argument"):
    """(MLIR type text, size in bytes, dtype, is_pointer) of an argument type."""
    if isinstance(t, ptr):
        return t.mlir(), 8, t.dtype, True
    dt = _dtype(t, f"kernel argument '{name}'")
    return _SCALARS[dt], dt.itemsize, dt, False


@dataclass(frozen=True)
class KernelArg:
    """One kernel argument as laid out in the kernarg segment."""
    name: str
    type: object       # ptr(...) or np.dtype
    offset: int        # bytes from the kernarg pointer
    size: int          # bytes
    pointer: bool


def kernarg_layout(args):
    """[(name, type)] -> ([KernelArg], kernarg size): each argument aligned to
    its size (the rule of cc/target/KernelMetadata.cpp)."""
    out, off = [], 0
    for name, t in args:
        _, size, dt, is_ptr = arg_type(t, name)
        off = -(-off // size) * size
        out.append(KernelArg(name, t if is_ptr else dt, off, size, is_ptr))
        off += size
    return out, off


# Hardware-initialised SGPRs in hardware order: (name, SGPRs, is user SGPR).
SGPR_SETUP = (
    ("private_segment_buffer", 4, True), ("dispatch_ptr", 2, True),
    ("queue_ptr", 2, True), ("kernarg_ptr", 2, True), ("dispatch_id", 2, True),
    ("flat_scratch_init", 2, True), ("private_segment_size", 1, True),
    ("workgroup_id_x", 1, False), ("workgroup_id_y", 1, False),
    ("workgroup_id_z", 1, False), ("workgroup_info", 1, False),
    ("private_segment_wave_offset", 1, False),
)
_SETUP_ORDER = {n: i for i, (n, _, _) in enumerate(SGPR_SETUP)}


def check_sgpr_setup(entries):
    entries = list(entries)
    last = -1
    for e in entries:
        if not isinstance(e, str):
            raise TypeError(f"sgpr_setup entries are strings, got {e!r}")
        if e not in _SETUP_ORDER:
            raise ValueError(f"unknown sgpr_setup entry {e!r}; known: "
                             + ", ".join(n for n, _, _ in SGPR_SETUP))
        if _SETUP_ORDER[e] <= last:
            raise ValueError("sgpr_setup entries must be unique and in hardware order: "
                             + ", ".join(n for n, _, _ in SGPR_SETUP))
        last = _SETUP_ORDER[e]
    return entries


def sgpr_layout(entries):
    """{name: (first SGPR, count)}: user SGPRs first in hardware order, then
    the system SGPRs (workgroup ids, ...) right after them."""
    sizes = {n: (w, u) for n, w, u in SGPR_SETUP}
    out, nxt = {}, 0
    for user in (True, False):
        for e in entries:
            w, u = sizes[e]
            if u == user:
                out[e] = (nxt, w)
                nxt += w
    return out
