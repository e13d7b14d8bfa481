"""How many HBM channels a GEMM launch's first loads cover, and what that
costs (`aster.ops.dispatch.estimate`'s channel term).

The timing model serves HBM per channel (cc/emulator/timing/HbmChannels.h,
docs/timing-fidelity.md): 128 channels, each 1/128 of the device's
bandwidth, a line's channel from its address (256-byte blocks over the
channels, XOR-hashed with higher bits). A launch's workgroups start
together and each first loads its `prefetch` K steps of A and B. Those
lines lie in the same 256-byte columns of every row of A and B: with a row
stride of 2 KiB or a multiple of it, every row puts them on the same few
channels (the low channel bits come from the column, the row only changes
the hashed ones), so the first loads of a whole wave of workgroups queue
on 16 of the 128 channels (on 24 when the K splits start in three
columns, ...). The channels serve them in order; the last workgroup gets
its first K steps after all of them went through its channel, and by then
the workgroups are spread out over the channels (each reads the next
column when it is served), so the rest of the launch streams at the
device's bandwidth. The front's cost over an even spread, added to the
launch, is

    front   = (lines of the first loads on the busiest channel)
              x 128 bytes / (the channel's bytes per cycle: HBM / 128)
    excess  = front - (all those lines' bytes / the HBM bytes per cycle)

Needs: the launch's geometry (tiles, K chunk, splits, the workgroups that
start together: the first wave of K workgroups in dispatch order), the
element size, trans_b, and the profile's HBM bytes per cycle. Lines read
by several workgroups count once (the timing model fetches a line from
HBM once: later readers find it in L2 or the Infinity Cache).
Guarantees: cycles >= 0; 0 when the first loads spread evenly.
[model] A and B are taken at 2 MiB-aligned addresses (the emulator's
buffers are 4 KiB-aligned; bits above 20 only permute channels, bits 12..20
shift the hashed channel bits by a constant); which lines the first loads
fetch: the generator's pipeline (`prefetch` K steps before the first MFMA,
aster.generators.gemm_kstep). Checked against the timing model's whole
launches in tests/py/test_gemm_dispatch_channels.py.
"""
import functools

import numpy as np

LINE = 128              # bytes per line (the timing model's Params.h lineBytes)
_B_BASE = 1 << 40       # [model] where B is taken to start (2 MiB-aligned, far from A)


def _channels():
    from .. import _emu
    return _emu.timing_hbm_channels, int(_emu.timing_hbm_channel_count)


def _lines(row_start, col0, col1):
    """The addresses of the lines holding bytes [col0, col1) past each
    row_start (arrays of one length), over all rows."""
    first, last = col0 // LINE, (col1 - 1) // LINE
    if not len(first):
        return np.zeros(0, np.uint64)
    lines = first[:, None] + np.arange(int((last - first).max()) + 1)[None, :]
    keep = lines <= last[:, None]
    return (row_start[:, None] + lines * LINE)[keep].astype(np.uint64)


@functools.lru_cache(maxsize=4096)
def front_excess(m, n, k, tile_m, tile_n, trans_b, esz, kc, splits, window, wave, first,
                 hbm):
    """Extra cycles of a launch whose first `wave` K workgroups (dispatch
    order x fastest, then y, then the split z; starting at K workgroup
    `first`) start together and each loads `window` elements of K first,
    over the same bytes at the device's whole HBM bandwidth (the module
    doc). kc: K elements per split; hbm: HBM bytes per cycle."""
    chan, nch = _channels()
    gx, gy = -(-n // tile_n), -(-m // tile_m)
    g = np.arange(first, first + wave)
    g = g[g < gx * gy * splits]
    if not len(g):
        return 0.0
    tx, ty, z = g % gx, (g // gx) % gy, g // (gx * gy)
    k0 = z * kc
    k1 = np.minimum(k0 + window, np.minimum(k, k0 + kc))
    addrs = []
    # A (M x K, rows K apart): one stream per (tile row, split)
    key = np.unique(ty * splits + z)
    ay, az = key // splits, key % splits
    rows = (ay[:, None] * tile_m + np.arange(tile_m)[None, :])
    ok = rows < m
    r = rows[ok]
    c0 = np.repeat(az * kc, tile_m)[ok.ravel()]
    c1 = np.minimum(c0 + window, np.minimum(k, c0 + kc))
    addrs.append(_lines(r * k * esz, c0 * esz, c1 * esz))
    key = np.unique(tx * splits + z)
    bx, bz = key // splits, key % splits
    if trans_b:         # B: N x K, rows K apart
        rows = bx[:, None] * tile_n + np.arange(tile_n)[None, :]
        ok = rows < n
        c0 = np.repeat(bz * kc, tile_n)[ok.ravel()]
        c1 = np.minimum(c0 + window, np.minimum(k, c0 + kc))
        addrs.append(_lines(rows[ok] * k * esz + _B_BASE, c0 * esz, c1 * esz))
    else:               # B: K x N, rows N apart: the window's K rows, the tile's columns
        kk = np.arange(window)[None, :] + (bz * kc)[:, None]
        ok = (kk < k) & (kk - (bz * kc)[:, None] < kc)
        c0 = np.repeat(bx * tile_n, window)[ok.ravel()]
        c1 = np.minimum(c0 + tile_n, n)
        addrs.append(_lines(kk[ok] * n * esz + _B_BASE, c0 * esz, c1 * esz))
    a = np.concatenate(addrs)
    if not len(a):
        return 0.0
    counts = np.bincount(chan(np.ascontiguousarray(a, np.uint64)), minlength=nch)
    front = counts.max() * LINE / (hbm / nch)
    return max(0.0, float(front - len(a) * LINE / hbm))
