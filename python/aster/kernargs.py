"""Packing launch arguments into a kernarg segment: the one routine every
backend uses.

`pack(kernel, arg_meta, values)` checks the Python values against the code
object's metadata (`amdhsa.kernels[].args`: name, value_kind, offset, size,
type_name) and returns a `Packed`: the explicit-argument bytes with every
by-value argument at its metadata offset and size, and the NumPy arrays bound
to pointer (`global_buffer`) arguments. A backend puts each array in device
memory and calls `Packed.bytes_with(addresses)` to fill the pointer slots.
Hidden arguments (code object v5 `hidden_*`) are the backend's business.
A kernel lowered from upstream MLIR (aster.lower) also takes one array per
memref argument: its metadata names the memref types
(aster.lowering.signature.expand turns the arrays into descriptors).

Scalars are checked against the metadata's type name where there is one
(aster writes i32/f16/..., OpenCL-style producers C names; a float for an
integer, a bool for a float, out-of-range values are errors). clang's HIP
metadata has sizes but no type names: then the value's own kind decides (a
Python float packs as the float type of the argument's size, an int as an
integer of either signedness).
"""
import math
import numbers
import struct
from dataclasses import dataclass

import numpy as np

__all__ = ["pack", "raw", "Packed", "BufferArg"]

_INT_FMT = {1: "b", 2: "h", 4: "i", 8: "q"}
_FLOAT_DTYPE = {2: np.float16, 4: np.float32, 8: np.float64}


@dataclass(frozen=True)
class BufferArg:
    """An array bound to a pointer argument (None: a null pointer)."""
    index: int          # position in the argument list
    name: str
    offset: int         # of the 8-byte pointer slot in the kernarg segment
    array: object       # np.ndarray or None


class Packed:
    """Explicit kernarg bytes (pointer slots zero) and the buffer arguments."""

    def __init__(self, data, buffers):
        self.data = bytes(data)
        self.buffers = list(buffers)

    def for_kernel(self, info):
        """What a HIP launch with HIP_LAUNCH_PARAM_BUFFER_POINTER passes to
        the kernel `info` (a loaded kernel's facts): HIP copies each argument
        the metadata declares from the blob, so bytes past the declared
        arguments (and pointers there) do not reach the kernel. A blob
        shorter than the declared explicit arguments is padded with zeros
        (HIP would read past the caller's struct: AMD's fmha_v3_bwd kernels
        declare 352 bytes for a 336-byte struct). A kernel without argument
        metadata gets the blob whole."""
        if not info.args:
            return self
        declared = max((m.offset + m.size for m in info.args), default=0)
        explicit = max((m.offset + m.size for m in info.args
                        if not m.value_kind.startswith("hidden_")), default=0)
        if len(self.data) < explicit:
            return Packed(self.data + bytes(explicit - len(self.data)), self.buffers)
        if len(self.data) <= declared:
            return self
        return Packed(self.data[:declared],
                      [b for b in self.buffers if b.offset + 8 <= declared])

    def bytes_with(self, addresses):
        """The kernarg bytes with buffer i's pointer slot set to addresses[i]
        (in the order of `self.buffers`)."""
        if len(addresses) != len(self.buffers):
            raise ValueError(f"{len(self.buffers)} buffer addresses expected, got {len(addresses)}")
        out = bytearray(self.data)
        for b, addr in zip(self.buffers, addresses):
            if not 0 <= b.offset <= len(out) - 8:
                raise ValueError(f"pointer argument {b.name!r}: its 8-byte slot at offset "
                                 f"{b.offset} does not fit the {len(out)}-byte kernarg "
                                 "segment the metadata declares")
            struct.pack_into("<Q", out, b.offset, addr)
        return bytes(out)


