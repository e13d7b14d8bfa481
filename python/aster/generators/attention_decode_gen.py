"""The generator behind aster.generators.attention_decode (see its module
doc for the algorithm and the layouts): `_SplitGen`, the forward kernel of
attention_gen over one split of the keys, whose last split to finish merges
the splits by their LSE (`_merge_rows`).

_SplitGen changes what attention_gen._Gen lets a subclass change (its
arguments, `bases`, `row_limit`, `tile_counts`, `kv_tiles`, `epilogue`):
the KV tile body, the MFMAs and the online softmax are the forward's.
Needs and guarantees are the forward's (the same pass pipeline; strict
emulator mode clean; the only waits written here are the release's
s_waitcnt vmcnt(0)); a split with no key (a causal mask that hides it)
gives O = 0 and LSE = -inf for that split.

_merge_rows: one lane per (row, 4 consecutive d); the splits in groups of
MERGE_UNROLL (loads of a group issued together, amdgcn-waitcnt waits once
per group), splits past `splits` masked to LSE = -inf."""
import math

import numpy as np

from .. import ptr
from ..nanokernels import tiles
from ..registers import SGPR, VGPR, s, v
from .attention_gen import COUNTER, M_INIT, NEG_INF, _Gen, _log2

LOG2E = 1.0 / math.log(2.0)
LN2 = math.log(2.0)
CNT_BYTES = 128             # one counter per 128-byte line: the timing model runs atomics
#                             to one line one after another at L2 (Params.h atomicLineCycles)
MERGE_NV = 2                # dwordx4 of a row's O per lane and split in the merge (8 d):
#                             half the passes of one, the weights computed once per 8 d
MERGE_UNROLL = 8            # splits whose loads the merge issues together: one memory
#                             round trip per 8 splits ([model] choice, a power of two;
#                             16 issued twice the merge's instructions for 8 splits)
PASSES = s[49]              # the merge's pass counter (a pinned SGPR, as COUNTER)


