"""The amdgcn-regalloc pass from Python: listed by aster.passes(), usable as a
compile pipeline, and its bad input raises with the op's location."""
import aster
import numpy as np
import pytest
from aster import s, v


def test_listed_with_its_contract():
    docs = dict(aster.passes())
    assert "Needs before" in docs["amdgcn-regalloc"]
    assert "Guarantees after" in docs["amdgcn-regalloc"]


def test_compile_allocates_virtual_registers():
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(64, 1, 1))
    x = k.v_add_u32(aster.VGPR(), 1, v[0])
    y = k.v_add_u32(aster.VGPR(), 2, x)
    z = k.v_add_u32(aster.VGPR(), x, y)
    k.v_mov_b32(v[7], z)
    k.s_endpgm()
    c = aster.compile(m, pipeline="amdgcn-regalloc")
    body = [l.strip() for l in c.asm.split("k:")[1].split("s_endpgm")[0].splitlines() if l.strip()]
    # v0 dies at the first add, so x reuses it; y needs a second register.
    assert body == ["v_add_u32 v0, 1, v0", "v_add_u32 v1, 2, v0", "v_add_u32 v0, v0, v1",
                    "v_mov_b32 v7, v0"]
    # The descriptor counts what was allocated (v7 pinned: next free is 8).
    assert c.metadata["k"].next_free_vgpr == 8
    assert "regalloc = {" in c.mlir and "allocated" in c.mlir


def test_out_of_registers_is_an_error():
    m = aster.Module("gfx942")
    k = m.kernel("k")
    # An SGPR quad cannot fit in 3 SGPRs, whatever is spilled.
    q = k.s_load_dwordx4(aster.SGPR(4), s[0:2], 0)
    k.s_waitcnt(lgkmcnt=0)
    k.s_endpgm()
    with pytest.raises(aster.AsterError, match="needs a free range of 4 sgprs"):
        aster.compile(m, pipeline="amdgcn-regalloc{max-sgprs=3}")


def test_values_read_far_from_their_definition():
    # Forty values read only after 12000 other instructions: far past the
    # recent values the liveness looks up first, so found in the op table.
    m = aster.Module("gfx942")
    k = m.kernel("far", args=[("out", aster.ptr(np.int32))], block=(64, 1, 1))
    k.load_arg("out", s[4:6])
    tid = k.workitem_id("x")
    xs = [k.v_add_u32(aster.VGPR(), j, tid) for j in range(1, 41)]
    acc = k.v_mov_b32(aster.VGPR(), 0)
    for _ in range(12000):
        acc = k.v_add_u32(aster.VGPR(), 1, acc)
    for x in xs:
        acc = k.v_add_u32(aster.VGPR(), acc, x)
    off = k.v_lshlrev_b32(aster.VGPR(), 2, tid)
    k.s_waitcnt(lgkmcnt=0)
    k.global_store_dword(off, acc, s[4:6])
    k.s_endpgm()
    c = aster.compile(m, pipeline="amdgcn-regalloc")
    assert "vgpr = 42" in c.mlir  # v0, the forty values and the sum
    out = np.zeros(64, np.int32)
    aster.launch(c, "far", grid=1, block=64, args=[out])
    np.testing.assert_array_equal(out, 12000 + sum(range(1, 41)) + 40 * np.arange(64))