def _classify(type_name, size):
    """('float'|'bfloat'|'bool'|'int'|'uint'|'sint', ...) from a metadata type
    name (clang's C names or aster's i32/f16/...); None when it says nothing.
    'int' is signless (either signedness is accepted)."""
    t = (type_name or "").strip().lower().replace("const ", "").strip()
    if not t:
        return None
    if "bf16" in t or "bfloat" in t:
        return "bfloat"
    if any(w in t for w in ("float", "double", "half", "fp16")) or t in ("f16", "f32", "f64"):
        return "float"
    if t in ("bool", "_bool"):
        return "bool"
    if t.startswith("i") and t[1:].isdigit():
        return "int"
    if t.startswith("u") and t[1:].isdigit():
        return "uint"
    if "unsigned" in t or t.startswith("uint") or t in ("size_t", "uchar", "ushort", "ulong"):
        return "uint"
    if any(w in t for w in ("int", "char", "short", "long")):
        return "sint"
    return None


def _where(kernel, index, meta):
    name = f" '{meta.name}'" if meta.name else ""
    return f"kernel '{kernel}' argument {index}{name}"


def _pack_scalar(kernel, index, meta, value):
    """The `meta.size` bytes of by-value argument `meta` holding `value`."""
    where = _where(kernel, index, meta)
    size = meta.size
    if isinstance(value, np.ndarray) or (not isinstance(value, (numbers.Number, np.generic))):
        raise TypeError(f"{where} is a by-value {meta.type_name or size * 8}-bit scalar; "
                        f"got {type(value).__name__} (pass a Python or NumPy scalar)")
    kind = _classify(meta.type_name, size)
    is_bool = isinstance(value, (bool, np.bool_))
    is_int = not is_bool and isinstance(value, (numbers.Integral, np.integer))
    is_float = isinstance(value, (numbers.Real, np.floating)) and not (is_int or is_bool)
    if not (is_bool or is_int or is_float):
        raise TypeError(f"{where}: cannot pass {type(value).__name__} {value!r}")

    if kind is None and is_float:      # the metadata does not say: trust the value
        kind = "float"
    if kind in ("float", "bfloat"):
        if is_bool:
            raise TypeError(f"{where} is {meta.type_name}; got a bool")
        if kind == "bfloat":
            if size != 2:
                raise ValueError(f"{where}: bfloat16 argument of size {size}")
            import ml_dtypes
            dt = np.dtype(ml_dtypes.bfloat16)
        elif size in _FLOAT_DTYPE:
            dt = np.dtype(_FLOAT_DTYPE[size])
        else:
            raise ValueError(f"{where}: no float type of {size} bytes")
        x = float(value)
        with np.errstate(over="ignore"):
            y = np.array(x, dtype=dt)
        if math.isfinite(x) and not np.isfinite(y.astype(np.float64)):
            raise ValueError(f"{where}: {value!r} overflows {meta.type_name or dt.name}")
        return y.tobytes()

    if is_float:
        raise TypeError(f"{where} is an integer ({meta.type_name or f'{size} bytes'}); "
                        f"got the float {value!r}")
    if size not in _INT_FMT:
        raise ValueError(f"{where}: by-value argument of {size} bytes is not supported "
                         "(scalars are 1, 2, 4 or 8 bytes)")
    v = int(value)
    bits = size * 8
    if kind == "bool":
        lo, hi = 0, 1
    elif kind == "uint":
        lo, hi = 0, (1 << bits) - 1
    elif kind == "sint":
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    else:  # signless or unknown: either signedness
        lo, hi = -(1 << (bits - 1)), (1 << bits) - 1
    if not lo <= v <= hi:
        raise ValueError(f"{where}: {v} is out of range for {meta.type_name or f'{bits}-bit'} "
                         f"[{lo}, {hi}]")
    return (v & ((1 << bits) - 1)).to_bytes(size, "little")


