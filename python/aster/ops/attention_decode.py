"""aster.ops.attention_decode: attention for decoding (one or a few query
tokens against a long KV) as split-KV FlashAttention
(aster.generators.attention_decode): a split kernel over chunks of the keys
and a kernel merging the chunks by their LSE.

    O = aster.ops.attention_decode(q, k, v)                    # (b, h, sq, d) f32
    (O, lse), r = aster.ops.attention_decode(q, k, v, lse=True, timing=True)
    r.microseconds, r.splits, r.launches                      # both kernels' time

q (batch, heads, seq_q, d) with seq_q 1..16, k and v (batch, kv_heads,
seq_k, d) contiguous (not paged): NumPy float16 or bfloat16, one dtype, d
64 or 128, heads a multiple of kv_heads; the query heads of one kv head
and their tokens are the rows of one MFMA block (GQA packed as rows).
scale (default 1/sqrt(d)) positive and finite; causal: bottom-right
aligned per token (token i sees keys j <= i + seq_k - seq_q). The caller's
arrays are never written.

Split choice (`decode_plan`): floor(2 CUs / (batch kv_heads query-blocks))
splits (a workgroup of one wave per split and query block: two per CU),
at most 16 (the merge reads 16 splits per trip) and at most one per two
KV tiles; one split skips the merge (the split kernel writes O and LSE).
Measured on the timing model (MI300X, bf16 d128, 8:1 GQA):
1x64x8x1024 16 splits 13.0 us (8: 14.9, 32: 13.0); 16x64x8x4096 4 splits
79.8 us (2: 83.0); 64x64x8x1024 1 split 75.0 us (2: 88.9)."""
import functools
import math
from dataclasses import dataclass, field

import numpy as np

from ..generators.attention_decode import DecodeConfig, compile_config
from .attention import _dtype_name

__all__ = ["attention_decode", "decode_plan", "DecodePlan", "DecodeResult", "MAX_SEQ_Q",
           "MAX_SPLITS"]

MAX_SEQ_Q = 16          # the causal mask's row -> token modulo is exact to 16 (attention_decode_gen)
MAX_SPLITS = 16         # the merge kernel's loads per trip (attention_decode_gen.UNROLL)


@dataclass(frozen=True)
class DecodePlan:
    """One decode launch: the split kernel's config, its splits and keys per
    split (a multiple of the config's KV tile)."""
    config: DecodeConfig
    rows: int
    splits: int
    chunk: int


@dataclass
class DecodeResult:
    """The timing of a decode: both launches' LaunchResults (one when a
    single split skips the merge) and their summed device time."""
    plan: DecodePlan
    launches: list = field(default_factory=list)

    @property
    def microseconds(self):
        return sum(r.microseconds for r in self.launches)

    @property
    def splits(self):
        return self.plan.splits

    @property
    def config(self):
        return self.plan.config


