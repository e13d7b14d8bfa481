"""`aster.launch(..., backend="hip")`: the same launch on a real AMD GPU
through hip-python (`from hip import hip`), imported lazily: hip-python needs
a ROCm runtime and is not one of aster's requirements.

The code object is loaded from memory (hipModuleLoadData), arrays go to
hipMalloc'd buffers, the kernarg bytes are the ones `aster.kernargs.pack`
builds for the emulator too (passed through `extra` as
HIP_LAUNCH_PARAM_BUFFER_POINTER/SIZE; the runtime adds the hidden
arguments), hipEvents time the kernel, results are copied back into the
arrays after a successful run, and everything is freed in `finally`.
"""
import ctypes

import numpy as np

__all__ = ["available", "device_count", "launch", "HipError"]

# hip_runtime_api.h: markers of the `extra` array of hipModuleLaunchKernel.
_PARAM_BUFFER_POINTER, _PARAM_BUFFER_SIZE, _PARAM_END = 1, 2, 3


class HipError(RuntimeError):
    """A HIP runtime call failed, or hip-python / a device is missing."""


def _hip():
    try:
        from hip import hip
    except ImportError as e:
        raise HipError("backend='hip' needs hip-python (`from hip import hip`) and a ROCm "
                       f"runtime; it is not importable here ({e}). Use backend='emu' or "
                       "'auto'.") from None
    return hip


def available():
    """(True, "") when hip-python imports and sees a device, else (False, reason)."""
    try:
        n = device_count(raise_errors=True)
    except HipError as e:
        return False, str(e)
    if n == 0:
        return False, "no ROCm device (hip-python is importable but reports 0 devices)"
    return True, ""


def device_count(raise_errors=False):
    """Number of HIP devices; 0 when hip-python is missing or HIP fails."""
    try:
        hip = _hip()
        return _call(hip, "hipGetDeviceCount")
    except HipError:
        if raise_errors:
            raise
        return 0


def _call(hip, name, *args):
    """hip.NAME(*args) with hip-python's (error, results...) convention:
    raises HipError on failure, returns the result (or tuple of results)."""
    out = getattr(hip, name)(*args)
    if not isinstance(out, tuple):
        out = (out,)
    err, rest = out[0], out[1:]
    if err != hip.hipError_t.hipSuccess:
        text = ""
        try:
            t = hip.hipGetErrorString(err)
            text = t.decode() if isinstance(t, bytes) else str(t)
        except Exception:       # the error string is a nicety
            pass
        raise HipError(f"{name} failed: {getattr(err, 'name', err)} {text}".strip())
    return rest[0] if len(rest) == 1 else (rest or None)


def _address(p):
    """The device address of what hipMalloc returned (a hip-python Pointer /
    DeviceArray: int() where supported, else its CUDA array interface)."""
    try:
        return int(p)
    except TypeError:
        return int(p.__cuda_array_interface__["data"][0])


def launch(hsaco, kernel, grid, block, args, dynamic_lds=0, slack=0):
    """Runs `kernel` of `hsaco` on HIP device 0; see aster.launch (`slack`:
    each array's allocation is that many bytes longer, zero-filled; the GPU
    does not fault on writes there)."""
    from .kernargs import Packed, pack
    from .launch_common import LaunchResult, _distinct_arrays, _load
    hip = _hip()
    if device_count() == 0:
        raise HipError("backend='hip': no ROCm device (hip-python reports 0 devices)")
    info = _load(bytes(hsaco)).kernel(kernel)   # metadata: the kernarg layout
    packed = args.for_kernel(info) if isinstance(args, Packed) else pack(kernel, info.args, args)
    arrays, where = _distinct_arrays(packed.buffers)
    module = start = stop = None
    dptrs = []
    try:
        module = _call(hip, "hipModuleLoadData", hsaco)
        func = _call(hip, "hipModuleGetFunction", module, kernel.encode())
        h2d = hip.hipMemcpyKind.hipMemcpyHostToDevice
        d2h = hip.hipMemcpyKind.hipMemcpyDeviceToHost
        for arr in arrays:
            dptrs.append(_call(hip, "hipMalloc", max(arr.nbytes + slack, 1)))
            if slack:
                _call(hip, "hipMemset", dptrs[-1], 0, arr.nbytes + slack)
            if arr.nbytes:
                _call(hip, "hipMemcpy", dptrs[-1], arr, arr.nbytes, h2d)
        addrs = [0 if w is None else _address(dptrs[w]) for w in where]
        data = packed.bytes_with(addrs)
        buf = ctypes.create_string_buffer(data, max(len(data), 8))
        size = ctypes.c_size_t(len(data))
        extra = (ctypes.c_void_p * 5)(_PARAM_BUFFER_POINTER, ctypes.addressof(buf),
                                      _PARAM_BUFFER_SIZE, ctypes.addressof(size), _PARAM_END)
        start = _call(hip, "hipEventCreate")
        stop = _call(hip, "hipEventCreate")
        _call(hip, "hipEventRecord", start, None)
        _call(hip, "hipModuleLaunchKernel", func, *grid, *block, dynamic_lds, None, None,
              ctypes.c_void_p(ctypes.addressof(extra)))
        _call(hip, "hipEventRecord", stop, None)
        _call(hip, "hipEventSynchronize", stop)
        ms = _call(hip, "hipEventElapsedTime", start, stop)
        staged = []
        for arr, d in zip(arrays, dptrs):           # all reads before any array changes
            out = np.empty_like(arr)
            if arr.nbytes:
                _call(hip, "hipMemcpy", out, d, arr.nbytes, d2h)
            staged.append(out)
        for arr, out in zip(arrays, staged):
            arr[...] = out
        return LaunchResult("hip", kernel, grid, block, float(ms) / 1e3)
    finally:
        for ev in (start, stop):
            if ev is not None:
                hip.hipEventDestroy(ev)
        for d in dptrs:
            hip.hipFree(d)
        if module is not None:
            hip.hipModuleUnload(module)
