"""Random programs over registers for the register-allocation tests.

A program is a list of `Op`s over `Val`s (SSA values: a register class
'v'/'s'/'a', a width and an alignment), generated from a seed. The same
program is emitted in two ways:

* `emit(prog, "virtual")`: every value is a virtual register (`VGPR(n)`,
  ...), to be allocated by `amdgcn-regalloc`;
* `emit(prog, "naive")`: every value gets its own fresh physical registers,
  chosen here by bumping an index (no allocator involved).

`evaluate(prog, inp)` computes the output buffer with NumPy (uint32
arithmetic, 64 lanes), `max_live(prog)` the registers live at once per class
(backward liveness over the straight-line ops).

Memory layout (one workgroup of 64 lanes): lane `l` reads its vector inputs
at `inp[l * LANE_DW + j]` and writes its outputs at `out[l * LANE_DW + j]`;
scalar inputs are at `inp[LANES * LANE_DW + j]`. The kernel takes
(in, out) pointers.

For the waitcnt tests, `Gen(memory=True)` also puts loads in the body
(global, scalar, and LDS reads of values written to the lane's LDS slots),
and `Gen(waits=False)` writes no s_waitcnt at all (amdgcn-waitcnt places
them).
"""
from dataclasses import dataclass, field

import numpy as np

import aster
from aster import AGPR, SGPR, VGPR, a, s, v

LANES = 64
LANE_DW = 256                      # dwords per lane in both buffers
SCALAR_DW = 64                     # scalar input dwords after the lanes
IN_WORDS = LANES * LANE_DW + SCALAR_DW
OUT_WORDS = LANES * LANE_DW
LDS_DW = 16                        # LDS dwords per lane (memory programs)
LDS_BYTES = LANES * LDS_DW * 4
M32 = np.uint64(0xFFFFFFFF)
# Registers the naive emission may hand out: v1.. (v0 = work-item id),
# s4.. (s[0:2] kernarg pointer, s2 workgroup id, s3 kept free), a0..
NAIVE_FIRST = {"v": 1, "s": 4, "a": 0}
NAIVE_LIMIT = {"v": 256, "s": 100, "a": 256}


@dataclass(eq=False)
class Val:
    cls: str            # 'v', 's' or 'a'
    width: int = 1
    align: int = 1      # alignment asked of the allocator (virtual emission)
    pinned: object = None   # an allocated aster.Reg this value always lives in
    name: str = ""

    def __repr__(self):
        return self.name or f"%{self.cls}{id(self) % 10000}"


@dataclass(eq=False)
class Op:
    name: str                       # builder method
    dsts: list                      # Vals defined
    srcs: list                      # Vals or ints (immediates), or None
    mods: dict = field(default_factory=dict)
    ev: object = None               # NumPy semantics: f(env, op) -> None


@dataclass(eq=False)
class Program:
    ops: list
    loop: object = None             # (start, end, count, carries) or None
    n_out: int = 0                  # output dwords per lane used
    inp_pinned: tuple = ()          # pinned Vals (live-in)
    lds: int = 0                    # LDS bytes the kernel uses


# ---- NumPy semantics: a value is uint32 array (width, LANES) ('v', 'a') or
# (width,) ('s'); None when it is not modelled (pointers).

def _u32(x):
    return (np.asarray(x, np.uint64) & M32).astype(np.uint32)


def _lane64(x):  # (2, LANES) -> uint64 (LANES,)
    return x[0].astype(np.uint64) | (x[1].astype(np.uint64) << np.uint64(32))


def _split64(x):
    x = np.asarray(x, np.uint64)
    return np.stack([_u32(x), _u32(x >> np.uint64(32))])


def _src(env, x):
    """A 32-bit source as a per-lane array (scalars broadcast)."""
    if isinstance(x, int):
        return np.full(LANES, x & 0xFFFFFFFF, np.uint32)
    val = env[id(x)]
    if x.cls == "s":
        return np.full(LANES, val[0], np.uint32)
    return val[0]


