"""Set the control bits of SASS code: stall counts and scoreboard (dependency) barriers.

The SASS counterpart of amdgcn-waitcnt.  Which instructions are variable-latency
(their result arrives through a write barrier) and which read their sources late
(a read barrier guards the source registers) comes from ptxas's own choices on
the corpus (control_stats.json, written by tools/sass/gen_table.py): an opcode
family is variable-latency when ptxas gave more than half of its instances a
write barrier; every store-like family (ST*, RED*, ATOM*) and any family ptxas
gave a read barrier more than half the time gets a read barrier.  LDS is added to
the write set: its result always arrives late (ptxas waits for it through
DEPBAR/BAR in the corpus, which the pass does not model).
Algorithm (one forward walk, conservative):
  * registers named by an instruction (R, UR, P, UP; `.64`/`.128` widen) are
    treated as both read and written (no operand roles needed);
  * a pending barrier whose registers meet the instruction's is waited for
    (wait mask) and freed; at labels, branches, EXIT, BAR and SYNCS all are;
  * a variable-latency instruction takes a free barrier (0-5) as wrbar, a
    late-reading one another as rdbar; with none free the oldest is waited for;
  * stalls: each fixed-latency instruction makes its registers ready `latency`
    cycles after it issues; an instruction naming a register not yet ready
    raises the stall of the instruction before it (cycles are the sum of stalls).
    latency(family) = the 5th percentile of the cycles ptxas left between an
    instruction of that family and the first reader of its result in the corpus
    (control_stats.json 'read_after'; e.g. DFMA 8, R2UR 13), never below
    DEFAULT_LATENCY; PRED_LATENCY before a guarded or control instruction;
  * yield bit 0 everywhere.
Measured on an H100 (tools/sass/run_all.sh, all 231 corpus kernels with every
control bit replaced): a first version (latency 6 checked over the next two
instructions only, yield 0) gave 213/231 NumPy-correct kernels; a second one
(latencies down to the corpus's 4 cycles, ptxas's yield pattern: 1 on
variable-latency/control/stall 1-2) gave 130/231.  This version keeps the
first one's latency floor and yield and only adds waits and stalls to it
(cumulative latency tracking, register pairs); it was not run on the GPU.
Needs: instructions with text.  Guarantees: every control field is set; a
register written by a variable-latency instruction is never named before the
barrier is waited for (in straight-line order; at labels everything is waited).
"""
import json
import os
import re

from .control import Control

DEFAULT_LATENCY = 6  # cycles: the floor of every fixed latency (see the H100 runs above)
PRED_LATENCY = 13    # cycles; ptxas's own stall between ISETP and a dependent EXIT/BRA (corpus)
_REG = re.compile(r'(?<![\w.])(UR|UP|R|P)(\d+)(\.64|\.128)?')
_CONTROL_FLOW = ('BRA', 'EXIT', 'RET', 'CALL', 'BAR', 'SYNCS', 'BSYNC', 'BSSY', 'WARPSYNC', 'JMP',
                 'BRX', 'DEPBAR', 'WARPGROUP', 'MEMBAR', 'FENCE', 'ERRBAR', 'CCTL', 'NANOSLEEP')
_STORE_LIKE = ('ST', 'STG', 'STS', 'STL', 'RED', 'REDG', 'ATOM', 'ATOMG', 'ATOMS', 'STSM')

_CLASSES = None


