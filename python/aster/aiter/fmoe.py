"""AMD's asm stage-1 fused-MoE kernels (``fmoe_stage1_*``), launched the way
aiter's interface code launches them.

What each part follows (the amd-aiter wheel, read as files, nothing imported):

* the kernels: ``aiter_meta/hsa/<arch>/fmoe_2stages/*.csv`` name each kernel
  (``knl_name``), its code object (``co_name``) and its tile (``tile_m`` rows of
  sorted tokens, ``tile_n`` columns of the intermediate dimension);
* the launch: ``aiter_meta/csrc/py_itfs_cu/asm_moe_2stage.cu``
  (``moe_stage1_g1u1``): the packed ``KernelArgs`` (every pointer padded to
  16 bytes, every 32-bit value to 16), the strides it computes, the grid
  (``inter_dim / tile_n`` x ``max_num_m_blocks`` x ``2**ksplit``) of 256
  work-items;
* the routing buffers: ``aiter/fused_moe.py`` (``moe_sorting``: sizes
  ``topk*M + E*block_m - topk`` sorted ids and one expert id per ``block_m``
  of them), and CK's moe_sorting format (an id is ``token | topk_slot << 24``;
  padding is ``M | topk << 24``; ``num_valid_ids[0]`` the padded count);
* the data the tuner measured with (``aiter_meta/hsa/gfx942/fmoe_2stages/
  tune.py``): random routing of ``token`` tokens to ``topk`` of ``expert``
  experts, bf16 output ``[token, topk, inter_dim]``. The kernels' timing does
  not depend on the values (only on the routing), so the inputs are zeros.

AMD's kernels read past the end of some arrays (a padding id's token row
is row ``M`` of the input): every buffer gets ``SLACK`` bytes more, as the
allocator's granularity gives them on a GPU; strict mode stays on.
"""
from __future__ import annotations

import csv
import functools
import struct
from dataclasses import dataclass

import numpy as np

from .wheel import code_object, hsa_dir

__all__ = ["Stage1", "stage1_kernels", "route", "moe_sorting", "launch_stage1", "SLACK"]

SLACK = 64 * 1024   # bytes after every buffer (allocation granularity on a GPU)
_FAMILY = "fmoe_2stages"


@dataclass(frozen=True)
class Stage1:
    """One stage-1 kernel of the wheel."""
    name: str        # the kernel symbol (knl_name)
    code: str        # its code object, relative to hsa/<arch>/fmoe_2stages
    tile_m: int
    tile_n: int
    table: str       # the csv it is listed in (its quantisation family)

    @property
    def doweight(self):
        return "doweight" in self.table


@functools.lru_cache(maxsize=None)
def stage1_kernels(arch="gfx942"):
    """name -> Stage1 for every kernel the wheel's stage-1 tables list."""
    out = {}
    for table in sorted((hsa_dir(arch) / _FAMILY).glob("fmoe_stage1_*.csv")):
        with open(table) as f:
            for row in csv.DictReader(f):
                out[row["knl_name"]] = Stage1(row["knl_name"], row["co_name"],
                                              int(row["tile_m"]), int(row["tile_n"]),
                                              table.stem)
    return out


def route(tokens, experts, topk, seed=0):
    """topk distinct experts per token, uniformly at random (the tuner routes
    random scores through top-k): a (tokens, topk) int32 array."""
    rng = np.random.default_rng(seed)
    return np.stack([rng.choice(experts, topk, replace=False) for _ in range(tokens)]
                    ).astype(np.int32).reshape(tokens, topk)


