"""`aster.launch`: run a kernel of a code object on aster's emulator or a
real AMD GPU (hip-python), with NumPy arrays and scalars as arguments.

    c = np.zeros(n, np.float32)
    r = aster.launch(hsaco, "vector_add", grid=(n // 64,), block=64,
                     args=[a, b, c, np.int32(n)])
    r.wave_instructions, r.valu, r.seconds      # c now holds the result

`code` is hsaco bytes, an `aster.Compiled`, or an `aster.Module` (compiled
without passes). `grid` counts workgroups per dimension, `block` work-items
per workgroup (an int or a 1-3 tuple). Arrays bound to pointer arguments are
copied in and, after a successful run only, copied back into the same
arrays. The kernarg layout comes from the code object's metadata
(`aster.kernargs.pack`, shared by every backend).
"""
import numpy as np

from . import _emu
from ._emu import EmulatorError
from .kernargs import Packed, pack
from .launch_common import LaunchResult, _distinct_arrays, _load

__all__ = ["launch", "LaunchResult", "EmulatorError", "load_code_object", "BACKENDS"]

BACKENDS = ("emu", "hip", "auto")
_UNINIT = ("error", "warn", "ignore")


def _dims(value, what):
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        value = (value,)
    if not isinstance(value, (tuple, list)) or not 1 <= len(value) <= 3:
        raise TypeError(f"{what} must be an int or a tuple of 1 to 3 ints, got {value!r}")
    out = []
    for x in value:
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
            raise TypeError(f"{what} must be an int or a tuple of 1 to 3 ints, got {value!r}")
        if not 1 <= int(x) < 2**32:
            raise ValueError(f"{what} dimensions must be in [1, 2**32), got {value!r}")
        out.append(int(x))
    return tuple(out + [1] * (3 - len(out)))


def _hsaco(code):
    """hsaco bytes from bytes, an aster.Compiled or an aster.Module."""
    from .compiler import Compiled, compile
    from .module import Module
    if isinstance(code, (bytes, bytearray, memoryview)):
        return bytes(code)
    if isinstance(code, Compiled):
        return code.hsaco
    if isinstance(code, Module):
        return compile(code).hsaco
    raise TypeError("code must be hsaco bytes, an aster.Compiled or an aster.Module, got "
                    f"{type(code).__name__}")


def load_code_object(code):
    """The emulator's view of a code object (`_emu.CodeObject`: processor,
    kernels with their args and register counts, disassemble, unsupported).
    Raises EmulatorError for bytes that are not a valid gfx942 code object."""
    return _load(_hsaco(code))


def _bytes_view(arr):
    return arr.reshape(-1).view(np.uint8)


def _launch_emu(hsaco, kernel, grid, block, args, strict, uninitialized, budget,
                threads, dynamic_lds, trace_limit, timing, slack, interleave, device,
                data_in_mall=False):
    co = _load(hsaco)
    info = co.kernel(kernel)
    packed = args.for_kernel(info) if isinstance(args, Packed) else pack(kernel, info.args, args)
    arrays, where = _distinct_arrays(packed.buffers)
    dev = _emu.Device()
    addrs = []
    for i, arr in enumerate(arrays):
        name = next(b.name for b, w in zip(packed.buffers, where) if w == i)
        addrs.append(dev.allocate(arr.nbytes, name, slack))
        if arr.nbytes:
            dev.write(addrs[-1], _bytes_view(arr))
    kernargs = packed.bytes_with([0 if w is None else addrs[w] for w in where])
    try:
        st = dev.launch(co, kernel, grid, block, kernargs, strict=strict,
                        uninitialized=uninitialized, instruction_budget=budget,
                        threads=threads, dynamic_lds=dynamic_lds, trace_limit=trace_limit,
                        timing=timing, slice_instructions=interleave,
                        device=device or "", data_in_mall=data_in_mall)
    except EmulatorError as e:      # name the Python option, not the C++ one
        msg = str(e)
        if "LaunchOptions::instructionBudget" in msg:
            raise EmulatorError(msg.replace("LaunchOptions::instructionBudget",
                                            "aster.launch(budget=...)")) from None
        raise
    # Success: copy every buffer back (all reads first, so a failure here
    # cannot leave the arrays half updated).
    results = [dev.read(a, arr.nbytes) if arr.nbytes else b"" for a, arr in zip(addrs, arrays)]
    for arr, data in zip(arrays, results):
        if arr.nbytes:
            _bytes_view(arr)[:] = np.frombuffer(data, np.uint8)
    trace, cycles, us = list(st.trace), None, None
    if timing:
        from .timing import Trace
        trace = Trace(st.timing, kernel)
        trace.lines = list(st.trace)
        cycles, us = trace.cycles, trace.microseconds
    return LaunchResult(
        "emu", kernel, grid, block, st.seconds, st.wave_instructions, st.salu, st.valu,
        st.smem, st.vmem, st.lds, st.mfma, st.branch, st.workgroups, st.waves,
        list(st.warnings), trace, cycles, us)


