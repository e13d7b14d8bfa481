"""The device facts GEMM dispatch needs, read from the timing model's device
profiles (`aster.timing.devices()`, sources in cc/emulator/timing/Params.h):
one fact, one place.

    cus(arch, device=None)   compute units of `device` (None: the arch's flagship)
    CUS["gfx942"]            the flagship's compute units
    CLOCK_GHZ["gfx942"]      the flagship's peak engine clock (cycles at peak ->
                             seconds; the bench's TFLOP/s at peak clock)
"""

__all__ = ["CLOCK_GHZ", "CUS", "DEVICE", "cus", "profile"]

DEVICE = {"gfx942": "mi300x", "gfx950": "mi355x"}


def profile(arch, device=None):
    """The timing model's profile dict of `device` (None: `arch`'s flagship)."""
    from ..timing import default_device, devices
    if device is None:
        if arch not in DEVICE:
            raise ValueError(f"no device profile for {arch!r} (known: {sorted(DEVICE)})")
        device = default_device(arch)
    profiles = devices()
    if device not in profiles:
        raise ValueError(f"device must be one of {', '.join(profiles)}; got {device!r}")
    return profiles[device]


def cus(arch, device=None):
    """Compute units of `device` (None: the flagship `arch` is simulated as)."""
    return int(profile(arch, device)["cus"])


class _PeakClock(dict):
    def __missing__(self, arch):
        return profile(arch)["clock_mhz"] / 1000.0


class _FlagshipCUs(dict):
    def __missing__(self, arch):
        return cus(arch)


CLOCK_GHZ = _PeakClock()
CUS = _FlagshipCUs()
