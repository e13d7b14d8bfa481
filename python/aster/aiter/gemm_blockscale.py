"""AMD's gfx950 block-scale fp8 asm GEMM (``hsa/gfx950/f8_block_scale_mi350_x{32,128}.co``)
launched as aiter's interface launches it
(``aiter_meta/csrc/py_itfs_cu/asm_mi350_a8w8_blockscale.cu``,
``mi350_a8w8_blockscale_asm``; reached from ``aiter.gemm_a8w8_blockscale(...,
isBpreshuffled=True)`` on gfx950 with M >= 16, K >= 512 and bf16 out).

    Y, r = aster.aiter.gemm_blockscale.run(XQ, WQ, x_scale, w_scale, timing=True)

What it computes (aiter's reference, ``op_tests/test_gemm_a8w8_blockscale.py``
``run_torch``, and ``aiter/ops/triton/gemm_a8w8_blockscale.py``): Y[m, n] =
bf16(sum over K blocks kb of 128: x_scale[m, kb] w_scale[n // 128, kb] sum over
k in kb of XQ[m, k] WQ[n, k]); XQ (M x K) and WQ (N x K) OCP fp8 E4M3
(``float8_e4m3fn``), x_scale [M, K/128] and w_scale [N/128, K/128] float32
(`reference` states it in NumPy).

What the launch follows (the .cu file):
  * KernelArgs: the packed struct of the .cu (read by aster.aiter.kernargs):
    ptr_C = Y, ptr_X = XQ, ptr_W = WQ preshuffled, ptr_XQ = x_scale
    transposed ([K/128, M] in memory: aiter's callers pass
    ``x_scale.transpose(0, 1).contiguous()``), ptr_WQ = w_scale as it is,
    K, N, M, eprt_cnt = 1, Xs = Ws = K (bytes per row), Cs = 2 N, splitk = 0,
    activation = 0;
  * WQ preshuffled with aiter's ``shuffle_weight(WQ, layout=(16, 16))``
    (aster.aiter.gemm.shuffle_weight: blocks of 16 rows x 32 bytes stored as
    two groups of 16-byte row pieces), as aiter's test passes it to the asm
    kernel; the results below are checked against NumPy with it;
  * the kernel: x32 (tile M 32) when M <= 32, else x128 (the interface never
    picks x64 or x96); tile N 256 (two 128-column blocks); grid
    (ceil(N / 256), ceil(M / tile M), 1), block 256; no split-K, no zero fill;
  * checks as the interface's TORCH_CHECKs: N and K multiples of 128, M >= 16,
    K >= 512 (raised as AsterError before anything runs).

The kernel reads whole tiles: XQ's rows up to a multiple of tile M and
WQ's rows up to a multiple of 256 get readable allocator slack
(aster.launch(slack=)) as torch's caching allocator gives; Y gets writable
slack for the rows and columns of the last partial tile.

On the emulator (checked against `reference` in tests/py/test_gemm_blockscale.py):
  * the four waves order their LDS accesses between barriers by timing
    (waves 0-1 and 2-3 run different code): the launch runs with
    ``interleave=1`` (instruction by instruction, as the hardware issues);
    with the emulator's default interleave some output tiles hold A bytes;
  * with whole tiles (M a multiple of the tile M: 32 when M <= 32, else 128;
    N a multiple of 256) Y equals NumPy exactly on exact inputs (the two
    scale layouts and the (16, 16) preshuffle above are what make it so:
    probing the kernel with one-hot inputs reads XQ row-major and WQ in
    exactly that shuffle); with a partial M or N tile its sums come out
    wrong (whole K blocks of A missing for M = 64; not investigated: AMD's
    own tests run N = 24576, a multiple of 256). `run` launches any shape the
    interface accepts; `whole_tiles` says whether it is one of the checked.

Needs: the amd-aiter wheel (aster.aiter.wheel). Guarantees: the launch aiter's
interface makes for the shape; the caller's arrays are never written.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .kernargs import struct_layout
from .wheel import code_object

__all__ = ["SOURCE", "BLOCK", "kernel_of", "reference", "run", "check_shape", "whole_tiles"]

SOURCE = "aiter_meta/csrc/py_itfs_cu/asm_mi350_a8w8_blockscale.cu"
ARCH = "gfx950"
BLOCK = 128             # scale block along K (and along N for w_scale): TileK = TileN
TILE_N = 256            # gdx = ceil(N / (TileN * 2))
SLACK = 64 * 1024       # readable bytes after every input (allocation granularity)
INTERLEAVE = 1          # the waves order LDS accesses by timing (module doc)


@dataclass(frozen=True)
class Kernel:
    symbol: str
    code: str           # code object under aiter_meta/hsa/gfx950
    tile_m: int
    tile_n: int = TILE_N

    @property
    def tile(self):
        return f"{self.tile_m}x{self.tile_n}"


def kernel_of(m):
    """The kernel the interface launches for M rows (x32 when M <= 32)."""
    t = 32 if m <= 32 else 128
    return Kernel(f"f8_block_scale_mi350_x{t}", f"f8_block_scale_mi350_x{t}.co", t)


def whole_tiles(m, n):
    """True when M and N fill the kernel's tiles (the shapes checked equal to
    NumPy on the emulator; the module doc)."""
    return m % kernel_of(m).tile_m == 0 and n % TILE_N == 0


def check_shape(m, n, k):
    """The interface's TORCH_CHECKs, as AsterError."""
    from .. import AsterError
    if n % BLOCK or k % BLOCK:
        raise AsterError(f"AMD's block-scale fp8 GEMM: N ({n}) and K ({k}) must be multiples "
                         f"of {BLOCK}")
    if m < 16:
        raise AsterError(f"AMD's block-scale fp8 GEMM: M ({m}) must be at least 16")
    if k < 512:
        raise AsterError(f"AMD's block-scale fp8 GEMM: K ({k}) must be at least 512")


