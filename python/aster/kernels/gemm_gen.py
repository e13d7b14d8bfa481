"""The GEMM kernel generator behind aster.kernels.gemm (see its module doc):
one `_Gen` per kernel holds the builder and the values of the setup code
(offsets, LDS addresses, masks) that the K loop reuses."""
import numpy as np

from .. import ptr
from ..module import Module
from ..registers import AGPR, SGPR, VGPR, s, v

def _dtypes():
    import ml_dtypes
    return {"f16": np.dtype(np.float16), "bf16": np.dtype(ml_dtypes.bfloat16)}


DTYPES = _dtypes()
MFMA_SHAPES = {32: (8, 16), 16: (16, 4)}     # MFMA M (= N) -> (K per instruction, acc regs)
PAD = 4                     # elements of padding per LDS row: a row stride of
#                             an odd number of dword pairs, so the 16 rows a
#                             ds_read_b64 serves per cycle hit 32 distinct banks
SEL_LO, SEL_HI = 0x05040100, 0x07060302   # v_perm_b32: low / high halves of two dwords
OOB = 0x80000000            # a byte offset past any buffer (matrices < 2 GiB)


def _log2(x):
    return x.bit_length() - 1


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
        mfma = {("f16", 32): "v_mfma_f32_32x32x8_f16", ("f16", 16): "v_mfma_f32_16x16x16_f16",
                ("bf16", 32): "v_mfma_f32_32x32x8_bf16",
                ("bf16", 16): "v_mfma_f32_16x16x16_bf16"}[(c.dtype, c.mfma)]
        m = Module(c.arch, name=c.name)
        el = ptr(DTYPES[c.dtype])
        self.m = m
        self.k = m.kernel(c.name, args=[("a", el), ("b", el), ("c", ptr(np.float32)),
                                        ("M", np.int32), ("N", np.int32), ("K", np.int32)],
                          block=c.block, lds=c.lds_bytes,
                          sgpr_setup=["kernarg_ptr", "workgroup_id_x", "workgroup_id_y"])
        self.mfma = getattr(self.k, mfma)
        self.pinned = 256           # pipeline registers are pinned below this VGPR
        #                             (lowered in generate(): v0-v95 stay virtual)
        self.barrier_gap = 14        # MFMAs between the last LDS write and the barrier

    # ---- small helpers ------------------------------------------------------
    def smov(self, x):
        return self.k.s_mov_b32(SGPR(), x)

    def pin(self, n):
        """n physical VGPRs (aligned to 2 from 2 on), taken from the top down."""
        self.pinned -= n
        self.pinned &= ~(min(n, 2) - 1)
        if self.pinned < 96:
            raise ValueError(f"GEMM config {self.cfg.name}: the pipeline registers leave "
                             "too few VGPRs for the rest of the kernel")
        return v[self.pinned] if n == 1 else v[self.pinned:self.pinned + n]

    def operand_set(self):
        """Physical registers for the MFMA operands of one K step:
        [k-step][A list, B list (None with b_direct)]."""
        out = []
        for _ in range(self.bk // self.mk):
            A = [self.pin(2) for _ in range(self.rm)]
            B = None if self.cfg.b_direct else [self.pin(2) for _ in range(self.rn)]
            out.append([A, B])
        return out

    def desc(self, p, nbytes):
        """A raw buffer resource (stride 0) over nbytes at pointer p."""
        k = self.k
        lo = k.s_mov_b32(SGPR(), p[0])
        hi = k.s_and_b32(SGPR(), 0xFFFF, p[1])
        nr = k.s_mov_b32(SGPR(), nbytes)
        w3 = k.s_mov_b32(SGPR(), 0x00020000)
        return k.concat(lo, hi, nr, w3)

    def padded_bytes(self, elements):
        """num_records of a 16-bit matrix: its bytes + 2. With an odd K (or N)
        the 16-byte chunks start 2-byte aligned, and a raw buffer drops a
        whole dword reaching past num_records, which would lose the last
        element; so A and B must be readable one element past their end (the
        element there is zeroed by the K mask or multiplies a zero)."""
        k = self.k
        return k.s_add_u32(SGPR(), k.s_lshl_b32(SGPR(), elements, 1), 2)

    def advance(self, d, step):
        """The resource moved `step` bytes on (num_records shrinks, floor 0)."""
        k = self.k
        nr = k.s_sub_u32(SGPR(), d[2], step)
        nr = k.s_cselect_b32(SGPR(), 0, nr)            # borrow: nothing left
        lo = k.s_add_u32(SGPR(), d[0], step)
        hi = k.s_addc_u32(SGPR(), d[1], 0)
        w3 = k.s_mov_b32(SGPR(), d[3])
        return k.concat(lo, hi, nr, w3)

    # ---- setup ---------------------------------------------------------------
    def setup(self):
        k, c = self.k, self.cfg
        pa, pb, pc = k.load_arg("a"), k.load_arg("b"), k.load_arg("c")
        M, N, K = k.load_arg("M"), k.load_arg("N"), k.load_arg("K")
        self.M, self.N, self.K = M, N, K
        wgx, wgy = k.workgroup_id("x"), k.workgroup_id("y")
        self.m0 = k.s_mul_i32(SGPR(), c.tile_m, wgy)
        self.n0 = k.s_mul_i32(SGPR(), c.tile_n, wgx)
        ka = k.s_mul_i32(SGPR(), M, K)
        kb = k.s_mul_i32(SGPR(), N, K)
        self.da = self.desc(pa, self.padded_bytes(ka))
        self.db = self.desc(pb, self.padded_bytes(kb))
        mn = k.s_mul_i32(SGPR(), M, N)
        self.dc = self.desc(pc, k.s_lshl_b32(SGPR(), mn, 2))
        tid = v[0]
        self.tid = tid
        wave = k.v_readfirstlane_b32(SGPR(), k.v_lshrrev_b32(VGPR(), 6, tid))
        self.wm = k.s_lshr_b32(SGPR(), wave, _log2(c.waves_n))
        self.wn = k.s_and_b32(SGPR(), c.waves_n - 1, wave)
        lane = k.v_and_b32(VGPR(), 63, tid)
        self.lr = k.v_and_b32(VGPR(), self.mt - 1, lane)        # row within the MFMA tile
        self.lg = k.v_lshrrev_b32(VGPR(), _log2(self.mt), lane)  # group of 4 along K
        self.sel_lo, self.sel_hi = self.smov(SEL_LO), self.smov(SEL_HI)
        # K-major chunk loads (A; B with trans_b): lane -> chunk (row, kc)
        cpr = self.bk // 8
        self.kc = k.v_and_b32(VGPR(), cpr - 1, tid)
        self.krow = k.v_lshrrev_b32(VGPR(), _log2(cpr), tid)
        self.rpp = self.lanes // cpr
        # Per-lane masks along K: x_j = (K - kc*8 - t*tile_k) * 16 - 32 j for the
        # step t held in registers; dword j keeps clamp(x_j, 0, 32) / 16 halves.
        k16 = k.s_lshl_b32(SGPR(), K, 4)
        kc128 = k.v_lshlrev_b32(VGPR(), 7, self.kc)
        x0 = k.v_sub_u32(VGPR(), k16, kc128)
        self.x = [x0] + [k.v_subrev_u32(VGPR(), 32 * j, x0) if 32 * j <= 64 else
                         k.v_subrev_u32(VGPR(), self.smov(32 * j), x0) for j in range(1, 4)]
        self.a_loads = self.kmajor_setup(self.m0, c.tile_m, 0)
        if not c.b_direct:
            if c.trans_b:
                self.b_loads = self.kmajor_setup(self.n0, c.tile_n, self.a_bytes)
            else:
                self.b_loads = self.nmajor_setup()
        self.reads_setup()

    def kmajor_setup(self, row0, rows, lds_base):
        """(voffsets per pass, LDS write address, LDS base) of a tile of `rows`
        K-contiguous rows starting at row0 of a matrix with K columns."""
        k = self.k
        rowg = k.v_add_u32(VGPR(), row0, self.krow)
        off = k.v_mul_lo_u32(VGPR(), rowg, self.K)
        off = k.v_lshl_add_u32(VGPR(), self.kc, 3, off)
        off = k.v_lshlrev_b32(VGPR(), 1, off)
        passes = rows // self.rpp
        voffs = [off]
        for i in range(1, passes):
            step = k.s_mul_i32(SGPR(), self.K, 2 * i * self.rpp)
            voffs.append(k.v_add_u32(VGPR(), step, off))
        w = k.v_mul_u32_u24(VGPR(), self.rs, self.krow)
        w = k.v_lshl_add_u32(VGPR(), self.kc, 4, w)
        return {"voffs": voffs, "lds": w, "base": lds_base, "pass_bytes": self.rpp * self.rs}

    def nmajor_setup(self):
        """B (K x N): each lane loads 4 rows x 4 columns (groups of 4 along K)."""
        k, c = self.k, self.cfg
        gpr = c.tile_n // 4
        nq = k.v_and_b32(VGPR(), gpr - 1, self.tid)
        kq = k.v_lshrrev_b32(VGPR(), _log2(gpr), self.tid)
        kq_step = self.lanes // gpr
        groups = (self.bk // 4) // kq_step
        r4 = k.v_lshlrev_b32(VGPR(), 2, kq)
        off = k.v_mul_lo_u32(VGPR(), r4, self.N)
        col = k.v_lshl_add_u32(VGPR(), nq, 2, self.n0)
        off = k.v_add_u32(VGPR(), off, col)
        off = k.v_lshlrev_b32(VGPR(), 1, off)
        voffs = []
        for i in range(groups):
            row = []
            for r in range(4):
                d = 2 * (i * kq_step * 4 + r)
                row.append(off if d == 0 else
                           k.v_add_u32(VGPR(), k.s_mul_i32(SGPR(), self.N, d), off))
            voffs.append(row)
        w = k.v_mul_u32_u24(VGPR(), 4 * self.rs, nq)
        w = k.v_lshl_add_u32(VGPR(), kq, 3, w)
        return {"voffs": voffs, "lds": w, "base": self.a_bytes, "group_bytes": kq_step * 8,
                "step": k.s_mul_i32(SGPR(), self.N, 2 * self.bk)}

    def reads_setup(self):
        k, c = self.k, self.cfg
        def base(wsg, wt):
            r = k.s_mul_i32(SGPR(), wt, wsg)
            t = k.v_add_u32(VGPR(), r, self.lr)
            t = k.v_mul_u32_u24(VGPR(), self.rs, t)
            return k.v_lshl_add_u32(VGPR(), self.lg, 3, t)
        self.a_rd = base(self.wm, self.wtm)
        if c.b_direct:
            # B operand straight from global: lane holds B[n = lr][k = 4 lg .. +3]
            r = k.s_mul_i32(SGPR(), self.wtn, self.wn)
            r = k.s_add_u32(SGPR(), r, self.n0)
            n = k.v_add_u32(VGPR(), r, self.lr)
            off = k.v_mul_lo_u32(VGPR(), n, self.K)
            off = k.v_lshl_add_u32(VGPR(), self.lg, 2, off)
            off = k.v_lshlrev_b32(VGPR(), 1, off)
            self.bd_voffs = [off] + [
                k.v_add_u32(VGPR(), k.s_mul_i32(SGPR(), self.K, 2 * rn * self.mt), off)
                for rn in range(1, self.rn)]
            # the masks of the B operand: lane's K start 4 lg
            k16 = k.s_lshl_b32(SGPR(), self.K, 4)
            lg64 = k.v_lshlrev_b32(VGPR(), 6, self.lg)
            y0 = k.v_sub_u32(VGPR(), k16, lg64)
            self.y = [y0, k.v_subrev_u32(VGPR(), 32, y0)]
        else:
            self.b_rd = base(self.wn, self.wtn)

    # ---- global -> registers -------------------------------------------------
    def load_offsets(self):
        """(voffset, dwords) of each global load of one K step, in order."""
        c = self.cfg
        out = [(off, 4) for off in self.a_loads["voffs"]]
        if not c.b_direct:
            if c.trans_b:
                out += [(off, 4) for off in self.b_loads["voffs"]]
            else:
                out += [(off, 2) for row in self.b_loads["voffs"] for off in row]
        return out

    def load_step(self, da, db, regs):
        """Generator: issues the global loads of one K step (A, and B unless
        b_direct) into `regs` (a staging register set), one per next()."""
        k = self.k
        na = len(self.a_loads["voffs"])
        for i, ((off, n), r) in enumerate(zip(self.load_offsets(), regs)):
            op = k.buffer_load_dwordx4 if n == 4 else k.buffer_load_dwordx2
            op(r, off, da if i < na else db, 0, offen=True)
            yield

    def advance_descs(self, da, db):
        c = self.cfg
        da = self.advance(da, 2 * self.bk)
        if not c.b_direct:
            db = self.advance(db, 2 * self.bk if c.trans_b else self.b_loads["step"])
        return da, db

    def masks(self, xs):
        """Per dword j of a K chunk: the bits to clear (v_bfi source)."""
        k = self.k
        out = []
        for x in xs:
            sh = k.v_med3_i32(VGPR(), x, 0, 32)
            out.append(k.v_lshlrev_b64(VGPR(2, align=2), sh, -1)[0])
        return out

    def write_step(self, regs, xs, p):
        """Masks the K tail of the step in `regs` and writes it to LDS buffer p."""
        k, c = self.k, self.cfg
        na = len(self.a_loads["voffs"])
        inv = self.masks(xs)
        yield
        def write_chunk(addr, r, offset):
            # two 8-byte writes: padded rows are 8-byte aligned only
            parts = [k.v_bfi_b32(VGPR(), inv[j], 0, r[j]) for j in range(4)]
            k.ds_write_b64(addr, k.concat(parts[0], parts[1]), offset=offset)
            k.ds_write_b64(addr, k.concat(parts[2], parts[3]), offset=offset + 8)
        base = p * self.buf
        for i, r in enumerate(regs[:na]):
            write_chunk(self.a_loads["lds"], r, base + i * self.a_loads["pass_bytes"])
            yield
        if c.b_direct:
            return
        rest = regs[na:]
        if c.trans_b:
            for i, r in enumerate(rest):
                write_chunk(self.b_loads["lds"], r,
                            base + self.a_bytes + i * self.b_loads["pass_bytes"])
                yield
            return
        for i in range(len(rest) // 4):
            rows = rest[4 * i:4 * i + 4]
            for col in range(4):
                x, sel = col // 2, (self.sel_lo if col % 2 == 0 else self.sel_hi)
                lo = k.v_perm_b32(VGPR(), rows[1][x], rows[0][x], sel)
                hi = k.v_perm_b32(VGPR(), rows[3][x], rows[2][x], sel)
                k.ds_write_b64(self.b_loads["lds"], k.concat(lo, hi),
                               offset=base + self.a_bytes + col * self.rs
                               + i * self.b_loads["group_bytes"])
                yield

    def next_x(self, xs):
        k = self.k
        step = self.smov(16 * self.bk)
        return [k.v_subrev_u32(VGPR(), step, x) for x in xs]

    # ---- B direct ------------------------------------------------------------
    def load_bdirect(self, dbd):
        """This wave's B operands of one K step, straight from global memory,
        masked along K: [step s][rn] -> VGPR pair."""
        k = self.k
        out = []
        for s_ in range(self.bk // self.mk):
            row = []
            for rn in range(self.rn):
                row.append(k.buffer_load_dwordx2(VGPR(2, align=2), self.bd_voffs[rn], dbd, 0,
                                                 offen=True, offset=2 * s_ * self.mk))
            out.append(row)
        return out

    def mask_bdirect(self, regs, ys):
        """Zeroes K past the end in the B operands (lane's K start moves by mk
        per step s)."""
        k = self.k
        out = []
        for s_, row in enumerate(regs):
            adj = self.smov(16 * s_ * self.mk) if s_ else None
            y = ys if adj is None else [k.v_subrev_u32(VGPR(), adj, t) for t in ys]
            inv = self.masks(y)
            out.append([k.concat(k.v_bfi_b32(VGPR(), inv[0], 0, r[0]),
                                 k.v_bfi_b32(VGPR(), inv[1], 0, r[1])) for r in row])
        return out

    # ---- LDS -> MFMA ------------------------------------------------------------
    def reads(self, p, regs):
        """Generator: issues the ds_read_b64 of all MFMA operands of one K step
        from LDS buffer p into `regs` (an operand register set), one
        instruction per next()."""
        k = self.k
        a_off = p * self.buf
        b_off = a_off + self.a_bytes
        for s_, (A, B) in enumerate(regs):
            for rm, r in enumerate(A):
                k.ds_read_b64(r, self.a_rd,
                              offset=a_off + rm * self.mt * self.rs + 2 * s_ * self.mk)
                yield
            for rn, r in enumerate(B or ()):
                k.ds_read_b64(r, self.b_rd,
                              offset=b_off + rn * self.mt * self.rs + 2 * s_ * self.mk)
                yield

    @staticmethod
    def run(gen, n=None):
        """Advances a generator n times (to its end when n is None); returns
        its result when it ended, else None."""
        if gen is None:
            return None
        try:
            if n is None:
                while True:
                    next(gen)
            for _ in range(n):
                next(gen)
        except StopIteration as e:
            return e.value
        return None

    def step(self, acc, ops, nxt_ops, p, side, bops=None):
        """The MFMAs of one K step (operands `ops` already read from LDS buffer
        p) with the rest of the pipeline between them, one piece after each
        MFMA (Python decides the order): `side` (a generator: the LDS writes
        of the next step, then a "barrier" token, then the global loads of a
        later step), the barrier a few MFMAs after the last write, then the
        reads of the next step's operands from buffer 1-p into `nxt_ops`
        alternating with the rest of `side`."""
        k = self.k
        order = [(s_, rm, rn) for s_ in range(self.bk // self.mk)
                 for rm in range(self.rm) for rn in range(self.rn)]
        rd = self.reads(1 - p, nxt_ops)
        phase, wait = 0, 0          # 0: writes, 1: until the barrier, 2: reads + loads
        for idx, (s_, rm, rn) in enumerate(order):
            A = ops[s_][0][rm]
            B = bops[s_][rn] if bops is not None else ops[s_][1][rn]
            i = rm * self.rn + rn
            acc[i] = self.mfma(AGPR(self.nacc), A, B, acc[i])
            if phase == 0:
                if next(side, "barrier") == "barrier":
                    phase, wait = 1, self.barrier_gap
            if phase == 1:
                wait -= 1
                if wait <= 0 or idx >= len(order) - 3:
                    k.s_barrier()
                    phase = 2
                    continue
            if phase == 2:
                self.run(rd, 1)
                self.run(side, 1)
        if phase == 0:
            self.run(side)
        if phase < 2:
            k.s_barrier()
        self.run(rd)
        self.run(side)
        return acc

    # ---- epilogue -----------------------------------------------------------------
    def store(self, acc):
        k, c = self.k, self.cfg
        n4 = k.s_lshl_b32(SGPR(), self.N, 2)
        # lane's first row in an MFMA tile and column
        if self.mt == 32:
            lrow = k.v_lshlrev_b32(VGPR(), 2, k.v_lshrrev_b32(VGPR(), 5, k.v_and_b32(
                VGPR(), 63, self.tid)))
            deltas = [8 * (r // 4) + r % 4 for r in range(16)]
        else:
            lrow = k.v_lshlrev_b32(VGPR(), 2, self.lg)
            deltas = list(range(4))
        rbase = k.s_add_u32(SGPR(), self.m0, k.s_mul_i32(SGPR(), self.wtm, self.wm))
        row = k.v_add_u32(VGPR(), rbase, lrow)
        rowoff = k.v_mul_lo_u32(VGPR(), row, n4)
        cbase = k.s_add_u32(SGPR(), self.n0, k.s_mul_i32(SGPR(), self.wtn, self.wn))
        col = k.v_add_u32(VGPR(), cbase, self.lr)
        oob = k.v_mov_b32(VGPR(), OOB)
        bases = []
        for rn in range(self.rn):
            cn = col if rn == 0 else k.v_add_u32(VGPR(), rn * self.mt, col)
            ok = k.v_cmp_gt_i32(SGPR(2, align=2), self.N, cn)
            off = k.v_lshl_add_u32(VGPR(), cn, 2, rowoff)
            bases.append(k.v_cndmask_b32(VGPR(), oob, off, ok))
        for rm in range(self.rm):
            for rn in range(self.rn):
                a_ = acc[rm * self.rn + rn]
                for r, d in enumerate(deltas):
                    rr = rm * self.mt + d
                    off = bases[rn] if rr == 0 else k.v_add_u32(
                        VGPR(), k.s_mul_i32(SGPR(), n4, rr), bases[rn])
                    val = k.v_accvgpr_read_b32(VGPR(), a_[r])
                    k.buffer_store_dword(val, off, self.dc, 0, offen=True)

    # ---- the kernel ------------------------------------------------------------------
    def generate(self):
        k, c = self.k, self.cfg
        self.setup()
        nacc = self.rm * self.rn
        acc = [k.concat(*[k.v_accvgpr_write_b32(AGPR(), 0) for _ in range(self.nacc)])
               for _ in range(nacc)]
        da, db = self.da, self.db
        xs = self.x
        # The registers of the software pipeline are pinned (physical, from
        # the top of the VGPRs down): they cross the loop's back edge while
        # their loads are in flight, and a carried virtual value would be
        # copied there (waiting for the load). Two operand sets (even / odd
        # steps) and `prefetch` staging sets for the global loads.
        per_set = (self.bk // self.mk) * 2 * (self.rm + (0 if c.b_direct else self.rn))
        staged = sum(n for _, n in self.load_offsets())
        self.pinned = min(256, 96 + 2 * per_set + c.prefetch * staged + 2)
        ops_sets = [self.operand_set() for _ in range(2)]
        stage = [[self.pin(n) for _, n in self.load_offsets()] for _ in range(c.prefetch)]
        # prologue: step 0 to LDS buffer 0; steps 1..prefetch into registers
        self.run(self.load_step(da, db, stage[0]))
        da, db = self.advance_descs(da, db)
        bops = ys = None
        if c.b_direct:
            ys = self.y
            bops = self.load_bdirect(db)
            db = self.advance(db, 2 * self.bk)
        self.run(self.write_step(stage[0], xs, 0))
        xs = self.next_x(xs)
        for j in range(1, c.prefetch + 1):
            self.run(self.load_step(da, db, stage[j % c.prefetch]))
            da, db = self.advance_descs(da, db)
        k.s_barrier()
        self.run(self.reads(0, ops_sets[0]))
        # loop: 2 * prefetch steps per trip, each (p = LDS buffer): write the
        # oldest step held in registers to buffer 1-p, barrier, load a later
        # step, read the next step's operands, all between the MFMAs of this step
        unroll = 2 * c.prefetch
        trips = k.s_lshr_b32(SGPR(), k.s_add_u32(SGPR(), self.K, unroll * self.bk - 1),
                             _log2(unroll * self.bk))
        k.s_mov_b32(s[48], trips)

        def pack(acc, xs, da, db, bops, ys):
            out = acc + xs + [da, db]
            if c.b_direct:
                out += [x for row in bops for x in row] + ys
            return out

        with k.loop(s[48], s[48], name="kloop", carry=pack(acc, xs, da, db, bops, ys)) as L:
            vals = list(L.carry)
            acc = vals[:nacc]
            o = nacc
            xs = vals[o:o + 4]
            da, db = vals[o + 4], vals[o + 5]
            if c.b_direct:
                nb = len(bops) * self.rn
                fl = vals[o + 6:o + 6 + nb]
                bops = [fl[i * self.rn:(i + 1) * self.rn] for i in range(len(bops))]
                ys = vals[o + 6 + nb:o + 8 + nb]
            for u in range(unroll):
                p = u % 2
                state = {}
                bm = self.mask_bdirect(bops, ys) if c.b_direct else None
                regs_ = stage[(u + 1) % c.prefetch]

                def side():
                    if c.b_direct:      # B of the next step first (waited for first)
                        state["bops"] = self.load_bdirect(db)
                        state["db"] = self.advance(db, 2 * self.bk)
                        state["ys"] = [k.v_subrev_u32(VGPR(), self.smov(16 * self.bk), y)
                                       for y in ys]
                        yield
                    yield from self.write_step(regs_, xs, 1 - p)
                    state["xs"] = self.next_x(xs)
                    yield "barrier"
                    yield from self.load_step(da, db, regs_)
                    da2 = self.advance(da, 2 * self.bk)
                    yield
                    state["d"] = (da2, db if c.b_direct else self.advance(
                        db, 2 * self.bk if c.trans_b else self.b_loads["step"]))

                acc = self.step(acc, ops_sets[p], ops_sets[1 - p], p, side(), bm)
                xs = state["xs"]
                da, db = state["d"]
                if c.b_direct:
                    bops, db, ys = state["bops"], state["db"], state["ys"]
            L.next(*pack(acc, xs, da, db, bops, ys))
        acc = L.results[:nacc]
        self.store(acc)
        k.s_endpgm()
        return self.m
