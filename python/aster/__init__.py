"""aster: write, transform, inspect and run AMD GPU assembly with exact control.

    import aster
    from aster import v
    m = aster.Module("gfx942")
    k = m.kernel("add_10", block=(64, 1, 1))
    for _ in range(10):                 # Python loops unroll
        k.v_add_u32(v[1], v[0], v[1])   # one method per instruction of the table
    k.s_endpgm()
    out = aster.compile(m)              # no passes: the asm is what you built
    print(out.asm)                      # also out.hsaco, out.metadata, out.save(dir)

Public API
  Module(target, name), Module.kernel(name, args, block, lds, ...) -> Kernel
  Kernel.<instruction>(...), label/bind/here, loop, load_arg, arg, kernarg_ptr,
    workitem_id, workgroup_id, setup_sgpr
  register-level functions: f = Module.function(name, params=[VGPR(), v[3]],
    results=[AGPR(4)]) -> Function (same instruction methods; f.params Values;
    f.ret(*values)); @aster.function(params, results) on def body(f, *params);
    k.call(f, *args) -> tuple of Values (inlined by amdgcn-inline, which compile
    runs); Module.include(other), load_library(path.mlir); aster.nanokernels: MFMA tile
    steps, LDS tile copy and fragment loads, wave sums (see aster/nanokernels)
  registers: v[i], v[i:j], s[...], a[...], VGPR(n)/SGPR(n)/AGPR(n), vcc, exec, m0, scc
  virtual registers: x = k.v_add_u32(VGPR(), ...) returns a Value; acc[4:8] / acc[3]
    read registers of a virtual range (amdgcn.part, aligned); loops carry them
    with `with k.loop(s[8], n, carry=[x]) as L: y = ...(L.carry[0]); L.next(y)`;
    compile(module, pipeline="amdgcn-regalloc") allocates them (without it, an
    AsterError says so); .metadata[kernel].regalloc has registers used vs MaxLive
  ptr(dtype) for pointer arguments; NumPy dtypes for scalars
  compile(module, pipeline=None) -> Compiled(.asm, .hsaco, .mlir, .metadata, .save)
    pipeline="amdgcn-regalloc,amdgcn-waitcnt,amdgcn-hazards": registers, then the
    s_waitcnts (none need be written; .metadata[kernel].waitcnt counts them), then
    hazard s_nops
  parse(text) -> Module; run_pipeline(module, pipeline); passes()
  assemble(text, target), disassemble(bytes, target); isa.instructions(target)
  launch(code, kernel, grid, block, args, backend="emu", strict=True,
    uninitialized="error", budget=..., threads=1) -> LaunchResult(.wave_instructions,
    .valu, .salu, .mfma, ..., .seconds, .warnings): runs a kernel of hsaco bytes, a
    Compiled or a Module on the emulator ("emu"), a ROCm GPU ("hip", hip-python) or
    whichever is present ("auto"); NumPy arrays for pointer arguments (copied back
    after a successful run), scalars for by-value ones (kernargs.pack checks them);
    timing=True runs MI300X's timing model too: .cycles and .trace (aster.timing.Trace:
    .summary(), .save_perfetto(path), .plot(path))
  raise_asm(text, target=None), raise_code_object(hsaco) -> Module: existing assembly /
    code objects as IR (descriptor and metadata kept); compile() gives the same bytes;
    module.kernels are RaisedKernels: .ops (Op: .name .operands .results .attributes
    .location .asm .erase()), `with k.insert_before(op): k.s_nop(0)`, insert_after
  Instruction order: compile(m, "amdgcn-schedule,amdgcn-regalloc,amdgcn-waitcnt,
    amdgcn-hazards") list-schedules each block (.metadata[kernel].schedule: estimated
    cycles and MaxLive before/after); by hand: `with k.stream() as st:` captures,
    k.interleave(streams, delay=, rate=) / order=, k.unroll(shape, body, key),
    k.pipeline(n, stages), k.pipeline_loop(counter, n, stages, state, advance),
    `with k.no_reorder():`, k.sched_barrier() (aster.schedule)
  check_equivalent(m1, m2, kernel, arg_factory, trials) -> trials: same results on
    the strict emulator for random inputs, else NotEquivalent
  load_code_object(code) -> the emulator's view: .processor, .kernels (args, register
    counts, LDS), .disassemble(kernel), .unsupported(kernel)
  AsterError (bad IR/operands; a ValueError), AsterTypeError (wrong Python types;
    both an AsterError and a TypeError), EmulatorError (a RuntimeError: a code object
    the emulator rejects, or a fault with kernel, pc, instruction, wave, lane, address)

    c = np.zeros(n, np.float32)
    r = aster.launch(hsaco, "vector_add", grid=n // 64, block=64, args=[a, b, c, n])
"""
import os as _os

