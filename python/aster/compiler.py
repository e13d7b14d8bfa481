"""`aster.compile(module, pipeline=None)`: assembly, code object and metadata.

No pass runs unless a pipeline is given (WYSIWYG). A pipeline is a string of
passes aster-opt knows (`aster.passes()` lists them); it runs on a copy, so
the module you built is unchanged.
"""
import os
from dataclasses import dataclass

from . import _aster
from .args import KernelArg

__all__ = ["compile", "Compiled", "KernelMetadata"]


@dataclass(frozen=True)
class KernelMetadata:
    """What the code object states about one kernel (descriptor + metadata)."""
    name: str
    target: str
    args: tuple            # KernelArg(name, type name, offset, size, pointer)
    kernarg_size: int      # bytes
    vgpr_count: int        # next free VGPR (with AGPRs on gfx90a+: accum_offset + AGPRs)
    sgpr_count: int        # as the metadata states (next free SGPR + vcc)
    agpr_count: int
    accum_offset: int      # first AGPR in the unified register file (gfx9)
    next_free_vgpr: int
    next_free_sgpr: int
    lds: int               # static LDS bytes (group segment)
    private_segment: int   # scratch bytes per lane
    wavefront_size: int
    block: tuple           # workgroup size (x, y, z)
    workitem_ids: int
    sgpr_setup: tuple      # hardware-initialised SGPRs, in order
    user_sgprs: int
    regalloc: dict = None  # what amdgcn-regalloc recorded: {vgpr, vgpr_maxlive, sgpr,
    #                        sgpr_maxlive, agpr, agpr_maxlive, spills, ...}; None if it did not run
    waitcnt: dict = None   # what amdgcn-waitcnt recorded: {inserted, replaced, author,
    #                        vmcnt, lgkmcnt, expcnt (waits naming each)}; None if it did not run

    @classmethod
    def _from(cls, d):
        args = tuple(KernelArg(a["name"], a["type_name"], a["offset"], a["size"], a["pointer"])
                     for a in d["args"])
        fields = {k: d[k] for k in cls.__dataclass_fields__ if k != "args"}
        fields["sgpr_setup"] = tuple(fields["sgpr_setup"])
        return cls(args=args, **fields)


class Compiled:
    """The result of `aster.compile`: `.asm` (text), `.hsaco` (bytes),
    `.mlir` (the IR compiled, after the pipeline), `.metadata` ({kernel name:
    KernelMetadata}), and `.save(dir)`."""

    def __init__(self, name, target, mlir, asm, hsaco, metadata, pipeline):
        self.name, self.target, self.pipeline = name, target, pipeline
        self.mlir, self.asm, self.hsaco = mlir, asm, hsaco
        self.metadata = metadata

    def __repr__(self):
        return (f"<aster.Compiled {self.name} on {self.target}: "
                f"{', '.join(self.metadata)}; {len(self.hsaco)} bytes of hsaco>")

    def save(self, directory, name=None):
        """Writes NAME.mlir, NAME.s and NAME.hsaco in `directory` (created if
        needed); returns their paths {"mlir": ..., "asm": ..., "hsaco": ...}."""
        name = name or self.name
        os.makedirs(directory, exist_ok=True)
        paths = {k: os.path.join(directory, f"{name}.{ext}")
                 for k, ext in (("mlir", "mlir"), ("asm", "s"), ("hsaco", "hsaco"))}
        with open(paths["mlir"], "w") as f:
            f.write(self.mlir)
        with open(paths["asm"], "w") as f:
            f.write(self.asm)
        with open(paths["hsaco"], "wb") as f:
            f.write(self.hsaco)
        return paths


def compile(module, pipeline=None):
    """Compiles a Module (or IR text) to assembly, a code object and metadata.
    `pipeline` (a pass pipeline string, e.g. "amdgcn.module(some-pass)") runs
    on a copy first; None runs nothing."""
    from .module import Module, parse
    if isinstance(module, str):
        module = parse(module)
    if not isinstance(module, Module):
        raise TypeError(f"compile() takes an aster.Module or IR text, got {type(module).__name__}")
    if pipeline is not None and not isinstance(pipeline, str):
        raise TypeError(f"pipeline must be a str or None, got {type(pipeline).__name__}")
    module._finish()
    raw = module._m
    if pipeline:
        raw = _aster.clone_module(raw)
        _aster.run_pipeline(raw, pipeline)
    asm = raw.asm()
    hsaco = raw.hsaco()
    metadata = {d["name"]: KernelMetadata._from(d) for d in _aster.kernel_infos(raw)}
    return Compiled(module.name, module.target, _aster.print_module(raw, False), asm,
                    hsaco, metadata, pipeline)
