"""The variable-length forward behind aster.generators.attention (config
`varlen=True`): several sequences of different lengths packed along the
sequence axis, as FlashAttention's varlen API (cu_seqlens), in one launch.

Layouts: q (heads, total_q, d), k and v (kv_heads, total_k, d), o (heads,
total_q, d) f32, lse (heads, total_q) f32, contiguous; sequence b is rows
cu_q[b] .. cu_q[b + 1] of q (and o, lse) and cu_k[b] .. cu_k[b + 1] of k
and v (cu_q, cu_k: int32 kernel-argument arrays of batch + 1 offsets).
Grid (query blocks of the longest sequence, heads, batch): workgroup (x, y,
z) reads cu_q[z], cu_q[z + 1], cu_k[z], cu_k[z + 1] with scalar loads and
computes query block nqb - 1 - x of sequence z, head y (the forward's
order: the last block first), or ends at once when the sequence has fewer
than x + 1 blocks. Kv head = y // group as s_mul_hi_u32(y, group_magic),
group_magic = floor(2^32 / group) + 1 (exact for y, group < 2^16: the
error y (magic - 2^32 / group) / 2^32 < 1 / group), y itself for group 1.

_VarlenGen changes only attention_gen._Gen's arguments and `bases` (the
workgroup's buffers: raw buffers over its sequence's rows, so rows past the
sequence read 0 and stores past it are dropped, as the forward's head
buffers) and ends the kernel at its early exit; the tile body, masks
(bottom-right causal per sequence, FlashAttention-2's varlen convention)
and epilogue are the forward's. Needs and guarantees are the forward's."""
import numpy as np

from .. import ptr
from ..nanokernels import tiles
from ..registers import SGPR
from .attention_gen import _dtypes, _Gen, _log2


class _VarlenGen(_Gen):
    """The forward kernel over the sequences of cu_seqlens."""

    def kernel_args(self):
        el = ptr(_dtypes()[self.cfg.dtype])
        return [("q", el), ("k", el), ("v", el), ("o", ptr(np.float32)),
                ("lse", ptr(np.float32)), ("cu_q", ptr(np.int32)), ("cu_k", ptr(np.int32)),
                ("total_q", np.int32), ("total_k", np.int32), ("group", np.int32),
                ("group_magic", np.uint32),
                ("c2", np.float32)]

    def span(self, ptr_, row, row_bytes, nrows):
        """A raw buffer over `nrows` rows of `row_bytes` from row `row` of
        `ptr_` (64-bit address arithmetic)."""
        k = self.k
        lo = k.s_mul_i32(SGPR(), row, row_bytes)
        hi = k.s_mul_hi_u32(SGPR(), row, row_bytes)
        plo = k.s_add_u32(SGPR(), ptr_[0], lo)
        phi = k.s_addc_u32(SGPR(), ptr_[1], hi)
        return k.concat(plo, k.s_and_b32(SGPR(), 0xFFFF, phi),
                        k.s_mul_i32(SGPR(), nrows, row_bytes),
                        self.smov(tiles.RAW_BUFFER_WORD3))

    def bases(self):
        k, c = self.k, self.cfg
        d2 = 2 * c.d
        pq, pk, pv = k.load_arg("q"), k.load_arg("k"), k.load_arg("v")
        po, plse = k.load_arg("o"), k.load_arg("lse")
        pcq, pck = k.load_arg("cu_q"), k.load_arg("cu_k")
        tq, tk = k.load_arg("total_q"), k.load_arg("total_k")
        group, magic = k.load_arg("group"), k.load_arg("group_magic")
        self.c2 = k.load_arg("c2")
        h, seq = k.workgroup_id("y"), k.workgroup_id("z")
        kvh = k.s_mul_hi_u32(SGPR(), h, magic)
        k.s_cmp_eq_u32(group, 1)                    # (its magic, 2^32 + 1, needs 33 bits)
        kvh = k.s_cselect_b32(SGPR(), h, kvh)
        boff = k.s_lshl_b32(SGPR(), seq, 2)
        cq = k.s_load_dwordx2(SGPR(2, align=2), pcq, boff)
        ck = k.s_load_dwordx2(SGPR(2, align=2), pck, boff)
        sq = k.s_sub_u32(SGPR(), cq[1], cq[0])
        sk = k.s_sub_u32(SGPR(), ck[1], ck[0])
        self.sq, self.sk = sq, sk
        nqb = k.s_lshr_b32(SGPR(), k.s_add_u32(SGPR(), sq, self.bq - 1), _log2(self.bq))
        # a sequence shorter than this block's index: nothing to do
        self.exit = k.label("varlen_exit")
        k.s_cmp_ge_u32(k.workgroup_id("x"), nqb)
        k.s_cbranch_scc1(self.exit)
        qb = k.s_sub_u32(SGPR(), k.s_sub_u32(SGPR(), nqb, 1), k.workgroup_id("x"))
        self.q0 = k.s_lshl_b32(SGPR(), qb, _log2(self.bq))
        qrow = k.s_add_u32(SGPR(), k.s_mul_i32(SGPR(), h, tq), cq[0])
        krow = k.s_add_u32(SGPR(), k.s_mul_i32(SGPR(), kvh, tk), ck[0])
        self.dq = self.span(pq, qrow, self.smov(d2), sq)
        self.dk = self.span(pk, krow, self.smov(d2), sk)
        self.dv = self.span(pv, krow, self.smov(d2), sk)
        self.do = self.span(po, qrow, self.smov(4 * c.d), sq)
        if c.lse:
            self.dl = self.span(plse, qrow, self.smov(4), sq)

    def epilogue(self, st):
        super().epilogue(st)
        self.k.bind(self.exit)
