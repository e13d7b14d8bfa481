"""10 sequential v_add_u32 on hand-allocated VGPRs: v1 = v0 + v1, ten times.

    python examples/add_10.py          # prints the assembly
    python examples/add_10.py --run    # also runs a variant that starts from
                                       # v1 = 0 and stores v1 (= 10 * work-item
                                       # id), on aster's emulator, vs NumPy
"""
import sys

import numpy as np

import _path  # noqa: F401  (finds aster in a source checkout)
import aster
from aster import s, v


def build(target="gfx942", store=False):
    """The kernel; `store=True` adds what a run needs: v1 = 0 first and
    out[id] = v1 at the end (the printed example reads v1 as it finds it)."""
    m = aster.Module(target, name="add_10")
    args = [("out", aster.ptr(np.uint32))] if store else []
    k = m.kernel("add_10", args=args, block=(64, 1, 1))
    if store:
        k.load_arg("out", s[4:6])
        k.v_mov_b32(v[1], 0)
    for _ in range(10):                  # a Python loop unrolls: 10 instructions
        k.v_add_u32(v[1], v[0], v[1])    # each depends on the previous one (v1)
    if store:
        k.v_lshlrev_b32(v[2], 2, v[0])   # byte offset 4 * id
        k.s_waitcnt(lgkmcnt=0)
        k.global_store_dword(v[2], v[1], s[4:6])
    k.s_endpgm()
    return m


def run_on_emulator():
    out = np.zeros(64, np.uint32)
    r = aster.launch(build(store=True), "add_10", grid=1, block=64, args=[out], timing=True)
    np.testing.assert_array_equal(out, 10 * np.arange(64, dtype=np.uint32))
    print(f"# ran on the emulator: {r.wave_instructions} wave-instructions "
          f"({r.valu} VALU); out == 10 * id matches NumPy; timing model: {r.cycles} cycles")


if __name__ == "__main__":
    print(aster.compile(build()).asm, end="")
    if "--run" in sys.argv[1:]:
        run_on_emulator()
