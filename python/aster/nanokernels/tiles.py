"""GEMM tile pieces: global memory -> registers through raw buffer resources
(the buffer's bounds make edge tiles read 0), registers -> LDS (masking K
past its end; the v_perm_b32 transpose of a row-major B), LDS -> MFMA
operand fragments, and the edge-aware store of MFMA results.

Lane layouts are the caller's: each piece takes the lane's byte offsets or
LDS address (computed once, before a loop) and moves the data the lane
owns. 16-bit elements (f16/bf16). Every register is virtual (amdgcn-regalloc
aligns each range as its instructions need).

    desc, = k.call(tiles.raw_buffer, ptr, nbytes)                 # SGPR x4
    chunks = k.call(tiles.buffer_loads(((0, 4, 0), (1, 4, 0))), desc, off0, off1)
    k.call(tiles.write_kmajor((0, 2304)), *chunks, *x, lds_addr)  # K tail zeroed
    frags = k.call(tiles.read_fragments((0, 16)), rd_addr)        # VGPR x2 each
    (acc,) = k.call(mfma.mfma_32x32x8_f16, frags[0], bfrag, acc)
    k.call(tiles.store_result_buffer(32), acc, desc_c, pitch, off)

The K mask. A lane holding 8 consecutive elements of K (a 16-byte chunk
starting at element k0 of a row) carries x_j = 16 (K - k0) - 32 j for its
dwords j = 0..3: the number of valid bits in dword j, below 0 or above 32
for none or all; `write_kmajor` keeps clamp(x_j, 0, 32) low bits of dword j
(elements at K or past it become +0). Moving one K step of `tile_k`
subtracts 16 tile_k from each x_j.
"""
from ..functions import function
from ..registers import AGPR, SGPR, VGPR

__all__ = ["raw_buffer", "advance_buffer", "buffer_loads", "write_kmajor",
           "write_transposed", "read_fragments", "mask_fragments", "store_offset",
           "store_result_buffer", "store_result_16", "store_scaled_bf16", "RAW_BUFFER_WORD3",
           "OUT_OF_RANGE",
           "SEL_LO", "SEL_HI"]

RAW_BUFFER_WORD3 = 0x00020000   # word 3 of a raw (stride 0) gfx9 buffer resource:
#                                 DATA_FORMAT 32 bits, no swizzle, bounds = num_records
OUT_OF_RANGE = 0x80000000       # a byte offset past any buffer (matrices < 2 GiB)
SEL_LO, SEL_HI = 0x05040100, 0x07060302   # v_perm_b32: low / high halves of two dwords

_CACHE = {}


def _cached(key, make):
    if key not in _CACHE:
        _CACHE[key] = make()
    return _CACHE[key]


def _imm(x, what, hi=4095):
    if not isinstance(x, int) or not 0 <= x <= hi:
        raise ValueError(f"{what} must be an int in [0, {hi}], got {x!r}")
    return x


def _raw_buffer(f, ptr, nbytes):
    lo = f.s_mov_b32(SGPR(), ptr[0])
    hi = f.s_and_b32(SGPR(), 0xFFFF, ptr[1])          # stride 0
    nr = f.s_mov_b32(SGPR(), nbytes)
    w3 = f.s_mov_b32(SGPR(), RAW_BUFFER_WORD3)
    return f.concat(lo, hi, nr, w3)


raw_buffer = function(params=[SGPR(2, align=2), SGPR()], results=[SGPR(4)],
                      name="tile_raw_buffer")(_raw_buffer)
raw_buffer.__doc__ = """(ptr: SGPR x2, nbytes: SGPR) -> SGPR x4: a raw buffer
resource (stride 0) over `nbytes` bytes at `ptr`. Buffer accesses through it
at byte offsets past nbytes read 0 and do not write (per dword: a dword
reaching past nbytes is out of range as a whole)."""


def _advance(f, desc, step):
    nr = f.s_sub_u32(SGPR(), desc[2], step)
    nr = f.s_cselect_b32(SGPR(), 0, nr)                # borrow: nothing left
    lo = f.s_add_u32(SGPR(), desc[0], step)
    hi = f.s_addc_u32(SGPR(), desc[1], 0)
    w3 = f.s_mov_b32(SGPR(), desc[3])
    return f.concat(lo, hi, nr, w3)


