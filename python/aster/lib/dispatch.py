"""`aster.lib.gemm`: C = A @ B (or A @ B.T) in f32 through a library kernel
chosen by a heuristic (or tuning results), on the emulator or a GPU.

The heuristic (`choose`), for each kernel of the library matching (arch,
dtype, trans_b):

  1. A shape tuning found a winner for (configs.csv `tuned_for`) takes it.
  2. Otherwise the estimated time is
        rounds x max(compute, memory) per tile
     rounds   = ceil(tiles / 304): waves of workgroups over MI300X's 304 CUs
                (one workgroup per CU: the tiles' LDS), tiles = ceil(M/tm) ceil(N/tn)
     compute  = 2 tm tn Kp / (2048 flop/clk x u), Kp = K rounded up to the
                kernel's K unroll (K_UNROLL tile_k): the padded edge work of
                M, N and K is paid for; u the kernel's simulated matrix-core
                utilisation (configs.csv ref_utilisation, 0.75 without)
     memory   = 2 (tm + tn) Kp bytes / (HBM bytes per clock / CUs busy):
                the compute/memory ratio of the tile (tm tn / (tm + tn)
                flop/byte) against each busy CU's share of 5.3 TB/s at 2.1 GHz
     and the smallest estimate wins (ties: fewer wasted edge flops, then the
     larger tile).
"""
import hashlib
import os

import numpy as np

from ..kernels.gemm import DTYPES, K_UNROLL
from .library import CUS, PEAK_FLOP_PER_CLK_CU, Library, build_library

__all__ = ["gemm", "choose", "estimate", "default_library", "cache_dir"]

HBM_BYTES_PER_CLK = 5.3e12 / 2.1e9
DEFAULT_UTILISATION = 0.75