def _src64(env, x):
    if isinstance(x, int):
        return np.full(LANES, x & 0xFFFFFFFFFFFFFFFF, np.uint64)
    val = env[id(x)]
    if x.cls == "s":
        return np.full(LANES, int(val[0]) | int(val[1]) << 32, np.uint64)
    return _lane64(val)


def _vop(f):
    def ev(env, op):
        args = [_src(env, x).astype(np.uint64) for x in op.srcs]
        env[id(op.dsts[0])] = _u32(f(*args))[None, :]
    return ev


def _sop(f):
    def ev(env, op):
        args = [np.uint64(x & 0xFFFFFFFF) if isinstance(x, int) else
                np.uint64(env[id(x)][0]) for x in op.srcs]
        env[id(op.dsts[0])] = _u32(f(*args))[None]
    return ev


def _carry_bits(mask):
    return np.array([mask & 0xFFFFFFFF, mask >> 32], np.uint32)


def _ev_add_co(env, op):
    x, y = (_src(env, t).astype(np.uint64) for t in op.srcs[:2])
    cin = np.zeros(LANES, np.uint64)
    if len(op.srcs) == 3:
        c = env[id(op.srcs[2])]
        m = int(c[0]) | int(c[1]) << 32
        cin = np.array([(m >> i) & 1 for i in range(LANES)], np.uint64)
    t = x + y + cin
    env[id(op.dsts[0])] = _u32(t)[None, :]
    bits = (t >> np.uint64(32)) & np.uint64(1)
    env[id(op.dsts[1])] = _carry_bits(sum(int(b) << i for i, b in enumerate(bits)))


def _ev_cndmask(env, op):
    c = env[id(op.srcs[2])]
    m = int(c[0]) | int(c[1]) << 32
    sel = np.array([(m >> i) & 1 for i in range(LANES)], bool)
    env[id(op.dsts[0])] = np.where(sel, _src(env, op.srcs[1]), _src(env, op.srcs[0]))[None, :]


def _ev_readfirstlane(env, op):
    env[id(op.dsts[0])] = np.array([env[id(op.srcs[0])][0][0]], np.uint32)


def _ev_lshl_add_u64(env, op):
    x, sh, y = op.srcs
    t = (_src64(env, x) << np.uint64(sh)) + _src64(env, y)
    env[id(op.dsts[0])] = _split64(t)


def _ev_lshlrev_b64(env, op):
    sh, x = op.srcs
    env[id(op.dsts[0])] = _split64(_src64(env, x) << np.uint64(sh))


def _ev_mov_b64(env, op):
    env[id(op.dsts[0])] = _split64(_src64(env, op.srcs[0]))


def _ev_s_lshl_b64(env, op):
    x, sh = op.srcs
    t = (int(env[id(x)][0]) | int(env[id(x)][1]) << 32) << sh
    env[id(op.dsts[0])] = np.array([t & 0xFFFFFFFF, (t >> 32) & 0xFFFFFFFF], np.uint32)


def _ev_copy(env, op):    # v_accvgpr_write/read, s_mov_b32
    src = op.srcs[0]
    val = env[id(src)]
    if src.cls == "s" and op.dsts[0].cls != "s":
        val = np.full((1, LANES), val[0], np.uint32)
    env[id(op.dsts[0])] = val.copy()


