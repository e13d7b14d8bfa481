"""Running probes (each in a child process), the audit and its table; the command line.

Part of the coverage audit (aster.lowering.coverage: see its __init__)."""

import concurrent.futures as cf_
import re
import sys

import numpy as np

from .kernels import _np, bits
from .probes_amdgpu import _probes_amdgpu
from .probes_arith_math import _probes_arith, _probes_math
from .probes_gpu import _probes_gpu
from .probes_memref import _probes_memref
from .probes_scf_cf import _probes_scf_cf
from .probes_vector import _probes_vector
from .scope import DIALECTS, OUT_OF_SCOPE


def probes():
    """Every probe of the audit, in dialect order."""
    return (_probes_gpu() + _probes_arith() + _probes_math() + _probes_scf_cf()
            + _probes_memref() + _probes_vector() + _probes_amdgpu())


def upstream_ops():
    """The ops of the item-2 dialects upstream MLIR registers (from the linked libraries)."""
    from ... import _aster
    return [o for o in _aster.upstream_ops() if o.split(".")[0] in DIALECTS]


def unlisted(all_probes=None):
    """Upstream ops with neither a probe nor an out-of-scope reason."""
    probed = {p.op for p in (all_probes or probes())}
    return [o for o in upstream_ops() if o not in probed and o not in OUT_OF_SCOPE]


# ---------------------------------------------------------------------------
# Running a probe
# ---------------------------------------------------------------------------
def _as(arr, view):
    """The array of a stored output in the element type it is compared in."""
    a = np.asarray(arr)
    if view in ("f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64"):
        dt = _np(view)
        if a.dtype.itemsize != dt.itemsize or a.dtype != dt:
            a = a.view(np.uint8).view(dt)
    return a


def _ulps(a, b, view):
    """Largest distance in ulp between float arrays a and b (NaN = any NaN); -1 if unequal ints."""
    if view.startswith(("f", "b")):
        x, y = _as(a, view), _as(b, view)
        xf, yf = x.astype(np.float64), y.astype(np.float64)
        nan = np.isnan(xf) & np.isnan(yf)
        if np.any(np.isnan(xf) != np.isnan(yf)):
            return np.inf
        ib = {2: np.int16, 4: np.int32, 8: np.int64}[x.dtype.itemsize]
        xi, yi = x.view(ib).astype(np.int64), y.view(ib).astype(np.int64)
        mag = np.int64((1 << (8 * x.dtype.itemsize - 1)) - 1)
        # ordered integers: the magnitude's bits, negated for a set sign bit;
        # the distance as unsigned |xi| + |yi| when the signs differ (no overflow)
        xs, ys = xi < 0, yi < 0
        xm, ym = (xi & mag).astype(np.uint64), (yi & mag).astype(np.uint64)
        d = np.where(xs == ys, np.maximum(xm, ym) - np.minimum(xm, ym), xm + ym)[~nan]
        return int(d.max()) if d.size else 0
    return 0 if np.array_equal(np.asarray(a).view(np.uint8), np.asarray(b).view(np.uint8)) else -1


def _located(msg, op):
    return bool(re.search(r":\d+:\d+: error: '" + re.escape(op) + r"' op", msg))


