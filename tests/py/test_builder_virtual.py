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
