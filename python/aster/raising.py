"""Raising: existing assembly and code objects into aster IR.

    m = aster.raise_code_object(open("k.hsaco", "rb").read())
    m = aster.raise_asm(open("k.s").read())          # target from .amdgcn_target
    out = aster.compile(m)                           # same code bytes, descriptors, metadata

Kernels keep their descriptor (every field, as `.amdhsa_*` values) and their
metadata (arguments with offsets, sizes, value kinds, hidden arguments
included) as attributes; instructions become the table's ops on allocated
registers, labels blocks. An instruction the table does not know raises
AsterError naming its line (or pc) and text; `unknown="keep"` keeps it
instead as an opaque `amdgcn.data` op (its text or encoding), which passes do
not look into. A code object's functions without a kernel descriptor (HIP
device functions clang did not inline, called with s_swappc_b64) become
`amdgcn.device_function` ops at their place, written back at the same
addresses. Global variables (data sections) become `amdgcn.global` ops, and
the addresses code computes from the PC (`s_getpc_b64` / `s_add_u32` /
`s_addc_u32`, for globals and calls) symbolic `sym@rel32@lo+4` operands
(`amdgcn.reloc`), so that edited code still finds them (see aster.globals).

Hand-written code objects (AMD's aiter kernels: `make raise-aiter` round-trips
every one in the amd-aiter wheel) have kernel symbols without a size: a kernel
then runs to the next function or the end of the code, and the padding after
its last s_endpgm is kept as words. The few instructions whose bits LLVM's
disassembly does not print (so that its text would assemble to other bytes)
are kept as their words too, as `amdgcn.data` with the text as a note.
"""
from . import _aster
from .editing import attach_kernels
from .module import Module, TARGETS

__all__ = ["raise_asm", "raise_code_object"]


def _keep(unknown):
    if unknown not in ("error", "keep"):
        raise ValueError(f"unknown must be 'error' or 'keep', got {unknown!r}")
    return unknown == "keep"


def raise_asm(text, target=None, *, unknown="error", name="<asm>", include_dir=None):
    """Raises assembler text (as clang -S or a person writes it) into a Module.
    `target` (gfx942, gfx950, gfx1201) defaults to the text's .amdgcn_target.

    The text is read as llvm-mc-22 reads it: `.macro`, `.rept`/`.irp`/`.irpc`,
    `.set`/`.equ`/`=` symbols (register numbers too: `v[vA]`), `.if` and
    friends, `/* */` comments and `.include "f"` (f looked up in `include_dir`,
    by default the directory of `name` when `name` is a path). Each op's
    location names its source line, and for an expanded line the macro calls
    that made it; so do the messages of AsterError."""
    if not isinstance(text, str):
        raise TypeError(f"raise_asm() takes the assembly as a str, got {type(text).__name__}")
    if target is not None and target not in TARGETS:
        raise ValueError(f"unknown target {target!r} (expected one of {', '.join(TARGETS)})")
    dirs = [] if include_dir is None else [str(include_dir)]
    return attach_kernels(Module._wrap(_aster.raise_asm(text, target or "", _keep(unknown),
                                                          name, dirs)))


def raise_code_object(data, *, unknown="error", name="<code object>"):
    """Raises every kernel of a code object (hsaco bytes) into a Module."""
    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    if not isinstance(data, bytes):
        raise TypeError(f"raise_code_object() takes bytes, got {type(data).__name__}")
    return attach_kernels(Module._wrap(_aster.raise_code_object(data, _keep(unknown), name)))
