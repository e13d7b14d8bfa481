"""Shared pytest fixtures for aster's Python tests.

The suite runs in parallel under pytest-xdist (`make pytest`: `-n 2 --dist
loadfile`, so one file's tests share one process, its module fixtures and its
module-level counters). What is shared across the worker processes:
- the ASTER_CHECK_DIRECT log (one file, appended line by line; the controller
  makes it and the workers inherit its path through the environment);
- the `summary` lines (each worker hands its lines to the controller, which
  prints them all);
- the clang-22 code objects of `hip_hsaco` (a cache folder under the build
  tree, keyed by clang's version, flags and source; one process compiles a key
  under a file lock, the others wait and read it).
The long property sweeps run a fixed sample here and the rest under `make
test-long` (tests/py/sweep.py)."""
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import tempfile

import pytest

_SUMMARY = pytest.StashKey[list]()
_ASSERTS = pytest.StashKey[list]()
# Assertions that passed in this process, counted when pytest runs with
# `-o enable_assertion_pass_hook=true` (how `make test`'s before/after counts
# of issue 31 were taken; off by default: it costs nothing then).
_passed_asserts = 0


def pytest_assertion_pass(item, lineno, orig, expl):
    global _passed_asserts
    _passed_asserts += 1

# How tests compile HIP kernels (for gfx942 unless told otherwise) without HIP
# headers or device libraries: kernels use clang builtins (__builtin_amdgcn_workitem_id_x(),
# __attribute__((global)), ...) or tests/emulator/hip/common.h.
# -fhip-kernel-arg-name puts the argument names in the metadata (clang gives
# no type names for HIP), so launch errors can name them.
CLANG_FLAGS = ("-x", "hip", "--cuda-device-only",
               "--no-gpu-bundle-output", "-nogpulib", "-nogpuinc", "-O3",
               "-fhip-kernel-arg-name")
HIP_INCLUDE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                           "emulator", "hip")


@pytest.fixture(scope="session")
def summary(request):
    """A list of lines printed at the end of the run (even without -s)."""
    return request.config.stash.setdefault(_SUMMARY, [])


def pytest_sessionfinish(session):
    out = getattr(session.config, "workeroutput", None)     # an xdist worker
    if out is not None:
        out["aster_summary"] = list(session.config.stash.get(_SUMMARY, []))
        out["aster_asserts"] = _passed_asserts


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """The controller collects each xdist worker's summary lines."""
    lines = getattr(node, "workeroutput", {}).get("aster_summary", [])
    node.config.stash.setdefault(_SUMMARY, []).extend(lines)
    node.config.stash.setdefault(_ASSERTS, []).append(
        getattr(node, "workeroutput", {}).get("aster_asserts", 0))


# Every code object the tests (and the examples they run as subprocesses) make
# is also made through assembly text, and the two must be the same bytes
# (aster/compiler.py, ASTER_CHECK_DIRECT): a difference fails that test.
# ASTER_TEST_DIRECT_LOG: the controller's log, inherited by xdist workers.
_DIRECT_LOG = os.environ.get("ASTER_TEST_DIRECT_LOG") or os.path.join(
    tempfile.mkdtemp(prefix="aster-direct-"), "modules.jsonl")
os.environ["ASTER_TEST_DIRECT_LOG"] = os.environ["ASTER_CHECK_DIRECT"] = _DIRECT_LOG


def direct_summary():
    """(modules, kernels, kernels through text, instructions encoded directly,
    modules whose bytes differ, modules the direct path handed whole to the
    text path) over the code objects made so far."""
    mods = kernels = text = insts = differ = whole = 0
    if os.path.exists(_DIRECT_LOG):
        with open(_DIRECT_LOG) as f:
            for line in f:
                r = json.loads(line)
                mods += 1
                kernels += r["kernels"]
                text += len(r["text_kernels"])
                insts += r["instructions"]
                differ += not r["identical"]
                whole += bool(r.get("direct_error"))
    return mods, kernels, text, insts, differ, whole