class _SplitGen(_Gen):
    """The forward kernel over keys [split chunk, (split + 1) chunk) of a
    head whose `rows` query rows are a GQA group's heads times seq_q."""

    def kernel_args(self):
        from .attention_gen import _dtypes
        el = ptr(_dtypes()[self.cfg.dtype])
        return [("q", el), ("k", el), ("v", el), ("o", ptr(np.float32)),
                ("lse", ptr(np.float32)), ("out", ptr(np.float32)),
                ("out_lse", ptr(np.float32)), ("cnt", ptr(np.uint32)),
                ("rows", np.int32), ("seq_q", np.int32),
                ("seq_k", np.int32), ("chunk", np.int32), ("splits", np.int32),
                ("c2", np.float32)]

    def bases(self):
        k, c = self.k, self.cfg
        d2 = 2 * c.d
        pq, pk, pv = k.load_arg("q"), k.load_arg("k"), k.load_arg("v")
        po, plse = k.load_arg("o"), k.load_arg("lse")
        rows, sq, sk = k.load_arg("rows"), k.load_arg("seq_q"), k.load_arg("seq_k")
        chunk, splits, self.c2 = k.load_arg("chunk"), k.load_arg("splits"), k.load_arg("c2")
        # the merge's pointers now: loaded in the epilogue, their scalar
        # loads' latency was on the merge's critical path
        self.merge_ptrs = (k.load_arg("cnt"), k.load_arg("out"), k.load_arg("out_lse"))
        # grid (query blocks, splits, batch * kv_heads)
        nqb = k.s_lshr_b32(SGPR(), k.s_add_u32(SGPR(), rows, self.bq - 1), _log2(self.bq))
        qb = k.s_sub_u32(SGPR(), k.s_sub_u32(SGPR(), nqb, 1), k.workgroup_id("x"))
        self.q0 = k.s_lshl_b32(SGPR(), qb, _log2(self.bq))
        split, z = k.workgroup_id("y"), k.workgroup_id("z")
        self.dq = self.head_buffer(pq, z, k.s_mul_i32(SGPR(), rows, d2))
        # this split's keys: [key0, key0 + n), n = clamp(seq_k - key0, 0, chunk)
        key0 = k.s_mul_i32(SGPR(), split, chunk)
        n = k.s_sub_i32(SGPR(), sk, key0)
        n = k.s_max_i32(SGPR(), k.s_min_i32(SGPR(), n, chunk), 0)
        head = k.s_mul_i32(SGPR(), sk, d2)
        off = k.s_mul_i32(SGPR(), key0, d2)
        nbytes = k.s_mul_i32(SGPR(), n, d2)
        self.dk = self.split_buffer(pk, z, head, off, nbytes)
        self.dv = self.split_buffer(pv, z, head, off, nbytes)
        # partial results (batch * kv_heads, splits, rows, d) and (.., rows)
        part = k.s_add_u32(SGPR(), k.s_mul_i32(SGPR(), z, splits), split)
        self.do = self.head_buffer(po, part, k.s_mul_i32(SGPR(), rows, 4 * c.d))
        self.dl = self.head_buffer(plse, part, k.s_lshl_b32(SGPR(), rows, 2))
        self.rows, self.sq_tokens, self.sk_all, self.key0 = rows, sq, sk, key0
        self.z, self.qb, self.nqb, self.splits = z, qb, nqb, splits
        self.parts = (po, plse)
        self.sq, self.sk = rows, n

    def split_buffer(self, ptr_, index, head_bytes, offset, nbytes):
        """A raw buffer over `nbytes` at byte `offset` of head `index` (64-bit
        address arithmetic: index * head_bytes may pass 4 GiB)."""
        k = self.k
        lo = k.s_mul_i32(SGPR(), index, head_bytes)
        hi = k.s_mul_hi_u32(SGPR(), index, head_bytes)
        plo = k.s_add_u32(SGPR(), ptr_[0], lo)
        phi = k.s_addc_u32(SGPR(), ptr_[1], hi)
        plo2 = k.s_add_u32(SGPR(), plo, offset)
        phi2 = k.s_addc_u32(SGPR(), phi, 0)
        return k.concat(plo2, k.s_and_b32(SGPR(), 0xFFFF, phi2), self.smov(nbytes),
                        self.smov(tiles.RAW_BUFFER_WORD3))

    def epilogue(self, st):
        """The forward's epilogue (this split's O and LSE to o_part,
        lse_part), then the merge by the split that finishes last: each
        wave releases its stores (buffer_wbl2 sc1, s_waitcnt vmcnt(0):
        LLVM's agent-scope release on gfx942, AMDGPUUsage "Memory Model
        GFX942") and adds 1 to its counter cnt[(z nqb + qb) waves + wave]
        (a returning atomic, lane 0 only); the wave that reads splits - 1
        acquires (buffer_inv sc1), zeroes the counter for the next launch and
        merges its M (32 or 16) rows from every split into out, out_lse (_merge_rows,
        32 / (d / 4) rows per pass). One split: the caller passes out and
        out_lse as o_part and lse_part, no merge."""
        super().epilogue(st)
        k, c = self.k, self.cfg
        done = k.label("merge_done")
        k.s_cmp_eq_u32(self.splits, 1)
        k.s_cbranch_scc1(done)
        k.buffer_wbl2(sc1=True)
        # the merge's setup (no memory access) while the release completes
        pcnt, pout, pout_lse = self.merge_ptrs
        rb = 4 * c.d
        lpr = c.d // (4 * MERGE_NV)                           # lanes per row
        rpp = 64 // lpr                                       # rows per pass
        rows, splits = self.rows, self.splits
        srow = k.s_mul_i32(SGPR(), rows, rb)
        slse = k.s_lshl_b32(SGPR(), rows, 2)
        zs = k.s_mul_i32(SGPR(), self.z, splits)
        po, plse = self.parts
        heads = (_buffer(k, po, zs, srow), _buffer(k, plse, zs, slse),
                 _buffer(k, pout, self.z, srow), _buffer(k, pout_lse, self.z, slse))
        # the wave's rows wq0 .. wq0 + M - 1 (those below rows): ceil(n / rpp) passes
        wq0 = k.s_add_u32(SGPR(), self.q0, k.s_lshl_b32(SGPR(), self.wave, _log2(self.M)))
        n = k.s_max_i32(SGPR(), k.s_min_i32(SGPR(), k.s_sub_i32(SGPR(), rows, wq0), self.M), 1)
        passes = k.s_lshr_b32(SGPR(), k.s_add_u32(SGPR(), n, rpp - 1), _log2(rpp))
        col = k.v_and_b32(VGPR(), lpr - 1, self.lane)
        row = k.v_add_u32(VGPR(), wq0, k.v_lshrrev_b32(VGPR(), _log2(lpr), self.lane))
        ooff = k.v_lshl_add_u32(VGPR(), col, _log2(16 * MERGE_NV),
                                k.v_mul_u32_u24(VGPR(), rb, row))
        loff = k.v_lshlrev_b32(VGPR(), 2, row)
        u = MERGE_UNROLL
        steps = ([k.s_mul_i32(SGPR(), srow, i) for i in range(u)],
                 [k.s_mul_i32(SGPR(), slse, i) for i in range(u)],
                 k.s_lshl_b32(SGPR(), srow, _log2(u)), k.s_lshl_b32(SGPR(), slse, _log2(u)))
        consts = (k.v_mov_b32(VGPR(), NEG_INF), k.v_mov_b32(VGPR(), LOG2E),
                  k.s_lshr_b32(SGPR(), k.s_add_u32(SGPR(), splits, u - 1), _log2(u)))
        k.s_waitcnt(vmcnt=0)
        idx = k.s_add_u32(SGPR(), k.s_mul_i32(SGPR(), self.z, self.nqb), self.qb)
        idx = k.s_add_u32(SGPR(), k.s_mul_i32(SGPR(), idx, c.waves), self.wave)
        dcnt = _buffer(k, pcnt, idx, CNT_BYTES, 4)
        lane0 = k.v_lshlrev_b32(VGPR(), 25, self.lane)        # lanes 1..63: out of range
        old = k.buffer_atomic_add_rtn(VGPR(), lane0, dcnt, 0, vdata_in=k.v_mov_b32(VGPR(), 1),
                                      offen=True, sc1=True)
        k.s_cmp_lg_u32(k.v_readfirstlane_b32(SGPR(), old), k.s_sub_u32(SGPR(), self.splits, 1))
        k.s_cbranch_scc1(done)
        k.buffer_inv(sc1=True)
        k.buffer_store_dword(k.v_mov_b32(VGPR(), 0), lane0, dcnt, 0, offen=True, sc1=True)
        k.s_mov_b32(PASSES, passes)
        with k.loop(PASSES, PASSES, name="merge", carry=[ooff, loff]) as L:
            ooff, loff = L.carry
            _merge_rows(k, heads, ooff, loff, col, steps, consts, splits, u, MERGE_NV)
            L.next(k.v_add_u32(VGPR(), rpp * rb, ooff), k.v_add_u32(VGPR(), 4 * rpp, loff))
        k.bind(done)

    def row_limit(self):
        """Keys of this split the lane's row sees: all n, or under the causal
        mask those before qi + seq_k - seq_q + 1 - key0, qi = row mod seq_q
        (the row's query token; row = head-in-group seq_q + qi). The modulo
        in f32: floor((row + 1/2) / seq_q) is exact while (row + 1/2) / seq_q
        stays 1/(2 seq_q) >= 1/32 from an integer, i.e. for rows < 2^16 and
        seq_q <= 16 (v_rcp_f32: 1 ulp, [ISA] section 12.7)."""
        k, c = self.k, self.cfg
        if not c.causal:
            return self.sk
        sqf = k.v_cvt_f32_u32(VGPR(), self.sq_tokens)
        rf = k.v_add_f32(VGPR(), 0.5, k.v_cvt_f32_u32(VGPR(), self.qrow))
        quo = k.v_cvt_u32_f32(VGPR(), k.v_mul_f32(VGPR(), rf, k.v_rcp_f32(VGPR(), sqf)))
        qi = k.v_sub_u32(VGPR(), self.qrow, k.v_mul_u32_u24(VGPR(), quo, self.sq_tokens))
        base = k.s_add_u32(SGPR(), k.s_sub_u32(SGPR(), self.sk_all, self.sq_tokens), 1)
        base = k.s_sub_u32(SGPR(), base, self.key0)
        return k.v_min_i32(VGPR(), self.sk, k.v_add_u32(VGPR(), base, qi))

    def tile_counts(self):
        k, c = self.k, self.cfg
        kvl = _log2(c.kv)
        n = self.sk
        ntiles = k.s_lshr_b32(SGPR(), k.s_add_u32(SGPR(), n, c.kv - 1), kvl)
        if c.causal:
            # every row sees the keys before seq_k - seq_q + 1 (query token 0)
            first = k.s_add_u32(SGPR(), k.s_sub_u32(SGPR(), self.sk_all, self.sq_tokens), 1)
            first = k.s_sub_i32(SGPR(), first, self.key0)
            first = k.s_max_i32(SGPR(), k.s_min_i32(SGPR(), first, n), 0)
            nfull = k.s_lshr_b32(SGPR(), first, kvl)
        else:
            nfull = k.s_lshr_b32(SGPR(), n, kvl)
        self.nfull = nfull
        self.nmask = k.s_sub_u32(SGPR(), ntiles, nfull)

    def kv_tiles(self, st, count, masked, name):
        """`count` tiles, one tile body per loop trip (the forward's runs
        pairs): a split has few tiles, and the first trip through the code
        is bound by instruction fetch (the timing model: ~100 cycles per
        128-byte line of MFMA/VALU code), so one body fetched once beats two;
        the next scores move from range 1 to range 0 at the end of a trip."""
        k = self.k

        def one(x):
            x = self.step(x, masked, 0)
            for a, b in zip(self.s_regs(0), self.s_regs(1)):
                for r in range(self.nacc):
                    k.v_mov_b32(a[r], b[r])
            return x
        return self.kv_loop(st, count, masked, name, one)