def classes():
    """(write-barrier families, read-barrier families) from ptxas's corpus choices."""
    global _CLASSES
    if _CLASSES is None:
        with open(os.path.join(os.path.dirname(__file__), 'control_stats.json')) as f:
            st = json.load(f)
        fam = st['families']
        wr = {k for k, (n, w, r) in fam.items() if w * 2 > n} | {'LDS'}
        rd = {k for k, (n, w, r) in fam.items() if r * 2 > n} | set(_STORE_LIKE)
        lat = {}
        for k, hist in st['read_after'].items():
            xs = sorted(int(c) for c, n in hist.items() for _ in range(n))
            if len(xs) >= 20:
                lat[k] = min(max(xs[len(xs) // 20], DEFAULT_LATENCY), 15)
        _CLASSES = (wr, rd, lat)
    return _CLASSES


def _opcode(text):
    t = text.split()
    return (t[1] if t[0].startswith('@') else t[0]).split('.')[0]


def _regs(text):
    out = set()
    for m in _REG.finditer(text):
        cls, i = m.group(1), int(m.group(2))
        n = {'.64': 2, '.128': 4}.get(m.group(3) or '', 1)
        if (cls == 'R' and i == 255) or (cls == 'UR' and i == 63) or (cls in ('P', 'UP') and i == 7):
            continue
        for j in range(n):
            out.add((cls, i + j))
    op = text.split()[1 if text.startswith('@') else 0]
    # Register tuples the text names by their first register (conservatively widened):
    # 64/128-bit data, FP64 (D*) and 64-bit conversions, IMAD.WIDE, matrix fragments.
    w = 1
    if re.search(r'\.(64|WIDE|F64|S64|U64)\b', op) or op.startswith('D'):
        w = 2
    if re.search(r'\.(128|4)\b', op) or op.split('.')[0] in ('HMMA', 'IMMA', 'HGMMA', 'LDSM', 'MOVM'):
        w = 4
    if w > 1:
        out |= {('R', i + j) for cls, i in list(out) if cls == 'R' for j in range(w)}
    return out


def _yield(op, stall, wrbar):
    return 0


def set_control(insts, labels=()):
    """Compute control bits for `insts` (objects with .text and .ctrl) in place.

    `labels`: instructions that are branch targets (all barriers are waited there)."""
    wr_set, rd_set, lat = classes()
    targets = {id(x) for x in labels if x is not None}
    pending = {}            # barrier -> (registers, age)
    ready = {}              # register -> cycle its fixed-latency value is ready
    age = 0
    t = 0                   # issue cycle of the current instruction
    prev = prev_op = None
    for i, x in enumerate(insts):
        if x.text is None:
            continue
        op = _opcode(x.text)
        regs = _regs(x.text)
        wait = 0
        flush = id(x) in targets or op in _CONTROL_FLOW
        for b, (rs, _) in list(pending.items()):
            if flush or rs & regs:
                wait |= 1 << b
                del pending[b]
        # fixed-latency results: make sure enough cycles passed since the producer
        need = max([ready.get(r, 0) for r in regs] + [0])
        if flush:
            need = max([need] + list(ready.values()))
        if prev is not None and need > t:
            extra = min(need - t, 15 - prev.ctrl.stall)
            st = prev.ctrl.stall + extra
            prev.ctrl = Control(stall=st, yield_=_yield(prev_op, st, prev.ctrl.wrbar),
                                wrbar=prev.ctrl.wrbar, rdbar=prev.ctrl.rdbar, wait=prev.ctrl.wait, reuse=0)
            t += extra
        wrbar = rdbar = 7

        def take():
            nonlocal wait
            free = [b for b in range(6) if b not in pending]
            if free:
                return free[0]
            b = min(pending, key=lambda k: pending[k][1])
            wait |= 1 << b
            del pending[b]
            return b
        if op in wr_set:
            wrbar = take()
            pending[wrbar] = (set(regs), age)
        if op in rd_set or op in _STORE_LIKE:
            rdbar = take()
            pending[rdbar] = (set(regs), age)
        age += 1
        if wrbar == 7:
            L = lat.get(op, DEFAULT_LATENCY)
            for r in regs:
                ready[r] = t + (PRED_LATENCY if r[0] in ('P', 'UP') else L)
        stall = 5 if op in _CONTROL_FLOW else 1
        x.ctrl = Control(stall=stall, yield_=_yield(op, stall, wrbar), wrbar=wrbar, rdbar=rdbar,
                         wait=wait, reuse=0)
        t += stall
        prev, prev_op = x, op
    return insts


def conservative():
    """Control bits for one instruction inserted into ptxas's code: wait for every
    barrier before issuing, and stall the most cycles after (no barrier set, so it
    must be a fixed-latency instruction; a variable-latency one needs set_control)."""
    return Control(stall=15, yield_=0, wrbar=7, rdbar=7, wait=0x3f, reuse=0)
