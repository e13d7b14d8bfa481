"""aster.aiter.gemm: AMD's asm bf16 GEMM launched as aiter's interface does.

Oracles: AMD's own heuristic (``get_heuristic_kernel`` of the wheel's
asm_gemm_a16w16.cu, compiled here by clang-22 against libstdc++ with its
HIP/torch calls stubbed: the device reports 304 CUs) for the kernel and
split-K choices and the table's iteration order; the code objects' metadata
for the argument offsets; NumPy for the results of AMD's kernels."""
import re
import shutil
import subprocess

import numpy as np
import pytest

from aster import AsterError
from aster.aiter import wheel_file


SHAPES = [(1, 4096, 4096), (64, 256, 5120), (256, 256, 5120), (128, 1280, 8192),
          (512, 1024, 4096), (1024, 1024, 1024), (4096, 4096, 512), (97, 1536, 2048),
          (7, 3072, 2048), (1021, 512, 640), (96, 64, 64), (5000, 8192, 128)]

STUBS = r"""
#include <cstdio>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>
#define TORCH_CHECK(c, ...) do { if (!(c)) { printf("error\n"); return {}; } } while (0)
#define HIP_CALL(x) (x)
typedef int hipDevice_t;
struct hipDeviceProp_t { unsigned multiProcessorCount; };
static int hipGetDevice(hipDevice_t *d) { *d = 0; return 0; }
static int hipGetDeviceProperties(hipDeviceProp_t *p, hipDevice_t) {
  p->multiProcessorCount = 304; return 0; }
struct BF16GemmConfig { std::string name, co_name; int tn, tileM, tileN, pf; };
using CFG = std::unordered_map<std::string, BF16GemmConfig>;
"""


def _heuristic_source():
    """get_heuristic_kernel, as the wheel's interface file has it."""
    text = wheel_file("aiter_meta/csrc/py_itfs_cu/asm_gemm_a16w16.cu").read_text()
    m = re.search(r"std::tuple<std::string, int>\s*get_heuristic_kernel\(.*?\n}\n", text, re.S)
    assert m, "get_heuristic_kernel not found in asm_gemm_a16w16.cu"
    return m.group(0)


@pytest.fixture(scope="module")
def amd_choices(tmp_path_factory):
    """{(M, N, K): (tile, split-K)} from AMD's heuristic compiled by clang-22."""
    if shutil.which("clang++-22") is None:
        pytest.fail("clang++-22 is a build requirement (make deps installs clang-22)")
    import aster.aiter.gemm as g
    rows = g.bf16_kernels()
    # the table in the CSV's row order, as the wheel's codegen.py writes it
    table = ",\n".join(f'{{"{r.name}", {{"{r.name}", "{r.file}", 1, {r.tile_m}, {r.tile_n}, '
                       f'{r.prefetch}}}}}' for r in sorted(rows, key=lambda r: r.tile_m))
    calls = "\n".join(f"  {{ auto t = get_heuristic_kernel({m}, {n}, {k}, &cfg); "
                      f"printf(\"%s %d\\n\", std::get<0>(t).c_str(), std::get<1>(t)); }}"
                      for m, n, k in SHAPES)
    src = (STUBS + _heuristic_source() + f"\nstatic CFG cfg = {{\n{table}\n}};\n"
           f"int main() {{\n{calls}\n}}\n")
    d = tmp_path_factory.mktemp("aiter_heuristic")
    (d / "h.cc").write_text(src)
    subprocess.run(["clang++-22", "-std=c++17", "-O0", "-w", "-o", str(d / "h"), str(d / "h.cc")],
                   check=True)
    out = subprocess.run([str(d / "h")], check=True, capture_output=True, text=True).stdout
    return {s: (name, int(sk)) for s, (name, sk) in
            zip(SHAPES, (line.split() for line in out.splitlines()))}


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_choice_matches_amds_heuristic(amd_choices, shape):
    import aster.aiter.gemm as g
    cfg, split = g.bf16_choice(*shape)
    assert (cfg.name, split) == amd_choices[shape]