def run_probe(p, llvm=True, target="gfx942", run=True):
    """The outcome of one probe: (status, detail). run=False: aster.lower
    and aster.compile only (status 'lowers' when both succeed)."""
    import aster
    import aster.lowering.llvm
    from ..signature import Signature
    if not p.mlir:
        return "not-probed", p.variant
    target = p.target or target
    try:
        mods = aster.lower(p.mlir, target=target)
    except aster.AsterError as e:
        msg = str(e)
        m = re.search(r"<string>:\d+:\d+: error: '([\w.]+)' op[^\n]*", msg)
        if _located(msg, p.op):
            return "error", m.group(0).split("error: ", 1)[1][:200] if m else msg[:200]
        if m:
            return "error-other", m.group(0).split("error: ", 1)[1][:200]
        first = msg.strip().split("\n")[0]
        if "does not verify" in msg or "cannot parse" in msg:
            return "bad-probe", first[:200]
        return "bad-error", first[:200]
    except Exception as e:       # noqa: BLE001 (a bug of the lowering: reported)
        return "crash", f"{type(e).__name__}: {e}"[:200]
    try:
        code = aster.compile(mods["kernels"], aster.lowering.PIPELINE)
    except aster.AsterError as e:
        return "bad-error", ("compile: " + str(e).strip().split("\n")[0])[:200]
    if not run:
        return "lowers", "not run"
    sig = Signature(p.kernel, _arg_types(p.mlir))

    def launch(c):
        a = p.inputs(np.random.default_rng(7))
        aster.launch(c, p.kernel, grid=p.grid, block=p.block, args=sig.args(*a), **p.launch)
        return a
    try:
        ours = launch(code)
    except Exception as e:       # noqa: BLE001
        return "differs", ("run: " + str(e).strip().split("\n")[0])[:200]
    notes = []
    if p.ref is not None:
        want = p.ref(p.inputs(np.random.default_rng(7)))
        for k, w in want.items():
            u = _ulps(ours[k], w, p.views.get(k, "i32"))
            if u < 0 or u > p.ulp:
                return "differs", f"NumPy: argument {k} ({'bits' if u < 0 else str(u) + ' ulp'})"
        notes.append("NumPy")
    if not llvm or p.no_llvm:
        return ("ok-nollvm" if notes else "lowers"), p.no_llvm or "not built by LLVM"
    try:
        theirs_code = _llvm_build(p.mlir, target)
        theirs = launch(theirs_code)
    except Exception as e:       # noqa: BLE001
        why = str(e).strip().split("\n")
        why = next((ln for ln in why if "error" in ln), why[0])
        return ("ok-nollvm" if notes else "lowers"), ("no LLVM build: " + why)[:200]
    worst = 0
    for k in p.outs:
        u = _ulps(ours[k], theirs[k], p.views.get(k, _view_of(ours[k])))
        if u < 0 or u > 4:
            return "differs", f"LLVM: argument {k} ({'bits' if u < 0 else str(u) + ' ulp'})"
        worst = max(worst, u)
    return ("ok" if worst == 0 else f"ok~{worst}"), ""


def _cache_dir():
    """Where LLVM's builds of probes are kept between audits: $ASTER_LLVM_CACHE,
    else ~/.cache/aster/llvm-oracle ("" or "off": no cache)."""
    import os
    d = os.environ.get("ASTER_LLVM_CACHE")
    if d is None:
        d = os.path.join(os.path.expanduser("~"), ".cache", "aster", "llvm-oracle")
    return "" if d in ("", "off") else d


_TOOLS_KEY = []


def _llvm_build(text, target):
    """aster.lowering.llvm.build(text)["kernels"], kept on disk under a key
    of the text, the target, the oracle's own source (llvm.py) and the LLVM
    tools' files (a new mlir-opt-22 / llc-22 is a new key); a failed build
    is kept as its message (raised again as RuntimeError)."""
    import hashlib
    import os
    import shutil
    from .. import llvm as L
    d = _cache_dir()
    if not d:
        return L.build(text, target=target)["kernels"]
    if not _TOOLS_KEY:
        parts = []
        for t in ("mlir-opt-22", "mlir-translate-22", "llc-22", "ld.lld-22"):
            w = shutil.which(t)
            st = os.stat(os.path.realpath(w)) if w else None
            parts.append(f"{t}:{w}:{st.st_size if st else 0}:{st.st_mtime_ns if st else 0}")
        with open(L.__file__, "rb") as f:
            parts.append(hashlib.sha256(f.read()).hexdigest())
        _TOOLS_KEY.append("\n".join(parts))
    key = hashlib.sha256(f"{_TOOLS_KEY[0]}\n{target}\n{text}".encode()).hexdigest()
    path = os.path.join(d, key[:2], key)
    if os.path.exists(path + ".hsaco"):
        with open(path + ".hsaco", "rb") as f:
            return f.read()
    if os.path.exists(path + ".err"):
        with open(path + ".err") as f:
            raise RuntimeError(f.read())
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        code = L.build(text, target=target)["kernels"]
    except RuntimeError as e:
        _write(path + ".err", str(e).encode())
        raise
    _write(path + ".hsaco", code)
    return code