def _check_array(kernel, index, meta, value):
    where = _where(kernel, index, meta)
    if value is None:
        return None
    if not isinstance(value, np.ndarray):
        raise TypeError(f"{where} is a pointer ({meta.type_name or 'global buffer'}); pass a "
                        f"NumPy array, got {type(value).__name__}")
    if value.dtype.hasobject:
        raise TypeError(f"{where}: an array of Python objects cannot be device memory")
    if not value.flags.c_contiguous:
        raise ValueError(f"{where}: the array is not C-contiguous (use np.ascontiguousarray "
                         "and copy the result back)")
    if not value.flags.writeable:
        raise ValueError(f"{where}: the array is read-only; the launch copies results back "
                         "into it")
    return value


def pack(kernel, arg_meta, values):
    """Checks `values` (one per explicit argument, in order) against the
    metadata `arg_meta` (objects with name, value_kind, offset, size,
    type_name; hidden_* entries are skipped) and packs them. Raises TypeError
    / ValueError naming the kernel and the argument by index and name."""
    explicit = [m for m in arg_meta if not m.value_kind.startswith("hidden_")]
    if isinstance(values, (np.ndarray, str, bytes)) or not hasattr(values, "__len__"):
        raise TypeError(f"args must be a list or tuple of the kernel's arguments, got "
                        f"{type(values).__name__}")
    values = list(values)
    if any((m.type_name or "").startswith("memref<") for m in explicit):
        # A kernel lowered from MLIR: one array per memref (aster.lowering).
        from .lowering.signature import expand
        values = list(expand(kernel, explicit, values))
    if len(values) != len(explicit):
        names = ", ".join(f"{m.name or '#' + str(i)} ({m.value_kind})"
                          for i, m in enumerate(explicit)) or "none"
        raise TypeError(f"kernel '{kernel}' takes {len(explicit)} arguments ({names}); "
                        f"got {len(values)}")
    size = max((m.offset + m.size for m in explicit), default=0)
    data = bytearray(size)
    buffers = []
    for i, (m, val) in enumerate(zip(explicit, values)):
        if m.value_kind == "global_buffer":
            buffers.append(BufferArg(i, m.name, m.offset, _check_array(kernel, i, m, val)))
        elif m.value_kind == "by_value":
            data[m.offset:m.offset + m.size] = _pack_scalar(kernel, i, m, val)
        else:
            raise TypeError(f"{_where(kernel, i, m)}: value kind '{m.value_kind}' is not "
                            "supported by aster.launch (only global_buffer and by_value)")
    return Packed(data, buffers)


def raw(data, pointers, names=None):
    """A kernarg blob built by the caller (e.g. a packed C struct, as AMD's
    interface code passes with HIP_LAUNCH_PARAM_BUFFER_POINTER), with the
    arrays whose device addresses go at byte offsets: `pointers` maps an
    offset to a NumPy array or None (a null pointer); `names` (offset ->
    str, optional) names them in error messages. `aster.launch` takes the
    result as its `args` and uses the bytes as they are, without the code
    object's metadata."""
    data = bytes(data)
    names = names or {}
    buffers = []
    for i, (offset, array) in enumerate(sorted(pointers.items(), key=lambda kv: kv[0])):
        if isinstance(offset, bool) or not isinstance(offset, (int, np.integer)) \
                or not 0 <= offset <= len(data) - 8:
            raise ValueError(f"pointer offset {offset!r} is not inside the {len(data)}-byte "
                             "kernarg blob")
        if buffers and offset < buffers[-1].offset + 8:
            raise ValueError(f"pointer slots at {buffers[-1].offset} and {offset} overlap")
        name = str(names.get(offset, f"@{offset}"))
        meta = _RawPointer(name)
        buffers.append(BufferArg(i, name, int(offset), _check_array("raw kernargs", i, meta, array)))
    return Packed(data, buffers)


@dataclass(frozen=True)
class _RawPointer:
    """What _check_array reports about a pointer slot of a raw blob."""
    name: str
    type_name: str = "pointer"
