"""AMD's hand-written asm GEMMs launched the way aiter's interface code launches
them, on aster's emulator: bf16 (``aiter_meta/hsa/<arch>/bf16gemm``,
``csrc/py_itfs_cu/asm_gemm_a16w16.cu``, ``gemm_a16w16_asm``) and a8w8
(``hsa/<arch>/i8gemm``, ``asm_gemm_a8w8.cu``, ``gemm_a8w8_asm``; `a8w8`
below).

    D, r = aster.aiter.gemm.bf16(A, B, timing=True)   # A: M x K bf16, B: N x K bf16
    r.cycles, r.kernel, r.splitk                       # D: M x N float32 = A @ B.T
    aster.aiter.gemm.bf16_choice(M, N, K)              # (table row, split-K) aiter picks

What the interface does, and this module does the same:
  * KernelArgs: every field in a 16-byte slot (a pointer + 8 pad bytes, a
    32-bit value + 12 pad bytes; ``p2``/``p3`` of ``aiter_hip_common.h``),
    packed: D, C (null: no bias), A, B, alpha = 1, beta = 0, stride_D0,
    stride_D1, stride_C0, stride_C1, stride_A0, stride_A1, stride_B0,
    stride_B1, M, N, K, splitk; 284 bytes. The interface sets only stride_C0
    = 4 N, stride_A0 = stride_B0 = 2 K (bytes); the struct's other strides are
    uninitialised stack memory there and zero here.
  * The kernel: the table ``bf16gemm_outf32.csv`` next to the code objects
    (its rows become a ``std::unordered_map``; `TABLE_ORDER` is the order
    libstdc++ iterates it, which decides ties) walked by
    ``get_heuristic_kernel`` (`bf16_choice`): for each kernel with N % tileN
    == 0, split-K = min(CUs // output tiles, 64) when there are fewer output
    tiles than CUs (K must be a multiple of 64), then the fewest rounds of
    workgroups over the CUs, then fewer idle CUs or less M overhang, then
    the higher tileM tileN / (tileM + tileN) (integer division, as in C++).
  * D is allocated to whole M tiles (the kernel stores rows past M:
    `stores_past_m` says whether it wrote nonzero values there, which on a
    GPU land in whatever follows the output tensor).
  * A is allocated to whole M tiles and A and B are followed by `SLACK`
    zero bytes: the kernel reads the last tile's rows past M and prefetches
    past its K range (on a GPU, torch's allocations have memory there).
  * grid (ceil(N / tileN), ceil(M / tileM), split-K), block 256; with
    split-K > 1 the output is zeroed first (``out.zero_()``; the kernel adds
    its partial sums into D). The zero fill is its own kernel launch on a
    GPU: with timing, `fill_us` is the device time of aster.ops.fill's zero
    fill of D on the same device profile (`total_us`: both launches);
    `cycles` and `microseconds` are the GEMM kernel's alone.
"""
from __future__ import annotations

import csv
import struct
from dataclasses import dataclass

import numpy as np

from .wheel import hsa_dir

__all__ = ["Bf16Kernel", "bf16", "bf16_choice", "bf16_kernels", "TABLE_ORDER", "a8w8",
           "a8w8_choice", "a8w8_kernels", "shuffle_weight", "I8_TABLE_ORDER"]

# libstdc++ iterates the interface's unordered_map of the four bf16gemm rows
# in this order (checked by compiling the same initializer list with clang-22
# against libstdc++: tests/py/test_gemm_aiter.py); the heuristic keeps the
# first of equal candidates, so the order is part of its choice.
TABLE_ORDER = ("96x64", "64x64", "48x64", "32x64")
ARGS_BYTES = 284
SLACK = 65536       # readable bytes after A and B (the kernel prefetches past K)


@dataclass(frozen=True)
class Bf16Kernel:
    """One row of AMD's bf16gemm_outf32.csv."""
    name: str           # the kernel symbol
    file: str           # the code object's file name
    tile_m: int
    tile_n: int
    prefetch: int

    @property
    def tile(self):
        return f"{self.tile_m}x{self.tile_n}"


