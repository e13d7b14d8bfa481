"""The GEMM kernel's setup code (a part of aster.generators.gemm_gen's
`_Gen`): the argument buffers, the tile's origin, the wave and lane, the K
range of a split or stream-K segment, the per-lane K mask, the global-load
offsets of A and B and the LDS addresses of this wave's fragments.

Needs: `_Gen.__init__`'s kernel and tile geometry. Guarantees: the values
that the K loop (gemm_kstep) and the epilogues (gemm_store, gemm_splitk)
reuse, as attributes (M, N, K, m0, n0, wm, wn, lane, k0, Kh, da, db, x,
a_voffs, b_voffs, kmajor_lds, a_rd, b_rd, ...); block_scale's scale
buffers come from gemm_block_scale's `scale_setup`."""
from ..nanokernels import lds, tiles
from ..registers import SGPR, VGPR, v
from .gemm_layout import BYTE_DTYPES, STREAM_K_WORDS, _log2


class Setup:
    """The setup methods of `_Gen` (gemm_gen)."""

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
