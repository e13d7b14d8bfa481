"""What every launch backend shares (aster.runtime's emulator launch and
aster.hip_backend's GPU launch): the result record, the cache of loaded code
objects (which also gives the kernarg layout from the metadata) and the
binding of array arguments to distinct buffers. Below both: neither imports
the other's module for these."""
import functools
from dataclasses import dataclass, field

import numpy as np

from . import _emu

__all__ = ["LaunchResult"]


@dataclass
class LaunchResult:
    """What a launch did. Instruction counts are per wave (a wave-instruction
    is one instruction executed by one wave); the hip backend only measures
    `seconds` (the counts are None there)."""
    backend: str
    kernel: str
    grid: tuple
    block: tuple
    seconds: float
    wave_instructions: int = None
    salu: int = None
    valu: int = None
    smem: int = None
    vmem: int = None
    lds: int = None
    mfma: int = None
    branch: int = None
    workgroups: int = None
    waves: int = None
    warnings: list = field(default_factory=list)
    trace: object = field(default_factory=list)
    cycles: int = None
    microseconds: float = None

    # `trace`: with timing=True an aster.timing.Trace (timeline, Perfetto,
    # summary), `cycles` the simulated shader-clock cycles and `microseconds`
    # the launch's wall time on the device profile (launch overhead and the
    # clock under its MFMA load included); otherwise the list of instruction
    # lines recorded by trace_limit (empty by default).

    def __repr__(self):
        counts = "" if self.wave_instructions is None else \
            f", {self.wave_instructions} wave-instructions ({self.waves} waves)"
        return (f"<aster.LaunchResult {self.kernel} on {self.backend}: "
                f"{self.seconds * 1e3:.3f} ms{counts}>")


@functools.lru_cache(maxsize=32)
def _load(hsaco):
    """Loading decodes the whole code object (~1 ms); a loaded CodeObject is
    immutable, so repeated launches of the same bytes share one."""
    return _emu.CodeObject.load(hsaco)



def _distinct_arrays(buffers):
    """Index into a list of unique arrays for each buffer argument (the same
    array passed twice is one buffer); overlapping distinct arrays raise."""
    uniq, where = [], []
    for b in buffers:
        if b.array is None:
            where.append(None)
            continue
        for j, u in enumerate(uniq):
            if u is b.array or (u.__array_interface__["data"][0] ==
                                b.array.__array_interface__["data"][0]
                                and u.nbytes == b.array.nbytes):
                where.append(j)
                break
            if np.may_share_memory(u, b.array):
                raise ValueError(f"argument {b.index} '{b.name}' overlaps another array "
                                 "argument without being the same array")
        else:
            where.append(len(uniq))
            uniq.append(b.array)
    return uniq, where
