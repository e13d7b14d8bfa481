"""FlashAttention-2 style forward kernels generated from a config:
O = softmax(scale Q K^T + mask) V per (batch, head), f16 or bf16 in, f32 out,
optional row log-sum-exp (LSE).

    cfg = AttnConfig(dtype="bf16", d=128, causal=False)
    out = compile_config(cfg)             # aster.Compiled with one kernel, cfg.name
    aster.launch(out, cfg.name, grid=cfg.grid(batch, heads, kv_heads, seq_q), block=cfg.block,
                 args=[q, k, v, o, lse, seq_q, seq_k, heads // kv_heads, scale * log2(e)])

Variable sequence lengths (`varlen=True`, attention_varlen_gen): q (heads,
total_q, d), k and v (kv_heads, total_k, d) of several sequences packed
along the rows, their offsets in int32 arrays cu_q, cu_k (batch + 1
entries, FlashAttention's cu_seqlens), one launch:

    aster.launch(out, cfg.name, grid=cfg.grid(batch, heads, kv_heads, max_seq_q),
                 block=cfg.block, args=[q, k, v, o, lse, cu_q, cu_k, total_q, total_k, group,
                                        (2**32 // group + 1) % 2**32, scale * log2(e)])

Layouts: q (batch, heads, seq_q, d), k and v (batch, kv_heads, seq_k, d), o
(batch, heads, seq_q, d) f32, lse (batch, heads, seq_q) f32, all contiguous;
query head h reads kv head h // (heads / kv_heads) (GQA). Grid (query blocks
of 32 waves rows, heads / kv_heads, batch kv_heads): workgroup (x, y, z)
computes query block nqb - 1 - x (the last first: under a causal mask it
has the most keys) of head z (heads / kv_heads) + y. The causal mask is
aligned to the bottom right (FlashAttention-2): query i sees keys
j <= i + seq_k - seq_q. A row that sees no key gives O = 0 and LSE = -inf.

Algorithm (one workgroup, `waves` waves of 64 lanes, 32 query rows each):
  * each wave keeps its 32 query rows of Q in registers as the B operands
    of v_mfma_f32_32x32x8 (lane l: row l % 32, d 8 s + 4 (l // 32) + 0..3);
  * the KV loop walks tiles of `kv` keys: the next tile is loaded from
    global memory into registers while the waves compute on the current
    one in LDS (K row-major; V transposed to V^T, rows of d, by v_perm_b32
    as it is written); rows past seq_k read 0 through the raw buffer;
  * S^T = K Q^T (A: K fragments from LDS, B: Q): lane l holds query l % 32
    and keys 8 (r // 4) + 4 (l // 32) + r % 4 in register r (the 32x32 D
    layout, mfma.py); the row max is a max over the lane's registers and
    one ds_bpermute_b32 with lane l ^ 32 (the other half of the row);
  * online softmax in f32: m' = max(m, rowmax), p = exp2(s c - m' c) with
    c = scale log2(e) (v_exp_f32), alpha = exp2(m c - m' c), l' = alpha l +
    sum p (per lane; the halves are added at the end), O^T *= alpha;
  * the lane's p registers 4 t .. 4 t + 3 are exactly the B operand of
    O^T += V^T P^T for key step t (keys 8 t + 4 (l // 32) + 0..3 of query
    l % 32): P is rounded to the input format (round to nearest even) and
    multiplied without leaving the registers;
  * O^T's D layout gives each lane 4 consecutive d of its query per 4
    registers: O = O^T / l is stored with buffer_store_dwordx4; rows past
    seq_q are out of the buffer's range.
  Tiles that every row of the block sees whole run without the mask (the
  first loop); the others (the causal diagonal, the seq_k tail) compare each
  key against the lane's limit (the second loop). Under a causal mask the
  tiles past the block's last visible key are not run.
"""
from dataclasses import asdict, dataclass

import numpy as np

from .attention_gen import _dtypes, _Gen

__all__ = ["AttnConfig", "PIPELINE", "build", "compile_config", "reference", "DTYPES"]

PIPELINE = ("amdgcn-inline,amdgcn-schedule{max-vgprs=192},amdgcn-regalloc,amdgcn-waitcnt,"
            "amdgcn-hazards")
DTYPES = _dtypes()


