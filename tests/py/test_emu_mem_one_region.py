"""Vector loads and stores whose lanes all fall in one buffer run as one
loop (cc/emulator/SemBuffer.cpp, SemVMEM.cpp: `oneGlobalRegion`); any
other launch goes lane by lane. Both must give what the ISA says, so each
kernel here runs with every lane in range and with lanes EXEC masks off
(one loop over the active lanes), with buffer lanes out of range and with
global lanes outside the array (lane by lane: zeros / a fault), plain and
timed.

Oracle: the input arrays (NumPy) and AMD's range rule for buffers: a
load out of range returns zero, a store out of range writes nothing, and
dwordx2/x4 accesses are range-checked per dword (AMD ISA references,
"Buffer Addressing" > range checking: "Load/store-Dword-x{2,3,4} ...
range-check per component"; LLVM's AMDGPUUsage.rst, "Relaxed Buffer OOB
Mode": "the voffset ... will be range-checked for each 32-bit word
independently"). Lanes EXEC masks off keep their registers and store
nothing."""
import numpy as np
import pytest

import aster
from aster import ptr
from aster.generators.gemm import PIPELINE
from aster.nanokernels import tiles
from aster.registers import SGPR, VGPR, v

LANES = 64


def copy_kernel(width):
    """dst_g[lane] = src[lane] through global_load/store_dwordx{width} and
    dst_b[lane] = src[lane] through a raw buffer of `nbytes` bytes
    (buffer_load/store_dwordx{width}, offen); only lanes < `lanes` run."""
    m = aster.Module("gfx942", name="copy")
    k = m.kernel("copy", args=[("src", ptr(np.uint32)), ("dst_g", ptr(np.uint32)),
                               ("dst_b", ptr(np.uint32)), ("nbytes", np.int32),
                               ("lanes", np.int32)],
                 block=(LANES, 1, 1), sgpr_setup=["kernarg_ptr", "workgroup_id_x"])
    src, dg, db = k.load_arg("src"), k.load_arg("dst_g"), k.load_arg("dst_b")
    nbytes, lanes = k.load_arg("nbytes"), k.load_arg("lanes")
    rsrc_src, = k.call(tiles.raw_buffer, src, nbytes)
    rsrc_dst, = k.call(tiles.raw_buffer, db, nbytes)
    off = k.v_lshlrev_b32(VGPR(), {1: 2, 2: 3, 4: 4}[width], v[0])
    k.v_cmp_gt_u32(aster.vcc, lanes, v[0])
    k.s_and_saveexec_b64(SGPR(2), aster.vcc)
    gl = {1: k.global_load_dword, 2: k.global_load_dwordx2, 4: k.global_load_dwordx4}[width]
    gs = {1: k.global_store_dword, 2: k.global_store_dwordx2, 4: k.global_store_dwordx4}[width]
    bl = {1: k.buffer_load_dword, 2: k.buffer_load_dwordx2, 4: k.buffer_load_dwordx4}[width]
    bs = {1: k.buffer_store_dword, 2: k.buffer_store_dwordx2, 4: k.buffer_store_dwordx4}[width]
    x = gl(VGPR(width) if width > 1 else VGPR(), off, src)
    gs(off, x, dg)
    y = bl(VGPR(width) if width > 1 else VGPR(), off, rsrc_src, 0, offen=True)
    bs(y, off, rsrc_dst, 0, offen=True)
    k.s_endpgm()
    return aster.compile(m, PIPELINE).hsaco


@pytest.fixture(scope="module")
def kernels():
    return {w: copy_kernel(w) for w in (1, 2, 4)}


@pytest.mark.parametrize("width", [1, 2, 4])
@pytest.mark.parametrize("case", ["all", "range", "exec"])
@pytest.mark.parametrize("timing", [False, True])
def test_copy_one_region_and_lane_by_lane(kernels, width, case, timing):
    rng = np.random.default_rng(width)
    src = rng.integers(1, 2**32, LANES * width, dtype=np.uint32)
    nbytes = src.nbytes if case != "range" else src.nbytes - 4 * width * 5 - 4  # 5.x lanes short
    lanes = LANES if case != "exec" else 37
    dst_g = np.full_like(src, 0xDEADBEEF)
    dst_b = np.full_like(src, 0xDEADBEEF)
    r = aster.launch(kernels[width], "copy", 1, LANES, [src, dst_g, dst_b, nbytes, lanes],
                     timing=timing)
    ran = np.repeat(np.arange(LANES) < lanes, width)
    want_g = np.where(ran, src, 0xDEADBEEF)
    np.testing.assert_array_equal(dst_g, want_g)
    # The buffer: dwords past nbytes load as zero and are not stored (a
    # lane's access is checked dword by dword: its in-range dwords go).
    idx = np.arange(LANES * width)
    in_range = 4 * idx + 4 <= nbytes
    want_b = np.where(ran & in_range, src, 0xDEADBEEF)
    np.testing.assert_array_equal(dst_b, want_b)
    if timing:
        assert r.cycles > 0


@pytest.mark.parametrize("timing", [False, True])
def test_global_lane_outside_array_faults(kernels, timing):
    """Lanes 32.. of the global load read past `src`: the launch fails
    naming the load (lane by lane finds the first bad lane), and the
    caller's arrays are left as they were."""
    src = np.arange(32 * 2, dtype=np.uint32)
    dst_g = np.zeros(64 * 2, np.uint32)
    dst_b = np.zeros(64 * 2, np.uint32)
    with pytest.raises(aster.EmulatorError, match="global_load_dwordx2"):
        aster.launch(kernels[2], "copy", 1, LANES, [src, dst_g, dst_b, src.nbytes, LANES],
                     timing=timing)
    assert not dst_g.any() and not dst_b.any()
