"""The GEMM kernel generator behind aster.generators.gemm (see its module doc):
one `_Gen` per kernel holds the builder and the values of the setup code
(offsets, LDS addresses, masks) that the K loop reuses. The data movement
and the MFMAs are calls of aster.nanokernels pieces (`tiles`, `lds`, `mfma`),
inlined by amdgcn-inline; amdgcn-schedule orders each region between two
barriers, amdgcn-regalloc gives every register (the loop counter aside)."""
import numpy as np

from .. import ptr
from ..nanokernels import lds, mfma, tiles
from ..module import Module
from ..registers import AGPR, SGPR, VGPR, s, v

def _dtypes():
    import ml_dtypes
    return {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16),
            "i8": np.dtype(np.int8),
            "fp8": np.dtype(ml_dtypes.float8_e4m3fnuz),   # gfx942's FNUZ E4M3
            "ofp8": np.dtype(ml_dtypes.float8_e4m3fn)}     # gfx950's OCP E4M3


BYTE_DTYPES = ("i8", "fp8", "ofp8")     # a8w8: 1-byte inputs, scaled bf16 C


DTYPES = _dtypes()
MFMA_SHAPES = {32: (8, 16), 16: (16, 4)}     # MFMA M (= N) -> (K per instruction, acc regs)
PAD = 4                     # elements of padding per LDS row: a row stride of
#                             an odd number of dword pairs, so the 16 rows a
#                             ds_read_b64 serves per cycle hit 32 distinct banks


CNT_BYTES = 128             # split-K counters: one per 128-byte L2 line (the
#                             line size of the timing model's Params.h
#                             lineBytes, [WP]: AMD's CDNA3 white paper), so
#                             waves of different tiles do not queue on one
#                             line's atomics

BLOCK_SCALE = 128           # fp8 elements per block-scale block along K (and
#                             along N for B's scales): AMD's gfx950 block-scale
#                             GEMM's TileK = TileN (asm_mi350_a8w8_blockscale.cu)

STREAM_K_WORDS = 8          # i32 per row of a stream-K work table (6 used)

K_UNROLL = 2                # K steps per trip of the K loop (one per LDS buffer)


def _log2(x):
    return x.bit_length() - 1


_ZERO_C = {}


def _mfma_zero_c(shape):
    """(A, B) -> D = A @ B with the MFMA of mfma.SHAPES[shape] and C the
    inline constant 0 (a fresh partial sum in VGPRs)."""
    if shape not in _ZERO_C:
        from ..functions import function
        name, na, nb, nc = mfma.SHAPES[shape]

        def step(f, a, b):
            return getattr(f, name)(VGPR(nc), a, b, 0)
        _ZERO_C[shape] = function(params=[VGPR(na), VGPR(nb)], results=[VGPR(nc)],
                                  name=f"mfma_{shape}_zero_c")(step)
    return _ZERO_C[shape]