def _ev_mfma_i8(env, op):
    """v_mfma_i32_16x16x32_i8: lane l holds A[l%16][8*(l//16)+b] and
    B[8*(l//16)+b][l%16] (bytes b of its 64-bit sources) and D[4*(l//16)+q][l%16]
    in register q."""
    A = np.zeros((16, 32), np.int64)
    B = np.zeros((32, 16), np.int64)
    sa, sb = (_src64(env, x) for x in op.srcs[:2])
    ab = sa.view(np.int8).reshape(LANES, 8).astype(np.int64)   # little-endian bytes
    bb = sb.view(np.int8).reshape(LANES, 8).astype(np.int64)
    for ln in range(LANES):
        A[ln % 16, 8 * (ln // 16):8 * (ln // 16) + 8] = ab[ln]
        B[8 * (ln // 16):8 * (ln // 16) + 8, ln % 16] = bb[ln]
    D = A @ B
    c = op.srcs[2]
    out = np.zeros((4, LANES), np.int64)
    for ln in range(LANES):
        for q in range(4):
            acc = 0 if isinstance(c, int) else int(env[id(c)][q][ln].astype(np.int32))
            out[q, ln] = D[4 * (ln // 16) + q, ln % 16] + acc
    env[id(op.dsts[0])] = (out & 0xFFFFFFFF).astype(np.uint32)


def _ev_load(env, op, inp):
    d = op.dsts[0]
    off = op.mods["offset"] // 4 if "offset" in op.mods else op.srcs[1] // 4
    if d.cls == "s":
        env[id(d)] = inp[off:off + d.width].copy()
    else:
        rows = inp[:LANES * LANE_DW].reshape(LANES, LANE_DW)
        env[id(d)] = rows[:, off:off + d.width].T.copy()


def _ev_ds_write(env, op):
    env.setdefault("lds", {})[op.mods.get("offset", 0)] = _src(env, op.srcs[1]).copy()


def _ev_ds_read(env, op):
    env[id(op.dsts[0])] = env["lds"][op.mods.get("offset", 0)][None, :].copy()


def _ev_store(env, op, out):
    data = env[id(op.srcs[1])]
    off = op.mods["offset"] // 4
    rows = out.reshape(LANES, LANE_DW)
    rows[:, off:off + data.shape[0]] = data.T


SEMANTICS = {
    "v_add_u32": _vop(lambda x, y: x + y),
    "v_mul_lo_u32": _vop(lambda x, y: x * y),
    "v_xor_b32": _vop(lambda x, y: x ^ y),
    "v_lshl_add_u32": _vop(lambda x, sh, y: (x << (sh & np.uint64(31))) + y),
    "v_mov_b32": _vop(lambda x: x),
    "v_add3_u32": _vop(lambda x, y, z: x + y + z),
    "s_add_u32": _sop(lambda x, y: x + y),
    "s_mul_i32": _sop(lambda x, y: x * y),
    "s_mov_b32": _ev_copy,
    "v_add_co_u32": _ev_add_co,
    "v_addc_co_u32": _ev_add_co,
    "v_cndmask_b32": _ev_cndmask,
    "v_readfirstlane_b32": _ev_readfirstlane,
    "v_lshl_add_u64": _ev_lshl_add_u64,
    "v_lshlrev_b64": _ev_lshlrev_b64,
    "v_mov_b64": _ev_mov_b64,
    "s_lshl_b64": _ev_s_lshl_b64,
    "v_accvgpr_write_b32": _ev_copy,
    "v_accvgpr_read_b32": _ev_copy,
    "v_mfma_i32_16x16x32_i8": _ev_mfma_i8,
    "ds_write_b32": _ev_ds_write,
    "ds_read_b32": _ev_ds_read,
}


def evaluate(prog, inp):
    """The output buffer (uint32, OUT_WORDS) the program writes, by NumPy."""
    out = np.zeros(OUT_WORDS, np.uint32)
    env = {}
    ops = prog.ops
    i = 0
    while i < len(ops):
        if prog.loop and i == prog.loop[0]:
            start, end, count, carries = prog.loop
            for it in range(count):
                for (param, init, nxt) in carries:
                    env[id(param)] = env[id(init if it == 0 else nxt)]
                for op in ops[start:end]:
                    _eval_op(env, op, inp, out)
            i = end
            continue
        _eval_op(env, ops[i], inp, out)
        i += 1
    return out


def _eval_op(env, op, inp, out):
    if op.name.startswith(("global_load", "s_load")):
        if op.dsts[0].width == 2 and op.dsts[0].name.startswith("ptr"):
            return
        _ev_load(env, op, inp)
    elif op.name.startswith("global_store"):
        _ev_store(env, op, out)
    elif op.ev is not None:
        op.ev(env, op)


# ---- liveness

def max_live(prog, classes=("v", "s", "a")):
    """{class: MaxLive}: the most registers (counted by width) live at once,
    by backward liveness over the straight-line ops (no loop). A value is
    live from its definition to its last use; a value never used still
    occupies its registers at its definition. Pinned values count."""
    assert prog.loop is None, "max_live is for straight-line programs"
    live = {}
    best = {c: 0 for c in classes}
    for op in reversed(prog.ops):
        for d in op.dsts:
            live.setdefault(id(d), d)             # an unused definition
        for c in classes:
            n = sum(x.width for x in live.values() if x.cls == c)
            best[c] = max(best[c], n)
        for d in op.dsts:
            live.pop(id(d), None)
        for x in op.srcs:
            if isinstance(x, Val):
                live[id(x)] = x
    for c in classes:   # live-in (pinned inputs)
        best[c] = max(best[c], sum(x.width for x in live.values() if x.cls == c))
    return best


def op_need(prog, cls="v"):
    """The most registers of class `cls` one op reads and writes (distinct
    values, counted by width): no register limit below it can be met."""
    best = 0
    for op in prog.ops:
        vals = {id(x): x for x in list(op.srcs) + list(op.dsts)
                if isinstance(x, Val) and x.cls == cls}
        best = max(best, sum(x.width for x in vals.values()))
    return best


# ---- emission

class _Naive:
    """Fresh physical registers per value: next index per class, aligned."""

    def __init__(self):
        self.next = dict(NAIVE_FIRST)

    def dst(self, val):
        if val.pinned is not None:
            return val.pinned
        c = val.cls
        al = max(val.align, 2 if val.width > 1 else 1)
        if c == "s" and val.width >= 4:
            al = 4
        i = -(-self.next[c] // al) * al
        if i + val.width > NAIVE_LIMIT[c]:
            raise ValueError(f"naive emission ran out of {c} registers")
        self.next[c] = i + val.width
        rf = {"v": v, "s": s, "a": a}[c]
        return rf[i] if val.width == 1 else rf[i:i + val.width]


_VIRT = {"v": VGPR, "s": SGPR, "a": AGPR}


def emit(prog, mode, target="gfx942", name="prog"):
    """An aster.Module with kernel `name`(in, out) running the program."""
    m = aster.Module(target)
    k = m.kernel(name, args=[("inp", aster.ptr(np.uint32)), ("out", aster.ptr(np.uint32))],
                 block=(LANES, 1, 1), lds=prog.lds)
    naive = _Naive() if mode == "naive" else None
    handle = {}
    for x in prog.inp_pinned:
        handle[id(x)] = x.pinned

    def dst(val):
        if val.pinned is not None:
            return val.pinned
        if naive is not None:
            return naive.dst(val)
        return _VIRT[val.cls](val.width, val.align)

    def src(x):
        return x if isinstance(x, int) or x is None else handle[id(x)]

    def run(op):
        if op.name == "s_waitcnt" or op.name == "s_nop":
            getattr(k, op.name)(**op.mods)
            return
        dsts = [dst(d) for d in op.dsts]
        res = getattr(k, op.name)(*dsts, *[src(x) for x in op.srcs], **op.mods)
        if len(op.dsts) == 1:
            res = (res,)
        for d, r in zip(op.dsts, res or ()):
            handle[id(d)] = r

    ops = prog.ops
    if prog.loop is None:
        for op in ops:
            run(op)
    else:
        start, end, count, carries = prog.loop
        for op in ops[:start]:
            run(op)
        if naive is None:
            _emit_virtual_loop(k, prog, run, handle)
        else:
            regs = {}
            for (param, init, _) in carries:           # the carried value's home
                regs[id(param)] = naive.dst(param)
                copy = k.v_mov_b32 if param.cls == "v" else k.s_mov_b32
                copy(regs[id(param)], handle[id(init)])
                handle[id(param)] = regs[id(param)]
            with k.loop(s[3], count):
                for op in ops[start:end]:
                    run(op)
                for (param, _, nxt) in carries:
                    copy = k.v_mov_b32 if param.cls == "v" else k.s_mov_b32
                    copy(regs[id(param)], handle[id(nxt)])
        for op in ops[end:]:
            run(op)
    k.s_endpgm()
    return m


def _emit_virtual_loop(k, prog, run, handle):
    start, end, count, carries = prog.loop
    with k.loop(s[3], count, carry=[handle[id(init)] for (_, init, _) in carries]) as lp:
        for (param, _, _), val in zip(carries, lp.carry):
            handle[id(param)] = val
        for op in prog.ops[start:end]:
            run(op)
        lp.next(*[handle[id(nxt)] for (_, _, nxt) in carries])


# ---- generation

class Gen:
    """Builds a random program from `rng` (numpy Generator)."""

    def __init__(self, rng, ranges=True, mfma=True, sgpr_ops=True,
                 agpr=True, single_only=False, pinned_ptrs=False, mfma_weight=1,
                 agpr_acc=0.3, acc_any=False, memory=False, waits=True):
        self.rng = rng
        self.memory = memory             # loads (global, scalar, LDS) in the body
        self.waits = waits               # the prologue's own s_waitcnts
        self.lds_written = []            # LDS offsets written so far
        self.mfma_weight = mfma_weight   # how many of the op choices are "mfma"
        self.agpr_acc = agpr_acc         # chance an MFMA accumulates in AGPRs
        self.acc_any = acc_any           # accumulate onto any earlier result
        self.ranges = ranges and not single_only
        self.mfma = mfma and not single_only
        self.sgpr_ops = sgpr_ops
        self.agpr = agpr
        self.single_only = single_only
        self.pinned_ptrs = pinned_ptrs
        self.ops = []
        self.pool = {("v", 1): [], ("s", 1): [], ("v", 2): [], ("v", 4): [],
                     ("s", 2): [], ("s", 2, "cc"): [], ("a", 1): []}
        self.n_out = 0
        self.kernarg = Val("s", 2, 2, pinned=s[0:2], name="kernarg")
        self.tid = Val("v", 1, 1, pinned=v[0], name="tid")

    def new(self, cls, width=1, align=None, name=""):
        if align is None:   # a mix of default and explicit alignment
            align = width if width > 1 and self.rng.random() < 0.5 else 1
        return Val(cls, width, align, name=name)

    def op(self, name, dsts, srcs, **mods):
        o = Op(name, dsts, srcs, mods, SEMANTICS.get(name))
        self.ops.append(o)
        return o

    def pick(self, key):
        p = self.pool[key]
        # favour recent values (short live ranges) but reach back sometimes
        n = len(p)
        i = n - 1 - min(int(self.rng.exponential(6)), n - 1)
        return p[i]

    def out_slot(self, width):
        o = self.n_out
        if o + width > LANE_DW:
            return None
        self.n_out += width
        return o

    def prologue(self, n_v=4, n_s=2, n_v2=1, n_v4=1, n_s2=1):
        r = self.rng
        self.pin = self.new("s", 2, 2, name="ptr_in")
        self.pout = self.new("s", 2, 2, name="ptr_out")
        if self.pinned_ptrs:      # s[2:6]: every virtual SGPR is one register
            self.pout.pinned, self.pin.pinned = s[2:4], s[4:6]
        self.op("s_load_dwordx2", [self.pout], [self.kernarg, 8])
        self.op("s_load_dwordx2", [self.pin], [self.kernarg, 0])
        self.voff = self.new("v", 1, 1, name="voff")
        self.op("v_lshlrev_b32", [self.voff], [(LANE_DW * 4).bit_length() - 1, self.tid])
        if self.memory:
            self.vlds = self.new("v", 1, 1, name="voff_lds")
            self.op("v_lshlrev_b32", [self.vlds], [(LDS_DW * 4).bit_length() - 1, self.tid])
        if self.waits:
            self.op("s_waitcnt", [], [], lgkmcnt=0)
        offs = r.permutation(LANE_DW // 4)   # distinct 16-byte input slots
        j = 0
        for key, n, name in ((("v", 1), n_v, "global_load_dword"),
                             (("v", 2), n_v2 if self.ranges else 0, "global_load_dwordx2"),
                             (("v", 4), n_v4 if self.ranges else 0, "global_load_dwordx4")):
            for _ in range(n):
                d = self.new("v", key[1])
                self.op(name, [d], [self.voff, self.pin], offset=int(offs[j]) * 16)
                j += 1
                self.pool[key].append(d)
        for key, n, name in ((("s", 1), n_s if self.sgpr_ops else 0, "s_load_dword"),
                             (("s", 2), n_s2 if self.ranges and self.sgpr_ops else 0,
                              "s_load_dwordx2")):
            for _ in range(n):
                d = self.new("s", key[1])
                self.op(name, [d], [self.pin, (LANES * LANE_DW + 2 * j % SCALAR_DW) * 4])
                j += 1
                self.pool[key].append(d)
        if self.waits:
            self.op("s_waitcnt", [], [], vmcnt=0, lgkmcnt=0)
        self.body_start = len(self.ops)     # loaded values are readable from here

    def vsrc(self):
        """A 32-bit source for a VALU op's src0: VGPR, SGPR or inline constant."""
        x = self.rng.random()
        if x < 0.12:
            return int(self.rng.integers(0, 65))
        if x < 0.3 and self.sgpr_ops and self.pool[("s", 1)]:
            return self.pick(("s", 1))
        return self.pick(("v", 1))

    def step(self):
        r = self.rng
        choices = ["add", "mul", "xor", "lshl_add", "mov", "add3"]
        if self.sgpr_ops:
            choices += ["sadd", "smul", "readfirstlane"]
            if not self.single_only:
                choices += ["carry"]
        if self.ranges:
            choices += ["lshl_add_u64", "lshlrev_b64", "mov_b64"]
            if self.sgpr_ops:
                choices += ["s_lshl_b64", "mov_b64_s"]
        if self.mfma:
            choices += ["mfma"] * self.mfma_weight
        if self.agpr:
            choices += ["agpr"]
        if self.memory:
            choices += ["gload", "gload", "lds_write", "lds_read"]
            if self.sgpr_ops:
                choices += ["sload"]
        what = choices[int(r.integers(len(choices)))]
        V1, S1 = ("v", 1), ("s", 1)
        if what in ("add", "xor"):
            d = self.new("v")
            self.op({"add": "v_add_u32", "xor": "v_xor_b32"}[what], [d],
                    [self.vsrc(), self.pick(V1)])
        elif what == "mul":
            d = self.new("v")
            self.op("v_mul_lo_u32", [d], [self.vsrc(), self.pick(V1)])
        elif what == "lshl_add":
            d = self.new("v")
            self.op("v_lshl_add_u32", [d], [self.pick(V1), int(r.integers(0, 32)),
                                            self.vsrc()])
        elif what == "add3":
            d = self.new("v")
            self.op("v_add3_u32", [d], [self.pick(V1), self.vsrc(), self.pick(V1)])
        elif what == "mov":
            d = self.new("v")
            self.op("v_mov_b32", [d], [self.vsrc()])
        elif what == "gload":
            d = self.new("v")
            self.op("global_load_dword", [d], [self.voff, self.pin],
                    offset=int(r.integers(0, LANE_DW)) * 4)
        elif what == "sload":
            d = self.new("s")
            self.op("s_load_dword", [d], [self.pin, (LANES * LANE_DW + int(r.integers(0, SCALAR_DW))) * 4])
            self.pool[S1].append(d)
            return
        elif what == "lds_write":
            o = int(r.integers(0, LDS_DW)) * 4
            self.op("ds_write_b32", [], [self.vlds, self.pick(V1)], offset=o)
            if o not in self.lds_written:
                self.lds_written.append(o)
            return
        elif what == "lds_read":
            if not self.lds_written:
                return
            d = self.new("v")
            o = self.lds_written[int(r.integers(len(self.lds_written)))]
            self.op("ds_read_b32", [d], [self.vlds], offset=o)
        elif what in ("sadd", "smul"):
            if not self.pool[S1]:
                return
            d = self.new("s")
            b = self.pick(S1) if r.random() < 0.7 else int(r.integers(0, 65))
            self.op("s_add_u32" if what == "sadd" else "s_mul_i32", [d], [self.pick(S1), b])
            self.pool[S1].append(d)
            return
        elif what == "readfirstlane":
            d = self.new("s")
            self.op("v_readfirstlane_b32", [d], [self.pick(V1)])
            self.pool[S1].append(d)
            return
        elif what == "carry":
            lo, cc = self.new("v"), self.new("s", 2, 2)
            self.op("v_add_co_u32", [lo, cc], [self.vsrc(), self.pick(V1)])
            hi, cc2 = self.new("v"), self.new("s", 2, 2)
            self.op("v_addc_co_u32", [hi, cc2], [self.pick(V1), self.pick(V1), cc])
            self.pool[V1] += [lo, hi]
            self.pool[("s", 2, "cc")].append(cc2)
            return
        elif what == "lshl_add_u64":
            d = self.new("v", 2)
            self.op("v_lshl_add_u64", [d], [self.pick(("v", 2)), int(r.integers(0, 5)),
                                            self.pick(("v", 2))])
            self.pool[("v", 2)].append(d)
            return
        elif what == "lshlrev_b64":
            d = self.new("v", 2)
            self.op("v_lshlrev_b64", [d], [int(r.integers(0, 40)), self.pick(("v", 2))])
            self.pool[("v", 2)].append(d)
            return
        elif what in ("mov_b64", "mov_b64_s"):
            key = ("v", 2) if what == "mov_b64" else ("s", 2)
            if not self.pool[key]:
                return
            d = self.new("v", 2)
            self.op("v_mov_b64", [d], [self.pick(key)])
            self.pool[("v", 2)].append(d)
            return
        elif what == "s_lshl_b64":
            if not self.pool[("s", 2)]:
                return
            d = self.new("s", 2)
            self.op("s_lshl_b64", [d], [self.pick(("s", 2)), int(r.integers(0, 40))])
            self.pool[("s", 2)].append(d)
            return
        elif what == "mfma":
            acc_cls = "a" if r.random() < self.agpr_acc else "v"
            d = self.new(acc_cls, 4)
            accs = [x for x in self.pool[("v", 4)] if x.cls == acc_cls] \
                if acc_cls == "v" else self.pool.setdefault(("a", 4), [])
            if accs and r.random() < 0.6:   # the newest, or (acc_any) any
                c = accs[int(r.integers(len(accs)))] if self.acc_any else accs[-1]
            else:
                c = 0
            self.op("v_mfma_i32_16x16x32_i8", [d], [self.pick(("v", 2)), self.pick(("v", 2)), c])
            self.pool[(acc_cls, 4)].append(d) if acc_cls == "a" else self.pool[("v", 4)].append(d)
            return
        elif what == "agpr":
            t = self.new("a")
            self.op("v_accvgpr_write_b32", [t], [self.pick(V1)])
            self.pool[("a", 1)].append(t)
            if len(self.pool[("a", 1)]) > 1 and r.random() < 0.7:
                d = self.new("v")
                self.op("v_accvgpr_read_b32", [d], [self.pick(("a", 1))])
            else:
                return
        self.pool[V1].append(d)

    def body(self, n):
        for _ in range(n):
            self.step()

    def stores(self, candidates=None):
        """Stores every value defined so far that no op reads (its only use
        is the store, placed right after its definition plus a random gap),
        plus a few random ones; values that cannot be stored directly (SGPRs,
        carries, AGPRs) go through a copy to a VGPR."""
        r = self.rng
        used = set()
        for op in self.ops:
            for x in op.srcs:
                if isinstance(x, Val):
                    used.add(id(x))
        defs = []
        for i, op in enumerate(self.ops):
            for d in op.dsts:
                if d.pinned is None and not d.name.startswith(("ptr", "voff")) and \
                        (candidates is None or id(d) in candidates):
                    if id(d) not in used or r.random() < 0.15:
                        defs.append((i, d))
        inserts = {}
        for i, d in defs:
            at = max(self.body_start, min(len(self.ops), i + 1 + int(r.integers(0, 4))))
            inserts.setdefault(at, []).append(d)
        ops, self.ops = self.ops, []
        for i in range(len(ops) + 1):
            for d in inserts.get(i, []):
                self.store(d)
            if i < len(ops):
                self.ops.append(ops[i])

    def store(self, d):
        if d.cls == "s" and d.width == 1:
            t = self.new("v")
            self.op("v_mov_b32", [t], [d])
            d = t
        elif d.cls == "s" and d.width == 2 and d in self.pool[("s", 2, "cc")]:
            t = self.new("v")
            self.op("v_cndmask_b32", [t], [0, 1, d])
            d = t
        elif d.cls == "s" and d.width == 2:
            t = self.new("v", 2)
            self.op("v_mov_b64", [t], [d])
            d = t
        elif d.cls == "a" and d.width == 1:
            t = self.new("v")
            self.op("v_accvgpr_read_b32", [t], [d])
            d = t
        elif d.cls == "a":
            return        # a virtual AGPR range has no single-register reads
        slot = self.out_slot(d.width)
        if slot is None:
            return
        name = {1: "global_store_dword", 2: "global_store_dwordx2",
                4: "global_store_dwordx4"}[d.width]
        self.op(name, [], [self.voff, d, self.pout], offset=slot * 4)


def straight(seed, n_ops=40, **kw):
    """A straight-line program."""
    rng = np.random.default_rng(seed)
    g = Gen(rng, **kw)
    g.prologue(n_v=int(rng.integers(2, 6)), n_s=int(rng.integers(1, 3)))
    g.body(n_ops)
    g.stores()
    return Program(g.ops, None, g.n_out, (g.kernarg, g.tid), LDS_BYTES if g.memory else 0)


def looping(seed, n_ops=24, count=None, **kw):
    """A program with one loop: prologue values, a body carrying 1-4 values
    (VGPR or SGPR) around the back edge and reading values defined before
    it, then stores of the carried results and of a short tail."""
    rng = np.random.default_rng(seed)
    kw.setdefault("mfma", False)
    kw.setdefault("ranges", False)  # carried values are single registers
    g = Gen(rng, **kw)
    g.prologue(n_v=int(rng.integers(2, 6)), n_s=int(rng.integers(1, 3)))
    g.body(int(rng.integers(2, 8)))
    g.stores()
    carries = []
    for i in range(int(rng.integers(1, 5))):
        cls = "s" if g.sgpr_ops and rng.random() < 0.25 else "v"
        carries.append([Val(cls, 1, 1, name=f"carry{i}"), g.pick((cls, 1)), None])
    start = len(g.ops)
    before = {key: list(p) for key, p in g.pool.items()}
    for param, _, _ in carries:
        g.pool[(param.cls, 1)].append(param)
    g.body(n_ops)
    for c in carries:               # the next value: a fresh op on the param
        param, d = c[0], g.new(c[0].cls)
        if param.cls == "v":
            g.op("v_add3_u32", [d], [param, g.vsrc(), g.pick(("v", 1))])
        else:
            g.op("s_add_u32", [d], [param, g.pick(("s", 1))])
        c[2] = d
    end = len(g.ops)
    g.pool = before                 # after the loop: values from before it + results
    for _, _, nxt in carries:
        g.pool[(nxt.cls, 1)].append(nxt)
    tail = len(g.ops)
    g.body(int(rng.integers(0, 4)))
    used = {id(x) for op in g.ops[tail:] for x in op.srcs if isinstance(x, Val)}
    for _, _, nxt in carries:
        g.store(nxt)
    for op in list(g.ops[tail:]):
        for d in op.dsts:
            if id(d) not in used:
                g.store(d)
    if count is None:
        count = int(rng.integers(1, 6))
    return Program(g.ops, (start, end, count, [tuple(c) for c in carries]), g.n_out,
                   (g.kernarg, g.tid), LDS_BYTES if g.memory else 0)


# ---- running on the emulator

def run(code, inp, name="prog"):
    """Runs kernel `name`(inp, out) on the emulator in strict mode (reading
    an unwritten register is an error); returns the output buffer."""
    out = np.zeros(OUT_WORDS, np.uint32)
    aster.launch(code, name, grid=1, block=LANES, args=[inp.copy(), out],
                 strict=True, uninitialized="error")
    return out


def random_input(seed):
    return np.random.default_rng(seed + 1 << 20).integers(0, 2**32, IN_WORDS, dtype=np.uint32)
