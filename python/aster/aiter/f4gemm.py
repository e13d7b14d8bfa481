"""AMD's asm MXFP4 GEMM for gfx950 (``f4gemm/f4gemm_bf16_per1x32Fp4_*.co``),
launched as aiter's ``gemm_a4w4_asm`` does
(``aiter_meta/csrc/py_itfs_cu/asm_gemm_a4w4.cu``): the kernels whose times
``aiter/configs/a4w4_blockscale_tuned_gemm.csv`` (column ``us``, rows whose
kernelName is an ``_ZN5aiter..f4gemm_..E`` symbol) records for 256-CU gfx950
devices (MI355X).

What it computes: ``D = bf16((A * sa) @ (B * sb).T)`` (alpha 1, beta 0, no
bias), A: M x K and B: N x K FP4 e2m1 values, two per byte (even k in the low
nibble), sa / sb one e8m0 scale per 32 consecutive k of a row.

What the launch follows (aiter's sources):

* the kernel's tile (tile_m x tile_n), its split-K flag and its code object
  come from the wheel's ``hsa/gfx950/f4gemm/f4gemm_bf16_per1x32Fp4.csv``
  (the config table ``codegen.py`` turns into the interface's map);
* KernelArgs: the packed struct of asm_gemm_a4w4.cu (read by
  aster.aiter.kernargs): D = out, C = bias (none: null), A, B, alpha 1.0,
  beta 0.0, stride_C0 = out's row stride (elements), stride_A0 = stride_B0 =
  K (elements: the interface's ``stride(0) * 2`` of the fp4x2 tensors), M,
  N, K, the two scale pointers and their row strides (bytes), log2_k_split
  0 (the tuned table's splitK column is 0 for every asm row; a split-K
  kernel with split 1 launches gdz = 1 and no zero-fill);
* grid ``(ceil(N / tile_n), ceil(M / tile_m), 1)``, block 256;
* the tensors of aiter's tuner (``csrc/ck_gemm_a4w4_blockscale/
  gemm_a4w4_blockscale_tune.py``, ``generate_data``): A [M, K/2] bytes; B
  [N, K/2] bytes shuffled by ``shuffle_weight(w)`` (layout (16, 16): blocks
  of 16 rows x 32 bytes stored as two groups of 16-byte row pieces, aster's
  `shuffle_weight`); scales [ceil(M/256)*256, ceil(K/32/8)*8] bytes in the
  order of ``aiter.utility.fp4_utils.e8m0_shuffle`` (`shuffle_scales`); out
  [ceil(M/256)*256, N] bf16.

The kernels read whole tiles (A rows up to a multiple of tile_m, B rows up
to a multiple of tile_n): those rows get readable allocator slack, as the
arrays of aiter's tests have (the caching allocator's granularity), through
aster.launch(slack=); with a partial last N tile some kernels (256x256)
store whole tile rows, past the end of out: out gets writable slack.
The A rows past M are not read from memory: the 32x128, 64x128 and
128x128 kernels (checked in their code) size their A buffer descriptor to
the tile's rows inside M (num_records = K/2 x min(M - m0, tile_m)), so
those rows are out of range and read 0; the timing model still charges
their lines (docs/timing-fidelity.md, "Not done").

Needs: the amd-aiter wheel (aster.aiter.wheel). Guarantees: the launch
aiter's interface makes for the kernel and shape; bad shapes raise
AsterError before anything runs.
"""
from __future__ import annotations

import csv
import functools
import re
from dataclasses import dataclass

import numpy as np

from .kernargs import struct_layout
from .wheel import code_object, wheel_file

__all__ = ["Kernel", "kernels", "kernel_of", "shuffle_scales", "scale_shape", "run",
           "perftest_footprint", "SOURCE"]

SOURCE = "aiter_meta/csrc/py_itfs_cu/asm_gemm_a4w4.cu"
ARCH = "gfx950"
_TABLE = "aiter_meta/hsa/gfx950/f4gemm/f4gemm_bf16_per1x32Fp4.csv"
SLACK = 64 * 1024       # readable bytes after every input (allocation granularity)