class _Gen:
    """The state of one kernel being generated."""

    def __init__(self, cfg):
        self.cfg = cfg
        c = cfg
        self.lanes = 64 * c.waves
        self.mt = c.mfma
        self.mk, self.nacc = MFMA_SHAPES[c.mfma]
        self.bk = c.tile_k
        self.rs = (c.tile_k + PAD) * 2                    # LDS row stride (bytes)
        self.a_bytes = c.tile_m * self.rs
        self.buf = self.a_bytes + (0 if c.b_direct else c.tile_n * self.rs)
        self.wtm, self.wtn = c.tile_m // c.waves_m, c.tile_n // c.waves_n
        self.rm, self.rn = self.wtm // self.mt, self.wtn // self.mt
        # i8 (a8w8): the data path moves pairs of int8 along K as its 16-bit
        # elements (K, the argument, counts pairs); the int MFMA's lane takes
        # 8 int8 where the 16-bit one takes 4 elements: the same bytes
        self.i8 = c.dtype in BYTE_DTYPES
        kind = "i8" if c.dtype == "i8" else "fp8"     # fp8: FNUZ on gfx942, OCP on gfx950
        self.step_fn = mfma.mfma_step(f"{self.mt}x{self.mt}x{self.mk}_{c.dtype}" if not self.i8
                                      else f"{self.mt}x{self.mt}x{2 * self.mk}_{kind}")
        # double_k (gfx950): one 16x16x32 / 32x32x16 MFMA per two K steps of
        # the single-K layout. Its lane holds 8 k (registers of two
        # fragments: k 4g..4g+3 of step s and of step s+1); A and B hold the
        # same k in the same places, so the sum over K is unchanged.
        self.kpair = 2 if c.double_k else 1
        if c.double_k:
            self.step_fn = mfma.mfma_step(f"{self.mt}x{self.mt}x{2 * self.mk}_{c.dtype}")
        # block_scale (gfx950 ofp8): one f8f6f4 MFMA per 4 single-K steps
        # (16x16x128: the whole K step; 32x32x64: half of it) into a fresh
        # partial sum in VGPRs, folded into the accumulator with its scales
        self.bs = c.block_scale
        if self.bs:
            self.kpair = 4
            shape = f"{self.mt}x{self.mt}x{128 if self.mt == 16 else 64}_f8f6f4"
            self.step_fn = mfma.mfma_step(shape, acc="vgpr")
            self.first_fn = _mfma_zero_c(shape)
            self.nq = 1 if self.mt == 16 else 4     # groups of 4 rows of a fragment
            self._P = {}
        m = Module(c.arch, name=c.name)
        el = ptr(np.int8 if c.dtype in BYTE_DTYPES else DTYPES[c.dtype])
        self.m = m
        c16 = c.dtype in BYTE_DTYPES or c.out != "f32"
        args = [("a", el), ("b", el), ("c", ptr(np.uint16 if c16 else np.float32)),
                ("M", np.int32), ("N", np.int32), ("K", np.int32)]
        if c.dtype in BYTE_DTYPES:  # a8w8: C = bf16(A B^T sa[m] sb[n] + bias[n])
            args += [("sa", ptr(np.float32)), ("sb", ptr(np.float32))]
            if not c.block_scale:   # block_scale: sa [K blocks, M], sb [N blocks, K blocks]
                args.append(("bias", ptr(np.float32)))
        setup = ["kernarg_ptr", "workgroup_id_x", "workgroup_id_y"]
        if c.stream_k:
            # stream-K decomposition: workgroup x runs the segment of row x
            # of the work table (STREAM_K_WORDS i32 each: tile x, tile y,
            # first K element, K elements, first = 1 when the segment starts
            # at k = 0 (it stores; the others add), adders = the tile's other
            # segments); cnt as split-K's
            args += [("work", ptr(np.int32)), ("cnt", ptr(np.uint32))]
        elif c.split_k:           # workgroup z adds K elements [z kchunk, (z + 1) kchunk)
            # cnt: one u32 per (output tile, wave), zero before the launch and
            # left zero after it (the kernel resets what it used); splits:
            # K splits; zwg: 1 = workgroup z = 0 zeroes C (grid z = splits +
            # 1), 0 = split 0 stores its sums and the others add (grid z =
            # splits: no zero workgroups) (`store_splitk`)
            args += [("kchunk", np.int32), ("cnt", ptr(np.uint32)), ("splits", np.int32),
                     ("zwg", np.int32)]
            setup.append("workgroup_id_z")
        self.k = m.kernel(c.name, args=args, block=c.block, lds=c.lds_bytes, sgpr_setup=setup)
        # MFMAs of a step before its barrier, after the LDS writes of the
        # next step (the writes must land before the barrier; the MFMAs cover
        # their latency)
        self.barrier_gap = 14

    def smov(self, x):
        return self.k.s_mov_b32(SGPR(), x)

    def call(self, fn, *args):
        return self.k.call(fn, *args)

    def padded_bytes(self, elements):
        """num_records of a 16-bit matrix: its bytes + 2. With an odd K (or N)
        the 16-byte chunks start 2-byte aligned, and a raw buffer drops a
        whole dword reaching past num_records, which would lose the last
        element; so A and B must be readable one element past their end (the
        element there is zeroed by the K mask or multiplies a zero)."""
        k = self.k
        return k.s_add_u32(SGPR(), k.s_lshl_b32(SGPR(), elements, 1), 2)

    # ---- setup ---------------------------------------------------------------
    def setup_common(self):
        """What every workgroup needs, the zero workgroups of split-K too:
        C's buffer, M, N, K, the tile's origin, the wave and lane."""
        k, c = self.k, self.cfg
        pc = k.load_arg("c")
        M, N, K = k.load_arg("M"), k.load_arg("N"), k.load_arg("K")
        self.M, self.N, self.K = M, N, K
        if c.stream_k:
            w = k.load_arg("work")
            off = k.s_lshl_b32(SGPR(), k.workgroup_id("x"), _log2(4 * STREAM_K_WORDS))
            lo = k.s_add_u32(SGPR(), w[0], off)
            hi = k.s_addc_u32(SGPR(), w[1], 0)
            self.work = k.s_load_dwordx8(SGPR(8, align=8), k.concat(lo, hi), 0)
            wgx, wgy = self.work[0], self.work[1]
        else:
            wgx, wgy = k.workgroup_id("x"), k.workgroup_id("y")
        self.wgx, self.wgy = wgx, wgy
        self.m0 = k.s_mul_i32(SGPR(), c.tile_m, wgy)
        self.n0 = k.s_mul_i32(SGPR(), c.tile_n, wgx)
        c16 = c.dtype in BYTE_DTYPES or c.out != "f32"
        mn4 = k.s_lshl_b32(SGPR(), k.s_mul_i32(SGPR(), M, N), 1 if c16 else 2)
        (self.dc,) = self.call(tiles.raw_buffer, pc, mn4)
        tid = v[0]
        self.tid = tid
        wave = k.v_readfirstlane_b32(SGPR(), k.v_lshrrev_b32(VGPR(), 6, tid))
        self.wm = k.s_lshr_b32(SGPR(), wave, _log2(c.waves_n))
        self.wn = k.s_and_b32(SGPR(), c.waves_n - 1, wave)
        self.lane = k.v_and_b32(VGPR(), 63, tid)

    def setup(self):
        k, c = self.k, self.cfg
        M, N, K = self.M, self.N, self.K
        pa, pb = k.load_arg("a"), k.load_arg("b")
        # k0: this workgroup's first K element; Kh: how many it multiplies
        # (rows stay K elements apart; the K mask and the trip count use Kh)
        self.k0, self.Kh = None, K
        if c.stream_k:
            self.k0, self.Kh = self.work[2], self.work[3]
        elif c.split_k:
            kc = k.load_arg("kchunk")
            # workgroup z multiplies split z - zwg (with zwg, z = 0 zeroes C: zero_tile)
            self.sidx = k.s_sub_u32(SGPR(), k.workgroup_id("z"), k.load_arg("zwg"))
            self.k0 = k.s_mul_i32(SGPR(), kc, self.sidx)
            kend = k.s_min_u32(SGPR(), k.s_add_u32(SGPR(), self.k0, kc), K)
            self.Kh = k.s_sub_u32(SGPR(), kend, self.k0)
        (self.da,) = self.call(tiles.raw_buffer, pa, self.padded_bytes(k.s_mul_i32(SGPR(), M, K)))
        (self.db,) = self.call(tiles.raw_buffer, pb, self.padded_bytes(k.s_mul_i32(SGPR(), N, K)))
        if self.bs:
            self.scale_setup()
        elif c.dtype in BYTE_DTYPES:
            m4, n4 = k.s_lshl_b32(SGPR(), M, 2), k.s_lshl_b32(SGPR(), N, 2)
            (self.dsa,) = self.call(tiles.raw_buffer, k.load_arg("sa"), m4)
            (self.dsb,) = self.call(tiles.raw_buffer, k.load_arg("sb"), n4)
            (self.dbias,) = self.call(tiles.raw_buffer, k.load_arg("bias"), n4)
        tid = self.tid
        # K-major chunk loads (A; B with trans_b): lane -> chunk (row, kc)
        cpr = self.bk // 8
        self.kc = k.v_and_b32(VGPR(), cpr - 1, tid)
        self.krow = k.v_lshrrev_b32(VGPR(), _log2(cpr), tid)
        self.rpp = self.lanes // cpr
        # The K mask (tiles module doc) of the step held in registers: the
        # lane's chunk starts at k0 = 8 kc.
        k16 = k.s_lshl_b32(SGPR(), self.Kh, 4)
        x0 = k.v_sub_u32(VGPR(), k16, k.v_lshlrev_b32(VGPR(), 7, self.kc))
        self.x = [x0] + [k.v_subrev_u32(VGPR(), 32 * j, x0) if 32 * j <= 64 else
                         k.v_subrev_u32(VGPR(), self.smov(32 * j), x0) for j in range(1, 4)]
        # LDS write address of a K-major chunk (the same for A and B)
        w = k.v_mul_u32_u24(VGPR(), self.rs, self.krow)
        self.kmajor_lds = k.v_lshl_add_u32(VGPR(), self.kc, 4, w)
        self.a_voffs = self.kmajor_offsets(self.m0, c.tile_m)
        self.a_pass = self.rpp * self.rs
        if not c.b_direct:
            if c.trans_b:
                self.b_voffs = self.kmajor_offsets(self.n0, c.tile_n)
            else:
                self.nmajor_setup()
        self.reads_setup()

    def scale_setup(self):
        """block_scale: the scale buffers (sa [K blocks, M]; sb from this
        tile's row of [N blocks, K blocks]) and the lane's sa offsets: the
        rows of each group of 4 result registers (rows 4 (l // mt) + 8 q of
        fragment rm), 4 consecutive floats."""
        k, c = self.k, self.cfg
        kb = k.s_lshr_b32(SGPR(), k.s_add_u32(SGPR(), self.K, 63), 6)    # K counts pairs
        m4 = k.s_lshl_b32(SGPR(), self.M, 2)
        (self.dsa,) = self.call(tiles.raw_buffer, k.load_arg("sa"), k.s_mul_i32(SGPR(), kb, m4))
        nb = k.s_lshr_b32(SGPR(), k.s_add_u32(SGPR(), self.N, BLOCK_SCALE - 1),
                          _log2(BLOCK_SCALE))
        kb4 = k.s_lshl_b32(SGPR(), kb, 2)
        (dsb,) = self.call(tiles.raw_buffer, k.load_arg("sb"), k.s_mul_i32(SGPR(), nb, kb4))
        (self.dsb,) = self.call(tiles.advance_buffer, dsb, k.s_mul_i32(
            SGPR(), k.s_lshr_b32(SGPR(), self.n0, _log2(BLOCK_SCALE)), kb4))
        self.sa_step = m4
        rbase = k.s_add_u32(SGPR(), self.m0, k.s_mul_i32(SGPR(), self.wtm, self.wm))
        lrow = k.v_lshlrev_b32(VGPR(), 2, k.v_lshrrev_b32(VGPR(), _log2(self.mt), self.lane))
        row = k.v_add_u32(VGPR(), rbase, lrow)
        self.sa_voffs = []
        for rm in range(self.rm):
            for q in range(self.nq):
                d = rm * self.mt + 8 * q
                r = row if d == 0 else k.v_add_u32(VGPR(), self.smov(d), row)
                self.sa_voffs.append(k.v_lshlrev_b32(VGPR(), 2, r))
        self.zero_v = k.v_mov_b32(VGPR(), 0)

    def load_scales(self, dsa, dsb):
        """One K block's scales: [sb (one VGPR, the same in every lane)] +
        [sa, 4 rows (VGPR x4) per (rm, q)]; then the buffers moved one block on."""
        k = self.k
        out = [k.buffer_load_dword(VGPR(), self.zero_v, dsb, 0, offen=True)]
        out += [k.buffer_load_dwordx4(VGPR(4), off, dsa, 0, offen=True) for off in self.sa_voffs]
        (dsa,) = self.call(tiles.advance_buffer, dsa, self.sa_step)
        (dsb,) = self.call(tiles.advance_buffer, dsb, self.smov(4))
        return out, dsa, dsb

    def block_scales(self, scl):
        """The factors sa x sb of this step, per rm: one VGPR per result register."""
        k = self.k
        sb, sa = scl[0], scl[1:]
        out = []
        for rm in range(self.rm):
            regs = []
            for q in range(self.nq):
                x = sa[rm * self.nq + q]
                regs += [k.v_mul_f32(VGPR(), x[r], sb) for r in range(4)]
            out.append(regs)
        return out

    def kmajor_offsets(self, row0, rows):
        """Byte offsets (one per pass of all lanes) of the lane's 16-byte
        chunks of a tile of `rows` K-contiguous rows from row0 (K columns)."""
        k = self.k
        rowg = k.v_add_u32(VGPR(), row0, self.krow)
        off = k.v_mul_lo_u32(VGPR(), rowg, self.K)
        if self.k0 is not None:
            off = k.v_add_u32(VGPR(), self.k0, off)
        off = k.v_lshl_add_u32(VGPR(), self.kc, 3, off)
        off = k.v_lshlrev_b32(VGPR(), 1, off)
        voffs = [off]
        for i in range(1, rows // self.rpp):
            step = k.s_mul_i32(SGPR(), self.K, 2 * i * self.rpp)
            voffs.append(k.v_add_u32(VGPR(), step, off))
        return voffs

    def nmajor_setup(self):
        """B (K x N): each lane loads 4 rows x 4 columns (groups of 4 along K)."""
        k, c = self.k, self.cfg
        gpr = c.tile_n // 4
        nq = k.v_and_b32(VGPR(), gpr - 1, self.tid)
        kq = k.v_lshrrev_b32(VGPR(), _log2(gpr), self.tid)
        kq_step = self.lanes // gpr
        self.b_groups = (self.bk // 4) // kq_step
        r4 = k.v_lshlrev_b32(VGPR(), 2, kq)
        if self.k0 is not None:
            r4 = k.v_add_u32(VGPR(), self.k0, r4)
        off = k.v_mul_lo_u32(VGPR(), r4, self.N)
        col = k.v_lshl_add_u32(VGPR(), nq, 2, self.n0)
        off = k.v_add_u32(VGPR(), off, col)
        off = k.v_lshlrev_b32(VGPR(), 1, off)
        self.b_voffs = []
        for i in range(self.b_groups):
            for r in range(4):
                d = 2 * (i * kq_step * 4 + r)
                self.b_voffs.append(off if d == 0 else
                                    k.v_add_u32(VGPR(), k.s_mul_i32(SGPR(), self.N, d), off))
        w = k.v_mul_u32_u24(VGPR(), 4 * self.rs, nq)
        self.b_lds = k.v_lshl_add_u32(VGPR(), kq, 3, w)
        self.b_group_bytes = kq_step * 8
        self.b_step = k.s_mul_i32(SGPR(), self.N, 2 * self.bk)
        self.sel = (self.smov(tiles.SEL_LO), self.smov(tiles.SEL_HI))

    def reads_setup(self):
        k, c = self.k, self.cfg
        (frag,) = self.call(lds.fragment_offset(self.mt, self.rs), self.lane)

        def base(wsg, wt):
            return k.v_add_u32(VGPR(), k.s_mul_i32(SGPR(), wt * self.rs, wsg), frag)
        self.a_rd = base(self.wm, self.wtm)
        if c.b_direct:
            # B operand straight from global: lane holds B[n = l % mt][k = 4 (l // mt) .. +3]
            lg = k.v_lshrrev_b32(VGPR(), _log2(self.mt), self.lane)
            r = k.s_add_u32(SGPR(), k.s_mul_i32(SGPR(), self.wtn, self.wn), self.n0)
            n = k.v_add_u32(VGPR(), r, k.v_and_b32(VGPR(), self.mt - 1, self.lane))
            off = k.v_mul_lo_u32(VGPR(), n, self.K)
            if self.k0 is not None:
                off = k.v_add_u32(VGPR(), self.k0, off)
            off = k.v_lshl_add_u32(VGPR(), lg, 2, off)
            off = k.v_lshlrev_b32(VGPR(), 1, off)
            self.bd_voffs = [off] + [
                k.v_add_u32(VGPR(), k.s_mul_i32(SGPR(), self.K, 2 * rn * self.mt), off)
                for rn in range(1, self.rn)]
            # the K mask of the B operand: the lane's K start 4 (l // mt)
            y0 = k.v_sub_u32(VGPR(), k.s_lshl_b32(SGPR(), self.Kh, 4),
                             k.v_lshlrev_b32(VGPR(), 6, lg))
            self.y = [y0, k.v_subrev_u32(VGPR(), 32, y0)]
        else:
            self.b_rd = base(self.wn, self.wtn)

    # ---- the pieces of one K step ------------------------------------------------
    def load_step(self, da, db):
        """The global loads of one K step (A, and B unless b_direct): a list
        of register ranges, A's first."""
        c = self.cfg
        out = self.call(tiles.buffer_loads(tuple((i, 4, 0) for i in range(len(self.a_voffs)))),
                        da, *self.a_voffs)
        if not c.b_direct:
            d = 4 if c.trans_b else 2
            out += self.call(tiles.buffer_loads(tuple((i, d, 0)
                                                      for i in range(len(self.b_voffs)))),
                             db, *self.b_voffs)
        return list(out)

    def advance_descs(self, da, db):
        c = self.cfg
        (da,) = self.call(tiles.advance_buffer, da, self.smov(2 * self.bk))
        if not c.b_direct:
            step = self.smov(2 * self.bk) if c.trans_b else self.b_step
            (db,) = self.call(tiles.advance_buffer, db, step)
        return da, db

    def write_step(self, regs, xs, p):
        """Writes the step in `regs` (K tail masked) to LDS buffer p."""
        c = self.cfg
        na = len(self.a_voffs)
        base = p * self.buf
        chunks = regs[:na]
        offs = [base + i * self.a_pass for i in range(na)]
        if c.trans_b and not c.b_direct:
            chunks = regs
            offs += [base + self.a_bytes + i * self.a_pass for i in range(len(regs) - na)]
        self.call(tiles.write_kmajor(tuple(offs)), *chunks, *xs, self.kmajor_lds)
        if not c.trans_b:
            self.call(tiles.write_transposed(self.b_groups, self.rs, self.b_group_bytes,
                                             base + self.a_bytes), *regs[na:], *self.sel,
                      self.b_lds)

    def next_x(self, xs):
        step = self.smov(16 * self.bk)
        return [self.k.v_subrev_u32(VGPR(), step, x) for x in xs]

    def reads(self, p):
        """This wave's MFMA operands of one K step from LDS buffer p:
        [k-step][A list, B list (None with b_direct)]."""
        ks = self.bk // self.mk
        a_off = p * self.buf
        b_off = a_off + self.a_bytes
        A = self.call(tiles.read_fragments(tuple(
            a_off + rm * self.mt * self.rs + 2 * s_ * self.mk
            for s_ in range(ks) for rm in range(self.rm))), self.a_rd)
        B = None if self.cfg.b_direct else self.call(tiles.read_fragments(tuple(
            b_off + rn * self.mt * self.rs + 2 * s_ * self.mk
            for s_ in range(ks) for rn in range(self.rn))), self.b_rd)
        return [[list(A[s_ * self.rm:(s_ + 1) * self.rm]),
                 None if B is None else list(B[s_ * self.rn:(s_ + 1) * self.rn])]
                for s_ in range(ks)]

    def load_bdirect(self, dbd):
        """This wave's B operands of one K step straight from global memory:
        [k-step][rn] -> VGPR pair (K past its end not yet masked)."""
        ks = self.bk // self.mk
        out = self.call(tiles.buffer_loads(tuple((rn, 2, 2 * s_ * self.mk)
                                                 for s_ in range(ks) for rn in range(self.rn))),
                        dbd, *self.bd_voffs)
        return [list(out[s_ * self.rn:(s_ + 1) * self.rn]) for s_ in range(ks)]

    def mask_bdirect(self, regs, ys):
        """The B operands with K past its end zeroed (the lane's K start
        moves by mk per k-step s)."""
        k = self.k
        out = []
        for s_, row in enumerate(regs):
            y = ys if s_ == 0 else [k.v_subrev_u32(VGPR(), self.smov(16 * s_ * self.mk), t)
                                   for t in ys]
            out.append(list(self.call(tiles.mask_fragments(len(row)), *row, *y)))
        return out

    def mfmas(self, acc, ops, bops, which):
        """The MFMAs of `which` [(k step (a pair of them with double_k), rm, rn)]."""
        k = self.k
        last = self.bk // self.mk // self.kpair - 1
        for s_, rm, rn in which:
            ss = range(s_ * self.kpair, (s_ + 1) * self.kpair)
            A = [ops[t][0][rm] for t in ss]
            B = [bops[t][rn] if bops is not None else ops[t][1][rn] for t in ss]
            if self.kpair > 1:
                A, B = [k.concat(*A)], [k.concat(*B)]
            i = rm * self.rn + rn
            if not self.bs:
                (acc[i],) = self.call(self.step_fn, A[0], B[0], acc[i])
                continue
            # block_scale: the step's partial sum, then acc += partial x scale
            if s_ == 0:
                (P,) = self.call(self.first_fn, A[0], B[0])
            else:
                (P,) = self.call(self.step_fn, A[0], B[0], self._P[i])
            if s_ < last:
                self._P[i] = P
                continue
            f = self._scale[rm]
            acc[i] = k.concat(*[k.v_fma_f32(VGPR(), P[r], f[r], acc[i][r])
                                for r in range(self.nacc)])

    def load_items(self, da, db, out):
        """The global loads of one K step as separate pieces (closures
        appending to `out`, A's first)."""
        c = self.cfg
        items = [lambda off=off: out.extend(self.call(tiles.buffer_loads(((0, 4, 0),)), da, off))
                 for off in self.a_voffs]
        if not c.b_direct:
            d = 4 if c.trans_b else 2
            items += [lambda off=off: out.extend(self.call(tiles.buffer_loads(((0, d, 0),)),
                                                           db, off))
                      for off in self.b_voffs]
        return items

    def read_items(self, p, flat):
        """The reads of one K step's MFMA operands from LDS buffer p, one
        piece per fragment (closures appending to `flat`); `shape(flat)`
        rebuilds reads()' nesting."""
        ks = self.bk // self.mk
        a_off = p * self.buf
        b_off = a_off + self.a_bytes
        keys = []
        for s_ in range(ks):
            keys += [(self.a_rd, a_off + rm * self.mt * self.rs + 2 * s_ * self.mk)
                     for rm in range(self.rm)]
            if not self.cfg.b_direct:
                keys += [(self.b_rd, b_off + rn * self.mt * self.rs + 2 * s_ * self.mk)
                         for rn in range(self.rn)]
        return [lambda a=a, o=o: flat.extend(self.call(tiles.read_fragments((o,)), a))
                for a, o in keys]

    def shape_ops(self, flat):
        per = self.rm + (0 if self.cfg.b_direct else self.rn)
        out = []
        for s_ in range(self.bk // self.mk):
            x = flat[s_ * per:(s_ + 1) * per]
            out.append([x[:self.rm], None if self.cfg.b_direct else x[self.rm:]])
        return out

    def step(self, st, p):
        """One K step: this step's MFMAs (operands st["ops"] read from LDS
        buffer p) with the writes of the next step (the oldest step held in
        registers) to buffer 1-p before the barrier, the global loads of a
        later step and the reads of the next step's operands after it.

        Python places the barrier (after `barrier_gap` + the writes' MFMAs);
        amdgcn-schedule orders each side. Each read and load is its own call
        (the pass moves whole instructions; one call per piece keeps the
        written order a reasonable start). Freezing the side after the
        barrier in a Python interleave (one MFMA, two memory pieces) or
        fencing the reads before the loads was slower."""
        k, c = self.k, self.cfg
        order = [(s_, rm, rn) for s_ in range(self.bk // self.mk // self.kpair)
                 for rm in range(self.rm) for rn in range(self.rn)]
        nw = len(self.a_voffs) + (0 if c.b_direct else len(self.b_voffs))
        split = min(len(order) - 3, nw + self.barrier_gap)
        out = dict(st)
        bm = None
        if c.b_direct:
            bm = self.mask_bdirect(st["bops"], st["ys"])
            out["bops"] = self.load_bdirect(st["db"])
            (out["db"],) = self.call(tiles.advance_buffer, st["db"], self.smov(2 * self.bk))
            out["ys"] = [k.v_subrev_u32(VGPR(), self.smov(16 * self.bk), y) for y in st["ys"]]
        if self.bs:     # this step's scales; the loads of a later step's
            scl = list(st["scl"])
            self._scale = self.block_scales(scl.pop(0))
            nxt, out["dsa"], out["dsb"] = self.load_scales(st["dsa"], st["dsb"])
            out["scl"] = scl + [nxt]
        staged = list(st["staged"])
        self.write_step(staged.pop(0), st["xs"], 1 - p)
        out["xs"] = self.next_x(st["xs"])
        acc = list(st["acc"])
        self.mfmas(acc, st["ops"], bm, order[:split])
        k.s_barrier()
        loaded, frags = [], []

        def advance():
            out["da"], db = self.advance_descs(st["da"], st["db"])
            if not c.b_direct:
                out["db"] = db
        reads = self.read_items(1 - p, frags)
        loads = self.load_items(st["da"], st["db"], loaded) + [advance]
        mem = []
        for i in range(max(len(reads), len(loads))):
            mem += reads[i:i + 1] + loads[i:i + 1]
        rest = order[split:]
        per = -(-len(mem) // len(rest))
        for i, mm in enumerate(rest):          # the pass reorders these
            self.mfmas(acc, st["ops"], bm, [mm])
            for item in mem[i * per:(i + 1) * per]:
                item()
        staged.append(loaded)
        out["ops"] = self.shape_ops(frags)
        out["acc"] = acc
        out["staged"] = staged
        return out

    # ---- epilogue -----------------------------------------------------------------
    def store_scaled(self, acc):
        """The a8w8 epilogue: bf16(acc sa[row] sb[col] + bias[col])."""
        k = self.k
        n2 = k.s_lshl_b32(SGPR(), self.N, 1)
        rbase = k.s_add_u32(SGPR(), self.m0, k.s_mul_i32(SGPR(), self.wtm, self.wm))
        cbase = k.s_add_u32(SGPR(), self.n0, k.s_mul_i32(SGPR(), self.wtn, self.wn))
        store = tiles.store_scaled_bf16(self.mt, int_acc=self.cfg.dtype == "i8")
        lrow = k.v_lshlrev_b32(VGPR(), 2, k.v_lshrrev_b32(VGPR(), _log2(self.mt), self.lane))
        lcol = k.v_and_b32(VGPR(), self.mt - 1, self.lane)
        row4 = k.v_lshlrev_b32(VGPR(), 2, k.v_add_u32(VGPR(), rbase, lrow))
        col4 = k.v_lshlrev_b32(VGPR(), 2, k.v_add_u32(VGPR(), cbase, lcol))
        for rn in range(self.rn):
            col0 = cbase if rn == 0 else k.s_add_u32(SGPR(), cbase, rn * self.mt)
            (off,) = self.call(tiles.store_offset(self.mt, 2), self.lane, rbase, col0, self.N, n2)
            c4 = col4 if rn == 0 else k.v_add_u32(VGPR(), 4 * rn * self.mt, col4)
            for rm in range(self.rm):
                o = off if rm == 0 else k.v_add_u32(
                    VGPR(), k.s_mul_i32(SGPR(), n2, rm * self.mt), off)
                r4 = row4 if rm == 0 else k.v_add_u32(VGPR(), 4 * rm * self.mt, row4)
                self.call(store, acc[rm * self.rn + rn], self.dc, n2, o, self.dsa, self.dsb,
                          self.dbias, r4, c4)

    # ---- split-K without a zero fill ---------------------------------------------
    # zwg = 1: workgroup z = 0 of a tile zeroes C's tile in the same launch
    # and the K splits (z = 1..splits) add into it once it has. zwg = 0:
    # split 0 (z = 0) stores its partial sums instead of adding them and the
    # other splits add into them once it has (no zero workgroups: the
    # launch has one workgroup per tile fewer along z, at the cost of the
    # adders waiting for split 0's store). Either way no zero-fill launch
    # runs before the GEMM. Each wave owns a part of the output tile and a
    # counter cnt[tile, wave] (zero before the launch, zero again after it):
    #   storing wave (z = 0: zeros with zwg, split 0's sums without):
    #     stores, releases (buffer_wbl2 sc1, s_waitcnt vmcnt(0): LLVM's
    #     agent-scope release on gfx942, AMDGPUUsage "Memory Model GFX942"),
    #     then cnt += 1 (unless it is the only split: nobody adds);
    #   adding wave (the other splits, adders = splits + zwg - 1 of them):
    #     polls cnt (a returning atomic add of 0) until its low half is 1
    #     (stored), then r = cnt += 0x10000 (returning) and adds its partial
    #     sums with buffer_atomic_add_f32; the wave that reads
    #     r = (adders - 1) 0x10000 + 1 (every other adding wave has finished
    #     polling) stores cnt = 0.
    # An adding wave waits only for a storing wave, which waits for nothing;
    # storing workgroups come first in dispatch order (z = 0) and in the
    # emulator's in-order runs, so the wait ends in every order workgroups
    # run in.
    def counter(self):
        """(the counters' buffer, this wave's counter byte offset, lane-0-only
        offsets: lanes 1-63 are out of the buffer's range)."""
        k, c = self.k, self.cfg
        ntn = k.s_lshr_b32(SGPR(), k.s_add_u32(SGPR(), self.N, c.tile_n - 1), _log2(c.tile_n))
        ntm = k.s_lshr_b32(SGPR(), k.s_add_u32(SGPR(), self.M, c.tile_m - 1), _log2(c.tile_m))
        (dcnt,) = self.call(tiles.raw_buffer, k.load_arg("cnt"), k.s_lshl_b32(
            SGPR(), k.s_mul_i32(SGPR(), k.s_mul_i32(SGPR(), ntn, ntm), c.waves),
            _log2(CNT_BYTES)))
        tile = k.s_add_u32(SGPR(), k.s_mul_i32(SGPR(), self.wgy, ntn), self.wgx)
        wave = k.s_add_u32(SGPR(), k.s_mul_i32(SGPR(), self.wm, c.waves_n), self.wn)
        coff = k.s_lshl_b32(SGPR(), k.s_add_u32(SGPR(), k.s_mul_i32(SGPR(), tile, c.waves),
                                                 wave), _log2(CNT_BYTES))
        return dcnt, coff, k.v_lshlrev_b32(VGPR(), 25, self.lane)

    def cnt_add(self, cnt, x, ret=True):
        k = self.k
        dcnt, coff, lane0 = cnt
        val = k.v_mov_b32(VGPR(), x)
        if not ret:
            k.buffer_atomic_add(val, lane0, dcnt, coff, offen=True, sc1=True)
            return None
        old = k.buffer_atomic_add_rtn(VGPR(), lane0, dcnt, coff, vdata_in=val, offen=True,
                                      sc1=True)
        return k.v_readfirstlane_b32(SGPR(), old)

    def zero_tile(self):
        """Workgroup z = 0 of a split-K launch: zeroes this wave's part of C,
        releases it and counts it in the wave's counter; ends the program."""
        k = self.k
        cnt = self.counter()
        zero = k.concat(*[k.v_mov_b32(VGPR(), 0) for _ in range(self.nacc)])
        self.store([zero] * (self.rm * self.rn), atomic=False, acc_kind="vgpr")
        k.buffer_wbl2(sc1=True)
        k.s_waitcnt(vmcnt=0)
        self.cnt_add(cnt, 1, ret=False)
        k.s_endpgm()

    def store_splitk(self, acc):
        """A K split's epilogue (see above): split 0 of a launch without
        zero workgroups stores; the others wait for the storing wave and add."""
        k = self.k
        cnt = self.counter()
        add = k.label("sk_add")
        alone = k.label("sk_alone")
        if self.cfg.stream_k:   # the table says: first segment of its tile, and its adders
            adders = self.work[5]
            k.s_cmp_eq_u32(self.work[4], 0)
            k.s_cbranch_scc1(add)
            self.store(acc, atomic=False)
            k.buffer_wbl2(sc1=True)
            k.s_waitcnt(vmcnt=0)
            k.s_cmp_eq_u32(adders, 0)
            k.s_cbranch_scc1(alone)
        else:
            splits = k.load_arg("splits")
            zwg = k.load_arg("zwg")
            k.s_cmp_lg_u32(k.s_or_b32(SGPR(), zwg, self.sidx), 0)
            k.s_cbranch_scc1(add)
            self.store(acc, atomic=False)                   # zwg = 0, split 0
            k.buffer_wbl2(sc1=True)
            k.s_waitcnt(vmcnt=0)
            k.s_cmp_eq_u32(splits, 1)
            k.s_cbranch_scc1(alone)
        self.cnt_add(cnt, 1, ret=False)
        k.bind(alone)
        k.s_endpgm()
        k.bind(add)
        spin = k.here("sk_wait")
        k.s_cmp_eq_u32(self.cnt_add(cnt, 0), 0)
        k.s_cbranch_scc1(spin)
        r = self.cnt_add(cnt, 0x10000)
        self.store(acc, atomic=True)
        if not self.cfg.stream_k:
            adders = k.s_sub_u32(SGPR(), k.s_add_u32(SGPR(), splits, zwg), 1)
        last = k.s_add_u32(SGPR(), k.s_lshl_b32(SGPR(), k.s_sub_u32(SGPR(), adders, 1), 16), 1)
        end = k.label("sk_end")
        k.s_cmp_eq_u32(r, last)
        k.s_cbranch_scc0(end)
        dcnt, coff, lane0 = cnt
        k.buffer_store_dword(k.v_mov_b32(VGPR(), 0), lane0, dcnt, coff, offen=True, sc1=True)
        k.bind(end)

    def store(self, acc, atomic=None, acc_kind="agpr"):
        if self.bs:     # the f32 sums (VGPRs) rounded to bf16 by store_result_16
            k = self.k
            acc = [k.concat(*[k.v_accvgpr_write_b32(AGPR(), a[r]) for r in range(self.nacc)])
                   for a in acc]
        elif self.i8:
            return self.store_scaled(acc)
        if atomic is None and self.cfg.split_k:
            return self.store_splitk(acc)
        k = self.k
        eb = 4 if self.cfg.out == "f32" and not self.bs else 2  # bytes per element of C
        n4 = k.s_lshl_b32(SGPR(), self.N, _log2(eb))
        rbase = k.s_add_u32(SGPR(), self.m0, k.s_mul_i32(SGPR(), self.wtm, self.wm))
        cbase = k.s_add_u32(SGPR(), self.n0, k.s_mul_i32(SGPR(), self.wtn, self.wn))
        store = tiles.store_result_buffer(self.mt, acc_kind, atomic=bool(atomic)) if eb == 4 else \
            tiles.store_result_16(self.mt, "bf16" if self.bs else self.cfg.out)
        for rn in range(self.rn):
            col0 = cbase if rn == 0 else k.s_add_u32(SGPR(), cbase, rn * self.mt)
            (off,) = self.call(tiles.store_offset(self.mt, eb), self.lane, rbase, col0, self.N,
                               n4)
            for rm in range(self.rm):
                o = off if rm == 0 else k.v_add_u32(
                    VGPR(), k.s_mul_i32(SGPR(), n4, rm * self.mt), off)
                self.call(store, acc[rm * self.rn + rn], self.dc, n4, o)

    # ---- the kernel ------------------------------------------------------------------
    @staticmethod
    def _flatten(st):
        """The loop state as a flat list of Values and a function rebuilding it."""
        keys = sorted(st)
        shapes = []
        flat = []

        def walk(x):
            if isinstance(x, list):
                return [walk(y) for y in x]
            if x is None:
                return None
            flat.append(x)
            return len(flat) - 1
        for key in keys:
            shapes.append(walk(st[key]))

        def rebuild(vals):
            def un(sh):
                if isinstance(sh, list):
                    return [un(y) for y in sh]
                return None if sh is None else vals[sh]
            return {key: un(sh) for key, sh in zip(keys, shapes)}
        return flat, rebuild

    def generate(self):
        k, c = self.k, self.cfg
        self.setup_common()
        if c.split_k and not c.stream_k:    # with zwg, workgroup z = 0 zeroes C
            gemm = k.label("sk_gemm")
            k.s_cmp_lg_u32(k.workgroup_id("z"), 0)
            k.s_cbranch_scc1(gemm)
            k.s_cmp_eq_u32(k.load_arg("zwg"), 0)
            k.s_cbranch_scc1(gemm)
            self.zero_tile()
            k.bind(gemm)
        self.setup()
        init = (lambda: k.v_mov_b32(VGPR(), 0)) if self.bs else \
            (lambda: k.v_accvgpr_write_b32(AGPR(), 0))
        acc = [k.concat(*[init() for _ in range(self.nacc)]) for _ in range(self.rm * self.rn)]
        da, db = self.da, self.db
        # prologue: step 0 to LDS buffer 0; steps 1..prefetch into registers
        first = self.load_step(da, db)
        da, db = self.advance_descs(da, db)
        st = {"acc": acc, "xs": self.x}
        if self.bs:     # scales prefetch + 1 steps ahead (the data's distance)
            dsa, dsb, scl = self.dsa, self.dsb, []
            for _ in range(c.prefetch + 1):
                x, dsa, dsb = self.load_scales(dsa, dsb)
                scl.append(x)
            st.update(scl=scl, dsa=dsa, dsb=dsb)
        if c.b_direct:
            st["bops"] = self.load_bdirect(db)
            (db,) = self.call(tiles.advance_buffer, db, self.smov(2 * self.bk))
            st["ys"] = self.y
        self.write_step(first, st["xs"], 0)
        st["xs"] = self.next_x(st["xs"])
        staged = []
        for _ in range(c.prefetch):
            staged.append(self.load_step(da, db))
            da, db = self.advance_descs(da, db)
        k.s_barrier()
        st["ops"] = self.reads(0)
        st.update(staged=staged, da=da, db=db)
        # loop: K_UNROLL steps per trip (LDS buffers 0, 1, 0, 1), every register
        # virtual: the values in flight across the back edge are block
        # arguments, which amdgcn-regalloc gives the registers of the values
        # passed to them (no copies)
        unroll = K_UNROLL
        trips = k.s_lshr_b32(SGPR(), k.s_add_u32(SGPR(), self.Kh, unroll * self.bk - 1),
                             _log2(unroll * self.bk))
        k.s_mov_b32(s[48], trips)
        flat, rebuild = self._flatten(st)
        with k.loop(s[48], s[48], name="kloop", carry=flat) as L:
            st = rebuild(list(L.carry))
            for u in range(unroll):
                st = self.step(st, u % 2)
            L.next(*self._flatten(st)[0])
        acc = rebuild(L.results)["acc"]
        self.store(acc)
        k.s_endpgm()
        return self.m
