"""Split-K and stream-K without a zero fill (a part of
aster.generators.gemm_gen's `_Gen`): the per-(tile, wave) counters, the
zero workgroups and a split's or segment's store-or-add epilogue; the
protocol below.

Needs: gemm_setup's values (M, N, wgx, wgy, wm, wn, lane; split-K: sidx;
stream-K: the work row); gemm_store's `store`. Guarantees: C's tile holds
the sum of every split's partial tile once every adder is done, whatever
order workgroups run in, and the counters are zero again."""
from ..nanokernels import tiles
from ..registers import SGPR, VGPR
from .gemm_layout import CNT_BYTES, _log2


class SplitK:
    """The split-K methods of `_Gen` (gemm_gen)."""

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
