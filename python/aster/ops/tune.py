"""`aster.ops.tune`: pick the fastest config per shape on the timing model
(simulated MI300X cycles), evaluating (config, shape) pairs in parallel on
local processes or a Ray cluster, and record the winners in a library.

    space = {"tile_m": [128, 256], "tile_n": [128, 256], "tile_k": [16, 32]}
    res = tune([(1024, 1024, 1024)], space, executor="ray", library="gemmlib")
    res.winners            # {(1024, 1024, 1024): "gemm_f16_256x256x16_..."}
    res.splits             # {(1024, 1024, 1024): 1}: the winner's K splits

A split-K config (`split_k`) is simulated at each of its `splits` per shape
(default: the SPLIT_CANDIDATES split factors `aster.ops.dispatch.estimate`
ranks best); a split-K winner is recorded as "MxNxK@splits".
"""
import functools
import itertools
import os
import time
from dataclasses import dataclass, field

from ..generators.gemm import GemmConfig
from .library import (Library, build_library, compile_config, simulate, utilisation,
                      write_csv, write_header, _row)

__all__ = ["tune", "TuneResult", "expand_space", "evaluate"]

EXECUTORS = ("local", "ray")
SPLIT_CANDIDATES = 4


def expand_space(space, **fixed):
    """GemmConfigs of a space: a list of GemmConfig, or a dict of field ->
    list of values (their product; `fixed` fields added). Invalid
    combinations (GemmConfig.check) are dropped."""
    if isinstance(space, dict):
        keys = list(space)
        raw = [GemmConfig(**{**fixed, **dict(zip(keys, vals))})
               for vals in itertools.product(*(space[k] for k in keys))]
    else:
        raw = list(space)
        for c in raw:
            if not isinstance(c, GemmConfig):
                raise TypeError(f"space items must be GemmConfig, got {type(c).__name__}")
    out, seen = [], set()
    for c in raw:
        try:
            c.check()
        except ValueError:
            continue
        if (c.name, c.arch) not in seen:
            seen.add((c.name, c.arch))
            out.append(c)
    return out


@functools.lru_cache(maxsize=64)
def _code(cfg):
    return compile_config(cfg).hsaco


def evaluate(cfg_dict, shape, splits=1, device=None):
    """(config name, shape, simulated cycles, splits): one task, run in a worker
    (device: the timing model's device profile, None the target's default)."""
    cfg = GemmConfig(**cfg_dict)
    return cfg.name, tuple(shape), simulate(_code(cfg), cfg, tuple(shape), splits, device=device), splits


def candidate_splits(cfg, shape, splits=None):
    """The K splits to simulate `cfg` at on `shape` (1 for a plain kernel)."""
    if not cfg.split_k:
        return [1]
    if splits is not None:
        return sorted({cfg.kchunk(shape[2], s)[1] for s in splits})
    from .dispatch import estimate, split_factors
    ranked = sorted(split_factors(cfg, shape[2]),
                    key=lambda s: estimate(cfg, *shape, None, s)[0])
    return sorted(ranked[:SPLIT_CANDIDATES])


@dataclass
class TuneResult:
    results: list = field(default_factory=list)   # dicts: config, shape, splits, cycles,
    #                                               utilisation
    winners: dict = field(default_factory=dict)   # shape -> config name
    splits: dict = field(default_factory=dict)    # shape -> the winner's K splits
    seconds: float = 0.0
    executor: str = "local"

    def table(self):
        """Rows sorted by shape then cycles."""
        return sorted(self.results, key=lambda r: (r["shape"], r["cycles"]))


def _progress(total, enabled):
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        raise ImportError("tune(progress=True) needs tqdm: pip install tqdm "
                          "(or pass progress=False)") from None
    return tqdm(total=total, desc="aster.ops.tune", unit="run")


def _run_local(tasks, workers, bar, device=None):
    from concurrent.futures import ProcessPoolExecutor, as_completed
    out = []
    with ProcessPoolExecutor(workers) as ex:
        futs = [ex.submit(evaluate, c.as_dict(), s, sk, device) for c, s, sk in tasks]
        for f in as_completed(futs):
            out.append(f.result())
            if bar:
                bar.update(1)
    return out


