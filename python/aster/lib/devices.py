"""The device facts GEMM dispatch needs, one place (until the timing model's
device profiles, `aster.timing.devices()`, land and replace these).

    CUS["gfx942"]        compute units of the device an arch stands for
    CLOCK_GHZ["gfx942"]  its peak engine clock (cycles -> seconds)

Sources: MI300X has 304 CUs at up to 2.1 GHz (AMD Instinct MI300X data
sheet; 8 XCDs x 38), MI355X 256 CUs at up to 2.4 GHz (AMD Instinct MI355X
data sheet; 8 XCDs x 32).
"""

__all__ = ["CUS", "CLOCK_GHZ", "DEVICE", "cus"]

DEVICE = {"gfx942": "MI300X", "gfx950": "MI355X"}
CUS = {"gfx942": 304, "gfx950": 256}
CLOCK_GHZ = {"gfx942": 2.1, "gfx950": 2.4}


def cus(arch):
    """Compute units of the device `arch` is simulated as (ValueError for others)."""
    try:
        return CUS[arch]
    except KeyError:
        raise ValueError(f"no device profile for {arch!r} (known: {sorted(CUS)})") from None
