"""Python schedules: instruction order by modular expressions.

The builder appends instructions in call order (WYSIWYG). These helpers let
Python choose another order explicitly, without a pass:

    with k.stream() as loads:                # capture what a piece of code emits
        xs = [k.global_load_dword(VGPR(), off, p, offset=256 * j) for j in range(4)]
    with k.stream() as math:
        ys = [k.v_add_u32(VGPR(), x, 1) for x in xs]
    k.interleave([loads, math], delay=[0, 2], rate=[1, 1])
    # item j of stream i goes to slot delay[i] + j * rate[i]: L0 L1 L2 A0 L3 A1 A2 A3

- `interleave(streams, delay, rate)` or `interleave(streams, order=[...])`:
  an explicit permutation of the items (numbered stream by stream).
  An item is one op, or a list of ops kept together (`chunks(st, 2)`).
- `unroll(k, shape, body, key)`: a loop nest unrolled in Python, its bodies
  ordered by an affine/modular key of the indices.
- `pipeline(k, n, stages)`: a software pipeline: stage s of iteration i in
  time step i + s, giving the prologue, steady state and epilogue
  (unrolled in Python); `pipeline_loop(k, counter, n, stages, state,
  advance)`: the same with the steady state in a real loop.
- `with k.no_reorder():` freezes its instructions against amdgcn-schedule;
  `k.sched_barrier()` is a fence nothing crosses.

The new order must define every value before it is read (checked: an
AsterError names both ops, and the kernel is left as it was). Memory order
is yours to keep (`aster.check_equivalent` compares two versions by
execution).
"""
import contextlib
import itertools
import numbers

from . import _aster
from ._aster import AsterError
from .registers import Value

__all__ = ["Stream", "stream", "chunks", "interleave", "modular_order", "unroll", "pipeline",
           "pipeline_loop", "no_reorder", "sched_barrier"]


class Stream(list):
    """The ops a `with k.stream() as st:` block emitted (aster.Op handles),
    in emission order; each is one item of the stream."""


@contextlib.contextmanager
def stream(k):
    """Captures the instructions emitted in the block into a Stream."""
    st = Stream()
    mark = _aster.sched_mark(k._kb)
    yield st
    st.extend(_aster.sched_ops_since(k._kb, mark))


def chunks(ops, size):
    """Groups a stream's ops into items of `size` consecutive ops (kept together)."""
    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        raise ValueError(f"chunk size must be a positive int, got {size!r}")
    ops = list(ops)
    return [ops[i:i + size] for i in range(0, len(ops), size)]


def _per_stream(name, value, n, default):
    if value is None:
        value = default
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return [value] * n
    value = list(value)
    if len(value) != n or not all(isinstance(x, numbers.Real) and not isinstance(x, bool)
                                  for x in value):
        raise ValueError(f"{name} must be a number or {n} numbers (one per stream), got {value!r}")
    return value


def modular_order(lengths, delay=None, rate=None):
    """The order of items given by slots: item j of stream i at slot
    delay[i] + j * rate[i] (ties: lower stream first). Returns (stream, item)
    pairs. `rate` 2 takes every second slot; 0.5 two items per slot."""
    n = len(lengths)
    delay = _per_stream("delay", delay, n, 0)
    rate = _per_stream("rate", rate, n, 1)
    if any(r <= 0 for r in rate):
        raise ValueError(f"rate must be positive, got {rate}")
    keys = [(delay[i] + j * rate[i], i, j) for i in range(n) for j in range(lengths[i])]
    keys.sort()
    return [(i, j) for _, i, j in keys]


def _items(stream):
    return [x if isinstance(x, (list, tuple)) else [x] for x in stream]


def interleave(k, streams, delay=None, rate=None, order=None):
    """Reorders the captured `streams` (lists of items: an op, or a list of
    ops kept together) by slots (`modular_order`) or by an explicit `order`:
    a permutation of the items numbered stream after stream (or of
    (stream, item) pairs). The ops go where the first of them was."""
    items = [_items(st) for st in streams]
    if order is None:
        pairs = modular_order([len(x) for x in items], delay, rate)
    else:
        if delay is not None or rate is not None:
            raise ValueError("interleave: give order or delay/rate, not both")
        flat = [(i, j) for i, x in enumerate(items) for j in range(len(x))]
        order = list(order)
        pairs = [flat[p] if isinstance(p, numbers.Integral) else tuple(p) for p in order]
        if sorted(pairs) != flat:
            raise ValueError(f"interleave: order must be a permutation of the {len(flat)} items "
                             f"(stream by stream), got {order!r}")
    ops = [op for i, j in pairs for op in items[i][j]]
    _aster.sched_reorder(k._kb, ops)
    return pairs


def unroll(k, shape, body, key=None):
    """Unrolls a loop nest in Python: `body(*idx)` for every index tuple of
    `shape` (ranges or sizes), emitted in row-major order and then ordered by
    `key(*idx)` (e.g. `lambda i, j: ((i + j) % 2, i, j)`; None: row-major).
    Each body is one item (its ops stay together). Returns {idx: body's
    return value}."""
    ranges = [range(s) if isinstance(s, int) else s for s in shape]
    idxs = list(itertools.product(*ranges))
    bodies, out = [], {}
    for idx in idxs:
        with stream(k) as st:
            out[idx] = body(*idx)
        bodies.append(list(st))
    if key is not None:
        perm = sorted(range(len(idxs)), key=lambda p: (key(*idxs[p]), p))
        _aster.sched_reorder(k._kb, [op for p in perm for op in bodies[p]])
    return out


