"""The GEMM kernel's K step (a part of aster.generators.gemm_gen's `_Gen`):
the global loads of a step, the LDS writes (K-major chunks, or B
transposed in registers), the fragment reads, b_direct's B operands, the
MFMAs (single-K, double-K, block-scale) and `step`, which places one
step's pieces around its barrier (the software pipeline's stages).

Needs: gemm_setup's values (offsets, LDS addresses, masks, buffers).
Guarantees: `step(st, p)` returns the loop state of the next step (the
accumulators after this step's MFMAs, the next step's operands read, a
later step's loads in flight); the order inside each region between
barriers is amdgcn-schedule's."""
from ..nanokernels import tiles
from ..registers import VGPR


class KStep:
    """The K-step methods of `_Gen` (gemm_gen)."""

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
