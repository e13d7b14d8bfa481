"""aster.launch on the emulator: clang-22-compiled HIP kernels and aster-built
kernels, arrays in/out, every scalar type at its metadata offset, statistics,
the binding's code-object view, and the hip/auto backends."""
import sys

import numpy as np
import pytest

import aster
from aster import hip_backend, s, v, vcc
from aster.kernargs import pack

VADD = """
#include "common.h"
KERNEL vadd(const float *a, const float *b, float *c, int n) {
  int i = bid_x() * 256 + tid_x();
  if (i < n)
    c[i] = a[i] + b[i];
}
"""

# Each scalar goes to one 64-bit slot of `out` (floats as their bits), so the
# test sees exactly the bytes the kernel read at the metadata's offsets.
SCALARS = """
extern "C" __attribute__((global)) void scalars(
    signed char i8, unsigned char u8, short i16, unsigned short u16, int i32,
    unsigned int u32, long long i64, unsigned long long u64, _Float16 h, float f,
    double d, bool b, unsigned long long *out) {
  if (__builtin_amdgcn_workitem_id_x() != 0 || __builtin_amdgcn_workgroup_id_x() != 0)
    return;
  out[0] = (long long)i8;  out[1] = u8;  out[2] = (long long)i16;  out[3] = u16;
  out[4] = (long long)i32; out[5] = u32; out[6] = (unsigned long long)i64; out[7] = u64;
  out[8] = __builtin_bit_cast(unsigned short, h);
  out[9] = __builtin_bit_cast(unsigned int, f);
  out[10] = __builtin_bit_cast(unsigned long long, d);
  out[11] = b;
}
"""

SAXPY_2D = """
#include "common.h"
// y[r][c] = alpha * x[r][c] + y[r][c] over a 2-D grid of 16x4 blocks.
KERNEL saxpy2d(float alpha, const float *x, float *y, int rows, int cols) {
  int c = bid_x() * 16 + tid_x(), r = bid_y() * 4 + tid_y();
  if (r < rows && c < cols)
    y[r * cols + c] = alpha * x[r * cols + c] + y[r * cols + c];
}
"""


def test_vadd_hip(hip_hsaco):
    hsaco = hip_hsaco(VADD, "vadd")
    n = 1000
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal(n, dtype=np.float32), rng.standard_normal(n, dtype=np.float32)
    c = np.full(n, -1.0, np.float32)
    r = aster.launch(hsaco, "vadd", grid=4, block=256, args=[a, b, c, n])
    np.testing.assert_array_equal(c, a + b)
    assert r.backend == "emu" and r.kernel == "vadd"
    assert r.grid == (4, 1, 1) and r.block == (256, 1, 1)
    assert r.workgroups == 4 and r.waves == 16
    assert r.wave_instructions > 0 and r.valu > 0 and r.vmem > 0 and r.seconds > 0
    assert r.wave_instructions >= r.valu + r.salu + r.vmem + r.smem
    assert r.warnings == []


def test_scalars_of_every_size_at_their_offsets(hip_hsaco):
    hsaco = hip_hsaco(SCALARS, "scalars")
    meta = aster.load_code_object(hsaco).kernel("scalars").args
    explicit = [m for m in meta if not m.hidden]
    assert [m.size for m in explicit] == [1, 1, 2, 2, 4, 4, 8, 8, 2, 4, 8, 1, 8]
    assert explicit[-1].value_kind == "global_buffer"
    out = np.zeros(12, np.uint64)
    vals = [np.int8(-100), 200, -30000, np.uint16(65000), -2**31, 2**32 - 1, -2**63,
            2**64 - 1, np.float16(-1.5), 3.25, np.pi, True]
    aster.launch(hsaco, "scalars", 1, 64, vals + [out])
    want = [-100, 200, -30000, 65000, -2**31, 2**32 - 1, -2**63, 2**64 - 1]
    assert [int(x) for x in out[:8]] == [w % 2**64 for w in want]
    assert int(out[8]) == int(np.float16(-1.5).view(np.uint16))
    assert int(out[9]) == int(np.float32(3.25).view(np.uint32))
    assert int(out[10]) == int(np.float64(np.pi).view(np.uint64))
    assert int(out[11]) == 1
    # A Python float rounds to the argument's type (f16 here): 0.1 -> nearest half.
    vals[8] = 0.1
    aster.launch(hsaco, "scalars", 1, 64, vals + [out])
    assert int(out[8]) == int(np.float16(0.1).view(np.uint16))


