"""A zero fill of a device buffer as its own kernel launch: what a split-K GEMM
that adds into its output costs before it starts (aiter's asm_gemm_a16w16.cu
runs ``out.zero_()`` before a split-K launch of AMD's bf16 kernels).

    r = aster.ops.fill.zero(buf, arch="gfx942", timing=True)   # buf zeroed on the emulator
    r.microseconds        # the launch's device time on the timing model

On ROCm a tensor fill is a kernel launch (torch's fill kernel, or HIP's
memset, which ROCclr runs as its ``__amd_rocclr_fillBuffer*`` blit kernels);
the kernel here stands in for it: 256 lanes per workgroup, each storing 4
zero dwordx4 (16 KiB per workgroup) through a raw buffer whose bounds drop
the stores past the end. Needs: a C-contiguous NumPy array of whole dwords,
fewer than 2 GiB. Guarantees: every byte zero after the launch.
"""
import numpy as np

from ..generators.gemm import PIPELINE
from ..nanokernels import tiles
from ..registers import SGPR, VGPR, v

__all__ = ["zero", "kernel", "BYTES_PER_WORKGROUP"]

LANES = 256
STORES = 4                                   # dwordx4 stores per lane
BYTES_PER_WORKGROUP = LANES * 16 * STORES
_CODE = {}


def kernel(arch="gfx942"):
    """The compiled fill kernel of `arch` (aster.Compiled, kernel "zero_fill";
    arguments: the buffer, its size in bytes)."""
    if arch not in _CODE:
        from ..compiler import compile
        from ..module import Module
        from .. import ptr
        m = Module(arch, name="zero_fill")
        k = m.kernel("zero_fill", args=[("buf", ptr(np.uint8)), ("nbytes", np.int32)],
                     block=(LANES, 1, 1), sgpr_setup=["kernarg_ptr", "workgroup_id_x"])
        (desc,) = k.call(tiles.raw_buffer, k.load_arg("buf"), k.load_arg("nbytes"))
        base = k.s_mul_i32(SGPR(), BYTES_PER_WORKGROUP, k.workgroup_id("x"))
        off = k.v_lshl_add_u32(VGPR(), v[0], 4, base)
        zero = k.concat(*[k.v_mov_b32(VGPR(), 0) for _ in range(4)])
        for i in range(STORES):
            k.buffer_store_dwordx4(zero, off, desc, 0, offen=True, offset=0)
            if i + 1 < STORES:
                off = k.v_add_u32(VGPR(), LANES * 16, off)
        k.s_endpgm()
        _CODE[arch] = compile(m, PIPELINE)
    return _CODE[arch]


def zero(buf, *, arch="gfx942", timing=False, device=None, backend="emu"):
    """Zeroes `buf` (a C-contiguous NumPy array) with one launch of the fill
    kernel; returns the LaunchResult (timing: its cycles and microseconds)."""
    from ..runtime import launch
    if not isinstance(buf, np.ndarray) or not buf.flags.c_contiguous or not buf.flags.writeable:
        raise ValueError("zero fill: buf must be a writeable C-contiguous NumPy array")
    if buf.nbytes >= 2**31 or buf.nbytes % 4:
        raise ValueError(f"zero fill: buf must be whole dwords smaller than 2 GiB, got "
                         f"{buf.nbytes} bytes (a raw buffer drops a dword reaching past its end)")
    nbytes = buf.nbytes
    grid = max(1, -(-nbytes // BYTES_PER_WORKGROUP))
    return launch(kernel(arch), "zero_fill", grid=grid, block=(LANES, 1, 1),
                  args=[buf.reshape(-1).view(np.uint8), nbytes], timing=timing, device=device,
                  backend=backend)
