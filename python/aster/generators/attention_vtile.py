"""The V tile's data paths of the attention forward kernel
(attention_gen._Gen inherits them): its global offsets, loads, LDS writes
and the A-operand read address of O^T += V^T P^T. Two layouts: V^T (rows
of d, transposed by v_perm_b32 on its way to LDS; gfx942 and the 16-row
decode blocks) and, on gfx950 (`_Gen.vtr`), V row-major like K, read by
ds_read_b64_tr_b16."""
from ..nanokernels import tiles
from ..registers import SGPR, VGPR, v


def _log2(x):
    return x.bit_length() - 1


class _VTile:
    """V tile methods of attention_gen._Gen (which sets cfg, k, vtr,
    rs_v, k_bytes, k_pass, k_rows, v_goff, v_ldsa, vreg, sel)."""

    def v_setup_transposed(self, tid, wave):
        """V's global offsets and LDS addresses when V is written transposed
        (V^T: rows of d, K-contiguous keys; gfx942 and M = 16)."""
        k, c = self.k, self.cfg
        d2 = 2 * c.d
        # V tile -> LDS transposed (V^T: rows of d, K-contiguous keys): each
        # lane loads groups of 4 keys x 4 columns of d (tiles.write_transposed)
        # Lane -> (key quad kq, column quad nq) of V: lane bits 0-1 give kq,
        # bits 2-5 nq, so one buffer_load_dwordx2 of a wave reads 4 whole
        # 256-byte rows (d = 128) and the 16 lanes of one LDS write cycle
        # write 4 key quads x 4 column quads: dwords 72 nq + 2 kq of V^T
        # (rs_v = 18 dwords), 16 distinct even banks (no conflict). The
        # wave and the group pick the rest of kq and nq (scalar offsets).
        nqs, kqs = c.d // 4, c.kv // 4
        nqh, kqh = nqs // 16, kqs // 4              # column / key blocks per tile
        if (nqh * kqh) % c.waves or (c.waves % nqh and c.waves != 1):
            raise ValueError(f"attention: V tile of {c.kv} x {c.d} does not split over "
                             f"{c.waves} waves")
        kq = k.v_and_b32(VGPR(), 3, tid)
        nq = k.v_bfe_u32(VGPR(), tid, 2, 4)
        v0 = k.v_lshl_add_u32(VGPR(), nq, 3, k.v_mul_u32_u24(VGPR(), 4 * d2, kq))
        l0 = k.v_lshl_add_u32(VGPR(), kq, 3, k.v_mul_u32_u24(VGPR(), 4 * self.rs_v, nq))
        self.v_goff, self.v_ldsa = [], []
        for g in range((nqh * kqh) // c.waves):
            cw = k.s_add_u32(SGPR(), wave, c.waves * g)
            nhi = k.s_and_b32(SGPR(), nqh - 1, cw)
            khi = k.s_lshr_b32(SGPR(), cw, _log2(nqh))
            goff = k.s_add_u32(SGPR(), k.s_mul_i32(SGPR(), khi, 16 * d2),
                               k.s_lshl_b32(SGPR(), nhi, 7))             # 16 nq x 8 bytes
            loff = k.s_add_u32(SGPR(), k.s_mul_i32(SGPR(), nhi, 64 * self.rs_v),
                               k.s_lshl_b32(SGPR(), khi, 5))             # 4 kq x 8 bytes
            self.v_goff.append(k.v_add_u32(VGPR(), goff, v0))
            self.v_ldsa.append(k.v_add_u32(VGPR(), loff, l0))

    def tr_offset(self, lane):
        """The lane's ds_read_b64_tr_b16 address in row-major V for the A
        operand of a 32x32x8 step (V^T: row d = lane % 32, keys 4 (lane // 32)
        + 0..3): lane a + 4 j (a, j < 4) of 16-lane group g reads key row
        4 (g // 2) + j, d 16 (g % 2) + 4 a .. + 3, and after the transpose
        holds d 16 (g % 2) + lane % 16 of keys 4 (g // 2) + 0..3 (the
        emulator's SemDSTranspose.cpp, after AMD's rocRoller test and
        Triton's chooseDsReadB64TrLayout)."""
        k = self.k
        row = k.v_or_b32(VGPR(), k.v_bfe_u32(VGPR(), lane, 2, 2),
                         k.v_and_b32(VGPR(), 4, k.v_lshrrev_b32(VGPR(), 3, lane)))
        col = k.v_lshl_or_b32(VGPR(), k.v_bfe_u32(VGPR(), lane, 4, 1), 5,
                              k.v_lshlrev_b32(VGPR(), 3, k.v_and_b32(VGPR(), 3, lane)))
        return k.v_add_u32(VGPR(), col, k.v_mul_u32_u24(VGPR(), self.rs_v, row))

    def load_v(self, dv):
        """Global loads of one V tile, 4 rows x 4 columns per lane and group,
        into its pinned registers."""
        k, c = self.k, self.cfg
        d2 = 2 * c.d
        if self.vtr:
            for i, off in enumerate(self.v_goff):
                k.buffer_load_dwordx4(v[self.vreg + 4 * i:self.vreg + 4 * i + 4], off, dv, 0,
                                      offen=True)
            (dv,) = self.call(tiles.advance_buffer, dv, self.smov(c.kv * d2))
            return dv
        for g, off in enumerate(self.v_goff):
            for r in range(4):
                b = self.vreg + 8 * g + 2 * r
                k.buffer_load_dwordx2(v[b:b + 2], off, dv, 0, offen=True, offset=r * d2)
        (dv,) = self.call(tiles.advance_buffer, dv, self.smov(c.kv * d2))
        return dv

    def write_v(self):
        """The loaded V tile to LDS: transposed (V^T: rows of d, rs_v apart),
        or row-major on gfx950 (16 lanes of a ds_write_b128 write one whole
        row: no bank conflict)."""
        k = self.k
        if self.vtr:
            for i in range(self.k_pass):
                b = self.vreg + 4 * i
                k.ds_write_b128(self.v_ldsa[0], v[b:b + 4],
                                offset=self.k_bytes + i * self.k_rows * self.rs_v)
            return
        for g, addr in enumerate(self.v_ldsa):
            b = self.vreg + 8 * g
            rows = [v[b + 2 * r:b + 2 * r + 2] for r in range(4)]
            # tiles.write_transposed's packing (a call would take virtual
            # registers): column c's 4 keys with two v_perm_b32
            for col in range(4):
                x, sel = col // 2, self.sel[col % 2]
                lo = k.v_perm_b32(VGPR(), rows[1][x], rows[0][x], sel)
                hi = k.v_perm_b32(VGPR(), rows[3][x], rows[2][x], sel)
                k.ds_write_b64(addr, k.concat(lo, hi), offset=self.k_bytes + col * self.rs_v)