def test_pack_puts_bytes_at_metadata_offsets(hip_hsaco):
    """The one packing routine: by-value bytes at the offsets, pointer slots
    filled per backend."""
    meta = aster.load_code_object(hip_hsaco(SCALARS, "scalars")).kernel("scalars").args
    out = np.zeros(12, np.uint64)
    p = pack("scalars", meta, [1, 2, 3, 4, 5, 6, 7, 8, 1.0, 2.0, 3.0, False, out])
    explicit = {m.name: m for m in meta if not m.hidden}
    raw = p.bytes_with([0x1234_5678_9abc])
    assert raw[explicit["i32"].offset:explicit["i32"].offset + 4] == (5).to_bytes(4, "little")
    assert raw[explicit["d"].offset:explicit["d"].offset + 8] == np.float64(3.0).tobytes()
    o = explicit["out"].offset
    assert raw[o:o + 8] == (0x1234_5678_9abc).to_bytes(8, "little")
    assert [(b.index, b.name, b.array is out) for b in p.buffers] == [(12, "out", True)]


def test_2d_grid_and_float_scalar(hip_hsaco):
    hsaco = hip_hsaco(SAXPY_2D, "saxpy2d")
    rows, cols = 10, 37
    rng = np.random.default_rng(2)
    x = rng.standard_normal((rows, cols), dtype=np.float32)
    y = rng.standard_normal((rows, cols), dtype=np.float32)
    want = np.float32(0.5) * x + y
    aster.launch(hsaco, "saxpy2d", grid=(3, 3), block=(16, 4), args=[0.5, x, y, rows, cols],
                 threads=2)
    np.testing.assert_array_equal(y, want)


def straight_line(nadd=10, block=(64, 1, 1)):
    """v1 = 7, then nadd x (v1 = v0 + v1): 1 + nadd VALU + s_endpgm per wave."""
    m = aster.Module("gfx942", name="sl")
    k = m.kernel("sl", block=block)
    k.v_mov_b32(v[1], 7)
    for _ in range(nadd):
        k.v_add_u32(v[1], v[0], v[1])
    k.s_endpgm()
    return m


