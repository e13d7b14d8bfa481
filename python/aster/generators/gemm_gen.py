"""The GEMM kernel generator behind aster.generators.gemm (see its module doc):
one `_Gen` per kernel holds the builder and the values of the setup code
(offsets, LDS addresses, masks) that the K loop reuses. The data movement
and the MFMAs are calls of aster.nanokernels pieces (`tiles`, `lds`, `mfma`),
inlined by amdgcn-inline; amdgcn-schedule orders each region between two
barriers, amdgcn-regalloc gives every register (the loop counter aside).

`_Gen` is made of parts, one file each: gemm_layout (the shared
constants), gemm_setup (setup code), gemm_kstep (the K step: loads, LDS
writes and reads, MFMAs, the pipeline's stages), gemm_block_scale
(block-scale fp8's scales and MFMAs), gemm_store (the epilogues),
gemm_splitk (split-K / stream-K's store-or-add protocol). This file holds
the kernel's arguments and the K loop (`generate`)."""
import numpy as np

from .. import ptr
from ..nanokernels import mfma, tiles
from ..module import Module
from ..registers import AGPR, SGPR, VGPR, s
from .gemm_block_scale import BlockScale, _mfma_zero_c
from .gemm_kstep import KStep
from .gemm_layout import BYTE_DTYPES, DTYPES, K_UNROLL, MFMA_SHAPES, PAD, _log2
from .gemm_setup import Setup
from .gemm_splitk import SplitK
from .gemm_store import Store