def pipeline(k, n, stages, late_first=True):
    """A software pipeline over `n` iterations, unrolled in Python: stage s
    of iteration i runs in time step i + s, so the first len(stages) - 1
    steps are the prologue (stages 0.. of the first iterations start), the
    middle ones the steady state (every stage, each for its own iteration)
    and the last ones the epilogue. `stages[s](i, ctx)` emits stage s of
    iteration i; `ctx` is a dict per iteration for values passed from one
    stage to the next. Within a step, later stages first (`late_first`,
    consuming before producing) or stage 0 first. Returns the n contexts."""
    stages = list(stages)
    if not stages:
        raise ValueError("pipeline: give at least one stage")
    ctxs = [dict() for _ in range(n)]
    order = range(len(stages) - 1, -1, -1) if late_first else range(len(stages))
    for t in range(n + len(stages) - 1):
        for s in order:
            i = t - s
            if 0 <= i < n:
                stages[s](i, ctxs[i])
    return ctxs


def _steps(stages, entries, late_first):
    """One time step: each in-flight iteration runs its next stage (later
    stages first, or stage 0 first); finished iterations leave."""
    order = sorted(entries, key=lambda e: e["done"], reverse=late_first)
    for e in order:
        stages[e["done"]](e["ctx"])
        e["done"] += 1
    return [e for e in entries if e["done"] < len(stages)]


def _flatten(state, entries):
    spec, vals = [], []
    for key in sorted(state):
        spec.append((None, key))
        vals.append(state[key])
    for n, e in enumerate(entries):
        for key in sorted(e["ctx"]):
            if isinstance(e["ctx"][key], Value):
                spec.append((n, key))
                vals.append(e["ctx"][key])
    return spec, vals


def _rebuild(spec, vals, entries):
    state = {}
    new = [{"ctx": dict(e["ctx"]), "done": e["done"]} for e in entries]
    for (where, key), x in zip(spec, vals):
        if where is None:
            state[key] = x
        else:
            new[where]["ctx"][key] = x
    return state, new


def pipeline_loop(k, counter, n, stages, state, advance, late_first=True):
    """A software pipeline over `n` iterations in a real loop (`k.loop`):
    the prologue starts the first len(stages) - 1 iterations, the loop runs
    the steady state n - len(stages) + 1 times (every stage, each for its
    own iteration), the epilogue finishes the last ones.

    `state` ({name: Value}) is the loop state of iteration 0 (addresses,
    ...); `advance(state)` emits the next iteration's state and returns it.
    Each iteration gets `ctx = dict(its state)`; `stages[s](ctx)` emits stage
    s and stores in ctx what later stages read. Values in the state and in
    the contexts of iterations in flight are carried around the loop (each
    stage must store the same keys with the same register types every
    time). Needs n >= len(stages) (otherwise use `pipeline`). Returns the
    state after the last iteration started."""
    stages = list(stages)
    if not stages:
        raise ValueError("pipeline_loop: give at least one stage")
    if not isinstance(n, int) or n < len(stages):
        raise ValueError(f"pipeline_loop: n must be an int >= the {len(stages)} stages "
                         f"(the loop runs n - {len(stages) - 1} times), got {n!r}")
    for key, x in state.items():
        if not isinstance(x, Value):
            raise TypeError(f"pipeline_loop: state[{key!r}] must be a Value, got {x!r}")
    entries = []

    def start(st):
        entries.append({"ctx": dict(st), "done": 0})
        return advance(st)

    for _ in range(len(stages) - 1):                 # prologue
        state = start(state)
        entries = _steps(stages, entries, late_first)
    spec, vals = _flatten(state, entries)
    with k.loop(counter, n - len(stages) + 1, carry=vals) as L:   # steady state
        state, entries = _rebuild(spec, L.carry, entries)
        state = start(state)
        entries = _steps(stages, entries, late_first)
        spec2, vals2 = _flatten(state, entries)
        if spec2 != spec:
            raise AsterError("pipeline_loop: the stages stored different keys in their "
                             f"contexts in the loop than in the prologue ({spec} vs {spec2})")
        L.next(*vals2)
    state, entries = _rebuild(spec, L.results, entries)
    while entries:                                   # epilogue
        entries = _steps(stages, entries, late_first)
    return state


@contextlib.contextmanager
def no_reorder(k):
    """Its instructions keep their order and place under amdgcn-schedule
    (amdgcn.sched_barrier {freeze} before, amdgcn.sched_barrier after)."""
    _aster.sched_barrier(k._kb, True)
    yield
    _aster.sched_barrier(k._kb, False)


def sched_barrier(k):
    """A fence amdgcn-schedule moves nothing across (emits no instruction)."""
    _aster.sched_barrier(k._kb, False)



