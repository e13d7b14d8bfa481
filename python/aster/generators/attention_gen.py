"""The attention forward kernel generator behind aster.generators.attention
(see its module doc for the algorithm and the lane layouts): one `_Gen` per
kernel holds the builder and the setup values (buffer resources, lane
offsets, LDS addresses) that the KV loop reuses. Data movement goes through
aster.nanokernels pieces (`tiles.raw_buffer`, `advance_buffer`,
`buffer_loads`, `write_transposed`, `read_fragments`,
`lds.fragment_offset`); the MFMAs, the online softmax and the epilogue are
written here instruction by instruction.

Registers: virtual, but those `pinned()` lays out at the top of the 256
VGPRs (O^T, the scores of two tiles, the K and V tiles in flight: written in
place across the loop) and the loop counter s48. Needs after it:
amdgcn-inline, amdgcn-schedule (optional: it orders each region between
barriers; the pinned registers keep their places), amdgcn-regalloc (keeps
the virtual registers below the pinned ones), amdgcn-waitcnt,
amdgcn-hazards: no waits and no nops are written here. Guarantees: strict
emulator mode clean (every access inside its buffer, every register
written before it is read)."""
import math

import numpy as np

from .. import ptr
from ..module import Module
from ..nanokernels import lds, tiles
from ..registers import SGPR, VGPR, Reg, s, v
from .attention_vtile import _VTile

PAD = 4                     # 16-bit elements of padding per LDS row: a row stride
#                             of an odd number of dword pairs, so the 32 rows a
#                             ds_read_b64 of a 32x32x8 fragment serves hit
#                             distinct banks (as gemm_gen.PAD)
PAD_K16 = 8                 # gfx950's K rows: a stride of d / 2 + 4 dwords (4 mod
#                             64), so each 16-lane phase of a ds_read_b128 (rows
#                             0-3, 12-15, 20-23, 24-27 or 4-7, 8-11, 16-19, 28-31,
#                             4 dwords each) covers the 64 banks once [CDNA4-LDS]
PAD_TR = 32                 # gfx950's row-major V: 16-bit elements of padding per
#                             row, a stride of d / 2 + 16 dwords (16 mod 64 at d =
#                             64 and 128), so the 4 key rows x 32 d (16 dwords each)
#                             that 32 lanes of a ds_read_b64_tr_b16 read fall in the
#                             4 distinct 16-bank quarters of the 64 banks [CDNA4-LDS]
NEG_INF = 0xFF800000        # f32 -inf (IEEE 754 binary32)
M_INIT = -1e30              # the running max before any key: finite, so that
#                             exp2((m_old - m_new) c) of a row that has seen only
#                             masked keys is exp2(0 or -huge), never NaN
LN2 = math.log(2.0)
COUNTER = s[48]             # the KV loops' counter (a pinned SGPR, as gemm_gen)


def _log2(x):
    return x.bit_length() - 1


def _dtypes():
    import ml_dtypes
    return {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16)}


