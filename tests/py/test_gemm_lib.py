"""aster.ops: the library on disk (code objects, configs.csv, kernel_args.h
checked by clang-22 against the metadata, NumPy dtypes against
aster.kernargs.pack), dispatch (results vs NumPy, the heuristic's choices on
a table of shapes, config=, out=, timing=, backend="hip"), the per-user cache."""
import csv
import os
import shutil
import subprocess

import numpy as np
import pytest

import aster
import aster.ops as L
from aster import hip_backend
from aster.kernargs import pack
from aster.generators.gemm import DTYPES, GemmConfig, compile_config, reference
from aster.ops import dispatch

SMALL = [GemmConfig(dtype=d, arch=a, trans_b=tb, tile_m=t, tile_n=t, tile_k=64 // (t // 64),
                    mfma=32 if t > 64 else 16)
         for a in ("gfx942", "gfx950") for d in ("f16", "bf16") for tb in (False, True)
         for t in (64, 128)]


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    d = tmp_path_factory.mktemp("gemmlib")
    return L.build_library(str(d), SMALL, ref_shapes=((64, 64, 64), (128, 128, 64)), workers=2,
                           calib=False)


def operands(m, n, k, dtype, trans_b, seed=0):
    rng = np.random.default_rng(seed)
    a = (rng.integers(-4, 5, (m, k)) / 4).astype(DTYPES[dtype])
    b = (rng.integers(-4, 5, (n, k) if trans_b else (k, n)) / 4).astype(DTYPES[dtype])
    return a, b


def test_library_files(lib):
    d = lib.directory
    rows = list(csv.DictReader(open(os.path.join(d, "configs.csv"))))
    assert len(rows) == len(SMALL) == len(lib.entries)
    for r in rows:
        assert os.path.exists(os.path.join(d, r["file"]))
        co = aster.load_code_object(open(os.path.join(d, r["file"]), "rb").read())
        assert co.processor == r["arch"]
        assert r["ref_shape"] == "64x64x64;128x128x64"
        c64, c128 = map(int, r["ref_cycles"].split(";"))
        assert c64 > 0 and c128 > 0
        u = [float(x) for x in r["ref_utilisation"].split(";")]
        assert all(0 < x < 1 for x in u)
        assert L.Library(d).entry(r["name"], r["arch"]).ref_utilisation == u[1]
    # at least 4 kernels per dtype and target
    for a in ("gfx942", "gfx950"):
        for dt in ("f16", "bf16"):
            assert len(lib.find(arch=a, dtype=dt)) >= 4