@dataclass(frozen=True)
class Kernel:
    symbol: str         # e.g. _ZN5aiter41f4gemm_bf16_per1x32Fp4_BpreShuffle_32x128E
    code: str           # code object, relative to aiter_meta/hsa/gfx950
    tile_m: int
    tile_n: int
    split_k: bool
    bpreshuffle: bool


@functools.lru_cache(maxsize=None)
def kernels():
    """symbol -> Kernel for every row of the wheel's f4gemm config table."""
    out = {}
    with open(wheel_file(_TABLE), newline="") as f:
        for r in csv.DictReader(f):
            out[r["knl_name"]] = Kernel(r["knl_name"], "f4gemm/" + r["co_name"],
                                        int(r["tile_m"]), int(r["tile_n"]),
                                        bool(int(r["splitK"])), bool(int(r["bpreshuffle"])))
    return out


def kernel_of(name):
    """The Kernel of a symbol or of a tile such as "32x128" (B preshuffled)."""
    from .. import AsterError
    table = kernels()
    if name in table:
        return table[name]
    if re.fullmatch(r"\d+x\d+", name):
        for k in table.values():
            if k.bpreshuffle and f"{k.tile_m}x{k.tile_n}" == name:
                return k
    raise AsterError(f"f4gemm: no kernel {name!r} in the wheel's {_TABLE.rsplit('/', 1)[1]}")


