"""A lowered kernel's source signature: memrefs filled from NumPy arrays.

MLIR's ROCDL calling convention (what convert-gpu-to-rocdl and amdgcn-lower
both produce): when every memref argument has a static shape and identity
layout, a memref is one pointer (`use-bare-ptr-memref-call-conv`);
otherwise it is its descriptor: allocated pointer, aligned pointer, offset,
sizes, strides (i64, in elements). `index` arguments are i64.

A lowered kernel's code object says where its memrefs are: the metadata's
`.type_name` of each memref's first kernarg slot (the pointer, or the
allocated pointer of a descriptor) is the memref type (amdgcn-lower writes it,
`arg_type_names`). `from_metadata` rebuilds the Signature from that, so
`aster.launch` takes arrays for memrefs of any lowered code object
(`aster.kernargs.pack` calls `expand`).
"""
import re

import numpy as np

from .._aster import AsterError, AsterTypeError

_DTYPES = {"f32": np.float32, "i32": np.int32, "f16": np.float16, "i64": np.int64,
           "index": np.int64, "f64": np.float64, "i8": np.int8, "i16": np.int16}
try:                                       # bf16 arrays are ml_dtypes' bfloat16
    import ml_dtypes
    _DTYPES["bf16"] = ml_dtypes.bfloat16
except ImportError:                        # pragma: no cover
    pass


class Param:
    """One source argument: a memref (shape with None for `?`, dtype) or a scalar."""

    def __init__(self, text):
        self.text = text
        m = re.fullmatch(r"memref<([^,>]*?)(,.*)?>", text)
        if m:
            dims = m.group(1).split("x")
            self.memref = True
            self.dtype = np.dtype(_DTYPES[dims[-1]])
            self.shape = tuple(None if d == "?" else int(d) for d in dims[:-1])
            self.identity = m.group(2) is None
        else:
            if text not in _DTYPES:
                raise AsterError(f"argument type {text} is not supported")
            self.memref = False
            self.dtype = np.dtype(_DTYPES[text])

    @property
    def static(self):
        return self.memref and self.identity and None not in self.shape


class Signature:
    """`args(*values)` turns arrays (for memrefs) and numbers into the
    kernel arguments of aster.launch, checking each array's dtype, rank
    and static sizes."""

    def __init__(self, kernel, types):
        self.kernel = kernel
        self.params = [Param(t) for t in types]
        mem = [p for p in self.params if p.memref]
        self.bare = all(p.static for p in mem)

    def __repr__(self):
        return f"<Signature {self.kernel}({', '.join(p.text for p in self.params)})>"

    def args(self, *values):
        if len(values) != len(self.params):
            raise AsterTypeError(f"{self.kernel} takes {len(self.params)} arguments "
                            f"({', '.join(p.text for p in self.params)}), got {len(values)}")
        out = []
        for i, (p, v) in enumerate(zip(self.params, values)):
            if not p.memref:
                out.append(p.dtype.type(v))
                continue
            if not isinstance(v, np.ndarray):
                raise AsterTypeError(f"{self.kernel}: argument {i} ({p.text}) needs a NumPy array, "
                                f"got {type(v).__name__}")
            if v.dtype != p.dtype:
                raise AsterTypeError(f"{self.kernel}: argument {i} ({p.text}) needs dtype "
                                f"{p.dtype}, got {v.dtype}")
            if v.ndim != len(p.shape) or any(s is not None and s != n
                                             for s, n in zip(p.shape, v.shape)):
                raise AsterError(f"{self.kernel}: argument {i} ({p.text}) does not accept "
                                 f"an array of shape {v.shape}")
            if not v.flags.c_contiguous:
                raise AsterError(f"{self.kernel}: argument {i} ({p.text}) must be C-contiguous")
            if self.bare:
                out.append(v)
                continue
            strides = [s // v.itemsize for s in v.strides]
            # The allocated pointer is never dereferenced: a one-element stand-in.
            out += [np.zeros(1, v.dtype), v, np.int64(0)]
            out += [np.int64(n) for n in v.shape] + [np.int64(s) for s in strides]
        return out


def from_metadata(kernel, explicit):
    """The source Signature of a lowered kernel from its code object's
    explicit argument metadata (objects with type_name), or None when no
    argument is a memref (not a lowered kernel, or no memrefs)."""
    names = [m.type_name or "" for m in explicit]
    if not any(n.startswith("memref<") for n in names):
        return None
    memrefs = [Param(n) for n in names if n.startswith("memref<")]
    bare = all(p.static for p in memrefs)
    types, i = [], 0
    while i < len(names):
        types.append(names[i])
        if names[i].startswith("memref<") and not bare:
            # allocated, aligned, offset, sizes, strides
            i += 3 + 2 * len(Param(names[i]).shape)
        else:
            i += 1
    if i != len(names):
        raise AsterError(f"kernel '{kernel}': its argument metadata does not follow MLIR's "
                         "ROCDL memref convention")
    return Signature(kernel, types)


def expand(kernel, explicit, values):
    """`values` as the kernel's explicit arguments: a lowered kernel's
    source-form values (one array per memref) go through Signature.args
    (dtype, rank, static sizes checked); anything else is returned as it is."""
    sig = from_metadata(kernel, explicit)
    if sig is None or not isinstance(values, (list, tuple)):
        return values
    if len(values) == len(explicit) and not sig.bare:
        return values                    # already expanded (Signature.args)
    return sig.args(*values)             # checks the count, dtypes, shapes