def test_kernel_args_header_compiles_and_matches_metadata(lib, tmp_path):
    """kernel_args.h compiles with clang-22, and a second file asserting the
    offsets and sizes aster.compile's metadata states compiles with it."""
    header = os.path.join(lib.directory, "kernel_args.h")
    checks = ['#include "kernel_args.h"']
    first = lib.entries[0]
    md = compile_config(first.config).metadata[first.name]    # aster.compile's metadata
    info = aster.load_code_object(lib.code(first)).kernel(first.name)
    assert [(x.name, x.offset, x.size) for x in md.args] == \
        [(x.name, x.offset, x.size) for x in info.args if not x.hidden]
    for e in lib.entries:
        info = aster.load_code_object(lib.code(e)).kernel(e.name)
        for arg in info.args:
            if not arg.hidden:
                checks.append(f"_Static_assert(__builtin_offsetof({e.struct_name}_KernelArgs, "
                              f"{arg.name}) == {arg.offset}, \"{e.name}.{arg.name}\");")
        checks.append(f"_Static_assert(sizeof({e.struct_name}_KernelArgs) == "
                      f"{info.explicit_args_size}, \"{e.name}\");")
    test_c = tmp_path / "check.c"
    test_c.write_text("\n".join(checks) + "\n")
    for src in (header, str(test_c)):
        r = subprocess.run(["clang-22", "-fsyntax-only", "-x", "c", "-std=c11", "-Wall",
                            "-Werror", "-I", lib.directory, src], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr


def test_numpy_dtype_packs_the_same_bytes(lib):
    e = lib.entries[0]
    dt = lib.args_dtype(e)
    assert dt.itemsize == 36 and dt.names == ("a", "b", "c", "M", "N", "K")
    info = aster.load_code_object(lib.code(e)).kernel(e.name)
    rec = np.zeros((), dt)
    rec["a"], rec["b"], rec["c"] = 0x1000, 0x2000, 0x3000
    rec["M"], rec["N"], rec["K"] = 7, 11, 13
    a = np.zeros(8, np.float16)
    packed = pack(e.name, info.args, [a, a.copy(), np.zeros(4, np.float32), 7, 11, 13])
    assert packed.bytes_with([0x1000, 0x2000, 0x3000])[:36] == rec.tobytes()


SHAPES = [(1, 1, 1), (5, 3, 7), (31, 37, 41), (100, 129, 67), (130, 200, 130), (256, 64, 256)]


@pytest.mark.parametrize("dtype", ["f16", "bf16"])
@pytest.mark.parametrize("trans_b", [False, True])
def test_gemm_matches_numpy(lib, dtype, trans_b):
    for i, (m, n, k) in enumerate(SHAPES):
        a, b = operands(m, n, k, dtype, trans_b, seed=i)
        a0, b0 = a.copy(), b.copy()
        c = L.gemm(a, b, trans_b=trans_b, library=lib)
        np.testing.assert_array_equal(c, reference(a, b, trans_b), err_msg=f"{m},{n},{k}")
        assert (a == a0).all() and (b == b0).all()


def test_gemm_on_gfx950_config_out_and_timing(lib):
    a, b = operands(70, 90, 50, "bf16", True, seed=4)
    out = np.zeros((70, 90), np.float32)
    name = lib.find(arch="gfx950", dtype="bf16", trans_b=True)[0].name
    c, r = L.gemm(a, b, trans_b=True, library=lib, out=out, config=name, arch="gfx950",
                  timing=True)
    assert c is out and r.cycles > 0 and r.kernel == name
    np.testing.assert_array_equal(out, reference(a, b, True))


def test_gemm_bad_input(lib):
    a, b = operands(8, 8, 8, "f16", False)
    with pytest.raises(TypeError, match="same dtype"):
        L.gemm(a, b.astype(DTYPES["bf16"]), library=lib)
    with pytest.raises(TypeError, match="float16 or bfloat16"):
        L.gemm(a.astype(np.float32), b, library=lib)
    with pytest.raises(ValueError, match="inner dimensions"):
        L.gemm(a[:, :5], b, library=lib)
    with pytest.raises(ValueError, match="out must be"):
        L.gemm(a, b, library=lib, out=np.zeros((8, 8), np.float64))
    with pytest.raises(ValueError, match="trans_b=True"):
        L.gemm(a, b, library=lib, config=lib.find(trans_b=True)[0].name)
    with pytest.raises(KeyError):
        L.gemm(a, b, library=lib, config="no_such_kernel")


def test_backend_hip_same_code_object(lib):
    if hip_backend.device_count() == 0:
        pytest.skip("no HIP device (hip-python and a GPU are needed)")
    a, b = operands(100, 70, 33, "f16", False)
    np.testing.assert_array_equal(L.gemm(a, b, library=lib, backend="hip"), reference(a, b))


def _table_library(tmp_path):
    """A library holding only configs.csv rows: choose() reads no code."""
    rows = []
    for cfg, u in ((GemmConfig(tile_m=256, tile_n=256, tile_k=16), 0.8),
                   (GemmConfig(tile_m=256, tile_n=128, tile_k=32), 0.75),
                   (GemmConfig(tile_m=128, tile_n=128, tile_k=32), 0.6),
                   (GemmConfig(tile_m=64, tile_n=64, tile_k=64, mfma=16), 0.3)):
        rows.append({**L.library._row(cfg, cfg.name + ".co", None), "ref_utilisation": u})
    L.library.write_csv(str(tmp_path), rows)
    return L.Library(str(tmp_path))


# (M, N, K) -> tile the heuristic must pick, and why (library utilisations
# 256x256: 0.8, 256x128: 0.75, 128x128: 0.6, 64x64: 0.3)
HEURISTIC = [
    ((4096, 4096, 4096), "256x256"),   # 256 tiles fit the 304 CUs in one round
    ((8192, 8192, 1024), "256x256"),   # 1024 tiles (4 rounds); smaller tiles need more rounds
    ((4864, 4096, 4096), "256x256"),   # 19 x 16 = 304 tiles: exactly one round
    ((4096, 4352, 2048), "256x256"),   # 272 tiles in one round beat 544 of 256x128 in two
    ((2048, 2048, 2048), "256x128"),   # 128 tiles vs 64 big ones; 256 of 128x128 are memory-bound
    ((4096, 384, 4096), "128x128"),    # 96 tiles, no padding (256x256 wastes 25% along N)
    ((1024, 1024, 1024), "64x64"),     # 256 CUs busy (memory-bound) vs 16 big tiles
    ((64, 64, 4096), "64x64"),         # one small tile, nothing padded
    ((300, 300, 300), "64x64"),        # 25 tiles spread; a 256x256 tile is 68% padding
    ((8, 8192, 4096), "64x64"),        # skinny: the rows of a big tile would be wasted
]


@pytest.mark.parametrize("shape,tile", HEURISTIC, ids=lambda x: str(x))
def test_heuristic_choices(tmp_path, shape, tile):
    lib = _table_library(tmp_path)
    e = L.choose(lib, *shape)
    assert f"_{tile}x" in e.name, (shape, e.name,
                                   {x.name: L.estimate(x.config, *shape, x.ref_utilisation)
                                    for x in lib.entries})


def test_tuned_shape_wins(tmp_path):
    lib = _table_library(tmp_path)
    rows = lib.rows()
    rows[3]["tuned_for"] = "4096x4096x4096"
    L.library.write_csv(str(tmp_path), rows)
    assert L.choose(L.Library(str(tmp_path)), 4096, 4096, 4096).name == rows[3]["name"]


def test_default_library_is_built_once_per_user(tmp_path, monkeypatch):
    """The default library is built into $ASTER_CACHE_DIR/gemm-<hash> on first
    use and loaded from there afterwards (the build is made small here)."""
    monkeypatch.setenv("ASTER_CACHE_DIR", str(tmp_path))
    builds = []

    def small_build(directory, configs=None, **kw):
        builds.append(directory)
        return L.build_library(directory, [c for c in SMALL if c.arch == "gfx942"
                                           and c.dtype == "f16"], ref_shapes=(), calib=False)
    monkeypatch.setattr(dispatch, "build_library", small_build)
    monkeypatch.setattr(dispatch, "_DEFAULT", {})
    d = L.cache_dir()
    assert d.startswith(str(tmp_path)) and os.path.basename(d).startswith("gemm-")
    a, b = operands(20, 30, 40, "f16", False)
    np.testing.assert_array_equal(L.gemm(a, b), reference(a, b))
    assert len(builds) == 1 and os.path.exists(os.path.join(d, "configs.csv"))
    monkeypatch.setattr(dispatch, "_DEFAULT", {})       # a new process: loads, no build
    np.testing.assert_array_equal(L.gemm(a, b), reference(a, b))
    assert len(builds) == 1
    shutil.rmtree(d)
