"""AMD's asm fused-MoE kernels, launched the way aiter's interface code
launches them: the stage-1 kernels of the 2-stage path (``fmoe_stage1_*``,
`launch_stage1` for timing with the tuner's shapes, `run_stage1` with data)
and the 1-stage kernels (``fmoe_*`` of asm_fmoe.cu's ``fmoe_g1u1``,
`run_g1u1`), with the routing buffers of aiter's moe_sorting
(`sort_routing`) and its weight layout (`shuffle_weight`). What the kernels
compute and the slack they need: tests/py/aiter/test_aiter_fmoe.py.

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

from .kernargs import launch, struct_layout
from .wheel import code_object, hsa_dir

__all__ = ["Stage1", "stage1_kernels", "route", "moe_sorting", "launch_stage1", "SLACK",
           "sort_routing", "OneStage", "one_stage_kernels", "run_g1u1", "run_stage1"]

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


def moe_sorting(topk_ids, experts, block_m, topk_weights=None):
    """(sorted_ids, sorted_weights, sorted_expert_ids, num_valid_ids) as
    aiter's moe_sorting lays them out (see sort_routing): per expert in
    order, its (token, slot) pairs padded to a multiple of block_m; weights
    from `topk_weights` (all 1 without it), 0 for padding."""
    m, topk = topk_ids.shape
    max_padded = topk_ids.size + experts * block_m - topk
    max_blocks = -(-max_padded // block_m)
    pad = m | topk << 24
    sorted_ids = np.full(max_padded, pad, np.int32)
    sorted_experts = np.zeros(max_blocks, np.int32)
    weights = np.zeros(max_padded, np.float32)
    pos = 0
    for e in range(experts):
        tok, slot = np.nonzero(topk_ids == e)
        if not len(tok):
            continue
        ids = tok | slot << 24
        sorted_ids[pos:pos + len(ids)] = ids
        weights[pos:pos + len(ids)] = 1.0 if topk_weights is None else topk_weights[tok, slot]
        blocks = -(-len(ids) // block_m)
        sorted_experts[pos // block_m:pos // block_m + blocks] = e
        pos += blocks * block_m
    num_valid = np.array([pos, m], np.int32)
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


# ---------------------------------------------------------------------------
# Routing as aiter's moe_sorting produces it, and the kernels with real data:
# the 1-stage asm kernels (``fmoe_g1u1``) and stage 1 of the 2-stage path.
# ---------------------------------------------------------------------------

BLOCK_M_1STAGE = 32     # fused_moe_bf16_asm.py: BLOCK_SIZE_M (the 1-stage kernels' tile_m)
ACTIVATIONS = {"silu": 0, "gelu": 1}    # csrc/include/aiter_enum.h: ActivationType
_SRC_1STAGE = "aiter_meta/csrc/py_itfs_cu/asm_fmoe.cu"
_SRC_2STAGE = "aiter_meta/csrc/py_itfs_cu/asm_moe_2stage.cu"


def sort_routing(topk_ids, topk_weights, experts, block_m):
    """(sorted_ids, sorted_weights, sorted_expert_ids, num_valid_ids) exactly
    as aiter's ``moe_sorting_fwd`` fills them (CK's moe_sorting, whose host
    reference is ``ck_tile/host/reference/reference_moe_sorting.hpp`` with
    ``CK_TILE_REFERENCE_MOE_SORTING_MOCK_ID`` 1, the library's setting):
    experts in order, an expert without tokens skipped; within an expert its
    (token, slot) pairs in token-then-slot order, each id ``token | slot <<
    24`` with its weight, padded to a multiple of `block_m` with id ``M |
    topk << 24`` and weight 0; one expert id per block; ``num_valid_ids`` =
    [padded count, M]. Sizes as ``moe_sorting_ck`` allocates them
    (``topk*M + E*block_m - topk`` ids); entries past the valid count are
    what the GPU leaves there (``torch.empty``): here padding ids, weight 0
    and expert 0, never read by the kernels (they stop at num_valid_ids)."""
    topk_ids = np.asarray(topk_ids)
    topk_weights = np.asarray(topk_weights, np.float32)
    if topk_ids.ndim != 2 or topk_weights.shape != topk_ids.shape:
        raise ValueError(f"topk_ids and topk_weights must be [M, topk] of one shape, got "
                         f"{topk_ids.shape}, {topk_weights.shape}")
    if topk_ids.size and (topk_ids.min() < 0 or topk_ids.max() >= experts):
        raise ValueError(f"topk_ids must lie in [0, {experts})")
    return moe_sorting(topk_ids, experts, block_m, topk_weights)


@dataclass(frozen=True)
class OneStage:
    """One 1-stage kernel of the wheel (a row of a ``fmoe/<act>/*.csv``)."""
    name: str        # the kernel symbol (knl_name)
    code: str        # its code object, relative to hsa/<arch>
    table: str       # the csv's stem: cfg_<table> in asm_fmoe_configs.hpp
    vskip: int
    smf: int
    tg_num_per_cu: int
    ps: int          # persistent: grid of tg_num_per_cu * CUs workgroups
    sub_m: int
    sub_n: int       # sub_GU: columns of inter_dim per workgroup


@functools.lru_cache(maxsize=None)
def one_stage_kernels(arch="gfx942"):
    """name -> OneStage for every row of the wheel's 1-stage tables
    (``hsa/<arch>/fmoe/**/*.csv``, as ``fmoe/codegen.py`` turns them into
    asm_fmoe_configs.hpp: the code object is the csv's folder + knl_file)."""
    out = {}
    root = hsa_dir(arch)
    for table in sorted((root / "fmoe").rglob("*.csv")):
        folder = table.parent.relative_to(root).as_posix()
        with open(table) as f:
            for row in csv.DictReader(f):
                out[row["knl_name"]] = OneStage(
                    row["knl_name"], f"{folder}/{row['knl_file']}", table.stem,
                    int(row["vskip"]), int(row["smf"]), int(row["tg_num_perCU"]),
                    int(row["ps"]), int(row["subGU_m"]), int(row["subGU_n"]))
    return out


def _check(name, a, dtype, shape):
    if not isinstance(a, np.ndarray) or a.dtype != np.dtype(dtype) or a.shape != tuple(shape):
        got = f"{a.dtype} {a.shape}" if isinstance(a, np.ndarray) else type(a).__name__
        raise ValueError(f"{name} must be a NumPy array of {np.dtype(dtype)}, shape "
                         f"{tuple(shape)}; got {got}")


def shuffle_weight(w, layout=(16, 16)):
    """aiter's ``shuffle_weight`` (``aiter/ops/shuffle.py``) for 1-byte
    elements: the last two axes [N, K] become blocks of (layout[0] rows x
    2*layout[1] columns), each stored as 2 x layout[0] x 16 bytes (the
    16-byte K packs of one row side by side). asm_moe's callers shuffle w1
    and w2 this way (``op_tests/test_moe.py``: ``shuffle_weight(w1)``)."""
    bn, bk = layout[0], 2 * layout[1]
    n, k = w.shape[-2:]
    if w.itemsize != 1 or n % bn or k % bk:
        raise ValueError(f"shuffle_weight: 1-byte [.., N, K] with N % {bn} == 0 and "
                         f"K % {bk} == 0, got {w.dtype} {w.shape}")
    v = w.reshape(-1, n // bn, bn, k // bk, bk // 16, 16).transpose(0, 1, 3, 4, 2, 5)
    return np.ascontiguousarray(v).reshape(w.shape)


def _bf16():
    import ml_dtypes
    return np.dtype(ml_dtypes.bfloat16)


def run_g1u1(a8, a8_scale, w1, w1_scale, w2, w2_scale, topk_ids, topk_weights, *, kernel,
             arch="gfx942", timing=False, device="emu", slack=0):
    """AMD's 1-stage fused MoE, per-token int8, gate and up in one weight
    (``fmoe_g1u1`` of asm_fmoe.cu, as ``asm_moe`` calls it for int8 weights
    without smoothing: fc2_smooth_scale None, so smf 0), bf16 output.

    a8 [M, dim] int8 and a8_scale [M] f32 (the per-token quantised input,
    x ~ a8 * a8_scale); w1 [E, 2*inter, dim] int8 (gate rows, then up rows),
    w1_scale [E, 2*inter] f32 per row; w2 [E, dim, inter] int8, w2_scale
    [E, dim] f32 per row; topk_ids/topk_weights [M, topk] (from
    aster.aiter.topk_softmax or any router). `kernel`: a kernel name of the
    ``fmoe_bf16_pertokenInt8_g1u1_<act>`` tables (the interface's
    ``kernel_name``; the activation is the table's). Returns ``(out [M, dim]
    bf16, launch_result)``; `out` starts at zero as moe_sorting leaves it."""
    k = one_stage_kernels(arch).get(kernel)
    if k is None or not k.table.startswith("fmoe_bf16_pertokenInt8_g1u1_") or \
            k.table.endswith("tkw1"):
        raise ValueError(f"{kernel!r} is not a kernel of the wheel's "
                         f"fmoe_bf16_pertokenInt8_g1u1_{{silu,gelu}} tables for {arch}")
    if k.ps:
        raise ValueError(f"{kernel} is a persistent kernel (ps=1): its grid depends on the "
                         "device's CU count; pick a non-persistent one")
    if k.smf:
        raise ValueError(f"{kernel}: smooth-quant kernels (smf={k.smf}) take fc2_smooth_scale, "
                         "which run_g1u1 does not pass")
    if not isinstance(w2, np.ndarray) or w2.ndim != 3:
        raise ValueError("w2 must be an int8 [E, dim, inter] array")
    e, dim, inter = w2.shape
    m = a8.shape[0] if isinstance(a8, np.ndarray) and a8.ndim == 2 else -1
    _check("a8", a8, np.int8, (m, dim))
    _check("a8_scale", a8_scale, np.float32, (m,))
    _check("w1", w1, np.int8, (e, 2 * inter, dim))
    _check("w1_scale", w1_scale, np.float32, (e, 2 * inter))
    _check("w2_scale", w2_scale, np.float32, (e, dim))
    if inter % k.sub_n:
        raise ValueError(f"{kernel}: inter_dim {inter} is not a multiple of its sub_GU {k.sub_n}")
    topk = np.asarray(topk_ids).shape[1] if np.ndim(topk_ids) == 2 else 0
    _check("topk_ids", np.asarray(topk_ids, np.int32), np.int32, (m, topk))
    ids, weights, experts_of, valid = sort_routing(topk_ids, topk_weights, e, BLOCK_M_1STAGE)
    out = np.zeros((m, dim), _bf16())
    ps_deno = -(-inter // k.sub_n)
    packed = struct_layout(_SRC_1STAGE).pack(
        ptr_O=out, ptr_X=np.ascontiguousarray(a8), ptr_GU=shuffle_weight(w1),
        ptr_XC=valid, ptr_D=shuffle_weight(w2), ptr_XQ=np.ascontiguousarray(a8_scale),
        ptr_GUQ=np.ascontiguousarray(w1_scale), ptr_DQ=np.ascontiguousarray(w2_scale),
        ptr_SMQ=None, ptr_STP=ids, ptr_SW=weights, ptr_SEP=experts_of,
        dim=dim, inter_dim=inter, token_cnt=m, eprt_cnt=e,
        Xs=dim, GUs=dim, Ds=inter, Os=dim * 2,            # strides in bytes (int8 in, bf16 out)
        eGUs=dim * inter * 2,                             # stride_GU * inter_dim, x2 for g1u1
        eDs=inter * dim, eGUQs=2 * inter * 4,             # w1_scale.stride(0) * 4
        eDQs=dim * 4, eSMQs=inter * 4, topk=topk,
        ps_deno=ps_deno, total_tgs=0)                     # non-persistent launch
    grid = (ps_deno, len(experts_of), 1)
    r = launch(arch, k.code, kernel, grid, (256, 1, 1), packed, timing=timing, device=device,
               slack=slack)
    return out, r


def run_stage1(a8, a8_scale, w1, w1_scale, topk_ids, topk_weights, *, kernel,
               activation="silu", arch="gfx942", timing=False, device="emu", slack=0):
    """Stage 1 of aiter's 2-stage fused MoE with AMD's asm kernel
    (``moe_stage1_g1u1`` of asm_moe_2stage.cu, per-token int8 input and
    weights, as ``asm_stage1`` calls it with ksplit 0: the kernel applies the
    activation): ``out[t, k] = act(gate) * up`` of token t through its k-th
    expert, bf16 [M, topk, inter]. Inputs as for `run_g1u1` (w1 logical
    [E, 2*inter, dim], shuffled here); `kernel` a name of the
    ``fmoe_stage1_bf16_pertokenInt8_g1u1`` table (its tile_m is the sorting
    block); `activation` "silu" or "gelu". The routing weights only shape the
    sorting (this table is not ``doweight``: stage 2 applies them). Returns
    ``(out, launch_result)``."""
    k = stage1_kernels(arch).get(kernel)
    if k is None or k.table != "fmoe_stage1_bf16_pertokenInt8_g1u1":
        raise ValueError(f"{kernel!r} is not a kernel of the wheel's "
                         f"fmoe_stage1_bf16_pertokenInt8_g1u1 table for {arch}")
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {sorted(ACTIVATIONS)}, got {activation!r}")
    if not isinstance(w1, np.ndarray) or w1.ndim != 3 or w1.shape[1] % 2:
        raise ValueError("w1 must be an int8 [E, 2*inter, dim] array")
    e, inter, dim = w1.shape[0], w1.shape[1] // 2, w1.shape[2]
    m = a8.shape[0] if isinstance(a8, np.ndarray) and a8.ndim == 2 else -1
    _check("a8", a8, np.int8, (m, dim))
    _check("a8_scale", a8_scale, np.float32, (m,))
    _check("w1", w1, np.int8, (e, 2 * inter, dim))
    _check("w1_scale", w1_scale, np.float32, (e, 2 * inter))
    if inter % k.tile_n:
        raise ValueError(f"{kernel}: inter_dim {inter} is not a multiple of its tile_n {k.tile_n}")
    topk = np.asarray(topk_ids).shape[1] if np.ndim(topk_ids) == 2 else 0
    _check("topk_ids", np.asarray(topk_ids, np.int32), np.int32, (m, topk))
    ids, _, experts_of, valid = sort_routing(topk_ids, topk_weights, e, k.tile_m)
    out = np.zeros((m, topk, inter), _bf16())
    packed = struct_layout(_SRC_2STAGE).pack(
        ptr_O=out, ptr_X=np.ascontiguousarray(a8), ptr_GU=shuffle_weight(w1), ptr_XC=valid,
        ptr_XQ=np.ascontiguousarray(a8_scale), ptr_GUQ=np.ascontiguousarray(w1_scale),
        ptr_SMQ=None, ptr_STP=ids, ptr_SEP=experts_of, ptr_SW=None,
        dim=dim, hidden_dim=inter, token_cnt=m, eprt_cnt=e,
        Xs=dim, GUs=dim,                                  # bytes (int8)
        Os=topk * inter * 2,                              # out.stride(0) * 2 (bf16)
        eGUs=dim * inter * 2,                             # stride_GU * inter_dim, x2 for g1u1
        eGUQs=2 * inter * 4, eSMQs=inter * 4, topk=topk, splitk=0,
        activation=ACTIVATIONS[activation])
    grid = (inter // k.tile_n, len(experts_of), 1)       # ksplit 0: one K split
    r = launch(arch, f"{_FAMILY}/{k.code}", kernel, grid, (256, 1, 1), packed, timing=timing,
               device=device, slack=slack)
    return out, r