def bf16_kernels(arch="gfx942"):
    """AMD's bf16 GEMM kernels of `arch` in the interface's iteration order."""
    path = hsa_dir(arch) / "bf16gemm" / "bf16gemm_outf32.csv"
    with open(path, newline="") as f:
        rows = [Bf16Kernel(r["knl_name"], r["knl_file"], int(r["tileM"]), int(r["tileN"]),
                           int(r["pf"])) for r in csv.DictReader(f)]
    rank = {t: i for i, t in enumerate(TABLE_ORDER)}
    return sorted(rows, key=lambda r: rank.get(r.tile, len(rank)))


def bf16_choice(m, n, k, *, cus=None, arch="gfx942", splitk=None):
    """(Bf16Kernel, split-K) that aiter's ``get_heuristic_kernel`` picks."""
    from ..ops.devices import cus as _cus
    from .. import AsterError
    num_cu = cus or _cus(arch)
    empty_cu, rnd, effi, oob = num_cu, 0xFFFFFFFF, 1.0, m
    best, best_split = None, 1
    pure = 0
    for cfg in bf16_kernels(arch):
        tm, tn = cfg.tile_m, cfg.tile_n
        if n % tn:
            continue
        split = 1
        if splitk is not None:
            split = splitk
        else:
            pure = -(-m // tm) * (n // tn)
            if pure < num_cu:
                if k % 64:
                    raise AsterError(f"AMD's bf16 asm GEMM: K ({k}) must be a multiple of 64")
                split = min(num_cu // pure, 64)
        tg = pure * split
        local_round = -(-tg // num_cu)
        local_effi = float(tm * tn // (tm + tn))
        idle = local_round * num_cu - tg
        earlier = local_round < rnd
        same = local_round == rnd
        less_oob = (oob > 0) if m % tm == 0 else (tm - m % tm < oob)
        same_oob = (tm - m % tm) == oob
        if earlier or (same and (empty_cu > idle or less_oob)) or \
                (same and empty_cu == idle and same_oob and local_effi > effi):
            rnd, empty_cu, effi = local_round, idle, local_effi
            oob = 0 if m % tm == 0 else tm - m % tm
            best, best_split = cfg, split
    if best is None:
        raise AsterError(f"AMD's bf16 asm GEMM has no kernel for N = {n} "
                         f"(N must be a multiple of 64)")
    return best, best_split


def pack_args(d, a, b, m, n, k, splitk):
    """The 284 bytes of the interface's KernelArgs (addresses as ints)."""
    slot = struct.Struct("<Q8x")
    val = struct.Struct("<I12x")
    out = b"".join(slot.pack(p) for p in (d, 0, a, b))
    out += struct.pack("<f12x", 1.0) + struct.pack("<f12x", 0.0)
    strides = (0, 0, 4 * n, 0, 2 * k, 0, 2 * k, 0)   # D0 D1 C0 C1 A0 A1 B0 B1
    out += b"".join(val.pack(s) for s in strides)
    out += b"".join(val.pack(x) for x in (m, n, k))
    out += struct.pack("<I8x", splitk)
    assert len(out) == ARGS_BYTES
    return out


@dataclass
class Bf16Result:
    """What one launch of AMD's kernel did."""
    kernel: Bf16Kernel
    splitk: int
    grid: tuple
    cycles: int | None
    microseconds: float | None  # the launch's wall time on the device profile
    stats: object
    stores_past_m: bool     # nonzero values stored in D's rows past M
    fill_us: float = 0.0    # device time of the zero fill launched before a split-K GEMM

    @property
    def launches(self):
        """The kernel launches the interface makes: the zero fill (split-K) and the GEMM."""
        return 2 if self.fill_us else 1

    @property
    def total_us(self):
        """Device time of every launch of the call (`launches`)."""
        return self.microseconds + self.fill_us


def _check(x, what):
    import ml_dtypes
    from .. import AsterError
    if not isinstance(x, np.ndarray) or x.ndim != 2 or x.dtype != ml_dtypes.bfloat16:
        raise AsterError(f"aster.aiter.gemm.bf16: {what} must be a 2-D bfloat16 NumPy array")
    return np.ascontiguousarray(x)


def bf16(A, B, *, out=None, splitk=None, kernel=None, arch="gfx942", timing=False,
         strict=False, device=None):
    """D = A @ B.T in float32 by AMD's asm kernel, on the emulator.

    A: M x K bfloat16, B: N x K bfloat16 (aiter's layout). kernel: a tile
    ("64x64") or a kernel symbol instead of the heuristic; splitk: as
    aiter's `splitK` argument. Returns D, or (D, Bf16Result) with timing."""
    from .. import AsterError, _emu
    from ..runtime import _load
    from .wheel import code_object
    A, B = _check(A, "A"), _check(B, "B")
    m, k = A.shape
    n, kb = B.shape
    if kb != k:
        raise AsterError(f"aster.aiter.gemm.bf16: A is {A.shape}, B is {B.shape} (B is N x K)")
    if kernel is None:
        cfg, split = bf16_choice(m, n, k, arch=arch, splitk=splitk)
    else:
        cfgs = [c for c in bf16_kernels(arch) if kernel in (c.tile, c.name)]
        if not cfgs:
            raise AsterError(f"aster.aiter.gemm.bf16: no kernel {kernel!r}")
        cfg, split = cfgs[0], splitk or 1
    if n % cfg.tile_n or k % 64:
        raise AsterError(f"aster.aiter.gemm.bf16: N ({n}) must be a multiple of {cfg.tile_n} "
                         f"and K ({k}) of 64")
    d = out if out is not None else np.empty((m, n), np.float32)
    dev = _emu.Device()
    # The kernel reads A's rows of its last M tile in full (rows past M only
    # feed C rows it does not store) and prefetches past the end of its K
    # range (reads it never uses); on a GPU that memory is whatever follows A
    # and B in torch's allocations, here zeros.
    # Both as allocator slack (aster.launch(slack=)): readable zeros, no writes.
    pa = dev.allocate(A.nbytes, "A", (-(-m // cfg.tile_m) * cfg.tile_m - m) * k * 2 + SLACK)
    dev.write(pa, A.reshape(-1).view(np.uint8))
    pb = dev.allocate(B.nbytes, "B", SLACK)
    dev.write(pb, B.reshape(-1).view(np.uint8))
    # D, zero-filled (aiter's out.zero_() before split-K), to whole M tiles:
    # the kernel stores the last tile's rows past M (past the end of a torch
    # tensor there: what lies after it is overwritten on a GPU)
    mp = -(-m // cfg.tile_m) * cfg.tile_m
    pd = dev.allocate(mp * n * 4, "D")
    grid = (-(-n // cfg.tile_n), -(-m // cfg.tile_m), split)
    co = _load(code_object(arch, f"bf16gemm/{cfg.file}"))
    args = pack_args(pd, pa, pb, m, n, k, split)
    # the code object declares its argument segment rounded up (288 bytes);
    # the bytes past the struct are never read
    args += bytes(max(0, co.kernel(cfg.name).explicit_args_size - len(args)))
    st = dev.launch(co, cfg.name, grid, (256, 1, 1), args,
                    strict=strict, uninitialized="ignore", timing=timing,
                    device=device or "")
    d[...] = np.frombuffer(dev.read(pd, d.nbytes), np.float32).reshape(m, n)
    rest = np.frombuffer(dev.read(pd + d.nbytes, (mp - m) * n * 4), np.float32)
    stray = bool(rest.any())
    if not timing:
        return d
    from ..timing import Trace
    tr = Trace(st.timing, cfg.name)
    fill = 0.0
    if split > 1:       # out.zero_(): its own launch (aster.ops.fill stands in for it)
        from ..ops import fill as _fill
        fill = _fill.zero(np.empty((m, n), np.float32), arch=arch, timing=True,
                          device=device).microseconds
    return d, Bf16Result(cfg, split, grid, tr.cycles, tr.microseconds, st, stray, fill)


# ---- a8w8: int8 A and B, per-token and per-channel f32 scales, f32 bias, bf16 out ----
#
# asm_gemm_a8w8.cu: KernelArgs of 16-byte slots (C, A, B, SA, SB, BIAS, then
# M, N, K, lda = K, ldb = K, ldc = 2 N bytes, ks = 1: 208 bytes, as the code
# object's metadata names them); B is N x K, pre-shuffled with aiter's
# ``shuffle_weight(B, layout=(32, 16))`` (`shuffle_weight`). The heuristic
# (``get_heuristic_kernel``): ``k_split = k_split.value_or(0) ?: 1`` leaves
# the optional set, so every table row (all have splitK = 1) is tried with
# split-K 1 only; for each row with N % tile_N == 0 (libstdc++'s order,
# `I8_TABLE_ORDER`) a row wins on fewer rounds, or on the same rounds with
# fewer idle CUs or a tile_M tile_N / (tile_M + tile_N) above the initial
# 1.0 (never updated, so a later row of the same rounds always wins). Grid
# (N / tile_N, ceil(M / tile_M), 1), block 256; out = C = bf16
# (A @ B.T * SA[m] * SB[n] + BIAS[n]).

I8_TABLE_ORDER = ("192x128", "128x128")   # libstdc++'s unordered_map order (tests)


def a8w8_kernels(arch="gfx942"):
    """AMD's i8 GEMM kernels of `arch` (i8gemm_bf16_perTokenI8.csv) in the
    interface's iteration order."""
    path = hsa_dir(arch) / "i8gemm" / "i8gemm_bf16_perTokenI8.csv"
    with open(path, newline="") as f:
        rows = [Bf16Kernel(r["knl_name"], r["co_name"], int(r["tile_m"]), int(r["tile_n"]), 0)
                for r in csv.DictReader(f) if int(r["bpreshuffle"]) == 1]
    rank = {t: i for i, t in enumerate(I8_TABLE_ORDER)}
    return sorted(rows, key=lambda r: rank.get(r.tile, len(rank)))


def a8w8_choice(m, n, k, *, cus=None, arch="gfx942"):
    """The kernel aiter's a8w8 ``get_heuristic_kernel`` picks (split-K 1)."""
    from ..ops.devices import cus as _cus
    from .. import AsterError
    num_cu = cus or _cus(arch)
    empty_cu, rnd, best = num_cu, 0xFFFFFFFF, None
    for cfg in a8w8_kernels(arch):
        if n % cfg.tile_n:
            continue
        tg = -(-m // cfg.tile_m) * -(-n // cfg.tile_n)
        local_round = -(-tg // num_cu)
        idle = local_round * num_cu - tg
        better_effi = float(cfg.tile_m * cfg.tile_n // (cfg.tile_m + cfg.tile_n)) > 1.0
        if local_round < rnd or (local_round == rnd and (empty_cu > idle or better_effi)):
            rnd, empty_cu, best = local_round, idle, cfg
    if best is None:
        raise AsterError(f"AMD's a8w8 asm GEMM has no kernel for N = {n} "
                         f"(N must be a multiple of 128)")
    return best


def shuffle_weight(b, layout=(32, 16)):
    """B (N x K, 1-byte elements) in the order aiter's shuffle_weight puts it:
    blocks of layout[0] rows x 2 layout[1] bytes, each stored as 2 groups of
    16-byte row pieces (N % layout[0] == 0, K % (2 layout[1]) == 0)."""
    from .. import AsterError
    n, k = b.shape
    bn, bk = layout[0], 2 * layout[1]
    if n % bn or k % bk or b.itemsize != 1:
        raise AsterError(f"shuffle_weight: B must be 1-byte elements with N % {bn} == 0 and "
                         f"K % {bk} == 0, got {b.shape} {b.dtype}")
    x = np.ascontiguousarray(b).reshape(n // bn, bn, k // bk, bk // 16, 16)
    return np.ascontiguousarray(x.transpose(0, 2, 3, 1, 4)).reshape(n, k)


def pack_a8w8_args(c, a, b, sa, sb, bias, m, n, k):
    """The 208 bytes of asm_gemm_a8w8.cu's KernelArgs (addresses as ints)."""
    slot = struct.Struct("<Q8x")
    val = struct.Struct("<I12x")
    out = b"".join(slot.pack(p) for p in (c, a, b, sa, sb, bias))
    out += b"".join(val.pack(x) for x in (m, n, k, k, k, 2 * n, 1))
    return out


def a8w8(A, B, scale_a, scale_b, bias=None, *, arch="gfx942", timing=False, kernel=None,
         strict=False, device=None):
    """C = bf16(A @ B.T * scale_a[m] * scale_b[n] + bias[n]) by AMD's asm
    kernel on the emulator. A: M x K int8, B: N x K int8 (unshuffled: this
    shuffles it as aiter's users must), scale_a: M float32, scale_b: N
    float32, bias: N float32 (zeros when None, as aiter's wrapper asks).
    Returns C (bfloat16), or (C, Bf16Result) with timing."""
    import ml_dtypes
    from .. import AsterError, _emu
    from ..runtime import _load
    from .wheel import code_object
    for x, what in ((A, "A"), (B, "B")):
        if not isinstance(x, np.ndarray) or x.ndim != 2 or x.dtype != np.int8:
            raise AsterError(f"aster.aiter.gemm.a8w8: {what} must be a 2-D int8 NumPy array")
    m, k = A.shape
    n, kb = B.shape
    if kb != k:
        raise AsterError(f"aster.aiter.gemm.a8w8: A is {A.shape}, B is {B.shape} (B is N x K)")
    sa = np.ascontiguousarray(scale_a, np.float32).reshape(-1)
    sb = np.ascontiguousarray(scale_b, np.float32).reshape(-1)
    bi = np.zeros(n, np.float32) if bias is None else \
        np.ascontiguousarray(bias, np.float32).reshape(-1)
    if sa.size != m or sb.size != n or bi.size != n:
        raise AsterError("aster.aiter.gemm.a8w8: scale_a needs M values, scale_b and bias N")
    if kernel is None:
        cfg = a8w8_choice(m, n, k, arch=arch)
    else:
        cfgs = [c for c in a8w8_kernels(arch) if kernel in (c.tile, c.name)]
        if not cfgs:
            raise AsterError(f"aster.aiter.gemm.a8w8: no kernel {kernel!r}")
        cfg = cfgs[0]
    if n % cfg.tile_n:
        raise AsterError(f"aster.aiter.gemm.a8w8: N ({n}) must be a multiple of {cfg.tile_n}")
    bs = shuffle_weight(B)
    dev = _emu.Device()
    mp = -(-m // cfg.tile_m) * cfg.tile_m

    def put(arr, name, nbytes=None):
        # Inputs: what the kernel reads past them is allocator slack
        # (aster.launch(slack=)): readable zeros, no writes.
        addr = dev.allocate(arr.nbytes, name, (nbytes or arr.nbytes) - arr.nbytes + SLACK)
        dev.write(addr, np.ascontiguousarray(arr).reshape(-1).view(np.uint8))
        return addr
    pa = put(A, "A", mp * k)
    pb = put(bs, "B")
    psa = put(sa, "SA", mp * 4)
    psb, pbias = put(sb, "SB"), put(bi, "BIAS")
    pc = dev.allocate(mp * n * 2 + SLACK, "C")
    grid = (n // cfg.tile_n, -(-m // cfg.tile_m), 1)
    co = _load(code_object(arch, f"i8gemm/{cfg.file}"))
    args = pack_a8w8_args(pc, pa, pb, psa, psb, pbias, m, n, k)
    args += bytes(max(0, co.kernel(cfg.name).explicit_args_size - len(args)))
    st = dev.launch(co, cfg.name, grid, (256, 1, 1), args, strict=strict,
                    uninitialized="ignore", timing=timing, device=device or "")
    c = np.frombuffer(dev.read(pc, m * n * 2), np.uint16).reshape(m, n).view(ml_dtypes.bfloat16)
    c = c.copy()
    if not timing:
        return c
    from ..timing import Trace
    tr = Trace(st.timing, cfg.name)
    return c, Bf16Result(cfg, 1, grid, tr.cycles, tr.microseconds, st, False)