def launch(code, kernel, grid, block, args=(), backend="emu", *, strict=True,
           uninitialized="error", budget=2_000_000_000, threads=1, dynamic_lds=0,
           trace_limit=0, timing=False, slack=0, interleave=4096, device=None,
           data_in_mall=False):
    """Runs `kernel` of `code` over `grid` workgroups of `block` work-items.

    code      hsaco bytes, an aster.Compiled, or an aster.Module
    grid      workgroups per dimension: int or 1-3 tuple
    block     work-items per workgroup: int or 1-3 tuple
    args      the kernel's explicit arguments in order: C-contiguous, writeable
              NumPy arrays for pointer arguments (copied in, copied back after
              a successful run; None is a null pointer), Python/NumPy scalars
              for by-value arguments (checked against the metadata's type);
              or an aster.kernargs.Packed (aster.kernargs.raw: a kernarg
              blob packed by the caller, e.g. AMD's packed KernelArgs
              structs, used as it is with the arrays at its pointer offsets)
    backend   "emu" (aster's emulator), "hip" (a ROCm GPU through hip-python),
              "auto" (hip when it imports and sees a device, else emu)
    Emulator options: strict (waitcnt/OOB/uninitialized-register checks),
    uninitialized ("error", "warn", "ignore"), budget (wave-instructions,
    0 = unlimited), threads (worker threads for workgroups), dynamic_lds
    (bytes, also used by hip), trace_limit (record the first N instructions),
    timing (run the timing model: the result's `cycles` and `trace`, an
    aster.timing.Trace; s_memtime/s_memrealtime return simulated time; one
    worker thread), slack (bytes after each array that the kernel may read,
    as zeros, but not write, as a framework's caching allocator leaves
    readable memory after a tensor; 0 = reads past an array's end are
    errors. AMD's asm kernels read whole tiles past the last row),
    interleave (instructions a wave runs before the next wave of its
    workgroup takes a turn, up to its next s_barrier; 1 = instruction by
    instruction as the hardware issues, slower; kernels that order LDS
    accesses of different waves between barriers by timing need it small),
    device (the timing model's device profile, a name of
    aster.timing.devices(); None: the code object's target's flagship,
    gfx942 "mi300x", gfx950 "mi355x"), data_in_mall (timing: the launch's
    data starts in the device's Infinity Cache, as after recent launches that
    read the same buffers when all of them fit in it, e.g. aiter's perftest
    rotating 101 copies of small tensors: lines come from the MALL, not HBM;
    needs timing=True).

    Returns a LaunchResult. Raises EmulatorError (a RuntimeError) when the
    emulator rejects the code object or the kernel faults, TypeError /
    ValueError for bad arguments; the arrays are unchanged on any failure.
    """
    if not isinstance(kernel, str):
        raise TypeError(f"kernel must be the kernel's name (a str), got {type(kernel).__name__}")
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}; got {backend!r}")
    grid, block = _dims(grid, "grid"), _dims(block, "block")
    if uninitialized not in _UNINIT:
        raise ValueError(f"uninitialized must be one of {', '.join(_UNINIT)}; got {uninitialized!r}")
    for name, val in (("budget", budget), ("threads", threads), ("dynamic_lds", dynamic_lds),
                      ("trace_limit", trace_limit), ("interleave", interleave)):
        if isinstance(val, bool) or not isinstance(val, (int, np.integer)) or val < 0:
            raise ValueError(f"{name} must be a non-negative int, got {val!r}")
    if threads < 1 or interleave < 1:
        raise ValueError(f"threads and interleave must be at least 1, got {threads}, {interleave}")
    if isinstance(slack, bool) or not isinstance(slack, (int, np.integer)) or not \
            0 <= slack <= 1 << 32:
        raise ValueError(f"slack must be an int in [0, 2**32] (bytes), got {slack!r}")
    if device is not None:
        from .timing import devices
        if device not in devices():
            raise ValueError(f"device must be one of {', '.join(devices())}; got {device!r}")
    if not isinstance(data_in_mall, (bool, np.bool_)):
        raise ValueError(f"data_in_mall must be a bool, got {data_in_mall!r}")
    if data_in_mall and not timing:
        raise ValueError("data_in_mall=True describes the timing model's caches: it needs "
                         "timing=True")
    hsaco = _hsaco(code)
    if backend == "auto":
        from . import hip_backend
        backend = "hip" if hip_backend.device_count() > 0 else "emu"
    if backend == "hip":
        if timing:
            raise ValueError("timing=True needs the emulator (backend='emu')")
        from . import hip_backend
        return hip_backend.launch(hsaco, kernel, grid, block, args, dynamic_lds, slack)
    return _launch_emu(hsaco, kernel, grid, block, args, bool(strict), uninitialized,
                       int(budget), int(threads), int(dynamic_lds), int(trace_limit),
                       bool(timing), int(slack), int(interleave), device,
                       bool(data_in_mall))