def scale_shape(rows, k):
    """The shape of a padded scale tensor: (ceil(rows/256)*256, ceil(K/32/8)*8)."""
    return -(-rows // 256) * 256, -(-(k // 32) // 8) * 8


def shuffle_scales(s):
    """[rows, K/32] e8m0 bytes -> the padded, shuffled layout of e8m0_shuffle
    (within 32 rows: [k/8][k%4][row%16][(k/4)%2][row/16%2]); padding 127 (1.0),
    as aiter's quantiser writes for rows past M."""
    rows, ks = s.shape
    sm, sn = scale_shape(rows, ks * 32)
    p = np.full((sm, sn), 127, np.uint8)
    p[:rows, :ks] = s
    return np.ascontiguousarray(
        p.reshape(sm // 32, 2, 16, sn // 8, 2, 4).transpose(0, 3, 5, 2, 4, 1)).reshape(sm, sn)


# aiter's perftest (aiter/test_common.py) times 101 launches, rotating
# min(101, ceil(cache_size / inputSize)) copies of the tensor arguments,
# cache_size = min(L2_cache_size * 64 * 128, 0.9 x free memory): 4 MiB x 8192
# = 32 GiB on MI355X (torch's L2_cache_size: one XCD's 4 MiB).
PERFTEST_ITERS = 101
PERFTEST_CACHE = (4 << 20) * 64 * 128


def perftest_footprint(m, n, k):
    """Bytes that aiter's tuner cycles through while timing gemm_a4w4_asm on
    M x N x K: its rotated copies of the tensor arguments (generate_data in
    gemm_a4w4_blockscale_tune.py: A [M, K/2], B shuffled [N, K/2], the two
    padded scale tensors, out [ceil(M/256)*256, N] bf16; perftest's
    inputSize = their nbytes + 1) times the number of copies."""
    sa, sb = scale_shape(m, k), scale_shape(n, k)
    size = (m * k // 2 + n * k // 2 + sa[0] * sa[1] + sb[0] * sb[1]
            + -(-m // 256) * 256 * n * 2 + 1)
    copies = min(PERFTEST_ITERS, -(-PERFTEST_CACHE // size))
    return copies * size


def _check(k, m, n, kdim):
    from .. import AsterError
    if min(m, n, kdim) < 1:
        raise AsterError(f"f4gemm: M, N, K must be positive, got {m}x{n}x{kdim}")
    if kdim % 256:
        # The kernels' K loop steps 256 values (tile_k of the tuner's split-K).
        raise AsterError(f"f4gemm: K ({kdim}) must be a multiple of 256")
    if n % 32:
        # Every N of AMD's tuned table is; N = 144 (a 16-row remainder) gives
        # wrong columns on the emulator, as the kernels' B loads go by 32 rows.
        raise AsterError(f"f4gemm: N ({n}) must be a multiple of 32")
    if not k.bpreshuffle:
        raise AsterError(f"f4gemm: {k.symbol} takes an unshuffled B; only the BpreShuffle "
                         "kernels are supported")


def run(kernel, m, n, k, *, device="mi355x", timing=True, data=None, strict=True,
        data_in_mall=False):
    """Runs f4gemm `kernel` (symbol or tile "32x128") on M x N x K as aiter's
    gemm_a4w4_asm launches it, on the timing model's `device`. Inputs are
    zeros (timing does not depend on them) unless `data` = (A [M, K/2] uint8
    fp4x2, B [N, K/2] uint8 fp4x2 unshuffled, sa [M, K/32] uint8 e8m0, sb
    [N, K/32] uint8 e8m0). data_in_mall: the inputs start in the Infinity
    Cache (aster.launch's; as when aiter's tuner timed the shape, if
    perftest_footprint fits in the device's MALL). Returns (out [M, N] as
    uint16 bf16 bits, the LaunchResult: `.timing`, `.microseconds` with
    timing)."""
    from .. import AsterError
    from ..runtime import launch as _launch
    from .gemm import shuffle_weight
    kern = kernel_of(kernel)
    _check(kern, m, n, k)
    mt, nt = -(-m // kern.tile_m) * kern.tile_m, -(-n // kern.tile_n) * kern.tile_n
    # A and B with the rows of the last whole tile (readable slack: zeros).
    a = np.zeros((mt, k // 2), np.uint8)
    b = np.zeros((nt, k // 2), np.uint8)
    sa = np.full(scale_shape(max(m, mt), k), 127, np.uint8)
    sb = np.full(scale_shape(max(n, nt), k), 127, np.uint8)
    if data is not None:
        da, db, dsa, dsb = (np.asarray(x) for x in data)
        want = ((m, k // 2), (n, k // 2), (m, k // 32), (n, k // 32))
        for x, w, nm in zip((da, db, dsa, dsb), want, ("A", "B", "sa", "sb")):
            if x.shape != w or x.dtype != np.uint8:
                raise AsterError(f"f4gemm: {nm} must be uint8 {w}, got {x.dtype} {x.shape}")
        a[:m] = da
        b[:n] = shuffle_weight(db, (16, 16))
        sa[:scale_shape(m, k)[0]] = shuffle_scales(dsa)
        sb[:scale_shape(n, k)[0]] = shuffle_scales(dsb)
    # out: the tuner's [ceil(M/256)*256, N] bf16 and writable allocator
    # slack: with a partial last N tile, the kernels store whole tile rows,
    # so the last row's columns past N land after the tensor.
    rows_out = max(-(-m // 256) * 256, mt)
    out = np.zeros(rows_out * n + SLACK // 2, np.uint16)
    packed = struct_layout(SOURCE).pack(
        ptr_D=out, ptr_C=None, ptr_A=a, ptr_B=b, alpha=1.0, beta=0.0,
        stride_C0=n, stride_A0=k, stride_B0=k, M=m, N=n, K=k,
        ptr_ScaleA=sa, ptr_ScaleB=sb, stride_ScaleA0=sa.shape[1],
        stride_ScaleB0=sb.shape[1], log2_k_split=0)
    grid = (nt // kern.tile_n, mt // kern.tile_m, 1)
    r = _launch(code_object(ARCH, kern.code), kern.symbol, grid, (256, 1, 1), packed,
                strict=strict, timing=timing, device=device if timing else None, slack=SLACK,
                data_in_mall=data_in_mall)
    return out[:m * n].reshape(m, n), r
