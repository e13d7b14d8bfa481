"""Memory waits: write a kernel without a single s_waitcnt and let aster
place them.

out[i] = sum over j < 4 of in[i + 64 j] * (j + 1) + lds[i], where lds[i] is
in[i] written to LDS and read back. Every load is asynchronous: the
`amdgcn-waitcnt` pass (after `amdgcn-regalloc`, before `amdgcn-hazards`)
waits for each result right before its first reader, only as far as needed
(vmcnt(N) lets the N loads issued after it stay in flight), and records what
it did in the kernel's `waitcnt` attribute.

    python examples/waitcnt_demo.py          # assembly with the inserted waits, stats
    python examples/waitcnt_demo.py --run    # also runs it on the strict emulator
"""
import sys

import numpy as np

import _path  # noqa: F401  (finds aster in a source checkout)
import aster
from aster import VGPR, v

PIPELINE = "amdgcn-regalloc,amdgcn-waitcnt,amdgcn-hazards"


def build():
    m = aster.Module("gfx942", name="waitcnt_demo")
    u32 = aster.ptr(np.uint32)
    k = m.kernel("demo", args=[("inp", u32), ("out", u32)], block=(64, 1, 1), lds=256)
    pin = k.load_arg("inp")                      # s_load: no wait written
    pout = k.load_arg("out")
    off = k.v_lshlrev_b32(VGPR(), 2, v[0])       # byte offset of this lane
    xs = [k.global_load_dword(VGPR(), off, pin, offset=256 * j) for j in range(4)]
    k.ds_write_b32(off, xs[0])                   # through LDS and back
    y = k.ds_read_b32(VGPR(), off)
    acc = y
    for j, x in enumerate(xs):                   # reads x0 first: 3 loads may stay in flight
        acc = k.v_mad_u32_u24(VGPR(), x, j + 1, acc)
    k.global_store_dword(off, acc, pout)
    k.s_endpgm()
    return m


def reference(x):
    x = x.astype(np.uint64)
    out = x[:64].copy()
    for j in range(4):
        out += (x[64 * j:64 * j + 64] & 0xFFFFFF) * (j + 1)
    return (out & 0xFFFFFFFF).astype(np.uint32)


def main():
    m = build()
    assert "s_waitcnt" not in m.mlir()
    out = aster.compile(m, pipeline=PIPELINE)
    print(f"# assembly after {PIPELINE} (kernel body):")
    body = out.asm.split("\ndemo:\n", 1)[1].split(".Lfunc_end", 1)[0]
    print(body.rstrip())
    st = out.metadata["demo"].waitcnt
    print(f"# waits inserted: {st['inserted']} (vmcnt in {st['vmcnt']}, lgkmcnt in "
          f"{st['lgkmcnt']}); written by hand: {st['author']}")
    if "--run" in sys.argv[1:]:
        x = (np.arange(256, dtype=np.uint64) * 2654435761 % 2**24).astype(np.uint32)
        o = np.zeros(64, np.uint32)
        aster.launch(out, "demo", grid=1, block=64, args=[x, o])   # strict: a missing wait fails
        assert np.array_equal(o, reference(x)), "emulator result differs from NumPy"
        print("# ran on the strict emulator: out == NumPy reference for 64 lanes")


if __name__ == "__main__":
    main()
