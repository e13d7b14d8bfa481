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
import functools
import math

import numpy as np

from ..generators.attention import DTYPES, AttnConfig, compile_config

__all__ = ["attention", "config_for", "default_attention_configs", "build_attention_library",
           "load_attention_library"]


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


CSV_FIELDS = ("name", "file", "arch", "dtype", "d", "causal", "lse", "waves", "kv", "block_q",
              "lds", "vgprs", "sgprs")


def default_attention_configs(archs=("gfx942", "gfx950")):
    """Every config config_for can choose: f16/bf16 x d 64/128 x causal x
    LSE x 2/4 waves x arch."""
    return [AttnConfig(dtype=dt, d=d, causal=cz, lse=ls, waves=w, kv=32 if d == 128 else 64,
                       arch=a)
            for a in archs for dt in ("bf16", "f16") for d in (64, 128) for cz in (False, True)
            for ls in (False, True) for w in (2, 4)]


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
                         causal=int(cfg.causal), lse=int(cfg.lse), waves=cfg.waves, kv=cfg.kv,
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


def attention(q, k, v, *, causal=False, scale=None, lse=False, timing=False, target="gfx942",
              device=None, config=None, library=None):
    """Forward attention (module doc). Returns O (float32), or (O, LSE) with
    lse=True; with timing=True, (that, aster.LaunchResult) from the
    emulator's timing model on `device` (a profile of aster.timing.devices();
    None: the target's flagship). `config` (an AttnConfig) overrides the
    choice of config_for; `library` (a directory from build_attention_library)
    takes the code object from there instead of compiling it."""
    from ..runtime import launch
    dt = _dtype_name(q, "q")
    for a, what in ((k, "k"), (v, "v")):
        if _dtype_name(a, what) != dt:
            raise TypeError(f"attention: q, k and v must have one dtype, got {q.dtype}, "
                            f"{k.dtype}, {v.dtype}")
    if q.ndim != 4 or k.ndim != 4 or v.shape != k.shape:
        raise ValueError(f"attention: q must be (batch, heads, seq_q, d) and k, v (batch, "
                         f"kv_heads, seq_k, d) of one shape; got q {q.shape}, k {k.shape}, "
                         f"v {v.shape}")
    b, h, sq, d = q.shape
    bk, hk, sk, dk = k.shape
    if bk != b or dk != d:
        raise ValueError(f"attention: k and v must be ({b}, kv_heads, seq_k, {d}); got {k.shape}")
    if d not in (64, 128):
        raise ValueError(f"attention: head dim d must be 64 or 128, got {d}")
    if 0 in (b, h, sq, hk, sk):
        raise ValueError(f"attention: empty inputs (q {q.shape}, k {k.shape})")
    if h % hk:
        raise ValueError(f"attention: heads ({h}) must be a multiple of kv_heads ({hk})")
    if max(sq, sk) * d * 4 >= 2**31 or b * h >= 2**16 or -(-sq // 64) >= 2**16:
        raise ValueError("attention: one head's rows must be smaller than 2 GiB (f32) and the "
                         "grid within 65535 workgroups per dimension")
    scale = 1.0 / math.sqrt(d) if scale is None else scale
    if isinstance(scale, bool) or not isinstance(scale, (int, float, np.floating)) or \
            not math.isfinite(scale) or scale <= 0:
        raise ValueError(f"attention: scale must be a positive finite number, got {scale!r}")
    cfg = config if config is not None else config_for(dt, d, causal, lse, b, h, sq, target,
                                                       device)
    if (cfg.dtype, cfg.d, cfg.causal, cfg.lse, cfg.arch) != (dt, d, bool(causal), bool(lse),
                                                             target):
        raise ValueError(f"attention: config {cfg.name} ({cfg.arch}) does not fit these inputs")
    o = np.empty((b, h, sq, d), np.float32)
    lse_arr = np.empty((b, h, sq), np.float32) if lse else None
    c2 = float(np.float32(scale * math.log2(math.e)))
    if library is not None:
        code = load_attention_library(library).get((cfg.name, cfg.arch))
        if code is None:
            raise ValueError(f"attention: library {library} has no kernel {cfg.name} for "
                             f"{cfg.arch}")
    else:
        code = _compiled(cfg)
    r = launch(code, cfg.name, grid=cfg.grid(b, h, hk, sq), block=cfg.block,
               args=[np.ascontiguousarray(q), np.ascontiguousarray(k), np.ascontiguousarray(v),
                     o, lse_arr, sq, sk, h // hk, c2], timing=timing, device=device)
    out = (o, lse_arr) if lse else o
    if timing:
        r.config = cfg
        return out, r
    return out
