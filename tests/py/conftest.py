"""Shared pytest fixtures for aster's Python tests."""
import hashlib
import json
import os
import shutil
import subprocess
import tempfile

import pytest

_SUMMARY = pytest.StashKey[list]()

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


# Every code object the tests (and the examples they run as subprocesses) make
# is also made through assembly text, and the two must be the same bytes
# (aster/compiler.py, ASTER_CHECK_DIRECT): a difference fails that test.
_DIRECT_LOG = os.path.join(tempfile.mkdtemp(prefix="aster-direct-"), "modules.jsonl")
os.environ["ASTER_CHECK_DIRECT"] = _DIRECT_LOG


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


@pytest.fixture(scope="session")
def hip_hsaco(tmp_path_factory):
    """`hip_hsaco(source_or_path, name=None, flags=(), arch="gfx942") -> bytes`:
    compiles HIP source text (or a .hip file) with clang-22 for `arch` into a code object,
    cached by content hash for the session. tests/emulator/hip (common.h) and
    the file's own directory are on the include path. A compile error raises
    RuntimeError with clang's output."""
    clang = _clang()
    cache = tmp_path_factory.mktemp("hip_hsaco")

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
        key = hashlib.sha256("\0".join([source, *args]).encode()).hexdigest()[:16]
        out = cache / f"{name}-{key}.hsaco"
        if not out.exists():
            src = cache / f"{name}-{key}.hip"
            src.write_text(source)
            p = subprocess.run([clang, *args, str(src), "-o", str(out)],
                               capture_output=True, text=True, timeout=300)
            if p.returncode != 0:
                raise RuntimeError(f"clang-22 failed on {name}:\n{p.stderr}")
        return out.read_bytes()

    return compile_hip


@pytest.fixture(scope="session")
def hip_device():
    """Skips the test unless hip-python imports and sees a ROCm device."""
    from aster import hip_backend
    ok, why = hip_backend.available()
    if not ok:
        pytest.skip(f"no ROCm device (hip-python not importable / 0 devices): {why}")
