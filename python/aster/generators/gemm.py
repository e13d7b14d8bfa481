"""GEMM kernels generated from a config: C (f32, M x N, row-major) = A @ B,
A (M x K, row-major, f16 or bf16), B (K x N row-major, or N x K with
`trans_b`), for any M, N, K >= 1.

    cfg = GemmConfig(dtype="f16", tile_m=128, tile_n=128, tile_k=32, waves_m=2, waves_n=2)
    out = compile_config(cfg)            # aster.Compiled with one kernel, cfg.name
    aster.launch(out, cfg.name, grid=cfg.grid(M, N), block=cfg.block, args=[a, b, c, M, N, K])

The kernel (one workgroup per tile_m x tile_n tile of C, grid (tiles along
N, tiles along M)) is a Python metaprogram on aster's builder that moves
data and multiplies with aster.nanokernels functions (`tiles`, `lds`, `mfma`;
`k.call`, inlined by `amdgcn-inline`). Every register is virtual but the
loop counter (allocated by `amdgcn-regalloc`), no waits (`amdgcn-waitcnt`),
no nops (`amdgcn-hazards`); `amdgcn-schedule` orders the instructions of
each region between two barriers. Python only places the barrier of each K
step (which MFMAs come before it) and the software pipeline's stages (which
step's loads, LDS writes and reads go into which step), which cross the
loop's back edge where the pass does not reach.

Data path per K step of `tile_k`:
  * A (and B with trans_b) tiles are read from global memory in 16-byte
    chunks along K (buffer_load_dwordx4) and written to LDS rows of K
    (ds_write_b64 pairs); B without trans_b is read as 4 rows x 4 columns per
    lane (four buffer_load_dwordx2) and transposed in registers (v_perm_b32)
    into the same K-contiguous LDS layout (ds_write_b64). LDS rows are padded
    by 8 elements.
  * Double buffering: LDS holds two K steps; while the waves multiply the
    step in one buffer, the next step (already in registers) is written to
    the other and the step after it is loaded from global memory
    (`prefetch`=1: one step in registers) or two steps ahead (`prefetch`=2).
  * Each wave owns a (tile_m / waves_m) x (tile_n / waves_n) part of C and
    reads its MFMA operands from LDS with ds_read_b64 (4 elements of K per
    lane, AMD's MFMA operand layout); accumulators are AGPRs.
  * With `b_direct` (trans_b only), B skips LDS: each wave loads its B
    operands straight from global memory into registers (buffer_load_dwordx2,
    4 K-contiguous elements per lane), one K step ahead.

Edges: every global access goes through a buffer resource whose
num_records is the matrix size in bytes; out-of-range reads return 0 and
out-of-range writes are dropped (raw buffers check each dword). Rows past M
(or N) are past the end or in C rows that are not stored; columns past N
are redirected out of range at the store; elements of A (and B with
trans_b) past K are zeroed in registers before they reach LDS (a per-lane
mask from K, so a K step reaching past K contributes exactly 0). The K loop
runs ceil(K / tile_k) steps rounded up to a multiple of its unroll
(`K_UNROLL` = 2 steps): the extra steps multiply zeros. Matrices must be
smaller than 2 GiB.

a8w8 (`dtype="i8"`, or "fp8" (gfx942, FNUZ E4M3) / "ofp8" (gfx950, OCP
E4M3) with v_mfma_f32_*_fp8_fp8; trans_b only): A and B int8 with K padded to even and
passed as pairs (the K argument counts pairs; the 16-bit data path moves
pairs as its elements and v_mfma_i32_16x16x32_i8 / 32x32x16_i8 take a lane's
8 int8 where the 16-bit MFMAs take 4 elements); three more arguments, sa
(M f32), sb (N f32), bias (N f32); C is bf16: round to nearest even of
f32(sum) * sa[m] * sb[n] + bias[n] (`tiles.store_scaled_bf16`).

Block-scale fp8 (`block_scale`, "ofp8" on gfx950, the operation of AMD's
gfx950 block-scale GEMM, aster.aiter.gemm_blockscale): two scale arguments
instead of the three of a8w8: sa, f32 [ceil(K / 128), M] (x_scale
transposed: one per row of A and 128 k), and sb, f32 [ceil(N / 128),
ceil(K / 128)] (one per 128 x 128 block of B); C = bf16(sum over K blocks kb
of sa[kb, m] sb[n / 128, kb] (sum over k in kb of A[m, k] B[n, k])). One K
step is one block (tile_k = 64 pairs = 128 fp8); its MFMAs are gfx950's
v_mfma_f32_16x16x128_f8f6f4 / 32x32x64_f8f6f4 (one per 128 / 64 k: the
fragments of 4 single-K steps side by side, as double_k does with 2; the
same permutation of k in A and B, so the sum is unchanged) into a fresh f32
partial sum in VGPRs (the first with C = 0), which acc += partial x (sa x
sb) folds into the f32 accumulator (v_fma_f32); tile_n divides 128, so sb
is one value per workgroup and step; the scales are loaded `prefetch` + 1
steps ahead. Each block's sum is rounded to f32 once and each fold once:
equal to NumPy's when every partial sum and scale product is exact.

Split-K (`split_k`): four more arguments, kchunk, cnt (u32 counters, one
per output tile and wave, zero before the launch and left zero), splits
= ceil(K / kchunk) and zwg (1 or 0). With zwg = 1 the grid's z is splits +
1: workgroup z = 0 of a tile zeroes its C tile and workgroup z > 0
multiplies K elements [(z - 1) kchunk, min(z kchunk, K)) and, once the
counter says its tile is zero, adds its partial tile into C with
buffer_atomic_add_f32. With zwg = 0 the grid's z is splits: workgroup z
multiplies split z, split 0 stores its sums and the others add once it
has (no zero workgroups). Rows stay K apart, the K mask and the trip
count use the split's length; C's old contents never matter (no zero fill
before the launch); gemm_splitk states the protocol.
"""
from dataclasses import asdict, dataclass, fields

