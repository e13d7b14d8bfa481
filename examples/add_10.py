"""10 sequential v_add_u32 on hand-allocated VGPRs: v1 = v0 + v1, ten times.

    python examples/add_10.py        # prints the assembly
"""
import _path  # noqa: F401  (finds aster in a source checkout)
import aster
from aster import v


def build(target="gfx942"):
    m = aster.Module(target, name="add_10")
    k = m.kernel("add_10", block=(64, 1, 1))
    for _ in range(10):                  # a Python loop unrolls: 10 instructions
        k.v_add_u32(v[1], v[0], v[1])    # each depends on the previous one (v1)
    k.s_endpgm()
    return m


if __name__ == "__main__":
    print(aster.compile(build()).asm, end="")
