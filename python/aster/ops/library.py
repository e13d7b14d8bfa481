"""A GEMM library on disk: one code object per config, configs.csv,
kernel_args.h (the packed argument struct of each kernel, generated from the
code object's own metadata) and the same layout as NumPy structured dtypes.

    build_library("gemmlib")              # default configs, gfx942 + gfx950, f16 + bf16
    lib = Library("gemmlib")
    lib.entries[0].name, lib.entries[0].config, lib.code(name), lib.args_dtype(name)
"""
import csv
import os
from dataclasses import dataclass, field

import numpy as np

from ..generators.gemm import GemmConfig, compile_config
from .devices import CUS as _CUS

__all__ = ["build_library", "Library", "Entry", "default_configs", "REF_SHAPES", "CSV_FIELDS",
           "run", "calibrate", "k_per_step", "CALIB_STEPS", "CALIB_FIELDS",
           "kernel_args_header", "args_dtype", "explicit_args"]

ARCHS = ("gfx942", "gfx950")
DTYPES = ("f16", "bf16")
# Reference shapes simulated for configs.csv (cycles and matrix-core utilisation,
# ';'-separated when there are several).
REF_SHAPES = ((512, 512, 512),)
# Tile shapes of the default library (each built with and without trans_b):
# a big tile for large GEMMs, mid-size ones, and a small one for small or
# skinny problems (more workgroups to spread over the CUs).
DEFAULT_TILES = (
    dict(tile_m=256, tile_n=256, tile_k=16, waves_m=2, waves_n=2, mfma=32, prefetch=2),
    dict(tile_m=256, tile_n=128, tile_k=32, waves_m=2, waves_n=2, mfma=32, prefetch=2),
    dict(tile_m=128, tile_n=128, tile_k=32, waves_m=2, waves_n=2, mfma=32, prefetch=2),
    dict(tile_m=64, tile_n=64, tile_k=64, waves_m=2, waves_n=2, mfma=16, prefetch=2),
    # split-K kernels (partial sums added into C): K-heavy and skinny problems
    # spread over the CUs along K; 16- and 32-row tiles for decode (M <= 32)
    dict(tile_m=128, tile_n=128, tile_k=32, waves_m=2, waves_n=2, mfma=32, prefetch=2,
         split_k=True),
    dict(tile_m=64, tile_n=64, tile_k=64, waves_m=2, waves_n=2, mfma=16, prefetch=2,
         split_k=True),
    dict(tile_m=32, tile_n=64, tile_k=64, waves_m=2, waves_n=2, mfma=16, prefetch=2,
         split_k=True),
    dict(tile_m=16, tile_n=64, tile_k=64, waves_m=1, waves_n=2, mfma=16, prefetch=2,
         split_k=True),
)
# Block-scale fp8 (gfx950 ofp8, `block_scale`: one K step per 128-k block):
# small tiles only, the shapes of AMD's block-scale GEMM's users (decode to
# mid-size prefill) need workgroups more than big tiles; with a 64 x 128
# tile the per-block partial sums, the f32 accumulator and the operands in
# flight outgrow the 256 VGPRs (spills: 4x slower on the timing model).
BLOCK_SCALE_TILES = (
    dict(tile_m=16, tile_n=64, tile_k=64, waves_m=1, waves_n=2, mfma=16, prefetch=2),
    dict(tile_m=32, tile_n=64, tile_k=64, waves_m=2, waves_n=2, mfma=16, prefetch=2),
    dict(tile_m=64, tile_n=64, tile_k=64, waves_m=2, waves_n=2, mfma=16, prefetch=2),
)
# Stream-K (`stream_k`: a split-K kernel fed a work table of equal ranges
# of the tiles' K steps; aster.generators.gemm.stream_k_table): one tile,
# with trans_b, for launches whose tiles leave the last round of
# workgroups part-empty (wave quantisation).
STREAM_K_TILES = (
    dict(tile_m=64, tile_n=64, tile_k=64, waves_m=2, waves_n=2, mfma=16, prefetch=2,
         split_k=True, stream_k=True),
)
CSV_FIELDS = ["name", "file", "arch", "dtype", "tile_m", "tile_n", "tile_k", "waves_m",
              "waves_n", "mfma", "trans_b", "b_direct", "prefetch", "split_k", "double_k", "out",
              "block_scale", "stream_k", "lds_bytes", "vgprs",
              "agprs", "sgprs", "ref_shape", "ref_cycles", "ref_utilisation", "wg_fixed", "wg_step", "wg_drain",
              "wg_zero", "wg_mfma", "wg_per_cu", "wg_fixed0", "wg_load", "wg_load_full",
              "wg_load_step", "wg_lds", "wg_fixed1", "wg_drain1", "wg_load1", "wg_load1_full",
              "wg_load1_step", "tuned_for"]
