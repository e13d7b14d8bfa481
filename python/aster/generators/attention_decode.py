"""Decode attention (one or a few query tokens, a long KV) as split-KV
FlashAttention: O = softmax(scale Q K^T + mask) V per (batch, head), f16 or
bf16 in, f32 out, in one kernel.

    cfg = DecodeConfig(dtype="bf16", d=128)
    out = compile_config(cfg)                     # aster.Compiled, kernel cfg.name
    aster.launch(out, cfg.name, grid=cfg.grid(batch * kv_heads, rows, splits),
                 block=cfg.block, args=[q, k, v, o_part, lse_part, o, lse, cnt, rows,
                                        seq_q, seq_k, chunk, splits, scale * log2(e)])

Rows: a GQA group's query heads times its query tokens are the rows of one
(batch, kv head): q (batch, heads, seq_q, d) contiguous is, as it lies in
memory, (batch * kv_heads, rows = heads / kv_heads * seq_q, d), row
g seq_q + i being head kv_head * group + g, token i. o (batch, heads,
seq_q, d) f32 and lse (batch, heads, seq_q) f32 are the same views. k and v
are (batch, kv_heads, seq_k, d), contiguous (not paged).

Workgroup (x, y, z) runs the forward kernel of aster.generators.attention
(`waves` waves of 32 rows) for query block x (the last first) of (batch,
kv head) z over keys [y chunk, (y + 1) chunk) (chunk a multiple of the KV
tile) and writes that block's O (normalised by its own row sums) and LSE
to o_part (batch * kv_heads, splits, rows, d) and lse_part (batch *
kv_heads, splits, rows). The causal mask is the forward's, bottom-right
aligned per query token: token i sees keys j <= i + seq_k - seq_q (the
token of a row, row mod seq_q, is computed in f32: seq_q <= 16).

Merge (FlashDecoding's merge of partial softmaxes, in the same launch):
each wave then counts its split in cnt (uint32, one 128-byte line per
(z, query block, wave), zero before the launch and again after it); the
wave that finishes last merges its rows over every split: O = sum_s
e^(LSE_s - M) O_s / sum_s e^(LSE_s - M), LSE = M + ln sum_s e^(LSE_s - M),
M = max_s LSE_s (rows that see no key: O = 0, LSE = -inf), into o and lse.
With one split the caller passes o and lse as o_part and lse_part (no
merge; cnt is not read).
"""
from dataclasses import dataclass

from .attention import PIPELINE, AttnConfig, reference  # noqa: F401  (reference: the definition)

__all__ = ["DecodeConfig", "build", "compile_config", "reference"]


@dataclass(frozen=True)
class DecodeConfig(AttnConfig):
    """The decode kernel: AttnConfig's fields (lse is always written: the
    merge needs it); 1 wave (32 rows) per workgroup by default."""
    lse: bool = True
    waves: int = 1
    m: int = 32             # MFMA block: 32 (32x32x8) or 16 (16x16x16: 16 rows per wave)

    @property
    def name(self):
        return (f"attn_decode_{self.dtype}_d{self.d}{'_causal' if self.causal else ''}"
                f"_w{self.waves}_kv{self.kv}{'_m16' if self.m == 16 else ''}")

    @property
    def block_q(self):
        return self.m * self.waves

    def grid(self, heads, rows, splits):
        return (-(-rows // self.block_q), splits, heads)

    def check(self):
        super().check()
        if not self.lse:
            raise ValueError(f"decode config {self.name}: the split kernel always writes LSE")
        if self.varlen:
            raise ValueError(f"decode config {self.name}: no variable lengths (varlen)")
        if self.m not in (16, 32):
            raise ValueError(f"decode config {self.name}: m must be 16 or 32")
        return self


def build(cfg):
    """The aster.Module of a DecodeConfig (not compiled)."""
    from .attention_decode_gen import _SplitGen
    if not isinstance(cfg, DecodeConfig):
        raise TypeError(f"build takes a DecodeConfig, got {type(cfg).__name__}")
    return _SplitGen(cfg.check()).generate()


def compile_config(cfg, pipeline=PIPELINE):
    from ..compiler import compile
    return compile(build(cfg), pipeline)