def _write(path, data):
    """Writes `data` to `path` atomically (parallel audits share the cache)."""
    import os
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _view_of(a):
    return {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64", np.dtype(np.float16): "f16"}.get(
        np.asarray(a).dtype, "i32")


def _arg_types(text):
    sig = re.search(r"gpu\.func\s+@\w+\((.*?)\)\s*(?:workgroup|kernel)", text, re.S).group(1)
    return [t.strip() for t in re.findall(r"%\w+\s*:\s*([^,]+(?:<[^>]*>)?)", sig)]


_CHILD = []


def _worker(index, llvm, run):
    """In the child process: probe `index` of probes() (probes hold closures,
    which do not pickle; the list is the same in every process)."""
    if not _CHILD:
        _CHILD.extend(probes())
    return run_probe(_CHILD[index], llvm, run=run)


class _Slot:
    """One child process running probes one at a time (a crash or hang is
    an outcome: the child is killed and replaced)."""

    def __init__(self):
        self.pool = cf_.ProcessPoolExecutor(max_workers=1)

    def run(self, index, llvm, run, timeout):
        try:
            return self.pool.submit(_worker, index, llvm, run).result(timeout=timeout)
        except cf_.TimeoutError:
            for pr in list(self.pool._processes.values()):
                pr.kill()
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = cf_.ProcessPoolExecutor(max_workers=1)
            return "crash", f"hang (> {timeout} s)"
        except cf_.process.BrokenProcessPool:
            self.pool = cf_.ProcessPoolExecutor(max_workers=1)
            return "crash", "the process died"
        except Exception as e:   # noqa: BLE001 (a probe the child could not take)
            return "crash", f"{type(e).__name__}: {e}"[:200]


def audit(selected=None, llvm=True, timeout=120, log=None, run=True, only=None, workers=None):
    """Runs the probes (all, or those whose op is in `selected`, and for
    which `only(probe)` holds), each in a child process, `workers` of them
    at a time (default: os.cpu_count()); returns [(probe, status, detail)]
    in probe order (the log prints them as they finish)."""
    import os
    import threading
    ps = [(k, p) for k, p in enumerate(probes())
          if (not selected or p.op in selected) and (only is None or only(p))]
    workers = max(1, min(workers or os.cpu_count() or 1, len(ps) or 1))
    slots = [_Slot() for _ in range(workers)]
    free = list(slots)
    lock = threading.Lock()

    def one(kp):
        k, p = kp
        with lock:
            slot = free.pop()
        try:
            st, det = slot.run(k, llvm, run, timeout)
        finally:
            with lock:
                free.append(slot)
        if log:
            with lock:
                print(f"{p.op:40} {p.variant:45} {st:10} {det}", file=log, flush=True)
        return p, st, det

    with cf_.ThreadPoolExecutor(max_workers=workers) as tp:
        out = list(tp.map(one, ps))
    for s_ in slots:
        s_.pool.shutdown()
    return out


def summary(results):
    """Counts: probes per status, and in-scope ops whose probes all lower /
    some lower / none lower."""
    per = {}
    ops = {}
    for p, st, _ in results:
        key = "ok" if st.startswith("ok~") else st
        per[key] = per.get(key, 0) + 1
        ops.setdefault(p.op, set()).add(st.startswith("ok") or st == "lowers")
    full = sum(1 for v in ops.values() if v == {True})
    part = sum(1 for v in ops.values() if v == {True, False})
    none = sum(1 for v in ops.values() if v == {False})
    return per, full, part, none