@pytest.mark.parametrize("grid,block", [(1, 64), (3, 128), ((2, 2), (100, 1))])
def test_exact_counts_of_a_straight_line_kernel(grid, block):
    bx = block if isinstance(block, int) else block[0]
    r = aster.launch(straight_line(10, (bx, 1, 1)), "sl", grid, block)
    gx = grid if isinstance(grid, int) else grid[0] * grid[1]
    waves = gx * -(-bx // 64)
    assert r.waves == waves and r.workgroups == gx
    assert r.wave_instructions == 12 * waves
    assert r.valu == 11 * waves
    assert r.mfma == 0 and r.vmem == 0 and r.smem == 0


def iota_kernel():
    """out[i] = i * 3 + n for i < n (aster builder: kernargs, exec mask)."""
    m = aster.Module("gfx942", name="iota")
    k = m.kernel("iota", args=[("out", aster.ptr(np.int32)), ("n", np.int32)],
                 block=(64, 1, 1))
    k.load_arg("out", s[4:6])
    k.load_arg("n", s[6])
    k.s_mul_i32(s[7], k.workgroup_id("x"), 64)
    k.v_add_u32(v[1], s[7], v[0])                 # i
    k.s_waitcnt(lgkmcnt=0)
    k.v_cmp_gt_u32(vcc, s[6], v[1])
    k.s_and_saveexec_b64(s[8:10], vcc)
    k.v_mul_lo_u32(v[2], v[1], 3)
    k.v_add_u32(v[2], s[6], v[2])
    k.v_lshlrev_b32(v[1], 2, v[1])
    k.global_store_dword(v[1], v[2], s[4:6])
    k.s_endpgm()
    return m


def test_code_can_be_module_compiled_or_bytes():
    m = iota_kernel()
    out = aster.compile(m)
    n = 150
    for code in (m, out, out.hsaco, bytearray(out.hsaco)):
        arr = np.zeros(192, np.int32)
        aster.launch(code, "iota", 3, 64, [arr, n])
        np.testing.assert_array_equal(arr[:n], np.arange(n) * 3 + n)
        assert not arr[n:].any()


def test_same_array_twice_is_one_buffer(hip_hsaco):
    hsaco = hip_hsaco(VADD, "vadd")
    a = np.arange(256, dtype=np.float32)
    aster.launch(hsaco, "vadd", 1, 256, [a, a, a, 256])      # a = a + a in place
    np.testing.assert_array_equal(a, 2 * np.arange(256, dtype=np.float32))


def test_multidimensional_and_other_dtype_arrays_are_raw_buffers(hip_hsaco):
    hsaco = hip_hsaco(VADD, "vadd")
    a = np.ones((4, 64), np.float32)
    b = np.full(128, 2.0, np.float32).view(np.uint32)     # any dtype: raw bytes
    c = np.zeros(512, np.uint16)                                     # 1024 bytes
    aster.launch(hsaco, "vadd", 1, 256, [a, b, c, 64])
    got = c.view(np.float32)
    np.testing.assert_array_equal(got[:64], np.full(64, 3.0, np.float32))
    assert not got[64:].any()


def test_code_object_view():
    out = aster.compile(iota_kernel())
    co = aster.load_code_object(out)
    assert co.processor == "gfx942"
    (k,) = co.kernels
    assert k.name == "iota"
    assert [(a.name, a.value_kind, a.offset, a.size) for a in k.args if not a.hidden] == [
        ("out", "global_buffer", 0, 8), ("n", "by_value", 8, 4)]
    md = out.metadata["iota"]
    assert (k.vgpr_count, k.sgpr_count, k.group_segment_size) == (md.vgpr_count,
                                                                 md.sgpr_count, md.lds)
    text = co.disassemble("iota")
    assert "global_store_dword" in text and "s_endpgm" in text
    assert co.unsupported("iota") == []


def test_trace_and_threads_give_the_same_result(hip_hsaco):
    hsaco = hip_hsaco(VADD, "vadd")
    n = 4 * 256
    a = np.arange(n, dtype=np.float32)
    outs = []
    for threads in (1, 2):
        c = np.zeros(n, np.float32)
        r = aster.launch(hsaco, "vadd", 4, 256, [a, a, c, n], threads=threads)
        outs.append((c, r.wave_instructions))
    assert outs[0][1] == outs[1][1]
    np.testing.assert_array_equal(outs[0][0], outs[1][0])
    r = aster.launch(hsaco, "vadd", 4, 256, [a, a, np.zeros(n, np.float32), n], trace_limit=5)
    assert len(r.trace) == 5 and "pc 0x" in r.trace[0]


def test_auto_picks_hip_only_with_a_device():
    expected = "hip" if hip_backend.available()[0] else "emu"
    r = aster.launch(straight_line(2), "sl", 1, 64, backend="auto")
    assert r.backend == expected


def test_hip_without_hip_python_is_a_clear_error(monkeypatch):
    # hip-python made unimportable (sys.modules entry None): the error is
    # checked on every machine, with or without a ROCm device.
    monkeypatch.setitem(sys.modules, "hip", None)
    assert not hip_backend.available()[0]
    with pytest.raises(hip_backend.HipError, match="needs hip-python"):
        aster.launch(straight_line(2), "sl", 1, 64, backend="hip")


def test_hip_vadd_matches_numpy(hip_device, hip_hsaco):
    hsaco = hip_hsaco(VADD, "vadd")
    n = 1000
    a = np.arange(n, dtype=np.float32)
    b = np.full(n, 0.5, np.float32)
    c = np.zeros(n, np.float32)
    r = aster.launch(hsaco, "vadd", 4, 256, [a, b, c, n], backend="hip")
    np.testing.assert_array_equal(c, a + b)
    assert r.backend == "hip" and r.seconds > 0


def scalars_on_both_backends(hsaco):
    """Runs the SCALARS kernel on the emulator and on hip; both outputs."""
    vals = [np.int8(-5), 7, -300, 60000, -7, 9, -2**40, 2**60, np.float16(2.5), 1.5, -2.0, True]
    outs = []
    for backend in ("emu", "hip"):
        out = np.zeros(12, np.uint64)
        aster.launch(hsaco, "scalars", 1, 64, vals + [out], backend=backend)
        outs.append(out)
    return outs


def test_hip_scalars_match_the_emulator(hip_device, hip_hsaco):
    emu, hip = scalars_on_both_backends(hip_hsaco(SCALARS, "scalars"))
    np.testing.assert_array_equal(emu, hip)


def test_launch_releases_the_gil():
    """While one thread emulates (a spin loop stopped by its budget), Python
    code runs in another: the work below finishes while the launch is alive."""
    import threading
    import time
    m = aster.Module("gfx942", name="spin")
    k = m.kernel("spin", block=(64, 1, 1))
    top = k.here("top")
    k.s_nop()
    k.s_branch(top)
    hsaco = aster.compile(m).hsaco
    errors, started = [], threading.Event()

    def run():
        started.set()
        try:
            aster.launch(hsaco, "spin", 1, 64, budget=200_000_000)
        except aster.EmulatorError as e:
            errors.append(str(e))

    t = threading.Thread(target=run)
    t.start()
    started.wait()
    time.sleep(0.1)                # the thread enters the launch; waking needs the GIL
    alive = t.is_alive()
    t.join()
    assert alive
    assert errors and "budget" in errors[0]


def test_none_is_a_null_pointer(hip_hsaco):
    src = """
    #include "common.h"
    KERNEL maybe(int *out, const int *opt) {
      out[tid_x()] = opt ? opt[tid_x()] : -1;
    }
    """
    hsaco = hip_hsaco(src, "maybe")
    out = np.zeros(64, np.int32)
    aster.launch(hsaco, "maybe", 1, 64, [out, None])
    assert (out == -1).all()
    aster.launch(hsaco, "maybe", 1, 64, [out, np.arange(64, dtype=np.int32)])
    np.testing.assert_array_equal(out, np.arange(64))


def test_typed_scalars_of_an_aster_kernel_land_at_their_offsets():
    """An aster kernel copies its whole kernarg segment to `out`; each value
    is read back at the offset the code object's metadata states."""
    import ml_dtypes
    types_values = [("i8", np.int8, -7), ("u8", np.uint8, 250), ("i16", np.int16, -1234),
                    ("h", np.float16, 0.333), ("bf", ml_dtypes.bfloat16, -2.75),
                    ("i32", np.int32, -123456789), ("f", np.float32, 1e-3),
                    ("i64", np.int64, -2**50 - 3), ("d", np.float64, np.e)]
    m = aster.Module("gfx942", name="ka")
    k = m.kernel("ka", args=[("out", aster.ptr(np.uint32))] +
                 [(n, t) for n, t, _ in types_values], block=(64, 1, 1))
    words = -(-k.kernarg_size // 4)
    k.load_arg("out", s[4:6])
    for i in range(words):
        k.s_load_dword(s[8 + i], k.kernarg_ptr, 4 * i)
    k.s_waitcnt(lgkmcnt=0)
    for i in range(words):
        k.v_mov_b32(v[1], s[8 + i])
        k.v_mov_b32(v[2], 4 * i)
        k.global_store_dword(v[2], v[1], s[4:6])
    k.s_endpgm()
    out = np.zeros(words, np.uint32)
    aster.launch(m, "ka", 1, 64, [out] + [val for _, _, val in types_values])
    raw = out.tobytes()
    meta = {a.name: a for a in aster.load_code_object(m).kernel("ka").args}
    for name, t, val in types_values:
        a = meta[name]
        assert a.size == np.dtype(t).itemsize
        got = np.frombuffer(raw[a.offset:a.offset + a.size], t)[0]
        assert got == t(val), (name, got, val)


def test_device_binding():
    dev = aster._emu.Device()
    a = dev.allocate(16, "a")
    b = dev.allocate(8, "b")
    assert b - a >= 4096 and a % 4096 == 0
    dev.write(a + 4, np.arange(8, dtype=np.uint8))
    assert dev.read(a, 16) == bytes(4) + bytes(range(8)) + bytes(4)
    out = np.zeros(8, np.uint8)
    dev.read_into(a + 4, out)
    assert out.tolist() == list(range(8))
    with pytest.raises(aster.EmulatorError):
        dev.write(a + 12, np.zeros(8, np.uint8))        # past the end of 'a'
    dev.release(b)
    with pytest.raises(aster.EmulatorError):
        dev.read(b, 4)
    with pytest.raises(aster.EmulatorError, match="release"):
        dev.release(b)


def test_hip_hsaco_compiles_files_and_caches(hip_hsaco):
    """A .hip path (its directory and tests/emulator/hip on the include
    path) gives the same code as its text; a second call is the cached file."""
    import pathlib
    path = pathlib.Path(__file__).parents[1] / "emulator" / "hip" / "vadd.hip"
    by_path = hip_hsaco(path)
    assert hip_hsaco(str(path)) == by_path
    assert aster.load_code_object(by_path).kernels[0].name == "vadd"
    n = 300
    a = np.arange(n, dtype=np.float32)
    c = np.zeros(n, np.float32)
    aster.launch(by_path, "vadd", 2, 256, [a, a, c, n])
    np.testing.assert_array_equal(c, 2 * a)
    with pytest.raises(RuntimeError, match="clang-22 failed on broken"):
        hip_hsaco("this is not HIP\n", "broken")


def test_dynamic_lds(hip_hsaco):
    """extern __shared__ memory exists only with dynamic_lds bytes; without
    them the LDS access is out of bounds."""
    src = """
    #include "common.h"
    extern __shared__ float buf[];
    KERNEL reverse(float *x) {
      uint t = tid_x();
      buf[t] = x[t];
      syncthreads();
      x[t] = buf[255 - t];
    }
    """
    hsaco = hip_hsaco(src, "reverse")
    x = np.arange(256, dtype=np.float32)
    aster.launch(hsaco, "reverse", 1, 256, [x], dynamic_lds=256 * 4)
    np.testing.assert_array_equal(x, np.arange(255, -1, -1, dtype=np.float32))
    with pytest.raises(aster.EmulatorError, match="LDS|lds"):
        aster.launch(hsaco, "reverse", 1, 256, [x])
    np.testing.assert_array_equal(x, np.arange(255, -1, -1, dtype=np.float32))