import numpy as np

from .gemm_gen import _Gen
from .gemm_layout import (BLOCK_SCALE, BYTE_DTYPES, CNT_BYTES, DTYPES, K_UNROLL, MFMA_SHAPES,
                          PAD, STREAM_K_WORDS)

__all__ = ["GemmConfig", "BLOCK_SCALE", "stream_k_table", "K_UNROLL", "split_counters", "BYTE_DTYPES", "build", "compile_config", "reference", "PIPELINE",
           "DTYPES",
           "MFMA_SHAPES"]

PIPELINE = ("amdgcn-inline,amdgcn-schedule{max-vgprs=256},amdgcn-regalloc,amdgcn-waitcnt,"
            "amdgcn-hazards")


def _pow2(x):
    return x > 0 and x & (x - 1) == 0


@dataclass(frozen=True)
class GemmConfig:
    """One GEMM kernel. Tile sizes are per workgroup; waves_m x waves_n waves
    (64 lanes each) split the tile; mfma is 32 (v_mfma_f32_32x32x8) or 16
    (v_mfma_f32_16x16x16); split_k adds partial sums over K splits into C
    (the module doc); double_k (gfx950) multiplies with the double-K MFMAs
    (v_mfma_f32_32x32x16 / 16x16x32), one per two K steps of the other;
    out "bf16" / "f16" rounds C to that format (round to nearest even)."""
    dtype: str = "f16"
    tile_m: int = 128
    tile_n: int = 128
    tile_k: int = 32
    waves_m: int = 2
    waves_n: int = 2
    mfma: int = 32
    trans_b: bool = False
    b_direct: bool = False
    prefetch: int = 1
    arch: str = "gfx942"
    split_k: bool = False
    double_k: bool = False
    out: str = "f32"
    block_scale: bool = False
    stream_k: bool = False

    @property
    def name(self):
        return (f"gemm_{self.dtype}_{self.tile_m}x{self.tile_n}x{self.tile_k}_"
                f"w{self.waves_m}x{self.waves_n}_m{self.mfma}_p{self.prefetch}"
                f"{'_tb' if self.trans_b else ''}{'_bd' if self.b_direct else ''}"
                f"{'_sk' if self.split_k else ''}{'_dk' if self.double_k else ''}"
                f"{'' if self.out == 'f32' else '_o' + self.out}"
                f"{'_bs' if self.block_scale else ''}{'_st' if self.stream_k else ''}")

    @property
    def waves(self):
        return self.waves_m * self.waves_n

    @property
    def block(self):
        return (64 * self.waves, 1, 1)

    def grid(self, m, n, splits=1, zwg=True):
        """Workgroups (along N, along M, along K) for an M x N result; a
        split-K kernel launched with zero workgroups (zwg) has one more along
        K than splits (z = 0 zeroes C)."""
        return (-(-n // self.tile_n), -(-m // self.tile_m),
                splits + bool(self.split_k and zwg))

    def kchunk(self, k, splits=1):
        """(K elements per split, splits launched) of a split-K launch:
        ceil(K / splits) rounded up to the K loop's unroll (K_UNROLL tile_k)."""
        unroll = K_UNROLL * self.tile_k
        kc = -(-(-(-k // splits)) // unroll) * unroll
        return kc, -(-k // kc)

    @property
    def lds_bytes(self):
        rows = self.tile_m + (0 if self.b_direct else self.tile_n)
        return 2 * rows * (self.tile_k + PAD) * 2

    def as_dict(self):
        return asdict(self)

    @classmethod
    def from_dict(cls, d):
        kinds = {f.name: f.type for f in fields(cls)}
        out = {}
        for key, val in d.items():
            if key not in kinds:
                continue
            t = kinds[key]
            if t in ("bool", bool):
                val = val if isinstance(val, bool) else str(val).lower() in ("1", "true")
            elif t in ("int", int):
                val = int(val)
            out[key] = val
        return cls(**out)

    def check(self):
        """Raises ValueError naming what is wrong with this config."""
        def bad(msg):
            raise ValueError(f"GEMM config {self.name}: {msg}")
        if self.dtype not in DTYPES:
            bad(f"dtype must be one of {sorted(DTYPES)}")
        if self.arch not in ("gfx942", "gfx950"):
            bad("arch must be gfx942 or gfx950")
        if self.mfma not in MFMA_SHAPES:
            bad("mfma must be 32 (32x32x8) or 16 (16x16x16)")
        if self.prefetch not in (1, 2):
            bad("prefetch must be 1 or 2")
        for name in ("tile_m", "tile_n", "tile_k", "waves_m", "waves_n"):
            if not _pow2(getattr(self, name)):
                bad(f"{name} must be a power of two")
        if self.waves > 16:
            bad("at most 16 waves per workgroup")
        mk = MFMA_SHAPES[self.mfma][0]
        if self.tile_k < 16 or self.tile_k > 64 or self.tile_k % mk:
            bad(f"tile_k must be 16, 32 or 64 (a multiple of the MFMA's K={mk})")
        for t, w in ((self.tile_m, self.waves_m), (self.tile_n, self.waves_n)):
            if t % (w * self.mfma):
                bad(f"each wave's part of the tile ({t}/{w}) must be a multiple of {self.mfma}")
        lanes = 64 * self.waves
        if self.tile_m * self.tile_k < 8 * lanes:
            bad("tile_m * tile_k must be at least 8 elements per lane")
        if self.double_k and (self.arch != "gfx950" or (self.tile_k // mk) % 2):
            bad("double_k needs gfx950 and an even number of MFMA K steps per tile_k")
        if self.out not in ("f32", "bf16", "f16") or (self.out != "f32" and (
                self.split_k or self.dtype in BYTE_DTYPES)):
            bad("out must be f32, bf16 or f16 (16-bit C: no split_k, not with i8)")
        if self.block_scale and (self.dtype, self.arch) != ("ofp8", "gfx950") or \
                self.block_scale and (self.tile_k != 64 or BLOCK_SCALE % self.tile_n or
                                      self.b_direct):
            bad(f"block_scale needs ofp8 on gfx950, tile_k 64 (one block of {BLOCK_SCALE} "
                f"fp8 per K step) and tile_n dividing {BLOCK_SCALE}, no b_direct")
        if self.stream_k and not self.split_k:
            bad("stream_k is a split-K kernel (split_k=True) fed a work table")
        if self.dtype in BYTE_DTYPES and (not self.trans_b or self.split_k or self.double_k):
            bad("i8 / fp8 (a8w8) needs trans_b and no split_k or double_k")
        if (self.dtype, self.arch) in (("fp8", "gfx950"), ("ofp8", "gfx942")):
            bad("fp8 is gfx942's FNUZ E4M3, ofp8 gfx950's OCP E4M3")
        if self.b_direct and not self.trans_b:
            bad("b_direct needs trans_b (K-contiguous B rows)")
        if not self.b_direct:
            if self.tile_n * self.tile_k < 16 * lanes or (self.trans_b and
                                                         self.tile_n * self.tile_k < 8 * lanes):
                bad("tile_n * tile_k must be at least 16 elements per lane")
            if not self.trans_b and lanes % (self.tile_n // 4):
                bad("64 * waves must be a multiple of tile_n / 4")
        if self.lds_bytes > 65536:
            bad(f"needs {self.lds_bytes} bytes of LDS (at most 65536)")
        acc = (self.tile_m // self.waves_m) * (self.tile_n // self.waves_n) // 64
        if acc > 256:
            bad(f"{acc} accumulator registers per lane (at most 256)")
        return self


def split_counters(n):
    """The counters a split-K launch needs for n (output tile, wave) pairs,
    one per 128-byte line (gemm_layout.CNT_BYTES): zero before the launch, and
    the kernel leaves them zero (gemm_splitk's protocol),
    so a GPU keeps one allocation for every launch; on the emulator, each
    launch works on a copy of a fresh zero array."""
    return np.zeros(max(n, 1) * CNT_BYTES // 4, np.uint32)


def stream_k_table(cfg, m, n, k, groups):
    """The work table of a stream-K launch (`stream_k` kernels): the tiles'
    K steps (of K_UNROLL tile_k elements, the kernel's loop trip) laid end
    to end, tile after tile, cut into `groups` ranges of equal length, each
    range cut again at tile boundaries: one row per piece (a segment), in
    that order, i32 [tile x, tile y, first K element, K elements, first
    (1: starts at k = 0 and stores), adders (the tile's other segments,
    in the first's row and in each adder's), 0, 0]. The launch runs one
    workgroup per row (grid (rows, 1, 1)); a tile's first segment has a lower
    row than its adders (the split-K protocol's order)."""
    gx, gy, _ = cfg.grid(m, n)
    unit = K_UNROLL * cfg.tile_k
    steps = -(-k // unit)
    total = gx * gy * steps
    per = -(-total // max(1, groups))
    rows = []
    for g in range(-(-total // per)):
        pos, end = g * per, min((g + 1) * per, total)
        while pos < end:
            t, kb = divmod(pos, steps)
            ke = min(steps, kb + end - pos)
            rows.append([t % gx, t // gx, kb * unit, min(ke * unit, k) - kb * unit,
                         int(kb == 0), 0, 0, 0])
            pos += ke - kb
    count = {}
    for r in rows:
        count[(r[0], r[1])] = count.get((r[0], r[1]), 0) + 1
    for r in rows:
        r[5] = count[(r[0], r[1])] - 1
    out = np.array(rows, np.int32).reshape(-1, STREAM_K_WORDS)
    return out


def build(cfg):
    """The aster.Module of one config (not compiled)."""
    return _Gen(cfg.check()).generate()


def compile_config(cfg, pipeline=PIPELINE):
    """aster.Compiled of one config after inline, schedule, regalloc, waitcnt
    and hazards."""
    from ..compiler import compile
    return compile(build(cfg), pipeline)


def reference(a, b, trans_b=False):
    """C = A @ B (or A @ B.T) in float64, as float32."""
    bb = b.astype(np.float64)
    return (a.astype(np.float64) @ (bb.T if trans_b else bb)).astype(np.float32)
