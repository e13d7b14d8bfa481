"""Lowering of upstream MLIR GPU kernels to aster modules (issue 26).

    mods = aster.lower(text_or_path, target="gfx942")   # {gpu.module name: aster.Module}
    out = aster.compile(mods["kernels"], aster.lowering.PIPELINE)
    sig = aster.lowering.signature(mods["kernels"], "add")
    aster.launch(out, "add", grid=4, block=64, args=sig.args(a, b, c))

The C++ pass is `amdgcn-lower` (cc/lower/Lower.h says what it needs before
and guarantees after; docs/lowering.md lists the ops). Each kernel keeps its
gpu.func name; its arguments follow MLIR's ROCDL calling convention, so the
same `sig.args(...)` launch LLVM's build of the kernel (`aster.lowering.llvm`).
"""
import os

from .. import _aster
from ..module import Module
from .signature import Signature

__all__ = ["lower", "PIPELINE", "Signature", "signature"]

#: aster's passes after amdgcn-lower, as for Python kernels.
PIPELINE = "amdgcn-regalloc,amdgcn-waitcnt,amdgcn-hazards"


def lower(source, target="gfx942", libraries=()):
    """Lowers the gpu.modules of upstream MLIR (text, or a path to a .mlir
    file) to {name: aster.Module}, one per gpu.module. Ops it cannot lower
    raise AsterError naming the op and its location.

    A kernel calls a register-level function with `func.call @f(...)` (@f
    declared in its gpu.module as a `func.func private`): @f is an
    amdgcn.func of an `amdgcn.module` in the same text, or of one of
    `libraries` (aster Modules, e.g. holding aster.nanokernels pieces);
    aster.compile inlines the call (docs/lowering.md, "Mixing")."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source
                                           and source.endswith(".mlir")):
        name = os.fspath(source)
        with open(name) as f:
            source = f.read()
    elif isinstance(source, str):
        name = "<string>"
    else:
        raise TypeError(f"lower() takes MLIR text or a path, got {type(source).__name__}")
    if not isinstance(target, str):
        raise TypeError(f"target must be a str, got {type(target).__name__}")
    libs = []
    for lib in (libraries,) if isinstance(libraries, Module) else libraries:
        if not isinstance(lib, Module):
            raise TypeError(f"libraries must be aster Modules, got {type(lib).__name__}")
        libs.append(lib.mlir())
    out = {}
    for mname, raw, sigs in _aster.lower(source, target, name, libs):
        m = Module._wrap(raw)
        m.signatures = {k: Signature(k, types) for k, types in sigs}
        out[mname] = m
    return out


def signature(module, kernel):
    """The source signature of a lowered kernel (a Signature)."""
    sigs = getattr(module, "signatures", None)
    if not sigs or kernel not in sigs:
        raise ValueError(f"{kernel!r} is not a kernel lowered by aster.lower")
    return sigs[kernel]
