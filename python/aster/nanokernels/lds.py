"""Moving tiles through LDS: a global -> LDS tile copy, and LDS -> register
fragment loads in the MFMA operand layout (see mfma.py).

A tile is `rows` rows of `row_bytes` bytes (e.g. 32 rows of 64 f16 = 128
bytes). In global memory its rows are `stride` bytes apart (an SGPR: the
matrix's row pitch); in LDS, `lds_row_bytes` apart (row_bytes, or more to
pad rows against bank conflicts).

    k.call(lds.global_to_lds(32, 128), ptr, stride, lane, lds_base)
    k.s_waitcnt(lgkmcnt=0); k.s_barrier()       # when other waves read it
    a_frag, = k.call(lds.lds_fragment(16, 128, offset=0), lane, lds_base)

`lane` is the work-item's lane in its wave (v0 for a one-wave block, or
v0 & 63), `lds_base` the tile's byte address in LDS (16-byte aligned)."""
from ..functions import function
from ..registers import SGPR, VGPR

__all__ = ["global_to_lds", "fragment_offset", "lds_fragment"]

_CACHE = {}


def _log2(x, what):
    if x <= 0 or x & (x - 1):
        raise ValueError(f"{what} must be a power of two, got {x}")
    return x.bit_length() - 1


def _cached(key, make):
    if key not in _CACHE:
        _CACHE[key] = make()
    return _CACHE[key]


def global_to_lds(rows, row_bytes, lds_row_bytes=None):
    """A function (ptr: SGPR x2, stride: SGPR, lane: VGPR, lds_base: VGPR) -> ()
    copying the tile at global address `ptr` (rows `stride` bytes apart) to
    LDS at `lds_base` (rows `lds_row_bytes` apart).

    Each lane moves 16 bytes per step (global_load_dwordx4, ds_write_b128):
    byte e = 16 lane + 1024 s of the tile (row e // row_bytes, column
    e % row_bytes) in step s, rows * row_bytes / 1024 steps, all loads
    issued before the first write. row_bytes: a power of two from 16 to
    1024; rows * row_bytes a multiple of 1024; lds_row_bytes a multiple of
    16. The writes need amdgcn-waitcnt (vmcnt before each); readers in
    other waves need s_waitcnt lgkmcnt(0) and s_barrier after it."""
    lds_row_bytes = row_bytes if lds_row_bytes is None else lds_row_bytes
    lg = _log2(row_bytes, "row_bytes")
    if not 16 <= row_bytes <= 1024:
        raise ValueError(f"row_bytes must be in [16, 1024], got {row_bytes}")
    if rows <= 0 or rows * row_bytes % 1024:
        raise ValueError(f"rows * row_bytes must be a positive multiple of 1024 (64 lanes x "
                         f"16 bytes), got {rows} x {row_bytes}")
    if lds_row_bytes < row_bytes or lds_row_bytes % 16:
        raise ValueError(f"lds_row_bytes must be a multiple of 16 and >= row_bytes, got "
                         f"{lds_row_bytes}")
    steps = rows * row_bytes // 1024
    rows_per_step = 1024 // row_bytes
    if (steps - 1) * rows_per_step * lds_row_bytes + lds_row_bytes > 65536:
        raise ValueError("the tile does not fit in LDS's 64 KiB")

    def make():
        def copy(f, ptr, stride, lane, lds_base):
            e = f.v_lshlrev_b32(VGPR(), 4, lane)              # 16 bytes per lane
            row = f.v_lshrrev_b32(VGPR(), lg, e)
            col = f.v_and_b32(VGPR(), row_bytes - 1, e)
            goff = f.v_mad_u32_u24(VGPR(), row, stride, col)   # row * stride + col
            loff = f.v_mul_u32_u24(VGPR(), lds_row_bytes, row)
            laddr = f.v_add3_u32(VGPR(), lds_base, loff, col)
            step = f.s_lshl_b32(SGPR(), stride, rows_per_step.bit_length() - 1) \
                if steps > 1 else None
            data = []
            for s in range(steps):
                if s:
                    goff = f.v_add_u32(VGPR(), step, goff)
                data.append(f.global_load_dwordx4(VGPR(4), goff, ptr))
            for s, d in enumerate(data):
                f.ds_write_b128(laddr, d, offset=s * rows_per_step * lds_row_bytes)
        copy.__doc__ = global_to_lds.__doc__
        return function(params=[SGPR(2, align=2), SGPR(), VGPR(), VGPR()], results=[],
                        name=f"global_to_lds_{rows}x{row_bytes}_{lds_row_bytes}")(copy)
    return _cached(("g2l", rows, row_bytes, lds_row_bytes), make)


def fragment_offset(rows, row_bytes):
    """A function (lane: VGPR) -> VGPR: the byte offset, in a row-major tile
    of `row_bytes` rows, of the lane's MFMA operand fragment for an M = `rows`
    (16 or 32) step: row lane % rows, columns 4 (lane // rows) .. +3 of
    16-bit values, i.e. (lane % rows) * row_bytes + 8 (lane // rows)."""
    lg = _log2(rows, "rows")
    if rows not in (16, 32):
        raise ValueError(f"rows must be 16 or 32 (the MFMA's M), got {rows}")

    def make():
        def offset(f, lane):
            r = f.v_and_b32(VGPR(), rows - 1, lane)
            g = f.v_lshrrev_b32(VGPR(), lg, lane)
            g8 = f.v_lshlrev_b32(VGPR(), 3, g)
            rb = f.v_mul_u32_u24(VGPR(), row_bytes, r)
            return f.v_add_u32(VGPR(), rb, g8)
        offset.__doc__ = fragment_offset.__doc__
        return function(params=[VGPR()], results=[VGPR()],
                        name=f"fragment_offset_{rows}_{row_bytes}")(offset)
    return _cached(("off", rows, row_bytes), make)


def lds_fragment(rows, row_bytes, offset=0):
    """A function (lane: VGPR, lds_base: VGPR) -> VGPR x2: the lane's A (or
    B) operand of a 16x16x16 (rows=16) or 32x32x8 (rows=32) f16/bf16 MFMA,
    read with one ds_read_b64 from the row-major tile at lds_base + offset
    (A as M x K, or B^T as N x K: 4 consecutive k of row lane % rows, from
    k = 4 (lane // rows)). `offset` (bytes, an immediate) selects the
    k-slice: the next step's k start 32 bytes further for 16x16x16 (16 f16),
    16 bytes for 32x32x8 (8 f16)."""
    if not 0 <= offset <= 65535:
        raise ValueError(f"offset must be in [0, 65535], got {offset}")
    off = fragment_offset(rows, row_bytes)

    def make():
        def load(f, lane, lds_base):
            (o,) = f.call(off, lane)
            addr = f.v_add_u32(VGPR(), lds_base, o)
            return f.ds_read_b64(VGPR(2), addr, offset=offset)
        load.__doc__ = lds_fragment.__doc__
        return function(params=[VGPR(), VGPR()], results=[VGPR(2)],
                        name=f"lds_fragment_{rows}_{row_bytes}_{offset}")(load)
    return _cached(("frag", rows, row_bytes, offset), make)