class _Gen(Setup, KStep, BlockScale, Store, SplitK):
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
        # i8 (a8w8): the data path moves pairs of int8 along K as its 16-bit
        # elements (K, the argument, counts pairs); the int MFMA's lane takes
        # 8 int8 where the 16-bit one takes 4 elements: the same bytes
        self.i8 = c.dtype in BYTE_DTYPES
        kind = "i8" if c.dtype == "i8" else "fp8"     # fp8: FNUZ on gfx942, OCP on gfx950
        self.step_fn = mfma.mfma_step(f"{self.mt}x{self.mt}x{self.mk}_{c.dtype}" if not self.i8
                                      else f"{self.mt}x{self.mt}x{2 * self.mk}_{kind}")
        # double_k (gfx950): one 16x16x32 / 32x32x16 MFMA per two K steps of
        # the single-K layout. Its lane holds 8 k (registers of two
        # fragments: k 4g..4g+3 of step s and of step s+1); A and B hold the
        # same k in the same places, so the sum over K is unchanged.
        self.kpair = 2 if c.double_k else 1
        if c.double_k:
            self.step_fn = mfma.mfma_step(f"{self.mt}x{self.mt}x{2 * self.mk}_{c.dtype}")
        # block_scale (gfx950 ofp8): one f8f6f4 MFMA per 4 single-K steps
        # (16x16x128: the whole K step; 32x32x64: half of it) into a fresh
        # partial sum in VGPRs, folded into the accumulator with its scales
        self.bs = c.block_scale
        if self.bs:
            self.kpair = 4
            shape = f"{self.mt}x{self.mt}x{128 if self.mt == 16 else 64}_f8f6f4"
            self.step_fn = mfma.mfma_step(shape, acc="vgpr")
            self.first_fn = _mfma_zero_c(shape)
            self.nq = 1 if self.mt == 16 else 4     # groups of 4 rows of a fragment
            self._P = {}
        m = Module(c.arch, name=c.name)
        el = ptr(np.int8 if c.dtype in BYTE_DTYPES else DTYPES[c.dtype])
        self.m = m
        c16 = c.dtype in BYTE_DTYPES or c.out != "f32"
        args = [("a", el), ("b", el), ("c", ptr(np.uint16 if c16 else np.float32)),
                ("M", np.int32), ("N", np.int32), ("K", np.int32)]
        if c.dtype in BYTE_DTYPES:  # a8w8: C = bf16(A B^T sa[m] sb[n] + bias[n])
            args += [("sa", ptr(np.float32)), ("sb", ptr(np.float32))]
            if not c.block_scale:   # block_scale: sa [K blocks, M], sb [N blocks, K blocks]
                args.append(("bias", ptr(np.float32)))
        setup = ["kernarg_ptr", "workgroup_id_x", "workgroup_id_y"]
        if c.stream_k:
            # stream-K decomposition: workgroup x runs the segment of row x
            # of the work table (STREAM_K_WORDS i32 each: tile x, tile y,
            # first K element, K elements, first = 1 when the segment starts
            # at k = 0 (it stores; the others add), adders = the tile's other
            # segments); cnt as split-K's
            args += [("work", ptr(np.int32)), ("cnt", ptr(np.uint32))]
        elif c.split_k:           # workgroup z adds K elements [z kchunk, (z + 1) kchunk)
            # cnt: one u32 per (output tile, wave), zero before the launch and
            # left zero after it (the kernel resets what it used); splits:
            # K splits; zwg: 1 = workgroup z = 0 zeroes C (grid z = splits +
            # 1), 0 = split 0 stores its sums and the others add (grid z =
            # splits: no zero workgroups) (`store_splitk`)
            args += [("kchunk", np.int32), ("cnt", ptr(np.uint32)), ("splits", np.int32),
                     ("zwg", np.int32)]
            setup.append("workgroup_id_z")
        self.k = m.kernel(c.name, args=args, block=c.block, lds=c.lds_bytes, sgpr_setup=setup)
        # MFMAs of a step before its barrier, after the LDS writes of the
        # next step (the writes must land before the barrier; the MFMAs cover
        # their latency)
        self.barrier_gap = 14

    def smov(self, x):
        return self.k.s_mov_b32(SGPR(), x)

    def call(self, fn, *args):
        return self.k.call(fn, *args)

    def padded_bytes(self, elements):
        """num_records of a 16-bit matrix: its bytes + 2. With an odd K (or N)
        the 16-byte chunks start 2-byte aligned, and a raw buffer drops a
        whole dword reaching past num_records, which would lose the last
        element; so A and B must be readable one element past their end (the
        element there is zeroed by the K mask or multiplies a zero)."""
        k = self.k
        return k.s_add_u32(SGPR(), k.s_lshl_b32(SGPR(), elements, 1), 2)


    @staticmethod
    def _flatten(st):
        """The loop state as a flat list of Values and a function rebuilding it."""
        keys = sorted(st)
        shapes = []
        flat = []

        def walk(x):
            if isinstance(x, list):
                return [walk(y) for y in x]
            if x is None:
                return None
            flat.append(x)
            return len(flat) - 1
        for key in keys:
            shapes.append(walk(st[key]))

        def rebuild(vals):
            def un(sh):
                if isinstance(sh, list):
                    return [un(y) for y in sh]
                return None if sh is None else vals[sh]
            return {key: un(sh) for key, sh in zip(keys, shapes)}
        return flat, rebuild

    def generate(self):
        k, c = self.k, self.cfg
        self.setup_common()
        if c.split_k and not c.stream_k:    # with zwg, workgroup z = 0 zeroes C
            gemm = k.label("sk_gemm")
            k.s_cmp_lg_u32(k.workgroup_id("z"), 0)
            k.s_cbranch_scc1(gemm)
            k.s_cmp_eq_u32(k.load_arg("zwg"), 0)
            k.s_cbranch_scc1(gemm)
            self.zero_tile()
            k.bind(gemm)
        self.setup()
        init = (lambda: k.v_mov_b32(VGPR(), 0)) if self.bs else \
            (lambda: k.v_accvgpr_write_b32(AGPR(), 0))
        acc = [k.concat(*[init() for _ in range(self.nacc)]) for _ in range(self.rm * self.rn)]
        da, db = self.da, self.db
        # prologue: step 0 to LDS buffer 0; steps 1..prefetch into registers
        first = self.load_step(da, db)
        da, db = self.advance_descs(da, db)
        st = {"acc": acc, "xs": self.x}
        if self.bs:     # scales prefetch + 1 steps ahead (the data's distance)
            dsa, dsb, scl = self.dsa, self.dsb, []
            for _ in range(c.prefetch + 1):
                x, dsa, dsb = self.load_scales(dsa, dsb)
                scl.append(x)
            st.update(scl=scl, dsa=dsa, dsb=dsb)
        if c.b_direct:
            st["bops"] = self.load_bdirect(db)
            (db,) = self.call(tiles.advance_buffer, db, self.smov(2 * self.bk))
            st["ys"] = self.y
        self.write_step(first, st["xs"], 0)
        st["xs"] = self.next_x(st["xs"])
        staged = []
        for _ in range(c.prefetch):
            staged.append(self.load_step(da, db))
            da, db = self.advance_descs(da, db)
        k.s_barrier()
        st["ops"] = self.reads(0)
        st.update(staged=staged, da=da, db=db)
        # loop: K_UNROLL steps per trip (LDS buffers 0, 1, 0, 1), every register
        # virtual: the values in flight across the back edge are block
        # arguments, which amdgcn-regalloc gives the registers of the values
        # passed to them (no copies)
        unroll = K_UNROLL
        trips = k.s_lshr_b32(SGPR(), k.s_add_u32(SGPR(), self.Kh, unroll * self.bk - 1),
                             _log2(unroll * self.bk))
        k.s_mov_b32(s[48], trips)
        flat, rebuild = self._flatten(st)
        with k.loop(s[48], s[48], name="kloop", carry=flat) as L:
            st = rebuild(list(L.carry))
            for u in range(unroll):
                st = self.step(st, u % 2)
            L.next(*self._flatten(st)[0])
        acc = rebuild(L.results)["acc"]
        self.store(acc)
        k.s_endpgm()
        return self.m