advance_buffer = function(params=[SGPR(4), SGPR()], results=[SGPR(4)],
                          name="tile_advance_buffer")(_advance)
advance_buffer.__doc__ = """(desc: SGPR x4, step: SGPR) -> SGPR x4: the raw
buffer resource moved `step` bytes on (base + step, num_records - step,
at least 0), so the same offsets address the next tile along K."""


def buffer_loads(loads):
    """A function (desc: SGPR x4, off_0 .. off_{n-1}: VGPR) -> one VGPR x
    `dwords` range per load: `loads` is a tuple of (offset index, dwords
    (2 or 4), immediate byte offset); load i reads `dwords` dwords at
    desc + off[index] + immediate (buffer_load_dwordx2 / x4, offen). Dwords
    past the resource's num_records read 0: the edges of a tile."""
    loads = tuple((int(i), int(d), _imm(o, "offset")) for i, d, o in loads)
    if not loads or any(d not in (2, 4) for _, d, _ in loads):
        raise ValueError(f"loads must be (index, 2 or 4 dwords, offset) tuples, got {loads!r}")
    nofs = max(i for i, _, _ in loads) + 1

    def make():
        def body(f, desc, *offs):
            out = []
            for i, d, o in loads:
                op = f.buffer_load_dwordx4 if d == 4 else f.buffer_load_dwordx2
                out.append(op(VGPR(d), offs[i], desc, 0, offen=True, offset=o))
            return out
        body.__doc__ = buffer_loads.__doc__
        name = "tile_buffer_loads_" + "_".join(f"{i}x{d}o{o}" for i, d, o in loads)
        return function(params=[SGPR(4)] + [VGPR()] * nofs,
                        results=[VGPR(d) for _, d, _ in loads], name=name)(body)
    return _cached(("loads", loads), make)


def _masks(f, xs):
    """Per dword of a chunk: the bits to clear (-1 << clamp(x, 0, 32))."""
    out = []
    for x in xs:
        sh = f.v_med3_i32(VGPR(), x, 0, 32)
        out.append(f.v_lshlrev_b64(VGPR(2, align=2), sh, -1)[0])
    return out


def write_kmajor(offsets):
    """A function (chunk_0 .. chunk_{n-1}: VGPR x4, x_0 .. x_3: VGPR, addr:
    VGPR) -> (): writes each 16-byte chunk (8 consecutive elements of K of
    one row) to LDS at addr + offsets[i] with two ds_write_b64 (so rows
    padded to 8-byte multiples work), after zeroing the elements past K by
    the K mask x_0..x_3 (see the module doc; one mask for all chunks: they
    share their K start)."""
    offsets = tuple(_imm(o, "LDS offset", 65535 - 8) for o in offsets)
    if not offsets:
        raise ValueError("write_kmajor needs at least one chunk")
    n = len(offsets)

    def make():
        def body(f, *args):
            chunks, xs, addr = args[:n], args[n:n + 4], args[n + 4]
            inv = _masks(f, xs)
            for r, o in zip(chunks, offsets):
                parts = [f.v_bfi_b32(VGPR(), inv[j], 0, r[j]) for j in range(4)]
                f.ds_write_b64(addr, f.concat(parts[0], parts[1]), offset=o)
                f.ds_write_b64(addr, f.concat(parts[2], parts[3]), offset=o + 8)
        body.__doc__ = write_kmajor.__doc__
        return function(params=[VGPR(4)] * n + [VGPR()] * 5, results=[],
                        name="tile_write_kmajor_" + "_".join(map(str, offsets)))(body)
    return _cached(("wk", offsets), make)


