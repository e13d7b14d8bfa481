"""aster.ops.attention_decode: attention for decoding (one or a few query
tokens against a long KV) as split-KV FlashAttention
(aster.generators.attention_decode): one launch over chunks of the keys, the
last chunk of each head to finish merging them by their LSE.

    O = aster.ops.attention_decode(q, k, v)                    # (b, h, sq, d) f32
    (O, lse), r = aster.ops.attention_decode(q, k, v, lse=True, timing=True)
    r.microseconds, r.splits                                  # the launch's device time

q (batch, heads, seq_q, d) with seq_q 1..16, k and v (batch, kv_heads,
seq_k, d) contiguous (not paged): NumPy float16 or bfloat16, one dtype, d
64 or 128, heads a multiple of kv_heads; the query heads of one kv head
and their tokens are the rows of one MFMA block (GQA packed as rows).
scale (default 1/sqrt(d)) positive and finite; causal: bottom-right
aligned per token (token i sees keys j <= i + seq_k - seq_q). The caller's
arrays are never written.

Split choice (`decode_plan`): floor(2 CUs / (batch kv_heads query-blocks))
splits (a workgroup of one wave, 16 rows, per split and query block: about
two per CU), at most MAX_SPLITS and at most one per two KV tiles; one split skips
the merge. Measured on the timing model of main at deef4d2 (MI300X, bf16
d = 128, 8:1 GQA, `splits=` forced): 1x64x8x1024: 8 splits 15.0 us, 11: 13.6, 16: 13.1, 32:
14.6; 8x64x8x2048: 4 splits 28.3 us, 6: 28.3, 8: 27.1, 16: 34.4. With 16-row
blocks (`M`) on the model of main at 38b1edd, 8x64x8x2048: 6 splits 23.01 us,
8: 22.50, 11: 24.68, 16: 28.64 (past 3 workgroups per CU: two rounds)."""
import functools
import math
from dataclasses import dataclass, field

import numpy as np

from ..generators.attention_decode import DecodeConfig, compile_config
from ..generators.attention_decode_gen import CNT_BYTES
from .attention import check_inputs

__all__ = ["attention_decode", "decode_plan", "DecodePlan", "DecodeResult", "MAX_SEQ_Q",
           "MAX_SPLITS"]

M = 16                  # rows of the MFMA block: v_mfma_f32_16x16x16 (a GQA 8:1 token
#                         is 8 rows: half of a 16-row block, a quarter of a 32-row one)
MAX_SEQ_Q = 16          # the causal mask's row -> token modulo is exact to 16 (attention_decode_gen)
MAX_SPLITS = 32         # measured (MI300X model at deef4d2), 1x64x8x16384 bf16: 24 splits 35.5 us,
#                         32: 31.3, 64: 34.6 (one wave merges: 4 passes x splits / 16 trips)


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
    """The timing of a decode: the launch's LaunchResult (in `launches`, a
    list as a decode may take several launches) and its device time."""
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
    waves = 1 if rows <= M else 2 if rows <= 2 * M else 4
    cfg = DecodeConfig(dtype=dtype, d=d, causal=bool(causal), waves=waves,
                       kv=32 if d == 128 else 64, arch=target, m=M)
    tiles = -(-seq_k // cfg.kv)
    blocks = batch * kv_heads * -(-rows // cfg.block_q)
    if splits is None:
        splits = min(2 * cus(target, device) // blocks, MAX_SPLITS, tiles // 2)
    splits = max(1, min(int(splits), tiles, 65535))
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
    dt, scale = check_inputs("attention_decode", q, k, v, scale)
    b, h, sq, d = q.shape
    hk, sk = k.shape[1], k.shape[2]
    if sq > MAX_SEQ_Q:
        raise ValueError(f"attention_decode: seq_q must be at most {MAX_SEQ_Q} (decode), got "
                         f"{sq}; use aster.ops.attention")
    if sk * d * 2 >= 2**31 or b * hk >= 2**16:
        raise ValueError("attention_decode: one head's keys must be smaller than 2 GiB and "
                         "batch * kv_heads below 65536")
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
        o_part, lse_part, cnt = o, lse_arr, np.zeros(1, np.uint32)
    else:
        o_part = np.empty((z, plan.splits, plan.rows, d), np.float32)
        lse_part = np.empty((z, plan.splits, plan.rows), np.float32)
        # the merge's counters: zero before the launch (and after it)
        cnt = np.zeros((z, -(-plan.rows // cfg.block_q), cfg.waves, CNT_BYTES // 4), np.uint32)
    r = launch(_compiled(cfg), cfg.name, grid=cfg.grid(z, plan.rows, plan.splits),
               block=cfg.block, args=[qc, kc, vc, o_part, lse_part, o, lse_arr, cnt, plan.rows,
                                      sq, sk, plan.chunk, plan.splits, c2],
               timing=timing, device=device)
    res = DecodeResult(plan, [r])
    out = (o, lse_arr) if lse else o
    return (out, res) if timing else out