def test_args_match_the_code_objects_metadata():
    """Every named field of the packed KernelArgs sits where the code object's
    metadata puts that argument."""
    import struct
    import aster
    import aster.aiter.gemm as g
    from aster.aiter import code_object
    blob = g.pack_args(0x1111, 0x2222, 0x3333, 5, 64, 128, 7)
    for r in g.bf16_kernels():
        info = aster.load_code_object(code_object("gfx942", "bf16gemm/" + r.file)).kernel(r.name)
        off = {a.name: a.offset for a in info.args if a.name != "pad"}
        assert info.explicit_args_size >= len(blob)
        assert struct.unpack_from("<Q", blob, off["D"])[0] == 0x1111
        assert struct.unpack_from("<Q", blob, off["A"])[0] == 0x2222
        assert struct.unpack_from("<Q", blob, off["B"])[0] == 0x3333
        assert struct.unpack_from("<f", blob, off["alpha"])[0] == 1.0
        for name, val in (("Mdim", 5), ("Ndim", 64), ("Kdim", 128), ("strideA0", 256),
                          ("strideB0", 256), ("strideC0", 256), ("splitk", 7)):
            assert struct.unpack_from("<I", blob, off[name])[0] == val, name


@pytest.mark.parametrize("shape,splitk", [((33, 128, 256), 1), ((7, 3072, 2048), None),
                                          ((5, 192, 192), 3), ((33, 128, 256), 4)])
def test_amd_kernel_matches_numpy(shape, splitk):
    import ml_dtypes
    import aster.aiter.gemm as g
    m, n, k = shape
    rng = np.random.default_rng(1)
    a = (rng.integers(-8, 9, (m, k)) / 4).astype(ml_dtypes.bfloat16)
    b = (rng.integers(-8, 9, (n, k)) / 4).astype(ml_dtypes.bfloat16)
    d = g.bf16(a, b, splitk=splitk)
    np.testing.assert_array_equal(d, a.astype(np.float64) @ b.astype(np.float64).T)


def test_bad_input_raises():
    import ml_dtypes
    import aster.aiter.gemm as g
    a = np.zeros((4, 100), ml_dtypes.bfloat16)
    with pytest.raises(AsterError):
        g.bf16(a, np.zeros((64, 100), ml_dtypes.bfloat16))       # K not a multiple of 64
    with pytest.raises(AsterError):
        g.bf16(np.zeros((4, 64), np.float32), np.zeros((64, 64), ml_dtypes.bfloat16))
    with pytest.raises(AsterError):
        g.bf16_choice(4, 100, 64)                                  # N not a multiple of 64


# ---- a8w8 ----

I8_STUBS = STUBS.replace(
    "struct BF16GemmConfig { std::string name, co_name; int tn, tileM, tileN, pf; };\n"
    "using CFG = std::unordered_map<std::string, BF16GemmConfig>;",
    "struct I8GemmConfig { std::string name, co_name; int tile_M, tile_N, splitK, bpreshuffle; };\n"
    "using CFG = std::unordered_map<std::string, I8GemmConfig>;")
I8_SHAPES = [(1, 4096, 4096), (64, 1280, 8192), (300, 4096, 1024), (2000, 8192, 1024),
             (4096, 4096, 512), (1000, 1024, 2048), (512, 128, 256)]