def write_transposed(groups, row_bytes, group_bytes, offset):
    """A function (r_0 .. r_{4 groups - 1}: VGPR x2, sel_lo, sel_hi: SGPR,
    addr: VGPR) -> (): the
    transpose of a row-major (K x N) B into K-contiguous LDS rows of N. Each
    group of 4 ranges holds 4 rows k..k+3 x the same 4 columns n..n+3 (one
    buffer_load_dwordx2 per row); column c's 4 elements (k..k+3) are packed
    with v_perm_b32 and written with one ds_write_b64 at addr + offset +
    c * row_bytes + g * group_bytes (group g). sel_lo / sel_hi hold SEL_LO /
    SEL_HI (v_perm_b32 selectors; parameters so that a loop sets them once)."""
    for x, what in ((row_bytes, "row_bytes"), (group_bytes, "group_bytes"),
                    (offset, "offset")):
        _imm(x, what, 65535)
    if groups < 1 or offset + 3 * row_bytes + (groups - 1) * group_bytes > 65535 - 8:
        raise ValueError("write_transposed: the writes must fit the 16-bit LDS offset")

    def make():
        def body(f, *args):
            regs, sel, addr = args[:4 * groups], args[4 * groups:4 * groups + 2], args[-1]
            for g in range(groups):
                rows = regs[4 * g:4 * g + 4]
                for col in range(4):
                    x, s_ = col // 2, sel[col % 2]
                    lo = f.v_perm_b32(VGPR(), rows[1][x], rows[0][x], s_)
                    hi = f.v_perm_b32(VGPR(), rows[3][x], rows[2][x], s_)
                    f.ds_write_b64(addr, f.concat(lo, hi),
                                   offset=offset + col * row_bytes + g * group_bytes)
        body.__doc__ = write_transposed.__doc__
        return function(params=[VGPR(2)] * (4 * groups) + [SGPR(), SGPR(), VGPR()], results=[],
                        name=f"tile_write_transposed_{groups}_{row_bytes}_{group_bytes}"
                             f"_{offset}")(body)
    return _cached(("wt", groups, row_bytes, group_bytes, offset), make)


def read_fragments(offsets):
    """A function (addr: VGPR) -> one VGPR x2 per offset: ds_read_b64 at
    addr + offsets[i]. With addr = the lane's fragment address
    (lds.fragment_offset: row lane % M, elements 4 (lane // M) .. +3 of a
    K-contiguous tile) each result is the lane's A or B operand of a
    16x16x16 / 32x32x8 MFMA."""
    offsets = tuple(_imm(o, "LDS offset", 65535) for o in offsets)
    if not offsets:
        raise ValueError("read_fragments needs at least one offset")

    def make():
        def body(f, addr):
            return [f.ds_read_b64(VGPR(2), addr, offset=o) for o in offsets]
        body.__doc__ = read_fragments.__doc__
        return function(params=[VGPR()], results=[VGPR(2)] * len(offsets),
                        name="tile_read_fragments_" + "_".join(map(str, offsets)))(body)
    return _cached(("rf", offsets), make)


def mask_fragments(n):
    """A function (frag_0 .. frag_{n-1}: VGPR x2, y_0, y_1: VGPR) -> n VGPR x2:
    the fragments (4 elements of K each, all starting at the same k0) with
    the elements past K zeroed: y_j = 16 (K - k0) - 32 j (the K mask of the
    module doc for 2 dwords)."""
    if n < 1:
        raise ValueError("mask_fragments needs at least one fragment")

    def make():
        def body(f, *args):
            frags, ys = args[:n], args[n:]
            inv = _masks(f, ys)
            return [f.concat(f.v_bfi_b32(VGPR(), inv[0], 0, r[0]),
                             f.v_bfi_b32(VGPR(), inv[1], 0, r[1])) for r in frags]
        body.__doc__ = mask_fragments.__doc__
        return function(params=[VGPR(2)] * n + [VGPR(), VGPR()],
                        results=[VGPR(2)] * n, name=f"tile_mask_fragments_{n}")(body)
    return _cached(("mf", n), make)


def _log2(x):
    return x.bit_length() - 1