class _Gen(_VTile):
    """The state of one attention kernel being generated."""

    def __init__(self, cfg):
        self.cfg = c = cfg
        self.lanes = 64 * c.waves
        # the MFMA block: 32x32x8 (M = 32), or 16x16x16 (M = 16, decode's
        # `m` field: half the matrix-core cycles for a block of <= 16 rows)
        self.M = M = getattr(c, "m", 32)
        self.kk = 8 if M == 32 else 16         # K of one MFMA
        self.nacc = M * M // 64                # accumulator registers per block
        self.bq = M * c.waves                  # query rows per workgroup
        self.nkb = c.kv // M                   # M-key blocks per KV tile
        self.ndb = c.d // M                    # M-wide blocks of the head dim
        # gfx950 (M = 32): v_mfma_f32_32x32x16 operands of 8 consecutive d
        # (Q by one buffer_load_dwordx4, K by one ds_read_b128 per MFMA); V
        # row-major in LDS as K (rows: keys), read as the A operand of O^T +=
        # V^T P^T by ds_read_b64_tr_b16 (CDNA4 ISA 11.4: each 16-lane group's
        # 4 x 16 elements transposed), no transpose on the way in; else V^T
        # (rows: d), transposed by v_perm_b32 as it is written
        self.vtr = c.arch == "gfx950" and M == 32
        self.rs_k = (c.d + (PAD_K16 if self.vtr else PAD)) * 2   # LDS row stride of K
        self.rs_v = (c.d + PAD_TR) * 2 if self.vtr else (c.kv + PAD) * 2
        self.k_bytes = c.kv * self.rs_k         # V^T follows K in LDS
        self.mfma = f"v_mfma_f32_32x32x8_{c.dtype}" if M == 32 else \
            f"v_mfma_f32_16x16x16_{c.dtype}"
        # gfx950: v_mfma_f32_32x32x16 (twice the K per instruction, the same
        # 8 passes, [CDNA4]); its operands are two 32x32x8 fragments of
        # consecutive steps concatenated: lane positions 0-3 and 4-7 carry
        # steps 2i and 2i + 1 in both A and B, so they pair the same d (S) or
        # the same keys (P V) and the sum over K is the same sum.
        self.k16 = c.arch == "gfx950" and M == 32
        m = Module(c.arch, name=c.name)
        self.m = m
        # gfx950's causal forward (not the varlen and decode kernels, whose
        # bases() are their own): heavy and light query blocks paired on a
        # CU (paired_block)
        self.pair = self.vtr and c.causal and type(self).bases is _Gen.bases
        self.k = m.kernel(c.name, args=self.kernel_args(), block=(self.lanes, 1, 1),
                          lds=c.lds_bytes,
                          sgpr_setup=(["dispatch_ptr"] if self.pair else [])
                          + ["kernarg_ptr", "workgroup_id_x", "workgroup_id_y",
                             "workgroup_id_z"])

    def kernel_args(self):
        el = ptr(_dtypes()[self.cfg.dtype])
        return [("q", el), ("k", el), ("v", el), ("o", ptr(np.float32)),
                ("lse", ptr(np.float32)), ("seq_q", np.int32), ("seq_k", np.int32),
                ("group", np.int32), ("c2", np.float32)]

    def call(self, fn, *args):
        return self.k.call(fn, *args)

    def smov(self, x):
        return self.k.s_mov_b32(SGPR(), x)

    def head_buffer(self, ptr_, index, head_bytes):
        """A raw buffer over head `index` (head_bytes bytes each) of `ptr_`."""
        k = self.k
        lo = k.s_mul_i32(SGPR(), index, head_bytes)
        hi = k.s_mul_hi_u32(SGPR(), index, head_bytes)
        plo = k.s_add_u32(SGPR(), ptr_[0], lo)
        phi = k.s_addc_u32(SGPR(), ptr_[1], hi)
        # the raw buffer resource of tiles.raw_buffer, built from the sum
        return k.concat(plo, k.s_and_b32(SGPR(), 0xFFFF, phi), self.smov(head_bytes),
                        self.smov(tiles.RAW_BUFFER_WORD3))

    # ---- setup ---------------------------------------------------------------
    def bases(self):
        """The kernel's arguments and the workgroup's buffers: sets sq, sk
        (rows and keys of its head), q0 (its first query row), c2 and the
        buffer resources dq, dk, dv, do, dl."""
        k, c = self.k, self.cfg
        d2 = 2 * c.d
        pq, pk, pv = k.load_arg("q"), k.load_arg("k"), k.load_arg("v")
        po, plse = k.load_arg("o"), k.load_arg("lse")
        sq, sk = k.load_arg("seq_q"), k.load_arg("seq_k")
        group, self.c2 = k.load_arg("group"), k.load_arg("c2")
        self.sq, self.sk = sq, sk
        # grid (query blocks, group, batch * kv_heads); the last query block
        # first (under a causal mask it has the most keys)
        nqb = k.s_lshr_b32(SGPR(), k.s_add_u32(SGPR(), sq, self.bq - 1), _log2(self.bq))
        qb = k.s_sub_u32(SGPR(), k.s_sub_u32(SGPR(), nqb, 1), k.workgroup_id("x"))
        if not self.pair:
            self.q0 = k.s_lshl_b32(SGPR(), qb, _log2(self.bq))
        kvh = k.workgroup_id("z")
        bh = k.s_add_u32(SGPR(), k.s_mul_i32(SGPR(), kvh, group), k.workgroup_id("y"))
        if self.pair:
            self.q0 = k.s_lshl_b32(SGPR(), self.paired_block(qb, bh), _log2(self.bq))
        self.dq = self.head_buffer(pq, bh, k.s_mul_i32(SGPR(), sq, d2))
        self.dk = self.head_buffer(pk, kvh, k.s_mul_i32(SGPR(), sk, d2))
        self.dv = self.head_buffer(pv, kvh, k.s_mul_i32(SGPR(), sk, d2))
        self.do = self.head_buffer(po, bh, k.s_mul_i32(SGPR(), sq, 4 * c.d))
        if c.lse:
            self.dl = self.head_buffer(plse, bh, k.s_lshl_b32(SGPR(), sq, 2))

    def paired_block(self, qb, bh):
        """gfx950's causal kernel (`pair`): the workgroup's query block is
        x itself (lightest first) instead of qb = nqb - 1 - x (heaviest
        first) for the heads bh of the grid's second half (2 bh >=
        heads, from the dispatch packet's grid_size_y and _z at bytes 16 and
        20, HSA's hsa_kernel_dispatch_packet_t). Workgroup g runs on CU g mod
        CUs (the timing model's placement, cc/emulator/timing/README.md), so
        when the grid is twice the CUs (the bench's causal shapes on MI355X:
        512 workgroups, 256 CUs) the two workgroups of a CU, grid x of a head
        of the first half and of one of the second, compute blocks nqb - 1 -
        x and x: a heavy and a light block together, where the grid's order
        gave a CU two blocks of the same weight (two of the heaviest on CU 0). AMD's gfx950 causal kernel pairs two 256-row tiles
        in one workgroup (tg = 2 in aiter's codegen.py) for the same balance."""
        k = self.k
        dp = k.setup_sgpr("dispatch_ptr")
        heads = k.s_mul_i32(SGPR(), k.s_load_dword(SGPR(), dp, 16),
                            k.s_load_dword(SGPR(), dp, 20))
        k.s_cmp_ge_u32(k.s_lshl_b32(SGPR(), bh, 1), heads)
        return k.s_cselect_b32(SGPR(), k.workgroup_id("x"), qb)

    def setup(self):
        k, c = self.k, self.cfg
        d2 = 2 * c.d
        self.bases()
        tid = v[0]
        wave = k.v_readfirstlane_b32(SGPR(), k.v_lshrrev_b32(VGPR(), 6, tid))
        lane = k.v_and_b32(VGPR(), 63, tid)
        self.lane, self.wave = lane, wave
        M = self.M
        lq = k.v_and_b32(VGPR(), M - 1, lane)
        self.lh = k.v_lshrrev_b32(VGPR(), _log2(M), lane)
        # the lane's query row (rows past seq_q compute and store nothing)
        self.qrow = k.v_add_u32(VGPR(), k.s_add_u32(SGPR(), self.q0,
                                                    k.s_lshl_b32(SGPR(), wave, _log2(M))), lq)
        # ds_bpermute addresses of lanes l ^ 32 (and l ^ 16 for M = 16): the
        # other lanes holding the row
        self.swaps = [k.v_lshlrev_b32(VGPR(), 2, k.v_xor_b32(VGPR(), x, lane))
                      for x in ((32,) if M == 32 else (16, 32))]
        # Q^T fragments (the B operands of S^T = K Q^T), in registers for the
        # whole loop: Q[row][8 s + 4 lh + 0..3]
        if self.vtr:
            # gfx950: Q[row][16 s + 8 lh + 0..7], the B operand of one
            # 32x32x16 step (K's A operand pairs the same d)
            qoff = k.v_lshl_add_u32(VGPR(), self.lh, 4, k.v_mul_u32_u24(VGPR(), d2, self.qrow))
            self.qf = list(self.call(tiles.buffer_loads(tuple((0, 4, 32 * s_)
                                                              for s_ in range(c.d // 16))),
                                     self.dq, qoff))
        else:
            qoff = k.v_lshl_add_u32(VGPR(), self.lh, 3, k.v_mul_u32_u24(VGPR(), d2, self.qrow))
            self.qf = list(self.call(tiles.buffer_loads(tuple((0, 2, 2 * self.kk * s_)
                                                              for s_ in range(c.d // self.kk))),
                                     self.dq, qoff))
        # K tile -> LDS: 16-byte chunks, row = tid // (d / 8), chunk tid % (d / 8)
        cpr = c.d // 8
        krow = k.v_lshrrev_b32(VGPR(), _log2(cpr), tid)
        kc = k.v_and_b32(VGPR(), cpr - 1, tid)
        self.k_rows = self.lanes // cpr                      # rows per pass
        self.k_pass = c.kv // self.k_rows
        k0 = k.v_lshl_add_u32(VGPR(), kc, 4, k.v_mul_u32_u24(VGPR(), d2, krow))
        self.k_goff = [k0] + [k.v_add_u32(VGPR(), self.smov(i * self.k_rows * d2), k0)
                              for i in range(1, self.k_pass)]
        self.k_lds = k.v_lshl_add_u32(VGPR(), kc, 4, k.v_mul_u32_u24(VGPR(), self.rs_k, krow))
        if self.vtr:
            # V row-major as K: the same global offsets, LDS rows rs_v apart
            self.v_goff = self.k_goff
            self.v_ldsa = [k.v_lshl_add_u32(VGPR(), kc, 4,
                                            k.v_mul_u32_u24(VGPR(), self.rs_v, krow))]
        else:
            self.v_setup_transposed(tid, wave)
        self.sel = (self.smov(tiles.SEL_LO), self.smov(tiles.SEL_HI))
        # fragment read addresses (row lane % 32, elements 4 (lane // 32) ..)
        (self.k_rd,) = self.call(lds.fragment_offset(M, self.rs_k), lane)
        if self.vtr:                # elements 8 (lane // 32) .. + 7 of the row
            self.k_rd = k.v_lshl_add_u32(VGPR(), self.lh, 3, self.k_rd)
        if self.vtr:
            self.v_rd = self.tr_offset(lane)
        else:
            (self.v_rd,) = self.call(lds.fragment_offset(M, self.rs_v), lane)
        # the lane's limit of visible keys, less its key offset 4 lh: key j
        # of the lane is visible iff j < lim
        self.tlim = k.v_sub_u32(VGPR(), self.row_limit(), k.v_lshlrev_b32(VGPR(), 2, self.lh))
        self.tile_counts()

    def row_limit(self):
        """The keys the lane's query row sees: j < limit (causal: j <= row +
        seq_k - seq_q)."""
        k, c, sq, sk = self.k, self.cfg, self.sq, self.sk
        if not c.causal:
            return sk
        off = k.s_add_u32(SGPR(), k.s_sub_u32(SGPR(), sk, sq), 1)
        return k.v_min_i32(VGPR(), sk, k.v_add_u32(VGPR(), off, self.qrow))

    def tile_counts(self):
        """nfull (tiles every row of the block sees whole, run first without
        a mask) and nmask (the tiles after them, masked)."""
        k, c, sq, sk = self.k, self.cfg, self.sq, self.sk
        # KV tiles: all of them, and those every row of the block sees whole
        kvl = _log2(c.kv)
        ntiles = k.s_lshr_b32(SGPR(), k.s_add_u32(SGPR(), sk, c.kv - 1), kvl)
        if c.causal:
            # keys the last row of the block sees: q0 + bq + seq_k - seq_q
            last = k.s_add_u32(SGPR(), k.s_sub_u32(SGPR(), sk, sq), self.q0)
            last = k.s_add_u32(SGPR(), last, self.bq)
            k.s_cmp_gt_i32(last, 0)
            last = k.s_cselect_b32(SGPR(), last, 1)
            nlast = k.s_lshr_b32(SGPR(), k.s_add_u32(SGPR(), last, c.kv - 1), kvl)
            ntiles = k.s_min_u32(SGPR(), ntiles, nlast)
            # keys the first row sees: q0 + 1 + seq_k - seq_q (at most seq_k)
            first = k.s_add_u32(SGPR(), k.s_sub_u32(SGPR(), sk, sq), self.q0)
            first = k.s_add_u32(SGPR(), first, 1)
            k.s_cmp_gt_i32(first, 0)
            first = k.s_cselect_b32(SGPR(), first, 0)
            first = k.s_min_u32(SGPR(), first, sk)
            nfull = k.s_lshr_b32(SGPR(), first, kvl)
        else:
            nfull = k.s_lshr_b32(SGPR(), sk, kvl)
        self.nfull = k.s_min_u32(SGPR(), nfull, ntiles)
        self.nmask = k.s_sub_u32(SGPR(), ntiles, self.nfull)

    # ---- one KV tile ------------------------------------------------------------
    def pinned(self):
        """Registers kept as written (pinned), from the top of the 256
        VGPRs down: O^T (16 per 32 rows of d), the scores of two tiles (16
        per 32 keys each: the one in the softmax, the next one the MFMAs
        fill), the K and the V tile loaded ahead. Carried as virtual values
        around the loop, the allocator copied them on the back edge (the
        scores waiting for their MFMAs, the loads for their data)."""
        c = self.cfg
        top = 256
        na = self.nacc
        self.o_base = top = top - na * self.ndb
        self.s_base = [top - na * self.nkb, top - 2 * na * self.nkb]
        top -= 2 * na * self.nkb
        self.kreg = top = top - 4 * self.k_pass
        self.vreg = top - (4 if self.vtr else 8) * len(self.v_goff)
        self.max_virtual = self.vreg

    def s_regs(self, which):
        """Scores range `which` (0 or 1): one 16-register range per 32 keys."""
        b, na = self.s_base[which], self.nacc
        return [v[b + na * kb:b + na * kb + na] for kb in range(self.nkb)]

    def load_k(self, dk):
        """Global loads of one K tile into its pinned registers (rows past
        seq_k read 0); the resource moved to the next tile."""
        k, c = self.k, self.cfg
        for i, off in enumerate(self.k_goff):
            k.buffer_load_dwordx4(v[self.kreg + 4 * i:self.kreg + 4 * i + 4], off, dk, 0,
                                  offen=True)
        (dk,) = self.call(tiles.advance_buffer, dk, self.smov(c.kv * 2 * c.d))
        return dk

    def write_k(self):
        """The loaded K tile to LDS, row-major (rows of d, rs_k apart)."""
        k = self.k
        for i in range(self.k_pass):
            o = i * self.k_rows * self.rs_k
            b = self.kreg + 4 * i
            if self.vtr:            # 16 lanes: one whole row, no bank conflict
                k.ds_write_b128(self.k_lds, v[b:b + 4], offset=o)
                continue
            k.ds_write_b64(self.k_lds, v[b:b + 2], offset=o)
            k.ds_write_b64(self.k_lds, v[b + 2:b + 4], offset=o + 8)

    def scores(self, which):
        """S^T = K Q^T of the K tile in LDS into scores range `which`: 16
        registers per 32-key block (lane l: query l % 32, keys 8 (r // 4) +
        4 (l // 32) + r % 4)."""
        k, c = self.k, self.cfg
        ks = c.d // self.kk
        if self.vtr:                # one ds_read_b128 per 32x32x16 step
            op = getattr(k, f"v_mfma_f32_32x32x16_{c.dtype}")
            for kb, acc in enumerate(self.s_regs(which)):
                frags = [k.ds_read_b128(VGPR(4), self.k_rd, offset=kb * self.M * self.rs_k + 32 * i)
                         for i in range(c.d // 16)]
                for i, f in enumerate(frags):
                    op(acc, f, self.qf[i], 0 if i == 0 else acc)
            return
        for kb, acc in enumerate(self.s_regs(which)):
            frags = self.call(tiles.read_fragments(tuple(
                kb * self.M * self.rs_k + 2 * self.kk * s_ for s_ in range(ks))), self.k_rd)
            self.mma(acc, frags, self.qf, ks, zero=True)

    def mma(self, acc, a, b, steps, zero=False):
        """acc += sum over the K steps of a[t] b[t] (32x32x8 fragments):
        one v_mfma_f32_32x32x8 per step, or on gfx950 one
        v_mfma_f32_32x32x16 per two (their fragments concatenated);
        zero: the first one starts from 0."""
        k, c = self.k, self.cfg
        if not self.k16:
            for t in range(steps):
                getattr(k, self.mfma)(acc, a[t], b[t], 0 if zero and t == 0 else acc)
            return
        op = getattr(k, f"v_mfma_f32_32x32x16_{c.dtype}")

        def cat(x, y):              # physical ranges (P in place) side by side
            if isinstance(x, Reg):
                assert y.index == x.index + x.width
                return v[x.index:y.index + y.width]
            return k.concat(x, y)
        for t in range(0, steps, 2):
            op(acc, k.concat(a[t], a[t + 1]), cat(b[t], b[t + 1]),
               0 if zero and t == 0 else acc)

    def mask(self, S, j0):
        """Keys at or past the lane's limit become -inf."""
        k = self.k
        t = k.v_sub_u32(VGPR(), self.tlim, j0)
        self.ninf = k.v_mov_b32(VGPR(), NEG_INF)
        out = []
        for kb, acc in enumerate(S):
            regs = []
            for r in range(self.nacc):
                key = self.M * kb + (8 * (r // 4) + r % 4 if self.M == 32 else r)
                ok = k.v_cmp_lt_i32(SGPR(2, align=2), key, t)
                regs.append(k.v_cndmask_b32(VGPR(), self.ninf, acc[r], ok))
            out.append(regs)
        return out

    def o_regs(self, db):
        """O^T's accumulator of d rows 32 db .. 32 db + 31 (pinned: the
        rescale and the MFMAs work in place)."""
        na = self.nacc
        return v[self.o_base + na * db:self.o_base + na * db + na]

    def _max(self, xs):
        """The max of xs with v_max3_f32 (two per instruction)."""
        k = self.k
        xs = list(xs)
        while len(xs) > 1:
            nxt = []
            while len(xs) >= 3:
                nxt.append(k.v_max3_f32(VGPR(), xs.pop(), xs.pop(), xs.pop()))
            if len(xs) == 2:
                nxt.append(k.v_max_f32(VGPR(), xs.pop(), xs.pop()))
            nxt.extend(xs)
            xs = nxt
        return xs[0]

    def _tree(self, op, xs, width=1):
        xs = list(xs)
        while len(xs) > 1:
            nxt = [op(VGPR(width), xs[i], xs[i + 1]) for i in range(0, len(xs) - 1, 2)]
            if len(xs) % 2:
                nxt.append(xs[-1])
            xs = nxt
        return xs[0]

    def pack(self, lo, hi, dst=None):
        """Two f32 probabilities as one dword of 16-bit values (lo in the low
        half), rounded to nearest: f16 and gfx950's v_cvt_pk_bf16_f32 to
        nearest even; bf16 on gfx942 to nearest, ties away from zero (+ 0x8000,
        the high half: aiter's default `rtna` conversion; p is in [0, 1], so
        no NaN or overflow)."""
        k, c = self.k, self.cfg
        dst = VGPR() if dst is None else dst
        if c.dtype == "f16":
            return k.v_pack_b32_f16(dst, k.v_cvt_f16_f32(VGPR(), lo),
                                    k.v_cvt_f16_f32(VGPR(), hi))
        if c.arch == "gfx950":
            return k.v_cvt_pk_bf16_f32(dst, lo, hi)
        r = [k.v_add_u32(VGPR(), 0x8000, x) for x in (lo, hi)]
        return k.v_perm_b32(VGPR(), r[1], r[0], self.sel[1])

    def tile(self, st, masked, cur):
        """One KV tile t: the scores of tile t + 1 (K in LDS) issued first,
        then the online softmax of tile t's scores (st["S"], from the
        iteration before) and O^T += V^T P^T (V^T of tile t in LDS). The
        MFMAs of the next scores do not depend on the softmax, so the
        scheduler interleaves them: the matrix core works while the VALU
        does the softmax."""
        k, c = self.k, self.cfg
        S = self.s_regs(cur)
        self.scores(1 - cur)
        # V^T fragments now: their LDS latency hides under the softmax
        base = self.k_bytes
        na, kk = self.nacc, self.kk
        if self.vtr:
            vfr = [[k.ds_read_b64_tr_b16(VGPR(2), self.v_rd,
                                         offset=base + 2 * self.M * db + kk * t * self.rs_v)
                    for t in range(c.kv // kk)] for db in range(self.ndb)]
        else:
            vfr = [self.call(tiles.read_fragments(tuple(
                base + db * self.M * self.rs_v + 2 * kk * t for t in range(c.kv // kk))),
                self.v_rd) for db in range(self.ndb)]
        regs = self.mask(S, st["j0"]) if masked else [[acc[r] for r in range(na)] for acc in S]
        flat = [x for row in regs for x in row]
        mx = self._max(flat)
        for sw in self.swaps:
            mx = k.v_max_f32(VGPR(), mx, k.ds_bpermute_b32(VGPR(), sw, mx))
        m_old = st["m"]
        m_new = k.v_max_f32(VGPR(), m_old, mx)
        nmc = k.v_mul_f32(VGPR(), self.nc2, m_new)             # -m c
        # alpha = exp2((m_old - m_new) c): exactly 1 while no key was seen
        # (m_old = m_new = M_INIT); exp2(fma(m_old, c, -m_new c)) gave
        # exp2(the rounding of M_INIT c), up to +-1e22: inf for some scales
        # (d = 64), and O = 0 * inf = NaN for rows without a key
        alpha = k.v_exp_f32(VGPR(), k.v_mul_f32(VGPR(), self.c2,
                                                k.v_sub_f32(VGPR(), m_old, m_new)))
        a2 = k.concat(nmc, alpha)
        # gfx950: P in place of the scores (AMD's gfx950 fmha_v3_fwd does so
        # too): the exponentials and then the packed 16-bit P overwrite the
        # pinned scores range (pack j reads 2 j, 2 j + 1 and writes j <= 2 j,
        # in order), 48 virtual VGPRs fewer per tile of 32 keys
        sflat = [acc[r] for acc in S for r in range(na)]
        at = (lambda i: sflat[i]) if self.vtr else (lambda i: VGPR())
        if masked:
            P = [k.v_exp_f32(at(i), k.v_fma_f32(VGPR(), x, self.c2, nmc))
                 for i, x in enumerate(flat)]
        else:
            # s c - m c two at a time (c from the low half of its SGPR pair,
            # -m c from the low half of a2, for both halves: op_sel_hi 0)
            P = []
            for acc in S:
                for i in range(0, na, 2):
                    e = k.v_pk_fma_f32(VGPR(2), acc[i:i + 2], self.c2pair, a2,
                                       op_sel_hi=[1, 0, 0])
                    j = len(P)
                    P += [k.v_exp_f32(at(j), e[0]), k.v_exp_f32(at(j + 1), e[1])]
        if self.vtr:
            # the row sum two lanes' values at a time: v_pk_add_f32 over the
            # P registers in place (7 instructions and one add for 16 values)
            sb = self.s_base[cur]
            tot = self._tree(k.v_pk_add_f32, [v[sb + 2 * j:sb + 2 * j + 2]
                                              for j in range(len(P) // 2)], width=2)
            rsum = k.v_add_f32(VGPR(), tot[0], tot[1])
        else:
            rsum = self._tree(k.v_add_f32, P)
        l_new = k.v_fma_f32(VGPR(), st["l"], alpha, rsum)
        # P^T fragments: keys 8 t + 4 lh + 0..3 of the lane's query = its
        # registers 4 t .. 4 t + 3 (t-th 8-key step of the tile)
        pk = [self.pack(P[2 * j], P[2 * j + 1], sflat[j] if self.vtr else None)
              for j in range(len(P) // 2)]
        if self.vtr:                # the packed P is the scores range's first half
            sb = self.s_base[cur]
            pf = [v[sb + 2 * t:sb + 2 * t + 2] for t in range(c.kv // kk)]
        else:
            pf = [k.concat(pk[2 * t], pk[2 * t + 1]) for t in range(c.kv // kk)]
        # O^T = alpha O^T + V^T P^T, in O's pinned registers: alpha times
        # two registers per v_pk_mul_f32 (alpha from the high half of a2
        # for both halves: op_sel 1, op_sel_hi 1), then the MFMAs accumulate
        for db in range(self.ndb):
            o = self.o_regs(db)
            for i in range(0, na, 2):
                k.v_pk_mul_f32(o[i:i + 2], o[i:i + 2], a2, op_sel=[0, 1], op_sel_hi=[1, 1])
            self.mma(o, vfr[db], pf, c.kv // kk)
        out = dict(st)
        out.update(m=m_new, l=l_new)
        return out

    # ---- the loops ---------------------------------------------------------------
    @staticmethod
    def _flatten(st):
        keys = sorted(st)
        shapes, flat = [], []
        for key in keys:
            x = st[key]
            if isinstance(x, list):
                shapes.append(len(x))
                flat.extend(x)
            else:
                shapes.append(None)
                flat.append(x)

        def rebuild(vals):
            out, i = {}, 0
            for key, n in zip(keys, shapes):
                if n is None:
                    out[key] = vals[i]
                    i += 1
                else:
                    out[key] = list(vals[i:i + n])
                    i += n
            return out
        return flat, rebuild

    def step(self, x, masked, cur):
        """One KV tile t of the loop (see tile()); its scores in range cur."""
        k = self.k
        # every wave is done with K(t) (the scores of t) and V(t - 1)
        k.s_barrier()
        self.write_v()                      # V(t)
        self.write_k()                      # K(t + 1)
        k.s_barrier()
        x = dict(x)
        x["dv"] = self.load_v(x["dv"])      # V(t + 1)
        x["dk"] = self.load_k(x["dk"])      # K(t + 2)
        x = self.tile(x, masked, cur)
        x["j0"] = k.s_add_u32(SGPR(), x["j0"], self.cfg.kv)
        return x

    def kv_loop(self, st, count, masked, name, body):
        """`count` (SGPR, maybe 0) trips of body(state) -> state."""
        k = self.k
        flat, rebuild = self._flatten(st)
        skip = k.label(f"{name}_skip")
        merged = k._kb.add_block_args(skip, flat)
        k.s_mov_b32(COUNTER, count)
        k.s_cmp_eq_u32(COUNTER, 0)
        k._kb.set_branch_args(flat)
        k.s_cbranch_scc1(skip)
        with k.loop(COUNTER, COUNTER, name=name, carry=flat) as L:
            x = body(rebuild(list(L.carry)))
            L.next(*self._flatten(x)[0])
        k._kb.bind(skip, L.results)
        return rebuild(list(merged))

    def kv_tiles(self, st, count, masked, name):
        """`count` tiles, the current scores in range 0 before and after: an
        odd one first (its next scores, in range 1, copied to range 0), then
        pairs in a loop unrolled twice (ranges 0 -> 1 -> 0)."""
        k = self.k

        def odd(x):
            x = self.step(x, masked, 0)
            for a, b in zip(self.s_regs(0), self.s_regs(1)):
                for r in range(self.nacc):
                    k.v_mov_b32(a[r], b[r])
            return x

        def pair(x):
            return self.step(self.step(x, masked, 0), masked, 1)
        st = self.kv_loop(st, k.s_and_b32(SGPR(), 1, count), masked, name + "_odd", odd)
        return self.kv_loop(st, k.s_lshr_b32(SGPR(), count, 1), masked, name, pair)

    # ---- epilogue -----------------------------------------------------------------
    def epilogue(self, st):
        k, c = self.k, self.cfg
        lt = st["l"]
        for sw in self.swaps:
            lt = k.v_add_f32(VGPR(), lt, k.ds_bpermute_b32(VGPR(), sw, lt))
        pos = k.v_cmp_lt_f32(SGPR(2, align=2), 0, lt)
        inv = k.v_cndmask_b32(VGPR(), 0, k.v_rcp_f32(VGPR(), lt), pos)
        off = k.v_lshl_add_u32(VGPR(), self.lh, 4, k.v_mul_u32_u24(VGPR(), 4 * c.d, self.qrow))
        for db in range(self.ndb):
            o = self.o_regs(db)
            # register 4 q + j: d = M db + 8 q + 4 lh + j
            for q in range(self.nacc // 4):
                vals = k.concat(*[k.v_mul_f32(VGPR(), inv, o[4 * q + j]) for j in range(4)])
                k.buffer_store_dwordx4(vals, off, self.do, 0, offen=True,
                                       offset=4 * self.M * db + 32 * q)
        if c.lse:
            # lse = ln(sum_j exp(scale s_j)) = (m c2 + log2 l) ln 2 (-inf for no key)
            lse = k.v_mul_f32(VGPR(), LN2, k.v_fma_f32(VGPR(), st["m"], self.c2,
                                                       k.v_log_f32(VGPR(), lt)))
            first = k.v_cmp_eq_u32(SGPR(2, align=2), 0, self.lh)
            loff = k.v_cndmask_b32(VGPR(), k.v_mov_b32(VGPR(), tiles.OUT_OF_RANGE),
                                   k.v_lshlrev_b32(VGPR(), 2, self.qrow), first)
            k.buffer_store_dword(lse, loff, self.dl, 0, offen=True)

    def generate(self):
        k, c = self.k, self.cfg
        self.setup()
        self.nc2 = k.s_xor_b32(SGPR(), self.c2, 0x80000000)       # -c2
        self.c2pair = k.concat(self.c2, self.nc2)
        self.pinned()
        # prologue: K(0) to LDS and its scores; V(0) and K(1) in registers
        dk = self.load_k(self.dk)
        dv = self.load_v(self.dv)
        self.write_k()
        dk = self.load_k(dk)
        k.s_barrier()
        self.scores(0)
        for db in range(self.ndb):
            o = self.o_regs(db)
            for i in range(self.nacc):
                k.v_mov_b32(o[i], 0)
        st = {"m": k.v_mov_b32(VGPR(), M_INIT), "l": k.v_mov_b32(VGPR(), 0),
              "dk": dk, "dv": dv, "j0": self.smov(0)}
        st = self.kv_tiles(st, self.nfull, False, "kv_full")
        st = self.kv_tiles(st, self.nmask, True, "kv_mask")
        self.epilogue(st)
        k.s_endpgm()
        return self.m
