"""The GEMM kernel's epilogues (a part of aster.generators.gemm_gen's `_Gen`):
C in f32 (plain stores, or atomic adds for a K split), rounded to bf16 /
f16 (`out`, block-scale), or a8w8's scaled bf16 (acc sa[m] sb[n] +
bias[n]). A split-K kernel's stores go through gemm_splitk's protocol.

Needs: gemm_setup's values (N, m0, n0, wm, wn, lane, dc; a8w8: dsa, dsb,
dbias). Guarantees: every element of this wave's part of the tile inside
M x N written once (columns past N sent out of range, rows past M past
the buffer)."""
from ..nanokernels import tiles
from ..registers import AGPR, SGPR, VGPR
from .gemm_layout import _log2


class Store:
    """The epilogue methods of `_Gen` (gemm_gen)."""

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