def moe_sorting(topk_ids, experts, block_m):
    """(sorted_ids, sorted_weights, sorted_expert_ids, num_valid_ids) as
    aiter's moe_sorting lays them out: per expert in order, its (token,
    slot) pairs padded to a multiple of block_m."""
    m, topk = topk_ids.shape
    max_padded = topk_ids.size + experts * block_m - topk
    max_blocks = -(-max_padded // block_m)
    pad = m | topk << 24
    sorted_ids = np.full(max_padded, pad, np.int32)
    sorted_experts = np.zeros(max_blocks, np.int32)
    pos = 0
    for e in range(experts):
        tok, slot = np.nonzero(topk_ids == e)
        if not len(tok):
            continue
        ids = tok | slot << 24
        sorted_ids[pos:pos + len(ids)] = ids
        blocks = -(-len(ids) // block_m)
        sorted_experts[pos // block_m:pos // block_m + blocks] = e
        pos += blocks * block_m
    num_valid = np.array([pos, m], np.int32)
    weights = np.full(max_padded, 1.0, np.float32)
    return sorted_ids, weights, sorted_experts, num_valid


def _kernargs(ptrs, values):
    """asm_moe_2stage.cu KernelArgs: 9 pointers (each + p2), 13 uint32 (each
    + p3), ptr_SW (+ p2)."""
    data = b"".join(struct.pack("<Q8x", p) for p in ptrs[:9])
    data += b"".join(struct.pack("<I12x", v) for v in values)
    data += struct.pack("<Q8x", ptrs[9])
    assert len(data) == 368
    return data


def launch_stage1(name, token, model_dim, inter_dim, expert, topk, *, arch="gfx942",
                  device=None, timing=True, seed=0, activation=0):
    """Runs stage-1 kernel `name` on a problem of the tuner's shape (fp8 or
    int8 per-token quantised input and weights, g1u1: gate and up weights
    [expert, 2*inter_dim, model_dim]) with `topk` of `expert` experts per
    token routed at random; returns the emulator's LaunchStats (with
    timing: `.timing` the timing model's result on `device`)."""
    from .. import _emu
    from ..runtime import _load
    k = stage1_kernels(arch).get(name)
    if k is None:
        raise KeyError(f"no stage-1 fMoE kernel {name!r} in the wheel for {arch}")
    if inter_dim % k.tile_n:
        raise ValueError(f"{name}: inter_dim {inter_dim} is not a multiple of {k.tile_n}")
    ids, weights, experts_of, valid = moe_sorting(route(token, expert, topk, seed), expert,
                                                  k.tile_m)
    co = _load(code_object(arch, f"{_FAMILY}/{k.code}"))
    dev = _emu.Device()

    def buf(nbytes, name, data=None):
        # Inputs get allocator slack (aster.launch(slack=): readable zeros,
        # no writes); outputs their slack as writable bytes.
        addr = (dev.allocate(int(nbytes), name, SLACK) if data is not None
                else dev.allocate(int(nbytes) + SLACK, name))
        if data is not None:
            dev.write(addr, np.ascontiguousarray(data).reshape(-1).view(np.uint8))
        return addr

    out_bytes = token * topk * inter_dim * 2                         # bf16
    p = dict(
        O=buf(out_bytes, "out"),
        X=buf(token * model_dim, "input"),                           # 1-byte quantised
        GU=buf(expert * 2 * inter_dim * model_dim, "w1"),
        XC=buf(8, "num_valid_ids", valid),
        XQ=buf(token * 4, "a1_scale"),
        GUQ=buf(expert * 2 * inter_dim * 4, "w1_scale"),
        SMQ=0,
        STP=buf(ids.nbytes, "sorted_token_ids", ids),
        SEP=buf(experts_of.nbytes, "sorted_expert_ids", experts_of),
        SW=buf(weights.nbytes, "sorted_weights", weights) if k.doweight else 0)
    stride_x = model_dim
    stride_gu = model_dim                                           # dim * w1.element_size()
    values = [model_dim, inter_dim, token, expert, stride_x, stride_gu,
              topk * inter_dim * 2,                                 # stride_O (bf16 out)
              stride_gu * inter_dim * 2,                            # eGUs (g1u1: x2)
              2 * inter_dim * 4,                                    # eGUQs: w1_scale.stride(0) * 4
              inter_dim * 4, topk, 0, activation]
    args = _kernargs([p[n] for n in ("O", "X", "GU", "XC", "XQ", "GUQ", "SMQ", "STP", "SEP",
                                     "SW")], values)
    grid = (inter_dim // k.tile_n, len(experts_of), 1)
    return dev.launch(co, name, grid, (256, 1, 1), args, timing=timing, device=device or "")