def decode_plan(dtype, d, causal, batch, heads, kv_heads, seq_q, seq_k, target="gfx942",
                device=None, splits=None):
    """The DecodePlan attention_decode launches (module doc); `splits`
    overrides the choice (rounded so that every split has keys)."""
    from .devices import cus
    rows = heads // kv_heads * seq_q
    waves = 1 if rows <= 32 else 2 if rows <= 64 else 4
    cfg = DecodeConfig(dtype=dtype, d=d, causal=bool(causal), waves=waves,
                       kv=32 if d == 128 else 64, arch=target)
    tiles = -(-seq_k // cfg.kv)
    blocks = batch * kv_heads * -(-rows // cfg.block_q)
    if splits is None:
        splits = min(2 * cus(target, device) // blocks, MAX_SPLITS, tiles // 2)
    splits = max(1, min(int(splits), tiles))
    chunk = -(-tiles // splits) * cfg.kv
    return DecodePlan(cfg, rows, -(-seq_k // chunk), chunk)


@functools.lru_cache(maxsize=None)
def _compiled(cfg):
    return compile_config(cfg)


def attention_decode(q, k, v, *, causal=False, scale=None, lse=False, timing=False,
                     target="gfx942", device=None, splits=None):
    """Decode attention (module doc). Returns O (float32), or (O, LSE) with
    lse=True; with timing=True, (that, DecodeResult) from the emulator's
    timing model on `device` (None: the target's flagship). `splits`
    overrides decode_plan's choice."""
    from ..runtime import launch
    dt = _dtype_name(q, "q")
    for a, what in ((k, "k"), (v, "v")):
        if _dtype_name(a, what) != dt:
            raise TypeError(f"attention_decode: q, k and v must have one dtype, got {q.dtype}, "
                            f"{k.dtype}, {v.dtype}")
    if q.ndim != 4 or k.ndim != 4 or v.shape != k.shape:
        raise ValueError(f"attention_decode: q must be (batch, heads, seq_q, d) and k, v "
                         f"(batch, kv_heads, seq_k, d) of one shape; got q {q.shape}, k "
                         f"{k.shape}, v {v.shape}")
    b, h, sq, d = q.shape
    bk, hk, sk, dk = k.shape
    if bk != b or dk != d:
        raise ValueError(f"attention_decode: k and v must be ({b}, kv_heads, seq_k, {d}); got "
                         f"{k.shape}")
    if d not in (64, 128):
        raise ValueError(f"attention_decode: head dim d must be 64 or 128, got {d}")
    if 0 in (b, h, sq, hk, sk):
        raise ValueError(f"attention_decode: empty inputs (q {q.shape}, k {k.shape})")
    if sq > MAX_SEQ_Q:
        raise ValueError(f"attention_decode: seq_q must be at most {MAX_SEQ_Q} (decode), got "
                         f"{sq}; use aster.ops.attention")
    if h % hk:
        raise ValueError(f"attention_decode: heads ({h}) must be a multiple of kv_heads ({hk})")
    if sk * d * 2 >= 2**31 or b * hk >= 2**16:
        raise ValueError("attention_decode: one head's keys must be smaller than 2 GiB and "
                         "batch * kv_heads below 65536")
    scale = 1.0 / math.sqrt(d) if scale is None else scale
    if isinstance(scale, bool) or not isinstance(scale, (int, float, np.floating)) or \
            not math.isfinite(scale) or scale <= 0:
        raise ValueError(f"attention_decode: scale must be a positive finite number, got "
                         f"{scale!r}")
    if splits is not None and (isinstance(splits, bool) or not isinstance(splits, int) or
                               splits < 1):
        raise ValueError(f"attention_decode: splits must be a positive int, got {splits!r}")
    plan = decode_plan(dt, d, causal, b, h, hk, sq, sk, target, device, splits)
    cfg, z = plan.config, b * hk
    o = np.empty((b, h, sq, d), np.float32)
    lse_arr = np.empty((b, h, sq), np.float32)
    c2 = float(np.float32(scale * math.log2(math.e)))
    qc, kc, vc = (np.ascontiguousarray(x) for x in (q, k, v))
    if plan.splits == 1:
        o_part, lse_part = o, lse_arr
    else:
        o_part = np.empty((z, plan.splits, plan.rows, d), np.float32)
        lse_part = np.empty((z, plan.splits, plan.rows), np.float32)
    res = DecodeResult(plan)
    res.launches.append(launch(
        _compiled(cfg), cfg.name, grid=cfg.grid(z, plan.rows, plan.splits), block=cfg.block,
        args=[qc, kc, vc, o_part, lse_part, plan.rows, sq, sk, plan.chunk, plan.splits, c2],
        timing=timing, device=device))
    if plan.splits > 1:
        red = cfg.reduce
        res.launches.append(launch(
            _compiled(red), red.name, grid=red.grid(z, plan.rows), block=red.block,
            args=[o_part, lse_part, o, lse_arr, plan.rows, plan.splits], timing=timing,
            device=device))
    out = (o, lse_arr) if lse else o
    return (out, res) if timing else out
