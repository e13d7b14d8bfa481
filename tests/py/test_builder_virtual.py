"""The builder with virtual registers: a kernel using them needs the
amdgcn-regalloc pipeline (a clear error at the user's line otherwise), and
loops carry virtual values with `k.loop(..., carry=[...])`."""
import os

import numpy as np
import pytest

import aster
from aster import SGPR, VGPR, s, v

HERE = os.path.abspath(__file__)


def line_of(text):
    with open(HERE) as f:
        for i, ln in enumerate(f, 1):
            if text in ln and "line_of" not in ln:
                return i
    raise AssertionError(text)


def virtual_kernel():
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(64, 1, 1))
    x = k.v_add_u32(VGPR(), 1, v[0])          # first virtual register
    k.v_mov_b32(v[1], x)
    k.s_endpgm()
    return m


@pytest.mark.parametrize("how", ["compile", "asm", "hsaco"])
def test_virtual_registers_without_pipeline_is_a_clear_error(how):
    m = virtual_kernel()
    with pytest.raises(aster.AsterError) as e:
        if how == "compile":
            aster.compile(m)
        else:
            getattr(m, how)()
    msg = str(e.value)
    assert "virtual registers: run the amdgcn-regalloc pipeline" in msg
    assert f"{HERE}:{line_of('# first virtual register')}:" in msg
    assert "kernel 'k'" in msg


def test_parsed_virtual_ir_without_pipeline_names_the_op():
    ir = """amdgcn.module @m target("gfx942") {
  amdgcn.kernel @k() attributes {block = array<i32: 64, 1, 1>} {
    %v0 = amdgcn.reg : !amdgcn.vgpr<0>
    %x = amdgcn.v_add_u32 %v0, %v0 : (!amdgcn.vgpr<0>, !amdgcn.vgpr<0>) -> !amdgcn.vgpr<?>
    amdgcn.s_endpgm
  }
}"""
    with pytest.raises(aster.AsterError, match=r"t\.mlir:4:\d+: error: virtual registers: "
                                               r"run the amdgcn-regalloc pipeline"):
        aster.compile(aster.parse(ir, "t.mlir"))


def test_allocated_kernel_still_compiles_without_pipeline():
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(64, 1, 1))
    k.v_add_u32(v[1], 1, v[0])
    k.s_endpgm()
    assert "v_add_u32 v1, 1, v0" in aster.compile(m).asm


# ---- loop-carried values: errors at the user's line, before any pass

def loop_kernel():
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(64, 1, 1))
    return m, k, k.v_mov_b32(VGPR(), 1), k.v_mov_b32(VGPR(), 2)


def test_carry_takes_values():
    _, k, x, _ = loop_kernel()
    with pytest.raises(TypeError, match="loop carry takes Values"):
        k.loop(s[8], 4, carry=[v[1]])


def test_next_needs_one_value_per_carry():
    _, k, x, y = loop_kernel()
    with pytest.raises(aster.AsterError, match=r"next\(\) takes 2 value\(s\).*got 1"):
        with k.loop(s[8], 4, carry=[x, y]) as lp:
            lp.next(k.v_add_u32(VGPR(), 1, lp.carry[0]))


def test_next_value_of_another_class_is_an_error():
    _, k, x, _ = loop_kernel()
    with pytest.raises(aster.AsterError, match=r"next\(\) value #0 is a !amdgcn.sgpr<\?>"):
        with k.loop(s[8], 4, carry=[x]) as lp:
            lp.next(k.s_mov_b32(SGPR(), 3))


def test_missing_next_is_an_error():
    _, k, x, _ = loop_kernel()
    with pytest.raises(aster.AsterError, match=r"must end with next\(\.\.\.\)"):
        with k.loop(s[8], 4, carry=[x]) as lp:
            k.v_add_u32(VGPR(), 1, lp.carry[0])


def test_next_twice_is_an_error():
    _, k, x, _ = loop_kernel()
    with pytest.raises(aster.AsterError, match=r"next\(\) was already called"):
        with k.loop(s[8], 4, carry=[x]) as lp:
            y = k.v_add_u32(VGPR(), 1, lp.carry[0])
            lp.next(y)
            lp.next(y)


def test_carry_value_of_another_kernel_is_an_error():
    _, k, x, _ = loop_kernel()
    _, k2, _, _ = loop_kernel()
    with pytest.raises(aster.AsterError, match="not of this kernel"):
        with k2.loop(s[8], 4, carry=[x]):
            pass


# ---- virtual kernels compile with amdgcn-regalloc and run on the emulator

def test_straight_line_virtual_kernel_runs():
    m = aster.Module("gfx942")
    k = m.kernel("k", args=[("out", aster.ptr(np.uint32))], block=(64, 1, 1))
    p = k.load_arg("out")
    off = k.v_lshlrev_b32(VGPR(), 2, v[0])
    a = k.v_add_u32(VGPR(), 7, v[0])
    b = k.v_mul_lo_u32(VGPR(), a, a)
    c = k.v_xor_b32(VGPR(), b, a)
    k.s_waitcnt(lgkmcnt=0)
    k.global_store_dword(off, c, p)
    k.s_endpgm()
    out = aster.compile(m, pipeline="amdgcn-regalloc")
    assert "<?" not in out.mlir and out.metadata["k"].regalloc["spills"] == 0
    res = np.zeros(64, np.uint32)
    aster.launch(out, "k", grid=1, block=64, args=[res])
    x = np.arange(64, dtype=np.uint64) + 7
    np.testing.assert_array_equal(res, (((x * x) ^ x) & 0xFFFFFFFF).astype(np.uint32))


@pytest.mark.parametrize("count", [1, 5])
def test_loop_carried_values_run(count):
    """acc = tid; s = 1; repeat count: acc = acc * 3 + s; s = s + acc[0]."""
    m = aster.Module("gfx942")
    k = m.kernel("k", args=[("out", aster.ptr(np.uint32))], block=(64, 1, 1))
    p = k.load_arg("out")
    acc = k.v_mov_b32(VGPR(), v[0])
    sc = k.s_mov_b32(SGPR(), 1)
    with k.loop(s[20], count, carry=[acc, sc]) as lp:
        a, t = lp.carry
        a2 = k.v_mul_lo_u32(VGPR(), 3, a)
        a3 = k.v_add_u32(VGPR(), t, a2)
        first = k.v_readfirstlane_b32(SGPR(), a3)
        t2 = k.s_add_u32(SGPR(), t, first)
        lp.next(a3, t2)
    acc, sc = lp.results
    off = k.v_lshlrev_b32(VGPR(), 3, v[0])
    total = k.v_add_u32(VGPR(), sc, 0)
    k.s_waitcnt(lgkmcnt=0)
    k.global_store_dword(off, acc, p)
    k.global_store_dword(off, total, p, offset=4)
    k.s_endpgm()
    assert "^bb1(" in m.mlir()                               # a block argument
    out = aster.compile(m, pipeline="amdgcn-regalloc")
    res = np.zeros(128, np.uint32)
    aster.launch(out, "k", grid=1, block=64, args=[res])
    a, t = np.arange(64, dtype=np.uint64), 1
    for _ in range(count):
        a = (a * 3 + t) & 0xFFFFFFFF
        t = (t + int(a[0])) & 0xFFFFFFFF
    np.testing.assert_array_equal(res[0::2], a.astype(np.uint32))
    np.testing.assert_array_equal(res[1::2], np.full(64, t, np.uint32))