def reference(xq, wq, x_scale, w_scale):
    """Y as aiter's reference forms it, in float64 before one rounding to
    bf16 (returned as float64 values of bf16): x_scale [M, ceil(K/128)],
    w_scale [ceil(N/128), ceil(K/128)]; K and N need not be multiples of 128."""
    import ml_dtypes
    m, k = xq.shape
    n = wq.shape[0]
    xs = np.asarray(x_scale, np.float64)
    ws = np.asarray(w_scale, np.float64)
    x, w = xq.astype(np.float64), wq.astype(np.float64)
    # each block's sum first, then the scaled sum over blocks (as the kernels do)
    y = np.zeros((m, n))
    for b in range(-(-k // BLOCK)):
        sl = slice(b * BLOCK, min(k, (b + 1) * BLOCK))
        y += (x[:, sl] @ w[:, sl].T) * xs[:, b:b + 1] * np.repeat(ws[:, b], BLOCK)[None, :n]
    return y.astype(np.float32).astype(ml_dtypes.bfloat16)


def _check(x, what, shape, dtype):
    from .. import AsterError
    if not isinstance(x, np.ndarray) or x.shape != shape or x.dtype != dtype:
        raise AsterError(f"aster.aiter.gemm_blockscale: {what} must be a {np.dtype(dtype)} "
                         f"array of shape {shape}, got "
                         f"{getattr(x, 'dtype', type(x).__name__)} {getattr(x, 'shape', '')}")
    return np.ascontiguousarray(x)


def run(xq, wq, x_scale, w_scale, *, timing=False, device=None, strict=True):
    """Y (M x N bfloat16) by AMD's kernel on the emulator. xq: M x K and wq:
    N x K float8_e4m3fn (wq unshuffled: this shuffles it as aiter's callers
    must), x_scale: [M, K/128] float32, w_scale: [N/128, K/128] float32.
    Returns Y, or (Y, LaunchResult) with timing (`.kernel` the Kernel;
    `.microseconds` on `device`, default MI355X)."""
    import ml_dtypes
    from .. import AsterError
    from ..runtime import launch as _launch
    from .gemm import shuffle_weight
    if not isinstance(xq, np.ndarray) or xq.ndim != 2 or not isinstance(wq, np.ndarray) \
            or wq.ndim != 2:
        raise AsterError("aster.aiter.gemm_blockscale: XQ and WQ must be 2-D NumPy arrays")
    m, k = xq.shape
    n = wq.shape[0]
    f8 = np.dtype(ml_dtypes.float8_e4m3fn)
    xq = _check(xq, "XQ", (m, k), f8)
    wq = _check(wq, "WQ", (n, k), f8)
    check_shape(m, n, k)
    xs = _check(np.asarray(x_scale), "x_scale", (m, k // BLOCK), np.float32)
    ws = _check(np.asarray(w_scale), "w_scale", (n // BLOCK, k // BLOCK), np.float32)
    kern = kernel_of(m)
    mt = -(-m // kern.tile_m) * kern.tile_m
    nt = -(-n // kern.tile_n) * kern.tile_n
    # Inputs padded to whole tiles (the rows past M / N are zeros: readable
    # slack on a GPU).
    a = np.zeros((mt, k), np.uint8)
    a[:m] = xq.view(np.uint8)
    b = np.zeros((nt, k), np.uint8)
    b[:n] = shuffle_weight(wq.view(np.uint8), (16, 16))
    # x_scale as [K/128, M] in memory; rows past M read zeros
    xst = np.zeros((k // BLOCK, mt), np.float32)
    xst[:, :m] = xs.T
    wsp = np.zeros((nt // BLOCK, k // BLOCK), np.float32)
    wsp[:n // BLOCK] = ws
    # Y: writable room for the last tile's rows and columns past M and N
    out = np.zeros(mt * n + (nt - n) + SLACK // 2, np.uint16)
    packed = struct_layout(SOURCE).pack(
        ptr_C=out, ptr_X=a, ptr_W=b, ptr_XQ=xst, ptr_WQ=wsp, K=k, N=n, M=m, eprt_cnt=1,
        Xs=k, Ws=k, Cs=2 * n, splitk=0, activation=0)
    grid = (-(-n // kern.tile_n), mt // kern.tile_m, 1)
    r = _launch(code_object(ARCH, kern.code), kern.symbol, grid, (256, 1, 1), packed,
                strict=strict, timing=timing, device=(device or "mi355x") if timing else None,
                interleave=INTERLEAVE,
                slack=SLACK)
    y = out[:m * n].reshape(m, n).copy().view(ml_dtypes.bfloat16)
    if not timing:
        return y
    r.kernel = kern
    return y, r
