"""Decode attention (one or a few query tokens, a long KV) as split-KV
FlashAttention: O = softmax(scale Q K^T + mask) V per (batch, head), f16 or
bf16 in, f32 out, in two kernels.

    cfg = DecodeConfig(dtype="bf16", d=128)
    split = compile_config(cfg)                 # the split kernel, cfg.name
    red = compile_config(cfg.reduce)            # the reduce kernel, cfg.reduce.name
    aster.launch(split, cfg.name, grid=cfg.grid(batch * kv_heads, rows, splits),
                 block=cfg.block, args=[q, k, v, o_part, lse_part, rows, seq_q, seq_k,
                                        chunk, splits, scale * log2(e)])
    aster.launch(red, cfg.reduce.name, grid=cfg.reduce.grid(batch * kv_heads, rows),
                 block=cfg.reduce.block, args=[o_part, lse_part, o, lse, rows, splits])

Rows: a GQA group's query heads times its query tokens are the rows of one
(batch, kv head): q (batch, heads, seq_q, d) contiguous is, as it lies in
memory, (batch * kv_heads, rows = heads / kv_heads * seq_q, d), row
g seq_q + i being head kv_head * group + g, token i. The output o (batch,
heads, seq_q, d) f32 and lse (batch, heads, seq_q) are the same views. k and
v are (batch, kv_heads, seq_k, d), contiguous.

Split kernel (`_SplitGen`, the forward kernel of aster.generators.attention
with its arguments and key range changed): workgroup (x, y, z) computes the
query block of 32 `waves` rows x (the last first) of (batch, kv head) z over
keys [y chunk, (y + 1) chunk) and writes that block's O (normalised by its
own row sums) and LSE to o_part (batch * kv_heads, splits, rows, d) and
lse_part (batch * kv_heads, splits, rows). The causal mask is the forward's,
bottom-right aligned per query token: token i sees keys j <= i + seq_k -
seq_q. A split whose keys a row does not see gives that row O = 0, LSE =
-inf. With one split the caller passes o and lse as o_part and lse_part
and skips the reduce.

Reduce kernel (`_ReduceGen`): per row, O = sum_s e^(LSE_s - M) O_s / sum_s
e^(LSE_s - M) and LSE = M + ln sum_s e^(LSE_s - M), M = max_s LSE_s (rows
that see no key: O = 0, LSE = -inf): FlashDecoding's merge of partial
softmaxes.
"""
from dataclasses import asdict, dataclass

from .attention import PIPELINE, AttnConfig, reference  # noqa: F401  (reference: the definition)

__all__ = ["DecodeConfig", "ReduceConfig", "build", "compile_config", "reference",
           "REDUCE_PIPELINE"]

REDUCE_PIPELINE = "amdgcn-inline,amdgcn-regalloc,amdgcn-waitcnt,amdgcn-hazards"


@dataclass(frozen=True)
class ReduceConfig:
    """The kernel merging the splits of a decode launch: head dim d, arch."""
    d: int = 128
    arch: str = "gfx942"

    @property
    def name(self):
        return f"attn_decode_reduce_d{self.d}"

    block = (256, 1, 1)

    def grid(self, heads, rows):
        return (-(-rows // (256 // (self.d // 4))), heads, 1)

    def check(self):
        if self.d not in (64, 128):
            raise ValueError(f"reduce config {self.name}: d must be 64 or 128")
        if self.arch not in ("gfx942", "gfx950"):
            raise ValueError(f"reduce config {self.name}: arch must be gfx942 or gfx950")
        return self

    def as_dict(self):
        return asdict(self)


@dataclass(frozen=True)
class DecodeConfig(AttnConfig):
    """The split kernel: AttnConfig's fields (lse is always written: the
    reduce needs it); 1 wave (32 rows) per workgroup by default."""
    lse: bool = True
    waves: int = 1

    @property
    def name(self):
        return (f"attn_decode_{self.dtype}_d{self.d}{'_causal' if self.causal else ''}"
                f"_w{self.waves}_kv{self.kv}")

    @property
    def reduce(self):
        return ReduceConfig(d=self.d, arch=self.arch)

    def grid(self, heads, rows, splits):
        return (-(-rows // self.block_q), splits, heads)

    def check(self):
        super().check()
        if not self.lse:
            raise ValueError(f"decode config {self.name}: the split kernel always writes LSE")
        return self


def build(cfg):
    """The aster.Module of a DecodeConfig or ReduceConfig (not compiled)."""
    from .attention_decode_gen import _ReduceGen, _SplitGen
    if isinstance(cfg, ReduceConfig):
        return _ReduceGen(cfg.check()).generate()
    if isinstance(cfg, DecodeConfig):
        return _SplitGen(cfg.check()).generate()
    raise TypeError(f"build takes a DecodeConfig or ReduceConfig, got {type(cfg).__name__}")


def compile_config(cfg):
    from ..compiler import compile
    return compile(build(cfg), REDUCE_PIPELINE if isinstance(cfg, ReduceConfig) else PIPELINE)