def _buffer(k, ptr_, index, head_bytes, nbytes=None):
    """A raw buffer of nbytes (default head_bytes) at ptr_ + index head_bytes."""
    lo = k.s_mul_i32(SGPR(), index, head_bytes)
    hi = k.s_mul_hi_u32(SGPR(), index, head_bytes)
    plo = k.s_add_u32(SGPR(), ptr_[0], lo)
    phi = k.s_addc_u32(SGPR(), ptr_[1], hi)
    nbytes = head_bytes if nbytes is None else nbytes
    return k.concat(plo, k.s_and_b32(SGPR(), 0xFFFF, phi), k.s_mov_b32(SGPR(), nbytes),
                    k.s_mov_b32(SGPR(), tiles.RAW_BUFFER_WORD3))


def _vmax(k, xs):
    while len(xs) > 1:
        xs = [k.v_max3_f32(VGPR(), *xs[i:i + 3]) if len(xs) - i >= 3 else
              (k.v_max_f32(VGPR(), *xs[i:i + 2]) if len(xs) - i == 2 else xs[i])
              for i in range(0, len(xs), 3)]
    return xs[0]


def _vsum(k, xs):
    while len(xs) > 1:
        xs = [k.v_add_f32(VGPR(), xs[i], xs[i + 1]) if i + 1 < len(xs) else xs[i]
              for i in range(0, len(xs), 2)]
    return xs[0]