@dataclass(frozen=True)
class AttnConfig:
    """One attention forward kernel: dtype "bf16" / "f16", head dim d (64 or
    128), causal mask, LSE output, `waves` waves of 32 query rows each, `kv`
    keys per tile (32 or 64), target arch."""
    dtype: str = "bf16"
    d: int = 128
    causal: bool = False
    lse: bool = False
    waves: int = 4
    kv: int = 32
    arch: str = "gfx942"
    varlen: bool = False

    @property
    def name(self):
        return (f"attn_fwd_{self.dtype}_d{self.d}{'_causal' if self.causal else ''}"
                f"{'_lse' if self.lse else ''}{'_varlen' if self.varlen else ''}_w{self.waves}"
                f"_kv{self.kv}")

    @property
    def block(self):
        return (64 * self.waves, 1, 1)

    @property
    def block_q(self):
        return 32 * self.waves

    def grid(self, batch, heads, kv_heads, seq_q):
        """The launch grid; varlen: seq_q is the longest sequence's length
        and the grid (its query blocks, heads, batch)."""
        if self.varlen:
            return (-(-seq_q // self.block_q), heads, batch)
        return (-(-seq_q // self.block_q), heads // kv_heads, batch * kv_heads)

    @property
    def lds_bytes(self):
        from .attention_gen import PAD, PAD_K16, PAD_TR
        if self.arch == "gfx950" and getattr(self, "m", 32) == 32:
            # V row-major, read by ds_read_b64_tr_b16 (attention_gen._Gen.vtr)
            return self.kv * (self.d + PAD_K16) * 2 + self.kv * (self.d + PAD_TR) * 2
        return self.kv * (self.d + PAD) * 2 + self.d * (self.kv + PAD) * 2

    def as_dict(self):
        return asdict(self)

    def check(self):
        """Raises ValueError naming what is wrong with this config."""
        def bad(msg):
            raise ValueError(f"attention config {self.name}: {msg}")
        if self.dtype not in DTYPES:
            bad(f"dtype must be one of {sorted(DTYPES)}")
        if self.arch not in ("gfx942", "gfx950"):
            bad("arch must be gfx942 or gfx950")
        if self.d not in (64, 128):
            bad("d must be 64 or 128")
        if self.waves not in (1, 2, 4, 8):
            bad("waves must be 1, 2, 4 or 8")
        if self.kv not in (32, 64):
            bad("kv must be 32 or 64")
        lanes = 64 * self.waves
        # 8 elements per lane and load of K (and of V on gfx950, where V is
        # row-major in LDS); 16 per lane of V^T's transposing loads elsewhere
        vtr = self.arch == "gfx950" and getattr(self, "m", 32) == 32
        if (self.kv * self.d // 8) % lanes or (not vtr and (self.kv * self.d // 16) % lanes):
            bad(f"a {self.kv} x {self.d} tile must split evenly over {lanes} lanes")
        return self


def build(cfg):
    """The aster.Module of one config (not compiled)."""
    if cfg.check().varlen:
        from .attention_varlen_gen import _VarlenGen
        return _VarlenGen(cfg).generate()
    return _Gen(cfg).generate()


def compile_config(cfg, pipeline=PIPELINE):
    from ..compiler import compile
    return compile(build(cfg), pipeline)


def reference(q, k, v, causal=False, scale=None):
    """(O, LSE) from the definition in float64: q (b, h, sq, d), k, v
    (b, hk, sk, d); rows that see no key: O = 0, LSE = -inf."""
    b, h, sq, d = q.shape
    hk, sk = k.shape[1], k.shape[2]
    scale = 1.0 / np.sqrt(d) if scale is None else scale
    qf, kf, vf = (np.asarray(x, np.float64) for x in (q, k, v))
    kf = np.repeat(kf, h // hk, axis=1)
    vf = np.repeat(vf, h // hk, axis=1)
    s = np.einsum("bhqd,bhkd->bhqk", qf, kf) * scale
    if causal:
        vis = np.arange(sk)[None, :] <= np.arange(sq)[:, None] + sk - sq
        s = np.where(vis, s, -np.inf)
    m = s.max(axis=-1, keepdims=True)
    mm = np.where(np.isfinite(m), m, 0.0)
    e = np.exp(s - mm)
    tot = e.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        o = np.where(tot > 0, (e / np.where(tot > 0, tot, 1)) @ vf, 0.0)
        lse = np.where(tot[..., 0] > 0, mm[..., 0] + np.log(np.where(tot > 0, tot, 1))[..., 0],
                       -np.inf)
    return o, lse