CALIB_FIELDS = ("wg_fixed", "wg_step", "wg_drain", "wg_zero", "wg_mfma", "wg_per_cu",
                "wg_fixed0", "wg_load", "wg_load_full")
# calibration columns added later: a library built before them reads 0 (the
# estimate then charges the probes' extra cycles at CALIB_STEPS[0] steps alone,
# no LDS bound on a step, and a storing split K workgroup's fixed cycles as
# an adding one's)
CALIB_LATER = ("wg_load_step", "wg_lds", "wg_fixed1", "wg_drain1", "wg_load1", "wg_load1_full",
               "wg_load1_step")
PEAK_FLOP_PER_CLK_CU = 2048      # MI300X dense f16/bf16 matrix cores per CU per clock
CUS = _CUS["gfx942"]


def default_configs(archs=ARCHS, dtypes=DTYPES, a8w8=True):
    """The default library: DEFAULT_TILES x trans_b for each arch and dtype,
    the plain tiles again with C in the inputs' 16-bit format (`out`), and
    (a8w8) the plain tiles with trans_b for int8 and FNUZ fp8 on gfx942 and
    OCP fp8 (ofp8) on gfx950, BLOCK_SCALE_TILES for gfx950's block-scale
    fp8 (ofp8, `block_scale`), and STREAM_K_TILES with trans_b for each arch
    and dtype."""
    out = [GemmConfig(dtype=d, arch=a, trans_b=tb, **t)
           for a in archs for d in dtypes for t in DEFAULT_TILES for tb in (False, True)]
    out += [GemmConfig(dtype=d, arch=a, trans_b=True, **t)
            for a in archs for d in dtypes for t in STREAM_K_TILES]
    out += [GemmConfig(dtype=d, arch=a, trans_b=tb, out=d, **t)
            for a in archs for d in dtypes for t in DEFAULT_TILES if not t.get("split_k")
            for tb in (False, True)]
    for d, a in (("i8", "gfx942"), ("fp8", "gfx942"), ("ofp8", "gfx950")):
        if a8w8 and a in archs:
            out += [GemmConfig(dtype=d, arch=a, trans_b=True, **t)
                    for t in DEFAULT_TILES if not t.get("split_k")]
    if a8w8 and "gfx950" in archs:
        out += [GemmConfig(dtype="ofp8", arch="gfx950", trans_b=True, block_scale=True, **t)
                for t in BLOCK_SCALE_TILES]
    return out


def explicit_args(hsaco, kernel):
    """The kernel's explicit (non-hidden) kernarg entries from the code object's
    metadata, and the explicit segment size."""
    from ..runtime import load_code_object
    info = load_code_object(hsaco).kernel(kernel)
    return [a for a in info.args if not a.hidden], info.explicit_args_size


_C = {"i32": "int32_t", "u32": "uint32_t", "i64": "int64_t", "f32": "float", "f16": "uint16_t",
      "bf16": "uint16_t", "f64": "double", "i16": "int16_t", "i8": "int8_t"}