def markdown(results):
    """The coverage table: one row per op (its probes' outcomes grouped)."""
    rows = {}
    for p, st, det in results:
        rows.setdefault(p.op, []).append((p.variant, st, det))
    per, full, part, none = summary(results)
    lines = [f"{len(results)} probes: " + ", ".join(f"{n} {k}" for k, n in sorted(per.items()))
             + f". Ops of item 2 probed: {full} lower in every probe, {part} in some, {none} in none;"
             f" {sum(1 for o in upstream_ops() if o in OUT_OF_SCOPE)} out of scope.", "",
             "| op | outcome per probe |", "|---|---|"]
    for op in upstream_ops():
        if op in OUT_OF_SCOPE:
            lines.append(f"| `{op}` | out of scope: {OUT_OF_SCOPE[op]} |")
            continue
        if op not in rows:
            lines.append(f"| `{op}` | (not in this run) |")
            continue
        by = {}
        for v, st, det in rows[op]:
            det = re.sub(r"^'[\w.]+' op cannot be lowered to amdgcn:? ?", "", det)[:110]
            key = st if st.startswith("ok") or st == "lowers" else f"{st}: {det}".rstrip(": ")
            by.setdefault(key, []).append(v or "-")
        cells = []
        for k, vs in by.items():
            k = k.replace("|", "\\|")
            cells.append(f"**{k}** ({', '.join(vs).replace('|', '')})" if len(vs) < 12 else
                         f"**{k}** ({len(vs)} probes: {', '.join(vs[:6])}, ...)")
        lines.append(f"| `{op}` | " + "; ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(
        description="Coverage audit of aster.lower, op by op, from upstream MLIR's own op lists.")
    ap.add_argument("--ops", help="comma-separated op names (default: all)")
    ap.add_argument("--dialect", help="only this dialect's ops")
    ap.add_argument("--no-llvm", action="store_true", help="skip LLVM's build (faster)")
    ap.add_argument("--lower-only", action="store_true", help="aster.lower + compile only")
    ap.add_argument("--run-per-op", type=int, default=0,
                    help="lower every probe, then run (emulator + LLVM's build) only this many "
                         "lowering probes per op (the others stay 'lowers': lowered, not run)")
    ap.add_argument("--workers", type=int, default=0,
                    help="probes run at a time, each in its own child process "
                         "(default: os.cpu_count())")
    ap.add_argument("--markdown", help="write the table to this file")
    ap.add_argument("--doc", help="replace the table between the coverage markers of this "
                                  "markdown file (docs/lowering.md)")
    ap.add_argument("--measured-on", default="",
                    help="a line written above the table (e.g. the commit measured)")
    a = ap.parse_args(argv)
    sel = set(a.ops.split(",")) if a.ops else None
    if a.dialect:
        sel = {p.op for p in probes() if p.op.startswith(a.dialect + ".")}
    if a.run_per_op:
        res = audit(sel, llvm=False, log=sys.stdout, run=False, workers=a.workers)
        picked, seen = set(), {}
        for p, st, _ in res:
            if st == "lowers" and seen.get(p.op, 0) < a.run_per_op:
                seen[p.op] = seen.get(p.op, 0) + 1
                picked.add(id(p))
        ran = audit(sel, llvm=not a.no_llvm, log=sys.stdout, run=True, workers=a.workers,
                    only=lambda p: (p.op, p.variant) in {(q.op, q.variant) for q, _, _ in res
                                                         if id(q) in picked})
        done = {(p.op, p.variant): (st, det) for p, st, det in ran}
        res = [(p, *done.get((p.op, p.variant), (st, det))) for p, st, det in res]
    else:
        res = audit(sel, llvm=not a.no_llvm, log=sys.stdout, run=not a.lower_only,
                    workers=a.workers)
    missing = unlisted()
    if missing:
        print("upstream ops with no probe and no reason:", ", ".join(missing))
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(markdown(res) + "\n")
    if a.doc:
        with open(a.doc) as f:
            doc = f.read()
        begin, end = "<!-- coverage:begin -->\n", "<!-- coverage:end -->"
        head, rest = doc.split(begin, 1)
        with open(a.doc, "w") as f:
            note = a.measured_on + "\n\n" if a.measured_on else ""
            f.write(head + begin + note + markdown(res) + "\n" + end + rest.split(end, 1)[1])
    return 0
