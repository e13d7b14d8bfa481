"""Register allocation: write a kernel with virtual registers, let aster
allocate them, and compare the registers used with MaxLive.

out[i] = sum over j < 8 of (in[i] * j) ^ (in[i] + j), with the loop over j
unrolled in Python: each value is a virtual VGPR (`aster.VGPR()`), the
instruction returns a Value to use as a source. The `amdgcn-regalloc`
pipeline assigns physical registers (v0, the work-item id, stays pinned) and
records what it did in the kernel's `regalloc` attribute.

    python examples/regalloc_demo.py          # IR before, asm after, stats
    python examples/regalloc_demo.py --run    # also runs it on the emulator
"""
import sys

import numpy as np

import _path  # noqa: F401  (finds aster in a source checkout)
import aster
from aster import VGPR, v

N = 8


def build():
    m = aster.Module("gfx942", name="regalloc_demo")
    u32 = aster.ptr(np.uint32)
    k = m.kernel("demo", args=[("inp", u32), ("out", u32)], block=(64, 1, 1))
    pin = k.load_arg("inp")                      # virtual SGPR pairs
    pout = k.load_arg("out")
    off = k.v_lshlrev_b32(VGPR(), 2, v[0])       # byte offset of this lane
    k.s_waitcnt(lgkmcnt=0)
    x = k.global_load_dword(VGPR(), off, pin)
    k.s_waitcnt(vmcnt=0)
    acc = None
    for j in range(N):                           # Python loop: unrolled
        p = k.v_mul_lo_u32(VGPR(), j, x)
        q = k.v_add_u32(VGPR(), j, x)
        t = k.v_xor_b32(VGPR(), p, q)
        acc = t if acc is None else k.v_add_u32(VGPR(), acc, t)
    k.global_store_dword(off, acc, pout)
    k.s_endpgm()
    return m


def reference(x):
    x = x.astype(np.uint64)
    return (sum(((x * j) ^ (x + j)) for j in range(N)) & 0xFFFFFFFF).astype(np.uint32)


def main():
    m = build()
    print("# IR before allocation (virtual registers):")
    print(m.mlir())
    out = aster.compile(m, pipeline="amdgcn-regalloc")
    print("# assembly after amdgcn-regalloc (kernel body):")
    body = out.asm.split("\ndemo:\n", 1)[1].split(".Lfunc_end", 1)[0]
    print(body.rstrip())
    st = out.metadata["demo"].regalloc
    print(f"# VGPRs used: {st['vgpr']}, MaxLive: {st['vgpr_maxlive']}; SGPRs used: "
          f"{st['sgpr']}, MaxLive: {st['sgpr_maxlive']}; spills: {st['spills']}")
    if "--run" in sys.argv[1:]:
        x = (np.arange(64, dtype=np.uint64) * 2654435761 % 2**32).astype(np.uint32)
        o = np.zeros(64, np.uint32)
        aster.launch(out, "demo", grid=1, block=64, args=[x, o])
        assert np.array_equal(o, reference(x)), "emulator result differs from NumPy"
        print("# ran on the emulator: out == NumPy reference for 64 lanes")


if __name__ == "__main__":
    main()