def _np_format(a):
    if a.value_kind == "global_buffer":
        return "<u8"
    t = (a.type_name or "").rstrip("*")
    return {"i32": "<i4", "u32": "<u4", "i64": "<i8", "f32": "<f4", "f64": "<f8",
            "f16": "<f2", "i16": "<i2", "i8": "i1"}.get(t, f"V{a.size}")


def args_dtype(hsaco, kernel):
    """NumPy structured dtype of the kernel's explicit arguments: names,
    offsets and total size from the code object's metadata (pointers are
    uint64 device addresses)."""
    args, size = explicit_args(hsaco, kernel)
    return np.dtype({"names": [a.name for a in args],
                     "formats": [_np_format(a) for a in args],
                     "offsets": [a.offset for a in args], "itemsize": size})


def _struct(kernel, args, size):
    lines = [f"/* {kernel}: {size} bytes of explicit kernel arguments */",
             "typedef struct __attribute__((packed)) {"]
    pos, npad = 0, 0
    for a in args:
        if a.offset > pos:
            lines.append(f"    uint8_t _pad{npad}[{a.offset - pos}];")
            npad += 1
        if a.value_kind == "global_buffer":
            ctype = "uint64_t"      # device address (global_buffer)
            note = f"global_buffer {a.type_name}"
        else:
            ctype = _C.get(a.type_name, f"uint8_t /* {a.type_name} */")
            note = a.type_name
        lines.append(f"    {ctype} {a.name};  /* offset {a.offset}, {a.size} bytes, {note} */")
        pos = a.offset + a.size
    if size > pos:
        lines.append(f"    uint8_t _pad{npad}[{size - pos}];")
    lines.append(f"}} {kernel}_KernelArgs;")
    lines.append(f"_Static_assert(sizeof({kernel}_KernelArgs) == {size}, \"{kernel}: size\");")
    for a in args:
        lines.append(f"_Static_assert(__builtin_offsetof({kernel}_KernelArgs, {a.name}) == "
                     f"{a.offset}, \"{kernel}: {a.name}\");")
    return "\n".join(lines)


def kernel_args_header(kernels):
    """kernel_args.h text for [(struct name, hsaco, kernel name)]: one packed
    struct per kernel (`<struct name>_KernelArgs`), laid out from its
    metadata, with static asserts of its size and offsets."""
    out = ["/* Generated by aster.ops.build_library from the code objects' metadata:",
           "   the explicit kernel arguments of each kernel, byte for byte. */",
           "#ifndef ASTER_GEMM_KERNEL_ARGS_H", "#define ASTER_GEMM_KERNEL_ARGS_H",
           "#include <stdint.h>", ""]
    for sname, hsaco, kname in kernels:
        args, size = explicit_args(hsaco, kname)
        out += [_struct(sname, args, size), ""]
    out.append("#endif")
    return "\n".join(out) + "\n"


