"""The second launch of a split-K GEMM with a 16-bit C: the f32 workspace the
split-K kernel added its partial sums into, rounded to bf16 or f16 into C.

    r = aster.ops.gemm_convert.run(ws, c, "bf16", arch="gfx950", timing=True)

A bf16 or f16 C has no exact atomic add, so split-K kernels (which add f32
partial sums with buffer_atomic_add_f32) cannot write it; `aster.ops.gemm`
runs such a plan as the f32 split-K kernel into a workspace and this kernel
(a workspace + reduction scheme, the reduction here being the rounding: the
adds already happened in f32). Rounding as the 16-bit GEMM kernels'
epilogue (`tiles.store_result_16`): bf16 round to nearest even (+ 0x7fff +
bit 16, the high half), f16 `v_cvt_f16_f32`.

The kernel: 256 lanes per workgroup, each lane 4 consecutive elements
(one buffer_load_dwordx4, four 16-bit stores), `ELEMENTS_PER_WORKGROUP`
per workgroup; raw buffers over the workspace (4 n bytes) and C (2 n
bytes) drop what lies past either end. Needs: n < 2**29 elements.
Guarantees: c[i] = round16(ws[i]) for every i < n; nothing else written.
`estimate_us` is the time dispatch adds for it (its module doc states the
terms; tests/py/test_gemm_out16_splitk.py compares it with the timing model).
"""
import numpy as np

from ..generators.gemm import PIPELINE
from ..nanokernels import tiles
from ..registers import SGPR, VGPR, v

__all__ = ["kernel", "run", "estimate_us", "ELEMENTS_PER_WORKGROUP"]

LANES = 256
ELEMENTS_PER_WORKGROUP = 4 * LANES
_CODE = {}


def kernel(fmt, arch="gfx942"):
    """The compiled kernel ("convert_f32_<fmt>"; arguments: the f32
    workspace, C as u16, n elements) of `fmt` "bf16" or "f16"."""
    if fmt not in ("bf16", "f16"):
        raise ValueError(f"fmt must be 'bf16' or 'f16', got {fmt!r}")
    key = (fmt, arch)
    if key not in _CODE:
        from ..compiler import compile
        from ..module import Module
        from .. import ptr
        name = f"convert_f32_{fmt}"
        m = Module(arch, name=name)
        k = m.kernel(name, args=[("ws", ptr(np.float32)), ("c", ptr(np.uint16)),
                                 ("n", np.int32)],
                     block=(LANES, 1, 1), sgpr_setup=["kernarg_ptr", "workgroup_id_x"])
        n = k.load_arg("n")
        (src,) = k.call(tiles.raw_buffer, k.load_arg("ws"), k.s_lshl_b32(SGPR(), n, 2))
        (dst,) = k.call(tiles.raw_buffer, k.load_arg("c"), k.s_lshl_b32(SGPR(), n, 1))
        first = k.s_mul_i32(SGPR(), ELEMENTS_PER_WORKGROUP, k.workgroup_id("x"))
        elem = k.v_lshl_add_u32(VGPR(), v[0], 2, first)             # the lane's first element
        x = k.buffer_load_dwordx4(VGPR(4), k.v_lshlrev_b32(VGPR(), 2, elem), src, 0, offen=True)
        off = k.v_lshlrev_b32(VGPR(), 1, elem)
        for r in range(4):
            if fmt == "bf16":
                lsb = k.v_bfe_u32(VGPR(), x[r], 16, 1)
                y = k.v_add3_u32(VGPR(), x[r], k.s_mov_b32(SGPR(), 0x7FFF), lsb)
                k.buffer_store_short_d16_hi(y, off, dst, 0, offen=True, offset=2 * r)
            else:
                k.buffer_store_short(k.v_cvt_f16_f32(VGPR(), x[r]), off, dst, 0, offen=True,
                                     offset=2 * r)
        k.s_endpgm()
        _CODE[key] = compile(m, PIPELINE)
    return _CODE[key]


def run(ws, c, fmt, *, arch="gfx942", timing=False, device=None, backend="emu"):
    """c (a C-contiguous uint16 / bfloat16 / float16 array) = ws (float32, as
    many elements) rounded to `fmt`, in one launch; the LaunchResult."""
    from ..runtime import launch
    n = ws.size
    if ws.dtype != np.float32 or c.size != n or c.itemsize != 2 or not c.flags.c_contiguous \
            or not ws.flags.c_contiguous:
        raise ValueError("gemm_convert: ws must be C-contiguous float32 and c a C-contiguous "
                         "16-bit array of as many elements")
    if n >= 2**29:
        raise ValueError(f"gemm_convert: at most 2**29 elements, got {n}")
    grid = max(1, -(-n // ELEMENTS_PER_WORKGROUP))
    return launch(kernel(fmt, arch), f"convert_f32_{fmt}", grid=grid, block=(LANES, 1, 1),
                  args=[ws.reshape(-1), c.reshape(-1).view(np.uint16), n], timing=timing,
                  device=device, backend=backend)


# The time dispatch adds for the conversion: the profile's launch cost
# (devices.profile "launch_us", as estimate_us counts for every launch), the
# workspace read and C written at the profile's HBM bandwidth, and FIXED_US
# for one wave of workgroups (a load's latency and the stores' drain:
# [model] fitted to this kernel on the timing model, MI300X and MI355X, 64 x 64
# to 1024 x 1024 outputs; tests/py/test_gemm_out16_splitk.py checks it
# stays within 25% of the simulated time).
FIXED_US = 1.0


def estimate_us(m, n, profile):
    """Estimated device microseconds of the conversion of an M x N C on
    `profile` (aster.ops.devices.profile)."""
    return profile["launch_us"] + FIXED_US + 6.0 * m * n / (profile["hbm_tb_s"] * 1e6)