def _move(k, desc, step):
    """A raw buffer resource `step` bytes further on, num_records kept."""
    lo = k.s_add_u32(SGPR(), desc[0], step)
    return k.concat(lo, k.s_addc_u32(SGPR(), desc[1], 0), desc[2], desc[3])


def _merge_rows(k, heads, ooff, loff, col, steps, consts, splits, unroll, nv):
    """Merges the splits of the lane's row (byte offsets ooff into O, loff
    into LSE) and stores O and LSE (the row's first lane, col == 0).
    heads = (o_part, lse_part, o, lse) buffers of the (batch, kv head), the
    first two over split 0 only (num_records one split's rows: rows past
    `rows` read 0); `steps` = (the byte offsets of splits 0 .. unroll - 1 in
    o_part and in lse_part as SGPRs, the same for `unroll` splits). Split u
    of a trip is read through soffset (the bounds check covers voffset
    only, [ISA] "Buffer addressing": soffset 0 for splits past the last, whose
    LSE is masked to -inf); `unroll` splits' loads per trip, one wait each."""
    dpo, dpl, do, dl = heads
    (so_o, so_l, gro, grl) = steps
    ninf, log2e, groups = consts
    na = 4 * nv
    m = k.v_mov_b32(VGPR(), M_INIT)
    lsum = k.v_mov_b32(VGPR(), 0)
    acc = [k.v_mov_b32(VGPR(), 0) for _ in range(na)]
    left = k.s_mov_b32(SGPR(), splits)                    # splits not yet merged
    carry = [m, lsum, *acc, dpo, dpl, left]
    k.s_mov_b32(COUNTER, groups)                          # >= 1: splits >= 1
    with k.loop(COUNTER, COUNTER, name="splits", carry=carry) as L:
        m, lsum, *acc, dpo, dpl, left = L.carry
        oks, ls, ov = [], [], []
        for u in range(unroll):
            k.s_cmp_lt_u32(u, left)
            oks.append(k.s_cselect_b64(SGPR(2, align=2), -1, 0))
            ol = k.s_cselect_b32(SGPR(), so_l[u], 0)
            oo = k.s_cselect_b32(SGPR(), so_o[u], 0)
            ls.append(k.buffer_load_dword(VGPR(), loff, dpl, ol, offen=True))
            ld = [k.buffer_load_dwordx4(VGPR(4), ooff, dpo, oo, offen=True, offset=16 * i)
                  for i in range(nv)]
            ov.append([x[j] for x in ld for j in range(4)])
        dpo, dpl = _move(k, dpo, gro), _move(k, dpl, grl)
        lu = [k.v_cndmask_b32(VGPR(), ninf, ls[u], oks[u]) for u in range(unroll)]
        # the group's max first, then one rescale of the sums
        m_new = k.v_max_f32(VGPR(), m, _vmax(k, lu))
        alpha = k.v_exp_f32(VGPR(), k.v_mul_f32(VGPR(), LOG2E, k.v_sub_f32(VGPR(), m, m_new)))
        nmc = k.v_mul_f32(VGPR(), -LOG2E, m_new)
        w = [k.v_exp_f32(VGPR(), k.v_fma_f32(VGPR(), x, log2e, nmc)) for x in lu]
        lsum = k.v_fma_f32(VGPR(), lsum, alpha, _vsum(k, w))
        acc = [k.v_mul_f32(VGPR(), alpha, a) for a in acc]
        for u in range(unroll):
            acc = [k.v_fma_f32(VGPR(), w[u], ov[u][j], acc[j]) for j in range(na)]
        left = k.s_sub_u32(SGPR(), left, unroll)
        L.next(m_new, lsum, *acc, dpo, dpl, left)
    m, lsum, *acc, dpo, dpl, left = L.results
    pos = k.v_cmp_lt_f32(SGPR(2, align=2), 0, lsum)
    inv = k.v_cndmask_b32(VGPR(), 0, k.v_rcp_f32(VGPR(), lsum), pos)
    for i in range(nv):
        vals = k.concat(*[k.v_mul_f32(VGPR(), inv, a) for a in acc[4 * i:4 * i + 4]])
        k.buffer_store_dwordx4(vals, ooff, do, 0, offen=True, offset=16 * i)
    # LSE = m + ln(sum) (ln 0 = -inf: no key), stored by the row's first lane
    lse = k.v_add_f32(VGPR(), m, k.v_mul_f32(VGPR(), LN2, k.v_log_f32(VGPR(), lsum)))
    first = k.v_cmp_eq_u32(SGPR(2, align=2), 0, col)
    loff2 = k.v_cndmask_b32(VGPR(), k.v_mov_b32(VGPR(), tiles.OUT_OF_RANGE), loff, first)
    k.buffer_store_dword(lse, loff2, dl, 0, offen=True)
