"""`aster.compile(module, pipeline=None)`: assembly, code object and metadata.

No pass runs unless a pipeline is given (WYSIWYG). A pipeline is a string of
passes aster-opt knows (`aster.passes()` lists them); it runs on a copy, so
the module you built is unchanged.

The code object is made directly (instructions handed to LLVM MC as MCInsts,
cc/target/DirectEmit.h); the assembly text and the IR are printed only when
`.asm` / `.mlir` are first read. With the environment variable
ASTER_CHECK_DIRECT set to a file path (the test suite sets it), every code
object is also made through assembly text and the two must be byte-identical
(AsterError otherwise); a JSON line per module is appended to that file.
"""
import json
import os
from dataclasses import dataclass

from . import _aster
from .args import KernelArg

__all__ = ["compile", "Compiled", "KernelMetadata"]


@dataclass(frozen=True)
class KernelMetadata:
    """What the code object states about one kernel (descriptor + metadata).
    Register counts are aster's analysis of the code (registers named); for a
    raised kernel the interface (args, kernarg size, LDS, scratch, SGPR setup,
    workgroup size) is what its recorded descriptor and metadata state."""
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
    schedule: dict = None  # what amdgcn-schedule recorded: {cycles_before, cycles_after,
    #                        vgpr_maxlive_before, vgpr_maxlive_after, ..., regions, frozen, moved}

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

    def __init__(self, name, target, raw, hsaco, pipeline):
        self.name, self.target, self.pipeline = name, target, pipeline
        self.hsaco = hsaco
        self._raw, self._asm, self._mlir, self._metadata = raw, None, None, None

    @property
    def metadata(self):
        """{kernel name: KernelMetadata} (read from the compiled IR on first
        access: a tenth of a small kernel's compile time)."""
        if self._metadata is None:
            self._metadata = {d["name"]: KernelMetadata._from(d)
                              for d in _aster.kernel_infos(self._raw)}
        return self._metadata

    @property
    def asm(self):
        """The assembly text (printed on first access)."""
        if self._asm is None:
            self._asm = self._raw.asm()
        return self._asm

    @property
    def mlir(self):
        """The IR compiled, after the pipeline (printed on first access)."""
        if self._mlir is None:
            self._mlir = _aster.print_module(self._raw, False)
        return self._mlir

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
    on a copy first; None runs nothing. When a kernel calls functions,
    amdgcn-inline runs first (unless the pipeline names it)."""
    # aster.Module is a layer above (its compile() calls this): known by its _m.
    if isinstance(module, str):
        src = _aster.parse(module, "<string>")
        name, target = _aster.module_info(src)[::-1]
    elif isinstance(getattr(module, "_m", None), _aster.Module):
        src, name, target = module._m, module.name, module.target
    else:
        raise TypeError(f"compile() takes an aster.Module or IR text, got {type(module).__name__}")
    if pipeline is not None and not isinstance(pipeline, str):
        raise TypeError(f"pipeline must be a str or None, got {type(pipeline).__name__}")
    if not isinstance(module, str):
        module._finish()
    # A copy: the module may be extended later; .asm/.mlir show it as compiled.
    raw = _aster.clone_module(src)
    if _aster.has_calls(raw) and "amdgcn-inline" not in (pipeline or ""):
        # Calls of register-level functions just work: their bodies go in first.
        pipeline = "amdgcn-inline" + ("," + pipeline if pipeline else "")
    if pipeline:
        # The verifier runs once, on the result (below), not after each pass.
        _aster.run_pipeline(raw, pipeline, False)
    return Compiled(name, target, raw, _hsaco(raw), pipeline)


def _hsaco(raw):
    """The code object of a raw module (made directly; see the module doc
    for ASTER_CHECK_DIRECT)."""
    data = raw.hsaco(True)
    log = os.environ.get("ASTER_CHECK_DIRECT")
    if log:
        text = raw.hsaco(False)
        stats = _aster.direct_stats(raw)
        record = {"kernels": stats["kernels"], "text_kernels": stats["text_kernels"],
                  "instructions": stats["instructions"], "identical": data == text,
                  "direct_error": stats.get("error")}
        with open(log, "a") as f:
            f.write(json.dumps(record) + "\n")
        if data != text:
            raise _aster.AsterError(
                "the directly encoded code object differs from the one assembled from "
                f"text ({len(data)} vs {len(text)} bytes)")
    return data
