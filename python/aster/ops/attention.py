"""aster.ops.attention: the forward attention of aster.generators.attention,
with its inputs checked, its config chosen and its kernels compiled once per
process.

    O = aster.ops.attention(q, k, v)                     # (b, h, sq, d) float32
    O, lse = aster.ops.attention(q, k, v, causal=True, lse=True)
    (O, lse), r = aster.ops.attention(q, k, v, lse=True, timing=True); r.microseconds

q (batch, heads, seq_q, d), k and v (batch, kv_heads, seq_k, d): NumPy
float16 or bfloat16 (ml_dtypes), one dtype, d 64 or 128, heads a multiple of
kv_heads (grouped-query attention). scale defaults to 1 / sqrt(d) and must
be positive and finite. causal: the bottom-right aligned mask of
FlashAttention-2 (query i sees keys j <= i + seq_k - seq_q); a row that sees
no key gives O = 0 and LSE = -inf. The caller's arrays are never written.

On disk, as the GEMM library: `build_attention_library(dir)` writes one
`<name>.<arch>.co` per config, `configs.csv` (the config's fields, LDS bytes,
registers) and `kernel_args.h` (one packed struct per kernel from its code
object's metadata, aster.ops.library.kernel_args_header);
`attention(..., library=dir)` launches the library's code object of the
config it chooses.

Config choice (`config_for`): 4 waves (128 query rows) per workgroup, or 2
(64 rows) when 128-row blocks would leave the device's CUs
(aster.ops.devices) without a workgroup each; 32 keys per tile at d = 128,
64 at d = 64 (a tile of 64 x 64 keeps every lane busy loading V)."""
import dataclasses
import functools
import math

import numpy as np

from ..generators.attention import DTYPES, AttnConfig, compile_config

__all__ = ["attention", "check_inputs", "config_for", "default_attention_configs",
           "build_attention_library", "load_attention_library"]


def _dtype_name(a, what):
    if not isinstance(a, np.ndarray):
        raise TypeError(f"attention: {what} must be a NumPy array, got {type(a).__name__}")
    for name, dt in DTYPES.items():
        if a.dtype == dt:
            return name
    raise TypeError(f"attention: {what} must be float16 or bfloat16, got {a.dtype}")