def _ray_tasks(tasks, workers, address, report, device=None):
    """Runs the tasks as Ray tasks; report(result) after each."""
    import ray
    started = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, ignore_reinit_error=True, log_to_driver=False,
                     include_dashboard=False)
        started = True
    try:
        remote = ray.remote(evaluate)
        pending = [remote.remote(c, s, sk, device) for c, s, sk in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for r in ray.get(done):
                report(r)
    finally:
        if started:
            ray.shutdown()


def _driver_main():
    """`python -m aster.ops._ray_driver`: the Ray driver process. Reads the tasks
    as JSON from stdin, writes one JSON line per result to stdout, then
    "done" (or "error: ...")."""
    import json
    import sys
    job = json.load(sys.stdin)
    out = sys.stdout
    try:
        _ray_tasks([(c, tuple(s), sk) for c, s, sk in job["tasks"]], job["workers"],
                   job["address"],
                   lambda r: (out.write(json.dumps(["result", r]) + "\n"), out.flush()),
                   job.get("device"))
        out.write(json.dumps(["done", None]) + "\n")
    except BaseException as e:      # reported to the parent, which raises
        out.write(json.dumps(["error", f"{type(e).__name__}: {e}"]) + "\n")
    out.flush()


def _run_ray(tasks, workers, bar, address, device=None):
    import importlib.util
    import sys
    if importlib.util.find_spec("ray") is None:
        raise ImportError("executor='ray' needs Ray: pip install ray")
    ray = sys.modules.get("ray")        # not imported here unless the caller did
    tasks = [(c.as_dict(), s, sk) for c, s, sk in tasks]
    out = []

    def report(r):
        out.append((r[0], tuple(r[1]), r[2], r[3]))
        if bar:
            bar.update(1)
    if ray is not None and ray.is_initialized():     # the caller's own Ray session
        _ray_tasks(tasks, workers, address, report, device)
        return out
    # A child process drives Ray: Ray's gRPC threads and fork handlers stay
    # out of the caller's process (where aster forks and recovers from LLVM
    # crashes), and nothing of the caller's __main__ is re-run.
    import json
    import subprocess
    proc = subprocess.Popen([sys.executable, "-m", "aster.ops._ray_driver"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdin.write(json.dumps({"tasks": tasks, "workers": workers, "address": address,
                                 "device": device}))
    proc.stdin.close()
    status = None
    try:
        for line in proc.stdout:
            kind, val = json.loads(line)
            if kind == "result":
                report(val)
            else:
                status = (kind, val)
                break
    finally:
        try:
            proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()
    if status is None:
        raise RuntimeError(f"tune: the Ray driver process exited (code {proc.returncode}): "
                           f"{proc.stderr.read()[-2000:]}")
    if status[0] == "error":
        raise RuntimeError(f"tune: Ray failed: {status[1]}")
    return out


def tune(shapes, space, executor="local", *, library=None, workers=2, progress=True,
         dtype="f16", trans_b=False, arch="gfx942", ray_address=None, splits=None,
         device=None):
    """Simulates every config of `space` (see expand_space; dtype, trans_b
    and arch fill the fields a dict space leaves out) on every (M, N, K) of
    `shapes`, on `workers` local processes (executor="local") or Ray tasks
    (executor="ray"; a local Ray with `workers` CPUs is started and stopped
    unless Ray is initialised or ray_address is given), with a tqdm progress
    bar (Ray runs in a child process unless the caller's Ray is already
    initialised). The fastest config per shape wins; with `library` (a directory or
    Library) the winners are added to it if missing and their configs.csv
    row's `tuned_for` lists the shape (which `aster.ops.gemm` then picks).
    splits: the K splits to try for split-K configs (module doc); device: the timing model's device
    profile (aster.timing.devices(); None: the target's flagship)."""
    if executor not in EXECUTORS:
        raise ValueError(f"executor must be one of {', '.join(EXECUTORS)}; got {executor!r}")
    shapes = [tuple(int(x) for x in s) for s in shapes]
    for s in shapes:
        if len(s) != 3 or min(s) < 1:
            raise ValueError(f"shapes are (M, N, K) with positive sizes, got {s}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    configs = expand_space(space, dtype=dtype, trans_b=trans_b, arch=arch)
    if not configs:
        raise ValueError("tune: the space holds no valid config")
    tasks = [(c, s, sk) for c in configs for s in shapes
             for sk in candidate_splits(c, s, splits)]
    t0 = time.time()
    bar = _progress(len(tasks), progress)
    try:
        raw = (_run_local(tasks, workers, bar, device) if executor == "local"
               else _run_ray(tasks, workers, bar, ray_address, device))
    finally:
        if bar:
            bar.close()
    by_name = {c.name: c for c in configs}
    res = TuneResult(executor=executor, seconds=time.time() - t0)
    for name, shape, cycles, sk in raw:
        res.results.append({"config": name, "shape": shape, "splits": sk, "cycles": cycles,
                            "utilisation": utilisation(shape, cycles, by_name[name])})
    for s in shapes:
        best = min((r for r in res.results if r["shape"] == s),
                   key=lambda r: (r["cycles"], r["splits"]))
        res.winners[s] = best["config"]
        res.splits[s] = best["splits"]
    if library is not None:
        record(library, {s: by_name[n] for s, n in res.winners.items()}, res.splits)
    return res


def record(library, winners, splits=None):
    """Writes tuning winners {shape: GemmConfig} (and their K splits
    {shape: splits}) into a library directory: missing kernels are built (no
    reference simulation), each shape is moved to its winner's `tuned_for`
    ("MxNxK", or "MxNxK@splits" for a split-K winner split more than once)."""
    splits = splits or {}
    directory = library.directory if isinstance(library, Library) else library
    if not os.path.exists(os.path.join(directory, "configs.csv")):
        build_library(directory, list({(c.name, c.arch): c for c in winners.values()}.values()),
                      ref_shapes=())
    rows = Library(directory).rows()
    for shape, cfg in winners.items():
        key = "x".join(map(str, shape))
        sk = splits.get(shape, 1)
        entry = key + (f"@{sk}" if cfg.split_k and sk > 1 else "")
        if not any(r["name"] == cfg.name and r["arch"] == cfg.arch for r in rows):
            out = compile_config(cfg)
            file = f"{cfg.name}.{cfg.arch}.co"
            with open(os.path.join(directory, file), "wb") as f:
                f.write(out.hsaco)
            rows.append(_row(cfg, file, out.metadata[cfg.name]))
        for r in rows:
            c = GemmConfig.from_dict(r)
            if (c.arch, c.dtype, c.trans_b) != (cfg.arch, cfg.dtype, cfg.trans_b):
                continue
            shapes_ = [x for x in (r.get("tuned_for") or "").split(";")
                       if x and x.partition("@")[0] != key]
            if r["name"] == cfg.name and r["arch"] == cfg.arch:
                shapes_.append(entry)
            r["tuned_for"] = ";".join(shapes_)
    write_csv(directory, rows)
    write_header(directory, rows)
