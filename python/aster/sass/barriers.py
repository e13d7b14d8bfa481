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
  * stall: FIXED_LATENCY cycles when one of the next instructions names a
    register of a fixed-latency producer (PRED_LATENCY before a guarded or
    control instruction reading its predicate), else 1.
The latencies are this pass's conservative choice, not measurements: ptxas's
stalls in the corpus are at most 15 and most are 1-6 (tests compare).
Needs: instructions with text.  Guarantees: every control field is set; a
register written by a variable-latency instruction is never named before the
barrier is waited for (in straight-line order; at labels everything is waited).
"""
import json
import os
import re

from .control import Control

FIXED_LATENCY = 6   # cycles; conservative for Hopper's ALU pipes
PRED_LATENCY = 13   # cycles; ptxas's own stall between ISETP and a dependent EXIT/BRA (corpus)
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
        wr = {k for k, (n, w, r) in st.items() if w * 2 > n} | {'LDS'}
        rd = {k for k, (n, w, r) in st.items() if r * 2 > n} | set(_STORE_LIKE)
        _CLASSES = (wr, rd)
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
    if re.search(r'\.(64|128)\b', op):  # wide results (LDG.E.64 R4, ...): widen R operands
        w = 4 if '.128' in op else 2
        out |= {('R', i + j) for cls, i in list(out) if cls == 'R' for j in range(w)}
    return out


def set_control(insts, labels=()):
    """Compute control bits for `insts` (objects with .text and .ctrl) in place.

    `labels`: instructions that are branch targets (all barriers are waited there)."""
    wr_set, rd_set = classes()
    targets = {id(x) for x in labels if x is not None}
    pending = {}            # barrier -> (registers, age)
    age = 0
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
        stall = 1
        if wrbar == 7:
            for d, y in enumerate(insts[i + 1:i + 3], 1):
                if y.text is None:
                    continue
                if regs & _regs(y.text):
                    need = PRED_LATENCY if (_opcode(y.text) in _CONTROL_FLOW or y.text.startswith('@')) and any(c in ('P', 'UP') for c, _ in regs & _regs(y.text)) else FIXED_LATENCY
                    stall = max(stall, need - (d - 1))
                    break
        if op in _CONTROL_FLOW:
            stall = max(stall, 5)
        x.ctrl = Control(stall=min(stall, 15), yield_=0, wrbar=wrbar, rdbar=rdbar, wait=wait,
                         reuse=0)
    return insts