def test_a8w8_choice_matches_amds_heuristic(tmp_path):
    """aiter's a8w8 get_heuristic_kernel, compiled with the CSV's rows in
    order (as its codegen.py writes them), picks what a8w8_choice picks."""
    if shutil.which("clang++-22") is None:
        pytest.fail("clang++-22 is a build requirement (make deps installs clang-22)")
    import csv
    import aster.aiter.gemm as g
    text = wheel_file("aiter_meta/csrc/py_itfs_cu/asm_gemm_a8w8.cu").read_text()
    m = re.search(r"std::tuple<std::string, int> get_heuristic_kernel\(.*?\n}\n", text, re.S)
    assert m, "get_heuristic_kernel not found in asm_gemm_a8w8.cu"
    path = wheel_file("aiter_meta/hsa/gfx942/i8gemm/i8gemm_bf16_perTokenI8.csv")
    rows = list(csv.DictReader(open(path)))
    table = ",\n".join(f'{{"{r["knl_name"]}", {{"{r["knl_name"]}", "{r["co_name"]}", '
                       f'{r["tile_m"]}, {r["tile_n"]}, {r["splitK"]}, {r["bpreshuffle"]}}}}}'
                       for r in rows)
    calls = "\n".join(f"  {{ auto t = get_heuristic_kernel({a}, {b}, {c}, std::nullopt, "
                      f"std::nullopt, &cfg); printf(\"%s\\n\", std::get<0>(t).c_str()); }}"
                      for a, b, c in I8_SHAPES)
    src = (I8_STUBS + m.group(0) + f"\nstatic CFG cfg = {{\n{table}\n}};\n"
           f"int main() {{\n{calls}\n}}\n")
    (tmp_path / "h.cc").write_text(src)
    subprocess.run(["clang++-22", "-std=c++17", "-O0", "-w", "-o", str(tmp_path / "h"),
                    str(tmp_path / "h.cc")], check=True)
    out = subprocess.run([str(tmp_path / "h")], check=True, capture_output=True,
                         text=True).stdout.split()
    assert [g.a8w8_choice(*s).name for s in I8_SHAPES] == out


@pytest.mark.parametrize("shape", [(37, 128, 256), (200, 384, 1024)])
def test_amd_a8w8_matches_numpy(shape):
    """AMD's kernel (B shuffled by shuffle_weight: a wrong order gives wrong
    sums) equals bf16(A @ B.T * sa * sb + bias) within one bf16 ulp (the
    kernel rounds its f32 steps in its own order)."""
    import ml_dtypes
    import aster.aiter.gemm as g
    m, n, k = shape
    rng = np.random.default_rng(4)
    a = rng.integers(-8, 9, (m, k)).astype(np.int8)
    b = rng.integers(-8, 9, (n, k)).astype(np.int8)
    sa = (rng.integers(1, 5, m) / 4).astype(np.float32)
    sb = (rng.integers(1, 5, n) / 8).astype(np.float32)
    bias = (rng.integers(-4, 5, n) / 2).astype(np.float32)
    c = g.a8w8(a, b, sa, sb, bias)
    assert c.dtype == ml_dtypes.bfloat16 and c.shape == (m, n)
    ref = (a.astype(np.float64) @ b.astype(np.float64).T) * sa[:, None] * sb[None, :] + bias
    rne = ref.astype(np.float32).astype(ml_dtypes.bfloat16)
    ulp = np.spacing(np.abs(rne)).astype(np.float64)
    assert (np.abs(c.astype(np.float64) - ref) <= ulp).all()
    assert (c == rne).mean() > 0.8


def test_split_k_launch_counts_its_zero_fill():
    """asm_gemm_a16w16.cu zeroes D (``out.zero_()``, its own launch) before a
    split-K launch and not before split-K 1: the result counts the fill's
    device time (aster.ops.fill on the same device profile) only then."""
    import ml_dtypes
    import aster.aiter.gemm as g
    a = np.ones((5, 192), ml_dtypes.bfloat16)
    b = np.ones((192, 192), ml_dtypes.bfloat16)
    d, r = g.bf16(a, b, splitk=3, timing=True)
    assert r.launches == 2 and r.fill_us > 0 and r.total_us == r.microseconds + r.fill_us
    np.testing.assert_array_equal(d, np.full((5, 192), 192.0))
    d, r = g.bf16(a, b, splitk=1, timing=True)
    assert r.launches == 1 and r.total_us == r.microseconds


def test_zero_fill_kernel():
    """aster.ops.fill zeroes every byte of buffers that are not a multiple of
    its 16-byte stores or of a workgroup's 16 KiB; one launch costs at least
    the timing model's launch cost; bad buffers raise."""
    import aster.ops
    for n in (1, 3, 4099, 16384 // 4 + 5):
        buf = np.full(n, np.nan, np.float32)
        r = aster.ops.fill.zero(buf, timing=True)
        assert not buf.any(), n
        assert r.microseconds > 2.0
    with pytest.raises(ValueError, match="whole dwords"):
        aster.ops.fill.zero(np.zeros(3, np.uint8))
