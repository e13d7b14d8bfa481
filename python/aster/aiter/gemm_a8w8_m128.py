"""AMD's first asm int8 GEMM (``gemm_a8w8_m128_splitK.co`` and
``gemm_a8w8_m128_noSplitK.co`` in ``aiter_meta/hsa/gfx942``, kernel
``gemm_kernel_func``), launched as aiter's first interface launched it: the
kernels whose times ``aiter/configs/asm_a8w8_gemm.csv`` (column ``us``)
records.

What the launch follows (aiter's sources of that time, ROCm/aiter pull
request 28 "Gemm a8w8 asm": ``csrc/py_itfs_cu/asm_gemm_a8w8.cu`` and
``aiter/ops/gemm_op_a8w8.py``; the wheel ships the two code objects but no
longer that interface):

* ``gemm_a8w8_ASM`` looks (M, N, K, bias, dtype) up in asm_a8w8_gemm.csv and
  passes its ``splitK`` to ``gemm_a8w8_asm(..., sub_m=128, sub_n=128,
  splitK)``; ``splitK > 0`` launches the splitK code object, else the
  noSplitK one;
* KernelArgs (16-byte slots, as the code objects' metadata names them):
  C, A, B, SA, SB, BIAS, M, N, K, lda = K, ldb = K, ldc = 2 N bytes,
  ks = splitK; 208 bytes;
* grid: ``N / 128`` x ``M / 128`` (integer division: the rows past the last
  whole tile are not computed) tiles, each split in 2**splitK workgroups
  along K, block 256. The interface of the time (``GemmA8W8Kernel``, aiter's
  ``ater`` era) launched ``(N / 128, (M / 128) << splitK, 1)``; the wheel's
  code object takes the split from workgroup_id_x (``s_lshr_b32`` of it by
  KS, its K slice from the low bits), as the later interface launches it
  (``((N / 128) << splitK, ceil(M / 128), 1)``): here the ater-era tiles
  with the split on x, the same workgroups as the kernel decodes them. The
  table's times say which tile count ran: M = 192 took as long as 128
  (13.90 / 13.85 us) and 320 as long as 256 (25.56 / 25.54 us);
* A: M x K int8, B: N x K int8 shuffled with ``shuffle_weight(B, (32, 16))``
  (`aster.aiter.gemm.shuffle_weight`), scales f32 (M and N), bias f32 N, C:
  M x N bf16 (``torch.empty``: the split-K kernel's partial sums are not
  zero-filled first). Timing does not depend on the values: zeros.

The kernels read A's last 128-row tile whole: A gets the rows up to a whole
tile plus `SLACK` as readable allocator slack (aster.launch(slack=)).
"""
from __future__ import annotations

import struct

import numpy as np

from .wheel import code_object

__all__ = ["TILE", "SLACK", "launch", "pack_args"]

TILE = 128              # sub_m = sub_n = 128 (the interface's defaults)
SLACK = 64 * 1024       # readable bytes after every input (allocation granularity)
KERNEL = "gemm_kernel_func"


def pack_args(c, a, b, sa, sb, bias, m, n, k, splitk):
    """The 208 bytes of the first asm_gemm_a8w8.cu's KernelArgs."""
    slot, val = struct.Struct("<Q8x"), struct.Struct("<I12x")
    out = b"".join(slot.pack(p) for p in (c, a, b, sa, sb, bias))
    out += b"".join(val.pack(x) for x in (m, n, k, k, k, 2 * n, splitk))
    assert len(out) == 208
    return out


def launch(m, n, k, splitk, *, device="mi308x", timing=True, strict=True, data=None):
    """Runs AMD's m128 int8 GEMM on an M x N x K problem with the table's
    `splitK` (a shift: 2**splitK workgroups per output tile) on the timing
    model's `device`; returns the emulator's LaunchStats. The inputs are
    zeros (the timing does not depend on them) unless `data` = (A int8 M x K,
    B int8 N x K unshuffled, scale_a f32 M, scale_b f32 N, bias f32 N): then
    returns (LaunchStats, C as uint16 bf16 bits, M x N)."""
    from .. import AsterError, _emu
    from ..runtime import _load
    if n % TILE or k % TILE:
        raise AsterError(f"gemm_a8w8_m128: N ({n}) and K ({k}) must be multiples of {TILE}")
    if not 0 <= splitk <= 6:
        raise AsterError(f"gemm_a8w8_m128: splitK is a shift of 0..6, got {splitk}")
    co = _load(code_object("gfx942", "gemm_a8w8_m128_splitK.co" if splitk
                           else "gemm_a8w8_m128_noSplitK.co"))
    dev = _emu.Device()
    if m < TILE:
        raise AsterError(f"gemm_a8w8_m128: M ({m}) below one tile of {TILE} launches nothing")
    mp = -(-m // TILE) * TILE

    def inp(nbytes, name, readable):
        return dev.allocate(int(nbytes), name, int(readable - nbytes + SLACK))
    pa = inp(m * k, "A", mp * k)
    pb = inp(n * k, "B", n * k)
    psa = inp(m * 4, "SA", mp * 4)
    psb = inp(n * 4, "SB", n * 4)
    pbias = inp(n * 4, "BIAS", n * 4)
    pc = dev.allocate(mp * n * 2 + SLACK, "C")
    if data is not None:
        from .gemm import shuffle_weight
        a, b, sa, sb, bias = data
        for addr, x in ((pa, a), (pb, shuffle_weight(b)), (psa, sa), (psb, sb), (pbias, bias)):
            dev.write(addr, np.ascontiguousarray(x).reshape(-1).view(np.uint8))
    args = pack_args(pc, pa, pb, psa, psb, pbias, m, n, k, splitk)
    grid = ((n // TILE) << splitk, m // TILE, 1)
    st = dev.launch(co, KERNEL, grid, (256, 1, 1), args, strict=strict,
                    uninitialized="ignore", timing=timing, device=device)
    if data is None:
        return st
    return st, np.frombuffer(dev.read(pc, m * n * 2), np.uint16).reshape(m, n)