def pytest_terminal_summary(terminalreporter, config):
    for line in config.stash.get(_SUMMARY, []):
        terminalreporter.write_line(line)
    if config.getini("enable_assertion_pass_hook"):
        n = _passed_asserts + sum(config.stash.get(_ASSERTS, []))
        terminalreporter.write_line(f"assertions passed: {n}")
    mods, kernels, text, insts, differ, whole = direct_summary()
    terminalreporter.write_line(
        f"direct encoding: {mods} code objects ({kernels} kernels, {insts} instructions "
        f"encoded directly) compared with the text path: {differ} differ, "
        f"{text} kernels went through text, {whole} modules went wholly through text")


def _clang():
    for cand in (shutil.which("clang-22"), "/usr/lib/llvm-22/bin/clang"):
        if cand and os.access(cand, os.X_OK):
            return cand
    raise RuntimeError("clang-22 not found (apt install clang-22); HIP kernels are "
                       "compiled with it at test time")


def _cache_dir(tmp_path_factory, what):
    """A folder for `what` shared by every process of this run (and later runs):
    <build>/test-cache/<what> when aster is imported from a build tree, else
    this run's base temp folder (an xdist worker's parent, shared by all)."""
    import aster
    build = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(aster.__file__))))
    if os.path.exists(os.path.join(build, "CMakeCache.txt")):
        root = os.path.join(build, "test-cache")
    else:
        root = tmp_path_factory.getbasetemp()
        if os.environ.get("PYTEST_XDIST_WORKER"):
            root = root.parent
    path = os.path.join(root, what)
    os.makedirs(path, exist_ok=True)
    return path


def _made_once(out, make):
    """`out`'s bytes, made by `make(tmp_path)` unless present: one process
    makes it under a lock while the others wait; written whole (rename)."""
    if not os.path.exists(out):
        with open(out + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not os.path.exists(out):
                tmp = f"{out}.{os.getpid()}.tmp"
                make(tmp)
                os.replace(tmp, out)
    with open(out, "rb") as f:
        return f.read()


@pytest.fixture(scope="session")
def hip_hsaco(tmp_path_factory):
    """`hip_hsaco(source_or_path, name=None, flags=(), arch="gfx942") -> bytes`:
    compiles HIP source text (or a .hip file) with clang-22 for `arch` into a code object,
    cached by a hash of clang's version, flags and source (shared by xdist workers
    and kept in the build tree across runs). tests/emulator/hip (common.h) and
    the file's own directory are on the include path. A compile error raises
    RuntimeError with clang's output."""
    clang = _clang()
    version = subprocess.run([clang, "--version"], capture_output=True, text=True,
                             timeout=60).stdout
    cache = _cache_dir(tmp_path_factory, "hip_hsaco")

    def compile_hip(source_or_path, name=None, flags=(), arch="gfx942"):
        include = [HIP_INCLUDE]
        if isinstance(source_or_path, os.PathLike) or (
                isinstance(source_or_path, str) and "\n" not in source_or_path
                and source_or_path.endswith(".hip")):
            path = os.fspath(source_or_path)
            with open(path) as f:
                source = f.read()
            include.insert(0, os.path.dirname(os.path.abspath(path)))
            name = name or os.path.splitext(os.path.basename(path))[0]
        else:
            source = source_or_path
        name = name or "kernel"
        args = [*CLANG_FLAGS, f"--offload-arch={arch}", *flags, *(f"-I{d}" for d in include)]
        # Headers from the include path are part of the key too (common.h changes).
        headers = [open(os.path.join(d, h), "rb").read().decode(errors="replace")
                   for d in include for h in sorted(os.listdir(d)) if h.endswith(".h")]
        key = hashlib.sha256("\0".join([version, source, *args, *headers]).encode()
                             ).hexdigest()[:24]
        out = os.path.join(cache, f"{name}-{key}.hsaco")

        def make(tmp):
            src = f"{tmp}.hip"
            with open(src, "w") as f:
                f.write(source)
            try:
                p = subprocess.run([clang, *args, src, "-o", tmp],
                                   capture_output=True, text=True, timeout=300)
            finally:
                os.unlink(src)
            if p.returncode != 0:
                raise RuntimeError(f"clang-22 failed on {name}:\n{p.stderr}")

        return _made_once(out, make)

    return compile_hip


@pytest.fixture(scope="session")
def hip_device():
    """Skips the test unless hip-python imports and sees a ROCm device."""
    from aster import hip_backend
    ok, why = hip_backend.available()
    if not ok:
        pytest.skip(f"no ROCm device (hip-python not importable / 0 devices): {why}")
