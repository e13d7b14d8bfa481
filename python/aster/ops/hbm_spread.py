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


def excess(m, n, k, tile_m, tile_n, trans_b, esz, hbm, tx, ty, k0, k1):
    """Extra cycles of workgroups that start together, workgroup i on tile
    (tx[i], ty[i]) loading elements [k0[i], k1[i]) of K first (arrays), over
    the same bytes at the device's whole HBM bandwidth (the module doc);
    hbm: HBM bytes per cycle."""
    chan, nch = _channels()
    addrs = []
    for t, rows_of, base in ((ty, tile_m, 0), (tx, tile_n, _B_BASE)):
        key = np.unique(np.stack([t, k0, k1], 1), axis=0)     # each stream once
        t_, c0, c1 = key[:, 0], key[:, 1], key[:, 2]
        lim = m if base == 0 else n
        if base == 0 or trans_b:    # A (M x K) or B (N x K): rows K apart
            rows = t_[:, None] * rows_of + np.arange(rows_of)[None, :]
            ok = (rows < lim) & (c1 > c0)[:, None]
            c0r = np.broadcast_to(c0[:, None], rows.shape)[ok]
            c1r = np.broadcast_to(c1[:, None], rows.shape)[ok]
            addrs.append(_lines(rows[ok] * k * esz + base, c0r * esz, c1r * esz))
        else:                       # B (K x N): the window's K rows, the tile's columns
            w = int((c1 - c0).max()) if len(c0) else 0
            kk = c0[:, None] + np.arange(max(w, 0))[None, :]
            ok = kk < c1[:, None]
            col0 = np.broadcast_to((t_ * rows_of)[:, None], kk.shape)[ok]
            addrs.append(_lines(kk[ok] * n * esz + base, col0 * esz,
                                np.minimum(col0 + rows_of, n) * esz))
    a = np.concatenate(addrs)
    if not len(a):
        return 0.0
    counts = np.bincount(chan(np.ascontiguousarray(a, np.uint64)), minlength=nch)
    front = counts.max() * LINE / (hbm / nch)
    return max(0.0, float(front - len(a) * LINE / hbm))


@functools.lru_cache(maxsize=4096)
def front_excess(m, n, k, tile_m, tile_n, trans_b, esz, kc, splits, window, wave, first,
                 hbm):
    """`excess` of a split-K launch's first `wave` K workgroups (dispatch
    order x fastest, then y, then the split z; starting at K workgroup
    `first`), each loading `window` elements of K first; kc: K elements
    per split."""
    gx, gy = -(-n // tile_n), -(-m // tile_m)
    g = np.arange(first, first + wave)
    g = g[g < gx * gy * splits]
    if not len(g):
        return 0.0
    tx, ty, z = g % gx, (g // gx) % gy, g // (gx * gy)
    k0 = z * kc
    k1 = np.minimum(k0 + window, np.minimum(k, k0 + kc))
    return excess(m, n, k, tile_m, tile_n, trans_b, esz, hbm, tx, ty, k0, k1)
