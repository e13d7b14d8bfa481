"""The hip backend's use of the HIP API, without a GPU: a stand-in for
hip-python's `hip.hip` (its documented conventions: calls return
(hipError_t, results...), `extra` is a pointer to the void* array
{HIP_LAUNCH_PARAM_BUFFER_POINTER, &buf, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
HIP_LAUNCH_PARAM_END}) whose device memory and kernels are aster's emulator.
It checks what the real runtime would get: the kernarg buffer and size, the
copies in both directions, and that every allocation, event and module is
released, also on failure. Real-device runs are in test_launch.py (they skip
without a ROCm device)."""
import ctypes
import enum
import sys
import types

import numpy as np
import pytest

import aster
from aster import _emu, hip_backend

from test_launch import SCALARS, VADD, scalars_on_both_backends


class Err(enum.Enum):
    hipSuccess = 0
    hipErrorInvalidValue = 1
    hipErrorLaunchFailure = 719


class Kind(enum.Enum):
    hipMemcpyHostToDevice = 1
    hipMemcpyDeviceToHost = 2


class DevPtr:
    def __init__(self, addr):
        self.addr = addr

    def __int__(self):
        return self.addr


class FakeHip:
    """hip.hip over an emulated device; records live resources."""
    hipError_t, hipMemcpyKind = Err, Kind

    def __init__(self, devices=1):
        self.devices, self.dev = devices, _emu.Device()
        self.live = {"mem": 0, "event": 0, "module": 0}
        self.kernargs = None

    def hipGetDeviceCount(self):
        return Err.hipSuccess, self.devices

    def hipGetErrorString(self, err):
        return err.name.encode()

    def hipModuleLoadData(self, image):
        try:
            co = _emu.CodeObject.load(bytes(image))
        except aster.EmulatorError:
            return Err.hipErrorInvalidValue, None
        self.live["module"] += 1
        return Err.hipSuccess, co

    def hipModuleGetFunction(self, module, name):
        assert isinstance(name, bytes)
        return Err.hipSuccess, (module, name.decode())

    def hipMalloc(self, size):
        self.live["mem"] += 1
        return Err.hipSuccess, DevPtr(self.dev.allocate(size))

    def hipMemcpy(self, dst, src, size, kind):
        if kind is Kind.hipMemcpyHostToDevice:
            self.dev.write(int(dst), np.frombuffer(memoryview(src).cast("B")[:size], np.uint8))
        else:
            assert kind is Kind.hipMemcpyDeviceToHost
            memoryview(dst).cast("B")[:size] = self.dev.read(int(src), size)
        return (Err.hipSuccess,)

    def hipModuleLaunchKernel(self, func, gx, gy, gz, bx, by, bz, shmem, stream, params, extra):
        assert params is None and stream is None
        words = (ctypes.c_void_p * 5).from_address(extra.value)
        assert (words[0], words[2], words[4]) == (1, 2, 3)
        size = ctypes.c_size_t.from_address(words[3]).value
        self.kernargs = ctypes.string_at(words[1], size)
        co, name = func
        try:
            self.dev.launch(co, name, (gx, gy, gz), (bx, by, bz), self.kernargs,
                            dynamic_lds=shmem)
        except aster.EmulatorError:
            return (Err.hipErrorLaunchFailure,)
        return (Err.hipSuccess,)

    def hipEventCreate(self):
        self.live["event"] += 1
        return Err.hipSuccess, object()

    def hipEventRecord(self, ev, stream):
        return (Err.hipSuccess,)

    def hipEventSynchronize(self, ev):
        return (Err.hipSuccess,)

    def hipEventElapsedTime(self, start, stop):
        return Err.hipSuccess, 0.25

    def hipEventDestroy(self, ev):
        self.live["event"] -= 1
        return (Err.hipSuccess,)

    def hipFree(self, p):
        self.live["mem"] -= 1
        self.dev.release(int(p))
        return (Err.hipSuccess,)

    def hipModuleUnload(self, m):
        self.live["module"] -= 1
        return (Err.hipSuccess,)


@pytest.fixture
def fake_hip(monkeypatch):
    fake = FakeHip()
    monkeypatch.setitem(sys.modules, "hip", types.SimpleNamespace(hip=fake))
    return fake


def test_hip_backend_vadd(fake_hip, hip_hsaco):
    hsaco = hip_hsaco(VADD, "vadd")
    n = 700
    a = np.arange(n, dtype=np.float32)
    b = np.full(n, 0.5, np.float32)
    c = np.zeros(n, np.float32)
    r = aster.launch(hsaco, "vadd", 3, 256, [a, b, c, n], backend="hip")
    np.testing.assert_array_equal(c, a + b)
    assert r.backend == "hip" and r.seconds == 0.25e-3 and r.wave_instructions is None
    assert fake_hip.live == {"mem": 0, "event": 0, "module": 0}
    # The kernarg buffer is the explicit arguments, n at its metadata offset.
    assert len(fake_hip.kernargs) == 28
    assert fake_hip.kernargs[24:28] == n.to_bytes(4, "little")


def test_hip_backend_same_bytes_as_the_emulator(fake_hip, hip_hsaco):
    emu, hip = scalars_on_both_backends(hip_hsaco(SCALARS, "scalars"))
    np.testing.assert_array_equal(emu, hip)
    assert int(hip[4]) == (-7) % 2**64


def test_hip_backend_failure_frees_everything_and_keeps_arrays(fake_hip, hip_hsaco):
    hsaco = hip_hsaco(VADD, "vadd")
    a = np.arange(100, dtype=np.float32)
    c = np.full(100, 7.0, np.float32)
    with pytest.raises(hip_backend.HipError, match="hipModuleLaunchKernel failed: "
                                                   "hipErrorLaunchFailure"):
        aster.launch(hsaco, "vadd", 1, 256, [a, a, c, 1000], backend="hip")   # OOB
    assert (c == 7.0).all()
    assert fake_hip.live == {"mem": 0, "event": 0, "module": 0}


def test_auto_picks_hip_when_a_device_is_reported(fake_hip, hip_hsaco):
    hsaco = hip_hsaco(VADD, "vadd")
    a = np.ones(256, np.float32)
    assert aster.launch(hsaco, "vadd", 1, 256, [a, a, a, 256], backend="auto").backend == "hip"
    fake_hip.devices = 0
    assert aster.launch(hsaco, "vadd", 1, 256, [a, a, a, 256], backend="auto").backend == "emu"
    with pytest.raises(hip_backend.HipError, match="no ROCm device"):
        aster.launch(hsaco, "vadd", 1, 256, [a, a, a, 256], backend="hip")
