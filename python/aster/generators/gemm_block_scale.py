"""Block-scale fp8 (gfx950) pieces of the GEMM kernel (a part of
aster.generators.gemm_gen's `_Gen`; the operation: aster.generators.gemm's
module doc): the MFMA of a K block's first fragment with C = 0, the scale
buffers and per-lane offsets, the scale loads of one K block and the
factors sa x sb that fold a block's partial sum into the accumulator.

Needs: gemm_setup's `setup` values (M, N, K, m0, n0, wm, lane). Guarantees:
dsa, dsb, sa_voffs, sa_step, zero_v (scale_setup); a step's scales and the
buffers moved one block on (load_scales); per rm, one VGPR factor per
result register (block_scales)."""
from ..nanokernels import mfma, tiles
from ..registers import SGPR, VGPR
from .gemm_layout import BLOCK_SCALE, _log2

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



class BlockScale:
    """The block-scale methods of `_Gen` (gemm_gen)."""

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