def config_for(dtype, d, causal, lse, batch, heads, seq_q, target="gfx942", device=None):
    """The kernel config aster.ops.attention launches for these inputs."""
    from .devices import cus
    waves = 4
    if batch * heads * -(-seq_q // 128) < cus(target, device):
        waves = 2
    return AttnConfig(dtype=dtype, d=d, causal=bool(causal), lse=bool(lse), waves=waves,
                      kv=32 if d == 128 else 64, arch=target)


@functools.lru_cache(maxsize=None)
def _compiled(cfg):
    return compile_config(cfg)


CSV_FIELDS = ("name", "file", "arch", "dtype", "d", "causal", "lse", "varlen", "waves", "kv",
              "block_q", "lds", "vgprs", "sgprs")


def default_attention_configs(archs=("gfx942", "gfx950"), varlen=(False, True)):
    """Every config attention() can choose: f16/bf16 x d 64/128 x causal x
    LSE x 2/4 waves x fixed / variable lengths x arch."""
    return [AttnConfig(dtype=dt, d=d, causal=cz, lse=ls, waves=w, kv=32 if d == 128 else 64,
                       arch=a, varlen=vl)
            for a in archs for dt in ("bf16", "f16") for d in (64, 128) for cz in (False, True)
            for ls in (False, True) for vl in varlen for w in (2, 4)]


def build_attention_library(directory, configs=None):
    """Writes <name>.<arch>.co per config (default: default_attention_configs()),
    configs.csv and kernel_args.h into `directory`; returns the directory."""
    import csv
    import os
    from .library import kernel_args_header, struct_name
    configs = default_attention_configs() if configs is None else list(configs)
    if not configs or not all(isinstance(c, AttnConfig) for c in configs):
        raise TypeError("build_attention_library: configs must be a non-empty list of AttnConfig")
    os.makedirs(directory, exist_ok=True)
    rows, kernels = [], []
    for cfg in configs:
        out = _compiled(cfg.check())
        md = out.metadata[cfg.name]
        file = f"{cfg.name}.{cfg.arch}.co"
        with open(os.path.join(directory, file), "wb") as f:
            f.write(out.hsaco)
        rows.append(dict(name=cfg.name, file=file, arch=cfg.arch, dtype=cfg.dtype, d=cfg.d,
                         causal=int(cfg.causal), lse=int(cfg.lse), varlen=int(cfg.varlen),
                         waves=cfg.waves, kv=cfg.kv,
                         block_q=cfg.block_q, lds=md.lds, vgprs=md.vgpr_count,
                         sgprs=md.sgpr_count))
        kernels.append((struct_name(cfg.name, cfg.arch), out.hsaco, cfg.name))
    with open(os.path.join(directory, "configs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(directory, "kernel_args.h"), "w") as f:
        f.write(kernel_args_header(kernels).replace("ASTER_GEMM_KERNEL_ARGS_H",
                                                    "ASTER_ATTENTION_KERNEL_ARGS_H"))
    return directory


def _library_code(library, cfg):
    code = load_attention_library(library).get((cfg.name, cfg.arch))
    if code is None:
        raise ValueError(f"attention: library {library} has no kernel {cfg.name} for {cfg.arch}")
    return code


def load_attention_library(directory):
    """{(name, arch): code object bytes} of a library build_attention_library wrote."""
    import csv
    import os
    with open(os.path.join(directory, "configs.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    out = {}
    for r in rows:
        with open(os.path.join(directory, r["file"]), "rb") as f:
            out[(r["name"], r["arch"])] = f.read()
    return out


def check_inputs(fn, q, k, v, scale, *, ndim=4):
    """The checks aster.ops.attention and attention_decode share: q, k, v
    NumPy arrays of one dtype (float16 / bfloat16) with `ndim` axes, q
    (..., heads, rows, d) and k, v (..., kv_heads, keys, d) of one shape, d
    64 or 128, no empty axis, heads a multiple of kv_heads, scale (default
    1/sqrt(d)) positive and finite. Raises TypeError / ValueError naming
    `fn`; returns (dtype name, scale as a float)."""
    dt = _dtype_name(q, "q")
    for a, what in ((k, "k"), (v, "v")):
        if _dtype_name(a, what) != dt:
            raise TypeError(f"{fn}: q, k and v must have one dtype, got {q.dtype}, {k.dtype}, "
                            f"{v.dtype}")
    lead = "(batch, " if ndim == 4 else "("
    if q.ndim != ndim or k.ndim != ndim or v.shape != k.shape:
        raise ValueError(f"{fn}: q must be {lead}heads, seq_q, d) and k, v {lead}kv_heads, "
                         f"seq_k, d) of one shape; got q {q.shape}, k {k.shape}, v {v.shape}")
    if q.shape[:-3] != k.shape[:-3] or q.shape[-1] != k.shape[-1]:
        raise ValueError(f"{fn}: k and v must be ({', '.join(map(str, q.shape[:-3]))}"
                         f"{', ' if ndim == 4 else ''}kv_heads, seq_k, {q.shape[-1]}); got "
                         f"{k.shape}")
    d = q.shape[-1]
    if d not in (64, 128):
        raise ValueError(f"{fn}: head dim d must be 64 or 128, got {d}")
    if 0 in q.shape or 0 in k.shape:
        raise ValueError(f"{fn}: empty inputs (q {q.shape}, k {k.shape})")
    if q.shape[-3] % k.shape[-3]:
        raise ValueError(f"{fn}: heads ({q.shape[-3]}) must be a multiple of kv_heads "
                         f"({k.shape[-3]})")
    scale = 1.0 / math.sqrt(d) if scale is None else scale
    if isinstance(scale, bool) or not isinstance(scale, (int, float, np.floating)) or \
            not math.isfinite(scale) or scale <= 0:
        raise ValueError(f"{fn}: scale must be a positive finite number, got {scale!r}")
    return dt, float(scale)


def _cu_seqlens(cu, total, what):
    """cu_seqlens as an int32 copy: 1-D, batch + 1 >= 2 entries, from 0 to
    `total`, non-decreasing."""
    a = np.asarray(cu)
    if a.ndim != 1 or a.size < 2 or not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"attention: {what} must be a 1-D integer array of batch + 1 offsets, "
                         f"got {getattr(cu, 'shape', cu)!r} of {a.dtype}")
    if a[0] != 0 or a[-1] != total or (np.diff(a) < 0).any():
        raise ValueError(f"attention: {what} must rise from 0 to {total} (the packed rows), got "
                         f"{a[0]} .. {a[-1]}{' decreasing' if (np.diff(a) < 0).any() else ''}")
    return np.array(a, np.int32)


def attention(q, k, v, *, causal=False, scale=None, lse=False, timing=False, target="gfx942",
              device=None, config=None, library=None, cu_seqlens_q=None, cu_seqlens_k=None):
    """Forward attention (module doc). Returns O (float32), or (O, LSE) with
    lse=True; with timing=True, (that, aster.LaunchResult) from the
    emulator's timing model on `device` (a profile of aster.timing.devices();
    None: the target's flagship). `config` (an AttnConfig) overrides the
    choice of config_for; `library` (a directory from build_attention_library)
    takes the code object from there instead of compiling it.

    Variable sequence lengths (FlashAttention's varlen API): with
    cu_seqlens_q and cu_seqlens_k (batch + 1 offsets each, from 0 to the
    packed rows), q is (heads, total_q, d) and k, v (kv_heads, total_k, d),
    sequence i being rows cu_seqlens_q[i] .. cu_seqlens_q[i + 1] of q and
    cu_seqlens_k[i] .. cu_seqlens_k[i + 1] of k and v (lengths may be 0);
    O is (heads, total_q, d) and LSE (heads, total_q); the causal mask is
    bottom-right aligned per sequence. One launch for the batch."""
    from ..runtime import launch
    if cu_seqlens_q is not None or cu_seqlens_k is not None:
        return _attention_varlen(q, k, v, cu_seqlens_q, cu_seqlens_k, causal, scale, lse,
                                 timing, target, device, config, library)
    dt, scale = check_inputs("attention", q, k, v, scale)
    b, h, sq, d = q.shape
    hk, sk = k.shape[1], k.shape[2]
    if max(sq, sk) * d * 4 >= 2**31 or b * h >= 2**16 or -(-sq // 64) >= 2**16:
        raise ValueError("attention: one head's rows must be smaller than 2 GiB (f32) and the "
                         "grid within 65535 workgroups per dimension")
    cfg = config if config is not None else config_for(dt, d, causal, lse, b, h, sq, target,
                                                       device)
    if (cfg.dtype, cfg.d, cfg.causal, cfg.lse, cfg.arch, cfg.varlen) != (
            dt, d, bool(causal), bool(lse), target, False):
        raise ValueError(f"attention: config {cfg.name} ({cfg.arch}) does not fit these inputs")
    o = np.empty((b, h, sq, d), np.float32)
    lse_arr = np.empty((b, h, sq), np.float32) if lse else None
    c2 = float(np.float32(scale * math.log2(math.e)))
    code = _library_code(library, cfg) if library is not None else _compiled(cfg)
    r = launch(code, cfg.name, grid=cfg.grid(b, h, hk, sq), block=cfg.block,
               args=[np.ascontiguousarray(q), np.ascontiguousarray(k), np.ascontiguousarray(v),
                     o, lse_arr, sq, sk, h // hk, c2], timing=timing, device=device)
    out = (o, lse_arr) if lse else o
    if timing:
        r.config = cfg
        return out, r
    return out


def _attention_varlen(q, k, v, cu_q, cu_k, causal, scale, lse, timing, target, device, config,
                      library):
    """attention() with cu_seqlens (its doc): the checks, the config, one
    launch of the varlen kernel."""
    from ..runtime import launch
    if cu_q is None or cu_k is None:
        raise ValueError("attention: variable lengths need both cu_seqlens_q and cu_seqlens_k")
    dt, scale = check_inputs("attention", q, k, v, scale, ndim=3)
    h, tq, d = q.shape
    hk, tk = k.shape[0], k.shape[1]
    cq, ck = _cu_seqlens(cu_q, tq, "cu_seqlens_q"), _cu_seqlens(cu_k, tk, "cu_seqlens_k")
    if cq.size != ck.size:
        raise ValueError(f"attention: cu_seqlens_q and cu_seqlens_k must have one length (batch "
                         f"+ 1), got {cq.size} and {ck.size}")
    batch, max_q = cq.size - 1, int(np.diff(cq).max())
    if max(h * tq, hk * tk) * d * 4 >= 2**31 or h >= 2**16 or batch >= 2**16:
        raise ValueError("attention: the packed rows must be smaller than 2 GiB (f32) and "
                         "heads, batch within 65535")
    if config is not None:
        cfg = config
    else:
        # the waves by the launch's real 128-row blocks (sum over the sequences)
        rows128 = 128 * int((-(-np.diff(cq) // 128)).sum())
        cfg = dataclasses.replace(config_for(dt, d, causal, lse, 1, h, rows128, target, device),
                                  varlen=True)
    if (cfg.dtype, cfg.d, cfg.causal, cfg.lse, cfg.arch, cfg.varlen) != (
            dt, d, bool(causal), bool(lse), target, True):
        raise ValueError(f"attention: config {cfg.name} ({cfg.arch}) does not fit these inputs")
    o = np.zeros((h, tq, d), np.float32)
    lse_arr = np.zeros((h, tq), np.float32) if lse else None
    c2 = float(np.float32(scale * math.log2(math.e)))
    code = _library_code(library, cfg) if library is not None else _compiled(cfg)
    grid = cfg.grid(batch, h, hk, max(max_q, 1))
    r = launch(code, cfg.name, grid=grid, block=cfg.block,
               args=[np.ascontiguousarray(q), np.ascontiguousarray(k), np.ascontiguousarray(v),
                     o, lse_arr, cq, ck, tq, tk, h // hk, (2**32 // (h // hk) + 1) % 2**32, c2],
               timing=timing,
               device=device)
    out = (o, lse_arr) if lse else o
    if timing:
        r.config = cfg
        return out, r
    return out