def store_offset(mt, elem_bytes=4):
    """A function (lane: VGPR, row0: SGPR, col0: SGPR, ncols: SGPR, pitch:
    SGPR) -> VGPR: the byte offset, in a row-major f32 (or `elem_bytes`
    wide) matrix with rows
    `pitch` bytes apart, of the first element the lane stores of an
    mt x mt (16 or 32) MFMA result whose top left is (row0, col0): row
    row0 + 4 (lane // mt), column col0 + lane % mt; OUT_OF_RANGE when that
    column is >= ncols (so nothing of the lane's column is written)."""
    if mt not in (16, 32):
        raise ValueError(f"mt must be 16 or 32, got {mt}")

    def make():
        def body(f, lane, row0, col0, ncols, pitch):
            l64 = f.v_and_b32(VGPR(), 63, lane)
            lrow = f.v_lshlrev_b32(VGPR(), 2, f.v_lshrrev_b32(VGPR(), _log2(mt), l64))
            row = f.v_add_u32(VGPR(), row0, lrow)
            rowoff = f.v_mul_lo_u32(VGPR(), row, pitch)
            col = f.v_add_u32(VGPR(), col0, f.v_and_b32(VGPR(), mt - 1, l64))
            ok = f.v_cmp_gt_i32(SGPR(2, align=2), ncols, col)
            off = f.v_lshl_add_u32(VGPR(), col, _log2(elem_bytes), rowoff)
            oob = f.v_mov_b32(VGPR(), OUT_OF_RANGE)
            return f.v_cndmask_b32(VGPR(), oob, off, ok)
        body.__doc__ = store_offset.__doc__
        sfx = "" if elem_bytes == 4 else f"_e{elem_bytes}"
        return function(params=[VGPR(), SGPR(), SGPR(), SGPR(), SGPR()], results=[VGPR()],
                        name=f"tile_store_offset_{mt}{sfx}")(body)
    return _cached(("so", mt, elem_bytes), make)