def estimate(cfg, m, n, k, utilisation=None):
    """(estimated cycles, wasted fraction of the computed flops) of one kernel
    on an M x N x K problem (see the module doc)."""
    gx, gy, _ = cfg.grid(m, n)
    tiles = gx * gy
    rounds = -(-tiles // CUS)
    unroll = K_UNROLL * cfg.tile_k
    kp = -(-k // unroll) * unroll
    u = utilisation or DEFAULT_UTILISATION
    compute = 2 * cfg.tile_m * cfg.tile_n * kp / (PEAK_FLOP_PER_CLK_CU * u)
    busy = min(tiles, CUS)
    memory = 2 * (cfg.tile_m + cfg.tile_n) * kp / (HBM_BYTES_PER_CLK / busy)
    done = tiles * cfg.tile_m * cfg.tile_n * kp
    return rounds * max(compute, memory), 1 - (m * n * k) / done


def choose(library, m, n, k, *, dtype="f16", trans_b=False, arch="gfx942"):
    """The library Entry the heuristic picks for an M x N x K GEMM."""
    cands = library.find(arch=arch, dtype=dtype, trans_b=trans_b)
    if not cands:
        raise ValueError(f"the library {library.directory} has no {dtype} kernel for {arch} "
                         f"with trans_b={trans_b}")
    for e in cands:
        if (m, n, k) in e.tuned_for:
            return e

    def key(e):
        t, waste = estimate(e.config, m, n, k, e.ref_utilisation)
        return (t, waste, -e.config.tile_m * e.config.tile_n)
    return min(cands, key=key)


def cache_dir():
    """Where the default library lives: $ASTER_CACHE_DIR or ~/.cache/aster,
    in a folder named after the hash of the generator and library sources
    and of aster's compiled extension (a changed generator or a rebuilt
    aster builds a new library)."""
    root = os.environ.get("ASTER_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "aster")
    h = hashlib.sha256()
    here = os.path.dirname(os.path.abspath(__file__))
    srcs = [os.path.join(here, f) for f in sorted(os.listdir(here)) if f.endswith(".py")]
    srcs.append(os.path.join(os.path.dirname(here), "kernels", "gemm.py"))
    for p in srcs:
        with open(p, "rb") as f:
            h.update(f.read())
    from .. import _aster
    st = os.stat(_aster.__file__)       # a rebuilt aster builds a new library
    h.update(f"{os.path.basename(_aster.__file__)} {st.st_size} {st.st_mtime_ns}".encode())
    return os.path.join(root, f"gemm-{h.hexdigest()[:16]}")


_DEFAULT = {}


def default_library():
    """The default library (`default_configs()`), built once per user into
    cache_dir() and loaded from there afterwards."""
    d = cache_dir()
    lib = _DEFAULT.get(d)
    if lib is None:
        try:
            lib = Library(d)
        except FileNotFoundError:
            tmp = f"{d}.tmp{os.getpid()}"
            build_library(tmp, workers=min(4, os.cpu_count() or 1))
            try:
                os.replace(tmp, d)
            except OSError:             # another process finished first
                import shutil
                shutil.rmtree(tmp, ignore_errors=True)
            lib = Library(d)
        _DEFAULT[d] = lib
    return lib


def _operand(x, what):
    if not isinstance(x, np.ndarray):
        raise TypeError(f"gemm: {what} must be a NumPy array, got {type(x).__name__}")
    if x.ndim != 2:
        raise ValueError(f"gemm: {what} must be 2-D, got shape {x.shape}")
    for name, dt in DTYPES.items():
        if x.dtype == dt:
            return name
    raise TypeError(f"gemm: {what} must be float16 or bfloat16, got {x.dtype}")


def _padded(x):
    """x flattened with one zero element after it: the kernels read 16-bit
    matrices through buffers one element past the end (see aster.kernels.gemm)."""
    out = np.zeros(x.size + 1, x.dtype)
    out[:x.size] = x.reshape(-1)
    return out


def gemm(A, B, *, trans_b=False, out=None, backend="emu", timing=False, config=None,
         library=None, arch="gfx942", device=None):
    """C = A @ B (B is K x N) or A @ B.T (trans_b: B is N x K), in float32.

    A, B: float16 or bfloat16 NumPy arrays (the same dtype). out: an optional
    float32 C-contiguous M x N array to write into. config: a kernel name
    (or Entry) of the library to use instead of the heuristic (`choose`).
    library: an aster.lib.Library (default: `default_library()`).
    backend: "emu" (aster's emulator) or "hip" (a ROCm GPU: the same code
    object and argument buffer). timing=True (emulator) returns (C,
    LaunchResult) with the simulated cycles and microseconds on `device` (a
    profile of aster.timing.devices(); None: the arch's flagship)."""
    from ..runtime import launch
    da, db = _operand(A, "A"), _operand(B, "B")
    if da != db:
        raise TypeError(f"gemm: A and B must have the same dtype, got {A.dtype} and {B.dtype}")
    m, k = A.shape
    n, kb = (B.shape if trans_b else B.shape[::-1])
    if kb != k:
        raise ValueError(f"gemm: inner dimensions differ: A is {A.shape}, B is {B.shape}"
                         f"{' (trans_b)' if trans_b else ''}")
    if 0 in (m, n, k):
        raise ValueError(f"gemm: empty operands (A {A.shape}, B {B.shape})")
    if max(m * k, n * k, m * n * 2) * 2 >= 2**31:
        raise ValueError("gemm: each matrix must be smaller than 2 GiB")
    if out is not None:
        if not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.shape != (m, n) \
                or not out.flags.c_contiguous or not out.flags.writeable:
            raise ValueError(f"gemm: out must be a writeable C-contiguous float32 array of "
                             f"shape {(m, n)}")
    lib = library if library is not None else default_library()
    if config is None:
        entry = choose(lib, m, n, k, dtype=da, trans_b=trans_b, arch=arch)
    else:
        entry = config if not isinstance(config, str) else lib.entry(config, arch)
        c = entry.config
        if (c.dtype, c.trans_b, c.arch) != (da, trans_b, arch):
            raise ValueError(f"gemm: kernel {entry.name} is for {c.dtype}, trans_b={c.trans_b}, "
                             f"{c.arch}; this call needs {da}, trans_b={trans_b}, {arch}")
    cfg = entry.config
    c_arr = out if out is not None else np.empty((m, n), np.float32)
    r = launch(lib.code(entry), cfg.name, grid=cfg.grid(m, n), block=cfg.block,
               args=[_padded(A), _padded(B), c_arr, m, n, k], backend=backend, timing=timing,
               device=device)
    return (c_arr, r) if timing else c_arr