def run(hsaco, cfg, shape, splits=1, device=None, zwg=1):
    """The timed LaunchResult of the kernel on an M x N x K problem (zero
    inputs: the timing model does not depend on values); a split-K kernel
    with `splits` K splits (GemmConfig.kchunk) and zero workgroups (zwg = 1)
    or split 0 storing (zwg = 0), on the timing model's `device` profile
    (None: the target's flagship)."""
    from ..runtime import launch
    from ..generators.gemm import DTYPES as NP, split_counters
    m, n, k = shape
    if cfg.dtype in ("i8", "fp8", "ofp8"):      # K byte pairs, scales and bias, bf16 C
        kp = -(-k // 2)
        args = [np.zeros(2 * m * kp + 2, np.int8), np.zeros(2 * n * kp + 2, np.int8),
                np.zeros(m * n, np.uint16), m, n, kp]
        if cfg.block_scale:     # sa [K blocks, M], sb [N blocks, K blocks]
            kb, nb = -(-k // 128), -(-n // 128)
            args += [np.zeros(kb * m, np.float32), np.zeros(nb * kb, np.float32)]
        else:
            args += [np.zeros(m, np.float32), np.zeros(n, np.float32), np.zeros(n, np.float32)]
        return launch(hsaco, cfg.name, grid=cfg.grid(m, n), block=cfg.block, args=args,
                      timing=True, device=device)
    a = np.zeros(m * k + 1, NP[cfg.dtype])
    b = np.zeros(n * k + 1, NP[cfg.dtype])
    c = np.zeros(m * n, np.float32 if cfg.out == "f32" else np.uint16)
    if cfg.stream_k:        # `splits` segments per tile (the table of tiles x splits groups)
        from ..generators.gemm import stream_k_table
        gx, gy, _ = cfg.grid(m, n)
        tab = stream_k_table(cfg, m, n, k, gx * gy * splits)
        return launch(hsaco, cfg.name, grid=(len(tab), 1, 1), block=cfg.block,
                      args=[a, b, c, m, n, k, tab, split_counters(gx * gy * cfg.waves)],
                      timing=True, device=device)
    kc, sk = cfg.kchunk(k, splits) if cfg.split_k else (k, 1)
    gx, gy, _ = cfg.grid(m, n)
    args = [a, b, c, m, n, k] + ([kc, split_counters(gx * gy * cfg.waves), sk, zwg]
                                 if cfg.split_k else [])
    return launch(hsaco, cfg.name, grid=cfg.grid(m, n, sk, zwg), block=cfg.block, args=args,
                  timing=True, device=device)


def simulate(hsaco, cfg, shape, splits=1, device=None, zwg=1):
    """Simulated cycles of the kernel on an M x N x K problem (`run`)."""
    return run(hsaco, cfg, shape, splits, device, zwg).cycles


def k_per_step(cfg):
    """Elements of K one K step of the kernel's loop multiplies (tile_k; the
    a8w8 kernels move K in pairs of bytes: 2 tile_k)."""
    return cfg.tile_k * (2 if cfg.dtype in ("i8", "fp8", "ofp8") else 1)


# Calibration (configs.csv wg_* columns, read by aster.ops.dispatch.estimate):
# one workgroup alone on the device (a single output tile, one K split) at
# CALIB_STEPS[0] and CALIB_STEPS[1] K steps. Alone, it waits for memory at
# the latency of a line nobody else fetched (what a decode or K-split
# workgroup sees) and its pipeline, MFMAs and epilogue run as in a full launch.
CALIB_STEPS = (4, 12)


def calibrate(hsaco, cfg, device=None):
    """{wg_step: cycles per K step of one workgroup, wg_fixed: the rest of
    its cycles (setup, cold instruction cache, pipeline fill, epilogue), not
    counting wg_drain: its stores still in flight after its waves end,
    wg_zero: the cycles of a split-K launch's zero workgroup (0 without),
    wg_mfma: SIMD-cycles of MFMA per K step, wg_per_cu: workgroups resident
    per CU (occupancy), wg_fixed0: split-K without zero workgroups (zwg = 0,
    2 splits of CALIB_STEPS[0] steps): the fixed cycles of the adding split,
    which waits for split 0's store, wg_load: the cycles a K workgroup takes
    longer when every CU runs one (a launch of one round over the device's
    CUs, tiles sharing A and B so HBM bandwidth does not bind: the C stores
    or atomic adds and the shared caches under load), wg_load_full: the
    same with wg_per_cu workgroups on every CU (they share the CU),
    wg_load_step: how much wg_load grows per K step (the launch of one
    workgroup per CU again at CALIB_STEPS[1] steps: the queues at L2, the
    Infinity Cache and HBM that every K step's loads meet under load, which
    one workgroup alone does not; both lengths' extra no less than 0),
    wg_lds: the CU's LDS busy cycles per K step of one workgroup alone (the
    timing model's unit_busy["lds"], as wg_mfma: workgroups resident on
    one CU share its LDS), wg_fixed1 / wg_drain1: split-K, one split
    without zero workgroups (zwg = 0: the K workgroup stores C, waiting for
    its stores before it releases the counter, where wg_fixed's K
    workgroup polls and adds): its fixed cycles and the drain after it,
    wg_load1 / wg_load1_full / wg_load1_step: wg_load's probes launched
    that way (every workgroup a storing K workgroup, no adds; a one-split
    launch without zero workgroups is charged these)} from
    single-tile launches (CALIB_STEPS) and those full ones. (Splits adding into the same
    tile's lines take turns at L2, but 8 splits of one tile side by side
    cost under 30 cycles more per split: not a term.)"""
    ks = k_per_step(cfg)
    rs = [run(hsaco, cfg, (cfg.tile_m, cfg.tile_n, n * ks), 1, device) for n in CALIB_STEPS]
    (n1, n2), (r1, r2) = CALIB_STEPS, rs
    span = []
    for r in rs:
        t = r.trace
        groups = {}
        for w in t.waves:
            lo, hi = groups.get(w["group"], (w["start"], w["end"]))
            groups[w["group"]] = (min(lo, w["start"]), max(hi, w["end"]))
        span.append(groups)
    last = [max(g for g in grp) for grp in span]         # the K split's group
    dur = [span[i][last[i]][1] - span[i][last[i]][0] for i in range(2)]
    step = (dur[1] - dur[0]) / (n2 - n1)
    zero = span[0][0][1] - span[0][0][0] if cfg.split_k and not cfg.stream_k else 0
    mfma = (r2.trace.unit_busy["mfma"] - r1.trace.unit_busy["mfma"]) / (n2 - n1)
    lds = (r2.trace.unit_busy["lds"] - r1.trace.unit_busy["lds"]) / (n2 - n1)
    fixed0 = fixed1 = drain1 = 0
    if cfg.split_k:
        r0 = run(hsaco, cfg, (cfg.tile_m, cfg.tile_n, 2 * n1 * ks), 2, device, zwg=0)
        fixed0 = r0.cycles - r0.trace.drain_cycles - n1 * step
        if not cfg.stream_k:        # one split storing, alone at both lengths
            rn = [run(hsaco, cfg, (cfg.tile_m, cfg.tile_n, n * ks), 1, device, zwg=0)
                  for n in CALIB_STEPS]
            dur1 = [r.cycles - r.trace.drain_cycles for r in rn]
            drain1 = rn[0].trace.drain_cycles
            fixed1 = dur1[0] - n1 * step
    from .devices import cus as _cus
    ncu = _cus(cfg.arch, device)
    slots = r1.trace.occupancy["groups_per_cu"]

    def loaded(per_cu, i=0, store=False):
        """The median K workgroup's extra cycles over dur[i] in a launch of
        per_cu workgroups on every CU (split-K: half of them zero ones) at
        CALIB_STEPS[i] K steps (may be negative: tiles sharing A and B hit
        in L2 where one alone waits for HBM); store: a split-K kernel's
        tiles in one split without zero workgroups (each stores C), over
        dur1[i]."""
        zwg = cfg.split_k and not cfg.stream_k and not store    # the probe's zero workgroups
        tiles = ncu * per_cu // 2 if zwg else ncu * per_cu
        gy = max(d for d in range(1, int(tiles ** 0.5) + 1) if tiles % d == 0)
        rf = run(hsaco, cfg, (cfg.tile_m * gy, cfg.tile_n * (tiles // gy), CALIB_STEPS[i] * ks),
                 1, device, zwg=0 if store else 1)
        per = {}
        for w in rf.trace.waves:
            if w["group"] >= (tiles if zwg else 0):
                lo, hi = per.get(w["group"], (w["start"], w["end"]))
                per[w["group"]] = (min(lo, w["start"]), max(hi, w["end"]))
        return float(np.median([hi - lo for lo, hi in per.values()])) - \
            (dur1 if store else dur)[i]
    load, load2 = loaded(1), loaded(1, 1)
    load_full = loaded(slots) if slots > 1 else load
    st = [0.0, 0.0, 0.0]
    if cfg.split_k and not cfg.stream_k:
        st = [max(0.0, loaded(1, 0, True)), max(0.0, loaded(1, 1, True))]
        st.append(max(0.0, loaded(slots, 0, True)) if slots > 1 else st[0])
    return dict(wg_step=round(step, 1), wg_fixed=round(dur[0] - n1 * step),
                wg_drain=r1.trace.drain_cycles, wg_zero=zero, wg_mfma=round(mfma, 1),
                wg_per_cu=slots, wg_fixed0=round(fixed0), wg_load=round(max(0.0, load)),
                wg_load_full=round(max(0.0, load_full)),
                wg_load_step=round((max(0.0, load2) - max(0.0, load)) / (n2 - n1), 1),
                wg_lds=round(lds, 1), wg_fixed1=round(fixed1), wg_drain1=drain1,
                wg_load1=round(st[0]), wg_load1_full=round(st[2]),
                wg_load1_step=round((st[1] - st[0]) / (n2 - n1), 1))


def utilisation(shape, cycles, cfg):
    """flops / (cycles x 2048 flop/clk/CU x CUs busy)."""
    m, n, k = shape
    gx, gy, _ = cfg.grid(m, n)
    return 2 * m * n * k / (cycles * PEAK_FLOP_PER_CLK_CU * min(gx * gy, CUS))


def _row(cfg, file, meta, sims=(), tuned_for="", calib=None):
    """A configs.csv row; sims: [(shape, cycles)] (';'-separated columns);
    calib: `calibrate`'s dict."""
    d = cfg.as_dict()
    row = {"name": cfg.name, "file": file, **{k: d[k] for k in d},
           "lds_bytes": cfg.lds_bytes, "vgprs": meta.next_free_vgpr if meta else "",
           "agprs": meta.agpr_count if meta else "", "sgprs": meta.sgpr_count if meta else "",
           "ref_shape": ";".join("x".join(map(str, s)) for s, _ in sims),
           "ref_cycles": ";".join(str(c) for _, c in sims),
           "ref_utilisation": ";".join(f"{utilisation(s, c, cfg):.4f}" for s, c in sims),
           "tuned_for": tuned_for, **(calib or {})}
    return row


def _build_one(cfg, directory, ref_shapes, calib=True):
    out = compile_config(cfg)
    file = f"{cfg.name}.{cfg.arch}.co"
    with open(os.path.join(directory, file), "wb") as f:
        f.write(out.hsaco)
    sims = [(shape, simulate(out.hsaco, cfg, shape)) for shape in ref_shapes]
    cal = calibrate(out.hsaco, cfg) if calib else None
    return _row(cfg, file, out.metadata[cfg.name], sims, calib=cal), out.hsaco


def write_csv(directory, rows):
    path = os.path.join(directory, "configs.csv")
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k, "") for k in CSV_FIELDS})
    os.replace(tmp, path)


def struct_name(name, arch):
    """The C name of a kernel's argument struct (arch-suffixed beyond gfx942)."""
    return name + ("" if arch == "gfx942" else "_" + arch)


def write_header(directory, rows):
    kernels = []
    for r in rows:
        with open(os.path.join(directory, r["file"]), "rb") as f:
            kernels.append((struct_name(r["name"], r["arch"]), f.read(), r["name"]))
    with open(os.path.join(directory, "kernel_args.h"), "w") as f:
        f.write(kernel_args_header(kernels))


def build_library(directory, configs=None, ref_shapes=REF_SHAPES, workers=None, calib=True):
    """Writes one <name>.<arch>.co per config (default: `default_configs()`),
    configs.csv and kernel_args.h into `directory`; returns a Library.
    ref_shapes: problems simulated for the ref_cycles / ref_utilisation
    columns (() skips simulation); calib: the wg_* columns dispatch's
    estimate reads (`calibrate`; False leaves them empty). workers > 1
    builds in that many processes."""
    configs = default_configs() if configs is None else list(configs)
    if not configs:
        raise ValueError("build_library needs at least one config")
    for c in configs:
        if not isinstance(c, GemmConfig):
            raise TypeError(f"configs must be GemmConfig objects, got {type(c).__name__}")
        c.check()
    keys = [(c.name, c.arch) for c in configs]
    if len(set(keys)) != len(keys):
        raise ValueError("build_library: the same config is given twice")
    os.makedirs(directory, exist_ok=True)
    if workers and workers > 1:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(workers) as ex:
            results = list(ex.map(_build_one, configs, [directory] * len(configs),
                                  [tuple(ref_shapes)] * len(configs), [calib] * len(configs)))
    else:
        results = [_build_one(c, directory, tuple(ref_shapes), calib) for c in configs]
    rows = [r for r, _ in results]
    write_csv(directory, rows)
    write_header(directory, rows)
    return Library(directory)


@dataclass
class Entry:
    """One kernel of a library: its config, file and configs.csv row."""
    name: str
    file: str
    config: GemmConfig
    row: dict = field(default_factory=dict)

    @property
    def struct_name(self):
        return struct_name(self.name, self.config.arch)

    @property
    def tuned_for(self):
        """[(M, N, K)] shapes tuning found this config best for."""
        return list(self.tuned_splits)

    @property
    def tuned_splits(self):
        """{(M, N, K): K splits} of the tuned shapes (`tuned_for` entries
        "MxNxK" or, for a split-K winner, "MxNxK@splits")."""
        out = {}
        for s in filter(None, (self.row.get("tuned_for") or "").split(";")):
            shape, _, sk = s.partition("@")
            out[tuple(int(x) for x in shape.split("x"))] = int(sk or 1)
        return out

    @property
    def calibration(self):
        """configs.csv's wg_* columns (`calibrate`) as floats, or None for a
        row without them (a library built with calib=False or before them)."""
        try:
            cal = {f: float(self.row[f]) for f in CALIB_FIELDS}
        except (KeyError, TypeError, ValueError):
            return None
        for f in CALIB_LATER:
            v = self.row.get(f)
            cal[f] = float(v) if v not in (None, "") else 0.0
        return cal

    @property
    def ref_utilisation(self):
        """Simulated utilisation on the last (largest) reference shape."""
        u = str(self.row.get("ref_utilisation") or "").split(";")[-1]
        return float(u) if u else None


class Library:
    """A library directory written by build_library (configs.csv, *.co,
    kernel_args.h)."""

    def __init__(self, directory):
        self.directory = directory
        path = os.path.join(directory, "configs.csv")
        if not os.path.exists(path):
            raise FileNotFoundError(f"{path}: not a GEMM library (build one with "
                                    "aster.ops.build_library)")
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        self.entries = [Entry(r["name"], r["file"], GemmConfig.from_dict(r), r) for r in rows]
        self._code = {}

    def __repr__(self):
        return f"<aster.ops.Library {self.directory}: {len(self.entries)} kernels>"

    def find(self, arch=None, dtype=None, trans_b=None, out=None, block_scale=None):
        return [e for e in self.entries
                if (arch is None or e.config.arch == arch)
                and (block_scale is None or e.config.block_scale == block_scale)
                and (dtype is None or e.config.dtype == dtype)
                and (trans_b is None or e.config.trans_b == trans_b)
                and (out is None or e.config.out == out)]

    def entry(self, name, arch="gfx942"):
        for e in self.entries:
            if e.name == name and e.config.arch == arch:
                return e
        raise KeyError(f"no kernel {name!r} for {arch} in {self.directory}")

    def code(self, entry):
        """The code object bytes of an entry."""
        if entry.file not in self._code:
            with open(os.path.join(self.directory, entry.file), "rb") as f:
                self._code[entry.file] = f.read()
        return self._code[entry.file]

    def args_dtype(self, entry):
        """NumPy structured dtype of the entry's kernel arguments."""
        return args_dtype(self.code(entry), entry.name)

    def rows(self):
        return [dict(e.row) for e in self.entries]
