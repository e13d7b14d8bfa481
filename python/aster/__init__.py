"""aster: write, transform, inspect and run AMD GPU assembly with exact control.

    import aster
    from aster import v, s
    m = aster.Module("gfx942")
    k = m.kernel("add_10", block=(64, 1, 1))
    for _ in range(10):
        k.v_add_u32(v[1], v[0], v[1])
    k.s_endpgm()
    print(m.asm())
"""
from . import _aster
from ._aster import AsterError, run_pipeline, assemble, disassemble
from . import isa
from .registers import v, s, a, vcc, vcc_lo, vcc_hi, exec, exec_lo, exec_hi, m0, VGPR, SGPR, AGPR
from .module import Module, Kernel, ptr, parse

__all__ = [
    "AsterError", "Module", "Kernel", "parse", "run_pipeline", "assemble",
    "disassemble", "isa", "ptr", "v", "s", "a", "vcc", "vcc_lo", "vcc_hi",
    "exec", "exec_lo", "exec_hi", "m0", "VGPR", "SGPR", "AGPR", "passes",
]


def passes():
    """aster's passes as (name, documentation) pairs, usable in pipelines."""
    return _aster.passes()
