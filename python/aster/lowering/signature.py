"""A lowered kernel's source signature: memrefs filled from NumPy arrays.

MLIR's ROCDL calling convention (what convert-gpu-to-rocdl and amdgcn-lower
both produce): when every memref argument has a static shape and identity
layout, a memref is one pointer (`use-bare-ptr-memref-call-conv`);
otherwise it is its descriptor: allocated pointer, aligned pointer, offset,
sizes, strides (i64, in elements). `index` arguments are i64.
"""
import re

import numpy as np

_DTYPES = {"f32": np.float32, "i32": np.int32, "f16": np.float16, "i64": np.int64,
           "index": np.int64, "f64": np.float64}


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
                raise ValueError(f"argument type {text} is not supported")
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
            raise TypeError(f"{self.kernel} takes {len(self.params)} arguments "
                            f"({', '.join(p.text for p in self.params)}), got {len(values)}")
        out = []
        for i, (p, v) in enumerate(zip(self.params, values)):
            if not p.memref:
                out.append(p.dtype.type(v))
                continue
            if not isinstance(v, np.ndarray):
                raise TypeError(f"{self.kernel}: argument {i} ({p.text}) needs a NumPy array, "
                                f"got {type(v).__name__}")
            if v.dtype != p.dtype:
                raise TypeError(f"{self.kernel}: argument {i} ({p.text}) needs dtype "
                                f"{p.dtype}, got {v.dtype}")
            if v.ndim != len(p.shape) or any(s is not None and s != n
                                             for s, n in zip(p.shape, v.shape)):
                raise ValueError(f"{self.kernel}: argument {i} ({p.text}) does not accept "
                                 f"an array of shape {v.shape}")
            if not v.flags.c_contiguous:
                raise ValueError(f"{self.kernel}: argument {i} must be C-contiguous")
            if self.bare:
                out.append(v)
                continue
            strides = [s // v.itemsize for s in v.strides]
            # The allocated pointer is never dereferenced: a one-element stand-in.
            out += [np.zeros(1, v.dtype), v, np.int64(0)]
            out += [np.int64(n) for n in v.shape] + [np.int64(s) for s in strides]
        return out