def store_result_16(mt, fmt):
    """A function (d: AGPR x 4 / x16 (f32), desc: SGPR x4, pitch: SGPR, off:
    VGPR) -> (): store_result_buffer's stores with each value rounded to a
    16-bit `fmt` first: "bf16" (round to nearest even: + 0x7fff + bit 16,
    the high half stored) or "f16" (v_cvt_f16_f32, the low half stored);
    `off` from store_offset(mt, 2)."""
    if mt not in (16, 32) or fmt not in ("bf16", "f16"):
        raise ValueError(f"mt must be 16 or 32 and fmt bf16 or f16, got {mt}, {fmt!r}")
    nc = 4 if mt == 16 else 16

    def make():
        def body(f, d, desc, pitch, off):
            for r in range(nc):
                rows = r if mt == 16 else 8 * (r // 4) + r % 4
                x = f.v_accvgpr_read_b32(VGPR(), d[r])
                o = off if rows == 0 else f.v_add_u32(
                    VGPR(), f.s_mul_i32(SGPR(), pitch, rows), off)
                if fmt == "bf16":
                    lsb = f.v_bfe_u32(VGPR(), x, 16, 1)
                    x = f.v_add3_u32(VGPR(), x, f.s_mov_b32(SGPR(), 0x7FFF), lsb)
                    f.buffer_store_short_d16_hi(x, o, desc, 0, offen=True)
                else:
                    f.buffer_store_short(f.v_cvt_f16_f32(VGPR(), x), o, desc, 0, offen=True)
        body.__doc__ = store_result_16.__doc__
        return function(params=[AGPR(nc), SGPR(4), SGPR(), VGPR()], results=[],
                        name=f"tile_store_result_{fmt}_{mt}")(body)
    return _cached(("s16", mt, fmt), make)


def store_scaled_bf16(mt, int_acc=True):
    """A function (d: AGPR x 4 / x16 (i32), desc: SGPR x4, pitch: SGPR, off:
    VGPR, sa: SGPR x4, sb: SGPR x4, bias: SGPR x4, row4: VGPR, col4: VGPR)
    -> (): the a8w8 epilogue of an int (or, without int_acc, f32) MFMA result (layout as
    store_result_buffer): register r of the lane, in row R = (its row) and
    column C, becomes bf16(f32(d) * sa[R] * sb[C] + bias[C]) (f32 steps,
    rounded to nearest even: + 0x7fff + bit 16, the high half stored; a NaN
    from NaN scales may come out as another NaN or inf) at off
    + rows(r) * pitch of the bf16 buffer `desc`. row4 / col4 are 4 x the
    lane's first row and its column (f32 offsets into the raw buffers sa, sb,
    bias; past their end they read 0). Rows past `desc`'s end and lanes with
    off = OUT_OF_RANGE write nothing."""
    if mt not in (16, 32):
        raise ValueError(f"mt must be 16 or 32, got {mt}")
    nc = 4 if mt == 16 else 16

    def make():
        def body(f, d, desc, pitch, off, sa, sb, bias, row4, col4):
            vsb = f.buffer_load_dword(VGPR(), col4, sb, 0, offen=True)
            vbias = f.buffer_load_dword(VGPR(), col4, bias, 0, offen=True)
            for r in range(nc):
                rows = r if mt == 16 else 8 * (r // 4) + r % 4
                vsa = f.buffer_load_dword(VGPR(), row4, sa, 0, offen=True, offset=4 * rows)
                x = f.v_accvgpr_read_b32(VGPR(), d[r])
                if int_acc:
                    x = f.v_cvt_f32_i32(VGPR(), x)
                x = f.v_mul_f32(VGPR(), x, vsa)
                x = f.v_fma_f32(VGPR(), x, vsb, vbias)
                lsb = f.v_bfe_u32(VGPR(), x, 16, 1)
                x = f.v_add3_u32(VGPR(), x, f.s_mov_b32(SGPR(), 0x7FFF), lsb)
                o = off if rows == 0 else f.v_add_u32(
                    VGPR(), f.s_mul_i32(SGPR(), pitch, rows), off)
                f.buffer_store_short_d16_hi(x, o, desc, 0, offen=True)
        body.__doc__ = store_scaled_bf16.__doc__
        return function(params=[AGPR(nc), SGPR(4), SGPR(), VGPR(), SGPR(4), SGPR(4), SGPR(4),
                                VGPR(), VGPR()], results=[],
                        name=f"tile_store_scaled_bf16_{mt}{'' if int_acc else '_f32'}")(body)
    return _cached(("ssb", mt, int_acc), make)


def store_result_buffer(mt, acc="agpr", atomic=False):
    """A function (d: AGPR (or VGPR) x 4 / x16, desc: SGPR x4, pitch: SGPR,
    off: VGPR) -> (): stores a 16x16 (mt=16, 4 registers) or 32x32 (mt=32,
    16 registers) f32 MFMA result through the raw buffer `desc` (with
    `atomic`, adds it to what is there: buffer_atomic_add_f32, split-K's
    partial sums): register r
    of the lane at off + rows(r) * pitch, rows(r) = r (16x16) or
    8 (r // 4) + r % 4 (32x32), the MFMA's D layout (lane l holds column
    l % mt of rows 4 (l // mt) + rows(r)); `off` from store_offset. Rows past
    the buffer's end and lanes with off = OUT_OF_RANGE write nothing.
    AGPR data goes through v_accvgpr_read_b32 (aster's table gives buffer
    stores VGPR data only)."""
    if mt not in (16, 32):
        raise ValueError(f"mt must be 16 or 32, got {mt}")
    if acc not in ("agpr", "vgpr"):
        raise ValueError(f"acc must be 'agpr' or 'vgpr', got {acc!r}")
    nc = 4 if mt == 16 else 16
    Acc = AGPR if acc == "agpr" else VGPR

    def make():
        def body(f, d, desc, pitch, off):
            for r in range(nc):
                rows = r if mt == 16 else 8 * (r // 4) + r % 4
                o = off if rows == 0 else f.v_add_u32(
                    VGPR(), f.s_mul_i32(SGPR(), pitch, rows), off)
                val = f.v_accvgpr_read_b32(VGPR(), d[r]) if acc == "agpr" else d[r]
                if atomic:
                    f.buffer_atomic_add_f32(val, o, desc, 0, offen=True)
                else:
                    f.buffer_store_dword(val, o, desc, 0, offen=True)
        body.__doc__ = store_result_buffer.__doc__
        return function(params=[Acc(nc), SGPR(4), SGPR(), VGPR()], results=[],
                        name=f"tile_store_result_buffer_{mt}_{acc}{'_add' if atomic else ''}")(body)
    return _cached(("st", mt, acc, atomic), make)
