"""Strict mode catches the bugs hardware hides: deliberately broken kernels,
hand-written with aster's builder, fail with an `aster.EmulatorError` naming
the kernel, pc, instruction, wave, lane and address, and leave the caller's
arrays unchanged."""
import re

import numpy as np
import pytest

import aster
from aster import s, v, vcc

F32 = aster.ptr(np.float32)
N = 200                     # items; 4 waves of 64 overshoot it


def vadd(*, wait_args=True, wait_loads=True, store_offset=0, load_offset=0):
    """c[i] = a[i] + b[i] for i < n, with knobs that break it."""
    m = aster.Module("gfx942")
    k = m.kernel("vadd", args=[("a", F32), ("b", F32), ("c", F32), ("n", np.int32)],
                 block=(64, 1, 1))
    pa, pb, pc, n = s[4:6], s[6:8], s[8:10], s[10]
    for name, reg in (("a", pa), ("b", pb), ("c", pc), ("n", n)):
        k.load_arg(name, reg)
    k.s_mul_i32(s[11], k.workgroup_id("x"), 64)
    k.v_add_u32(v[1], s[11], k.workitem_id("x"))
    if wait_args:
        k.s_waitcnt(lgkmcnt=0)
    k.v_cmp_gt_u32(vcc, n, v[1])
    k.s_and_saveexec_b64(s[12:14], vcc)
    k.v_lshlrev_b32(v[1], 2, v[1])
    k.v_add_u32(v[4], load_offset, v[1])
    k.global_load_dword(v[2], v[4], pa)
    k.global_load_dword(v[3], v[1], pb)
    if wait_loads:
        k.s_waitcnt(vmcnt=0)
    k.v_add_f32(v[2], v[2], v[3])
    k.v_add_u32(v[5], store_offset, v[1])
    k.global_store_dword(v[5], v[2], pc)
    k.s_endpgm()
    return m.hsaco()


def arrays():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(N).astype(np.float32), rng.standard_normal(N).astype(np.float32)
    c = np.full(N, -7.0, np.float32)
    return a, b, c


def run(code, arrs, **opts):
    return aster.launch(code, "vadd", (4, 1, 1), (64, 1, 1), [*arrs, np.int32(N)], **opts)


def fails(code, *needles, **opts):
    """Runs `code`, expects an EmulatorError containing every needle; checks
    the arrays are unchanged and returns the message."""
    arrs = arrays()
    before = [x.copy() for x in arrs]
    with pytest.raises(aster.EmulatorError) as e:
        run(code, arrs, **opts)
    msg = str(e.value)
    for needle in needles:
        assert re.search(needle, msg), f"{needle!r} not in: {msg}"
    for x, y in zip(arrs, before):
        np.testing.assert_array_equal(x, y)
    return msg


def test_correct_kernel_passes():
    a, b, c = arrays()
    run(vadd(), (a, b, c))
    np.testing.assert_array_equal(c, a + b)


def test_missing_vmcnt_wait_before_using_a_global_load():
    code = vadd(wait_loads=False)
    fails(code, "strict", "kernel vadd", r"pc 0x[0-9a-f]+", "v_add_f32", "global_load_dword",
          r"vmcnt\(", "wave")
    # Without strict checks the same code runs (loads complete at once), as
    # it often would on hardware: the bug strict mode exists to catch.
    a, b, c = arrays()
    run(code, (a, b, c), strict=False)
    np.testing.assert_array_equal(c, a + b)


def test_missing_lgkmcnt_wait_before_using_an_s_load():
    fails(vadd(wait_args=False), "strict", "kernel vadd", "s_load_dword", r"lgkmcnt\(0\)")


