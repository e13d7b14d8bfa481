"""Runs one instruction sequence per lane over arrays of register values: a
kernel built with aster's builder loads each input's dwords into registers,
sets the output registers to given old values, runs `emit(k, regs)` and
stores the output registers. For semantics tests whose operands span several
registers (the reference is computed by the test, never by the emulator)."""
import numpy as np

import aster
from aster import s, v

U32 = aster.ptr(np.uint32)


def run_lanes(emit, inputs, out_words, old=None, arch="gfx950"):
    """inputs: uint32 arrays of shape (n, w_i), n a multiple of 64. Lane i
    gets inputs[j][i] in registers regs[j] (a v[...] range), and its output
    registers (returned as `regs[-1]`, `out_words` dwords) start as old[i]
    (zeros if None). emit(k, regs) writes the instructions. Returns the
    output registers of every lane, shape (n, out_words), uint32."""
    inputs = [np.ascontiguousarray(np.asarray(x, np.uint32).reshape(len(x), -1))
              for x in inputs]
    n = inputs[0].shape[0]
    assert n % 64 == 0 and all(x.shape[0] == n for x in inputs)
    old = (np.zeros((n, out_words), np.uint32) if old is None
           else np.ascontiguousarray(np.asarray(old, np.uint32).reshape(n, out_words)))
    m = aster.Module(arch)
    names = [f"in{j}" for j in range(len(inputs))] + ["old", "out"]
    k = m.kernel("lanes", args=[(nm, U32) for nm in names], block=(64, 1, 1))
    for j, nm in enumerate(names):
        k.load_arg(nm, s[4 + 2 * j:6 + 2 * j])
    base = 4 + 2 * len(names)
    k.s_mul_i32(s[base], k.workgroup_id("x"), 64)
    k.v_add_u32(v[1], s[base], k.workitem_id("x"))
    k.s_waitcnt(lgkmcnt=0)
    regs, r = [], 8
    widths = [x.shape[1] for x in inputs] + [out_words]
    for j, w in enumerate(widths):
        r += r % 2 if w > 1 else 0          # register tuples start at even registers
        regs.append(v[r:r + w] if w > 1 else v[r])
        k.v_mul_u32_u24(v[2], 4 * w, v[1])
        for i in range(w):   # inputs, then the old output values
            k.global_load_dword(v[r + i], v[2], s[4 + 2 * j:6 + 2 * j], offset=4 * i)
        r += w
    k.s_waitcnt(vmcnt=0)
    emit(k, regs)
    out_reg = r - out_words
    k.v_mul_u32_u24(v[2], 4 * out_words, v[1])
    for i in range(out_words):
        k.global_store_dword(v[2], v[out_reg + i], s[6 + 2 * len(inputs):8 + 2 * len(inputs)],
                             offset=4 * i)
    k.s_endpgm()
    out = np.zeros((n, out_words), np.uint32)
    aster.launch(m.hsaco(), "lanes", (n // 64, 1, 1), (64, 1, 1), [*inputs, old, out])
    return out
