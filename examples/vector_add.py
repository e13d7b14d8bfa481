"""c[i] = a[i] + b[i] for i < n, float32, one element per work-item.

Shows kernel arguments (loaded with s_load from the kernarg pointer the
hardware puts in s[0:2]), per-thread addresses from the work-item id (v0) and
the workgroup id (s2), an exec mask for the lanes past n, and global
loads/stores with s_waitcnt.

    python examples/vector_add.py               # prints the assembly
    python examples/vector_add.py --save out/   # also writes .mlir/.s/.hsaco
    python examples/vector_add.py --run         # also runs it on aster's emulator
"""
import sys

import numpy as np

import _path  # noqa: F401  (finds aster in a source checkout)
import aster
from aster import s, v, vcc

BLOCK = 64


def build(target="gfx942", block=BLOCK):
    m = aster.Module(target, name="vector_add")
    f32 = aster.ptr(np.float32)
    k = m.kernel("vector_add", args=[("a", f32), ("b", f32), ("c", f32), ("n", np.int32)],
                 block=(block, 1, 1))
    pa, pb, pc, n = s[4:6], s[6:8], s[8:10], s[10]
    k.load_arg("a", pa)                     # s_load_dwordx2 s[4:5], s[0:1], 0x0
    k.load_arg("b", pb)                     # ... offset 8
    k.load_arg("c", pc)                     # ... offset 16
    k.load_arg("n", n)                      # s_load_dword s10, s[0:1], 24
    wg, tid = k.workgroup_id("x"), k.workitem_id("x")     # s2, v0
    k.s_mul_i32(s[11], wg, block)           # the workgroup's first element
    k.v_add_u32(v[1], s[11], tid)           # i = wg * block + tid
    k.s_waitcnt(lgkmcnt=0)                  # the arguments have arrived
    k.v_cmp_gt_u32(vcc, n, v[1])            # lanes with i < n ...
    k.s_and_saveexec_b64(s[12:14], vcc)     # ... stay on in exec
    k.v_lshlrev_b32(v[1], 2, v[1])          # byte offset 4 * i
    k.global_load_dword(v[2], v[1], pa)     # a[i]: pointer + 32-bit offset
    k.global_load_dword(v[3], v[1], pb)     # b[i]
    k.s_waitcnt(vmcnt=0)
    k.v_add_f32(v[2], v[2], v[3])
    k.global_store_dword(v[1], v[2], pc)    # c[i]
    k.s_endpgm()
    return m


def run_on_emulator(compiled, n=4 * BLOCK - 5):
    """Runs the kernel on aster's emulator (aster.launch) and checks
    c == a + b with NumPy; the last workgroup has lanes past n."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal(n, dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)
    c = np.zeros(n, np.float32)
    r = aster.launch(compiled, "vector_add", grid=-(-n // BLOCK), block=BLOCK,
                     args=[a, b, c, n], timing=True)
    np.testing.assert_array_equal(c, a + b)
    stalls = r.trace.summary()["stalls"]
    print(f"# ran on the emulator: n={n}, {r.waves} waves, {r.wave_instructions} "
          f"wave-instructions; c == a + b matches NumPy; timing model: {r.cycles} cycles, "
          f"{stalls['waitcnt']} cycles of waves waiting in s_waitcnt")


if __name__ == "__main__":
    out = aster.compile(build())
    print(out.asm, end="")
    print(f"# hsaco: {len(out.hsaco)} bytes; kernargs: "
          + ", ".join(f"{x.name}@{x.offset}" for x in out.metadata["vector_add"].args))
    if "--save" in sys.argv[1:]:
        where = sys.argv[sys.argv.index("--save") + 1:][:1] or ["."]
        print("# wrote", ", ".join(out.save(where[0]).values()))
    if "--run" in sys.argv[1:]:
        run_on_emulator(out)