from ._clash import check as _check_no_other_aster
_check_no_other_aster(_os.path.dirname(_os.path.abspath(__file__)))

from . import _aster  # noqa: E402
from ._aster import AsterError, AsterTypeError, assemble, disassemble  # noqa: E402

_aster._set_internal_prefix(_os.path.dirname(_os.path.abspath(__file__)) + _os.sep)

from . import isa  # noqa: E402
from .registers import (  # noqa: E402
    Reg, Value, v, s, a, VGPR, SGPR, AGPR, vcc, vcc_lo, vcc_hi, exec, exec_lo, exec_hi,
    m0, scc, flat_scratch, flat_scratch_lo, flat_scratch_hi)
from .args import ptr, KernelArg  # noqa: E402
from .kernel import Kernel, Loop  # noqa: E402
from .module import Module, parse, load_library, TARGETS  # noqa: E402
from .functions import Function, FunctionRef, function  # noqa: E402
from .compiler import compile, Compiled, KernelMetadata  # noqa: E402
from .runtime import launch, LaunchResult, EmulatorError, load_code_object  # noqa: E402
from . import timing  # noqa: E402
from .raising import raise_asm, raise_code_object  # noqa: E402
from .editing import RaisedKernel  # noqa: E402
from ._aster import Op  # noqa: E402
from . import schedule  # noqa: E402
from .equivalence import check_equivalent, NotEquivalent  # noqa: E402
from .globals import Global, Reloc  # noqa: E402

__all__ = [
    "AsterError", "AsterTypeError", "Module", "Kernel", "Loop", "parse", "compile",
    "Compiled", "KernelMetadata", "KernelArg", "run_pipeline", "passes", "assemble",
    "disassemble", "isa", "ptr", "Reg", "Value", "v", "s", "a", "VGPR", "SGPR", "AGPR",
    "vcc", "vcc_lo", "vcc_hi", "exec", "exec_lo", "exec_hi", "m0", "scc",
    "flat_scratch", "flat_scratch_lo", "flat_scratch_hi", "TARGETS", "launch",
    "LaunchResult", "EmulatorError", "load_code_object", "raise_asm", "raise_code_object",
    "RaisedKernel", "Op", "timing", "Function", "FunctionRef", "function", "load_library",
    "schedule", "check_equivalent", "NotEquivalent", "Global", "Reloc", "lower",
]


def lower(source, target="gfx942", libraries=()):
    """Lowers upstream MLIR GPU kernels (gpu.modules) to {name: aster.Module}
    (aster.lowering, docs/lowering.md); `libraries`: aster Modules whose
    amdgcn.funcs the kernels call with func.call."""
    from .lowering import lower as _lower
    return _lower(source, target, libraries)


def __getattr__(name):
    """Every public submodule and subpackage (aster.ops, aster.aiter, ...) is
    an attribute after `import aster`, imported on first use (PEP 562) so that
    `import aster` does not pay for the costly ones."""
    import importlib
    import importlib.util
    if name.isidentifier() and not name.startswith("_") and \
            importlib.util.find_spec(f"{__name__}.{name}") is not None:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    import pkgutil
    import sys
    subs = [m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")]
    return sorted(set(vars(sys.modules[__name__])) | set(subs))


def passes():
    """aster's passes as (name, documentation) pairs, usable in pipelines."""
    return _aster.passes()


def run_pipeline(module, pipeline, verify=True):
    """Runs a pass pipeline (aster-opt syntax) on `module` in place. For an
    aster.Module, its kernels can no longer be extended; `compile(module,
    pipeline)` instead works on a copy. `verify=False` skips the verifier
    after each pass (to time the passes alone; `module.verify()` checks
    later)."""
    if isinstance(module, Module):
        return module.run_pipeline(pipeline, verify)
    return _aster.run_pipeline(module, pipeline, verify)