def lds_kernel(wait):
    """out[t] = in[t] through LDS: ds_write, wait, ds_read, (wait), store."""
    m = aster.Module("gfx942")
    k = m.kernel("lds_copy", args=[("x", F32), ("y", F32)], block=(64, 1, 1), lds=256)
    k.load_arg("x", s[4:6])
    k.load_arg("y", s[6:8])
    k.v_lshlrev_b32(v[1], 2, k.workitem_id("x"))
    k.s_waitcnt(lgkmcnt=0)
    k.global_load_dword(v[2], v[1], s[4:6])
    k.s_waitcnt(vmcnt=0)
    k.ds_write_b32(v[1], v[2])
    k.s_waitcnt(lgkmcnt=0)
    k.ds_read_b32(v[3], v[1])
    if wait:
        k.s_waitcnt(lgkmcnt=0)
    k.v_add_f32(v[3], 1.0, v[3])
    k.global_store_dword(v[1], v[3], s[6:8])
    k.s_endpgm()
    return m.hsaco()


def test_missing_lgkmcnt_wait_before_using_an_lds_load():
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(64, np.float32)
    aster.launch(lds_kernel(True), "lds_copy", (1, 1, 1), (64, 1, 1), [x, y])
    np.testing.assert_array_equal(y, x + 1)
    y[:] = -3
    with pytest.raises(aster.EmulatorError) as e:
        aster.launch(lds_kernel(False), "lds_copy", (1, 1, 1), (64, 1, 1), [x, y])
    msg = str(e.value)
    for needle in ("lds_copy", "ds_read_b32", "v_add_f32", "lgkmcnt"):
        assert needle in msg, msg
    np.testing.assert_array_equal(y, np.full(64, -3, np.float32))
    np.testing.assert_array_equal(x, np.arange(64, dtype=np.float32))


def test_out_of_bounds_store():
    # Lane l stores 4 KiB past its element: every store misses c (200 floats).
    fails(vadd(store_offset=4096), "out-of-bounds store", "kernel vadd", r"pc 0x[0-9a-f]+",
          "global_store_dword", "wave", "lane", r"address 0x[0-9a-f]+")


def test_out_of_bounds_load():
    fails(vadd(load_offset=N * 4), "out-of-bounds load", "kernel vadd", r"pc 0x[0-9a-f]+",
          "global_load_dword", "wave", "lane", r"address 0x[0-9a-f]+")


def uninit_kernel():
    """Reads v9, which nothing writes."""
    m = aster.Module("gfx942")
    k = m.kernel("uninit", args=[("y", F32)], block=(64, 1, 1))
    k.load_arg("y", s[4:6])
    k.v_lshlrev_b32(v[1], 2, k.workitem_id("x"))
    k.v_add_f32(v[2], 1.0, v[9])
    k.s_waitcnt(lgkmcnt=0)
    k.global_store_dword(v[1], v[2], s[4:6])
    k.s_endpgm()
    return m.hsaco()


def test_reading_a_never_written_register():
    code = uninit_kernel()
    y = np.full(64, 5.0, np.float32)
    with pytest.raises(aster.EmulatorError) as e:
        aster.launch(code, "uninit", (1, 1, 1), (64, 1, 1), [y])
    assert "v9" in str(e.value) and "v_add_f32" in str(e.value)
    np.testing.assert_array_equal(y, np.full(64, 5.0, np.float32))
    # As a warning the launch completes (and reports the read).
    st = aster.launch(code, "uninit", (1, 1, 1), (64, 1, 1), [y], uninitialized="warn")
    assert any("v9" in w for w in st.warnings), st.warnings


def test_infinite_loop_stopped_by_the_budget():
    m = aster.Module("gfx942")
    k = m.kernel("spin", args=[("y", F32)], block=(64, 1, 1))
    top = k.here("top")
    k.v_add_u32(v[1], 1, v[0])
    k.s_branch(top)
    k.s_endpgm()
    y = np.ones(4, np.float32)
    with pytest.raises(aster.EmulatorError) as e:
        aster.launch(m.hsaco(), "spin", (1, 1, 1), (64, 1, 1), [y], budget=100000)
    assert "budget" in str(e.value) and "100000" in str(e.value)
    np.testing.assert_array_equal(y, np.ones(4, np.float32))


