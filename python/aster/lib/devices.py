"""The device facts GEMM dispatch needs, one place (until the timing model's
device profiles, `aster.timing.devices()`, land and replace these).

    CUS["gfx942"]    compute units of the device an arch stands for

Sources: MI300X has 304 CUs (AMD Instinct MI300X data sheet; 8 XCDs x 38),
MI355X has 256 CUs (AMD Instinct MI355X data sheet; 8 XCDs x 32).
"""

__all__ = ["CUS", "DEVICE", "cus"]

DEVICE = {"gfx942": "MI300X", "gfx950": "MI355X"}
CUS = {"gfx942": 304, "gfx950": 256}


def cus(arch):
    """Compute units of the device `arch` is simulated as (ValueError for others)."""
    try:
        return CUS[arch]
    except KeyError:
        raise ValueError(f"no device profile for {arch!r} (known: {sorted(CUS)})") from None
