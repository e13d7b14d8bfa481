"""10 independent v_mfma_f32_16x16x16_f16: each multiplies the same A (v[0:2])
and B (v[2:4]) f16 fragments into its own accumulator a[4i:4i+4]. Nothing
reads their results and no pass runs, and all 10 are kept.

    python examples/mfma_10.py       # prints the assembly
"""
import _path  # noqa: F401  (finds aster in a source checkout)
import aster
from aster import a, v


def build(target="gfx942"):
    m = aster.Module(target, name="mfma_10")
    k = m.kernel("mfma_10", block=(64, 1, 1))
    A, B = v[0:2], v[2:4]                      # 4 f16 each per lane
    for i in range(10):
        acc = a[4 * i:4 * i + 4]                # 4 f32 per lane: a[4i..4i+3]
        k.v_mfma_f32_16x16x16_f16(acc, A, B, acc)
    k.s_endpgm()
    return m


if __name__ == "__main__":
    print(aster.compile(build()).asm, end="")