def two_loads(use, wait_vm):
    """Two global loads in order (v2 from x, v3 from x + 256 bytes), then
    s_waitcnt vmcnt(wait_vm) and y[t] = v[use]. vmcnt counts outstanding
    vector-memory loads, which return in order: vmcnt(1) covers the first."""
    m = aster.Module("gfx942")
    k = m.kernel("two_loads", args=[("x", F32), ("y", F32)], block=(64, 1, 1))
    k.load_arg("x", s[4:6])
    k.load_arg("y", s[6:8])
    k.v_lshlrev_b32(v[1], 2, k.workitem_id("x"))
    k.s_waitcnt(lgkmcnt=0)
    k.v_add_u32(v[4], 256, v[1])
    k.global_load_dword(v[2], v[1], s[4:6])
    k.global_load_dword(v[3], v[4], s[4:6])
    k.s_waitcnt(vmcnt=wait_vm)
    k.global_store_dword(v[1], v[use], s[6:8])
    k.s_endpgm()
    return m.hsaco()


def test_vmcnt_counts_loads_in_order():
    x = np.arange(128, dtype=np.float32)
    y = np.zeros(64, np.float32)
    aster.launch(two_loads(2, 1), "two_loads", (1, 1, 1), (64, 1, 1), [x, y])
    np.testing.assert_array_equal(y, x[:64])                 # vmcnt(1): the first load is in
    with pytest.raises(aster.EmulatorError, match=r"vmcnt"):  # ... the second is not
        aster.launch(two_loads(3, 1), "two_loads", (1, 1, 1), (64, 1, 1), [x, y])
    aster.launch(two_loads(3, 0), "two_loads", (1, 1, 1), (64, 1, 1), [x, y])
    np.testing.assert_array_equal(y, x[64:])


def two_s_loads(wait):
    """Two s_load_dword; scalar memory reads may return out of order (CDNA3
    ISA guide, s_waitcnt / LGKM_CNT), so only lgkmcnt(0) covers either."""
    m = aster.Module("gfx942")
    k = m.kernel("two_s_loads", args=[("y", F32), ("p", np.int32), ("q", np.int32)],
                 block=(64, 1, 1))
    k.load_arg("y", s[4:6])
    k.load_arg("p", s[8])
    k.load_arg("q", s[9])
    k.s_waitcnt(lgkmcnt=wait)
    k.v_mov_b32(v[2], s[8])
    k.s_waitcnt(lgkmcnt=0)
    k.v_lshlrev_b32(v[1], 2, k.workitem_id("x"))
    k.global_store_dword(v[1], v[2], s[4:6])
    k.s_endpgm()
    return m.hsaco()


def test_smem_needs_lgkmcnt_zero():
    y = np.zeros(64, np.float32)
    aster.launch(two_s_loads(0), "two_s_loads", (1, 1, 1), (64, 1, 1), [y, 7, 9])
    np.testing.assert_array_equal(y.view(np.int32), np.full(64, 7))
    with pytest.raises(aster.EmulatorError, match=r"lgkmcnt\(0\)"):
        aster.launch(two_s_loads(1), "two_s_loads", (1, 1, 1), (64, 1, 1), [y, 7, 9])


def test_overwriting_a_pending_load_destination():
    """Writing v2 while the load into v2 is in flight (write-after-write)."""
    m = aster.Module("gfx942")
    k = m.kernel("waw", args=[("x", F32), ("y", F32)], block=(64, 1, 1))
    k.load_arg("x", s[4:6])
    k.load_arg("y", s[6:8])
    k.v_lshlrev_b32(v[1], 2, k.workitem_id("x"))
    k.s_waitcnt(lgkmcnt=0)
    k.global_load_dword(v[2], v[1], s[4:6])
    k.v_mov_b32(v[2], 1.0)
    k.s_waitcnt(vmcnt=0)
    k.global_store_dword(v[1], v[2], s[6:8])
    k.s_endpgm()
    x, y = np.ones(64, np.float32), np.zeros(64, np.float32)
    with pytest.raises(aster.EmulatorError, match=r"(?s)overwrites v2.*global_load_dword.*v_mov_b32"):
        aster.launch(m.hsaco(), "waw", (1, 1, 1), (64, 1, 1), [x, y])
    np.testing.assert_array_equal(y, np.zeros(64, np.float32))
