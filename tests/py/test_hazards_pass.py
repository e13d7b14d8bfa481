"""The amdgcn-hazards pass from Python: listed by aster.passes(), usable after
amdgcn-regalloc in a compile pipeline (the padded kernel still computes the
right result on the emulator), and its bad input raises with the op's
location."""
import numpy as np
import pytest

import aster
from aster import VGPR, a, v


def test_listed_with_its_contract():
    docs = dict(aster.passes())
    assert "Needs before" in docs["amdgcn-hazards"]
    assert "Guarantees after" in docs["amdgcn-hazards"]


def mfma_then_store(acc_in_agprs=False):
    """D = A x B (16x16x16 f16) with A, B all ones: every element of D is
    16.0 whatever the layout; the result is stored right after the MFMA."""
    m = aster.Module("gfx942")
    u32 = aster.ptr(np.uint32)
    k = m.kernel("k", args=[("ab", u32), ("d", u32)], block=(64, 1, 1))
    pab = k.load_arg("ab")
    pd = k.load_arg("d")
    off = k.v_lshlrev_b32(VGPR(), 3, v[0])
    out = k.v_lshlrev_b32(VGPR(), 4, v[0])
    k.s_waitcnt(lgkmcnt=0)
    x = k.global_load_dwordx2(VGPR(2), off, pab)
    k.s_waitcnt(vmcnt=0)
    d = k.v_mfma_f32_16x16x16_f16(VGPR(4), x, x, 0)
    k.global_store_dwordx4(out, d, pd)
    k.s_endpgm()
    return m


def body(asm, name="k"):
    text = asm.split(f"\n{name}:\n", 1)[1].split("s_endpgm", 1)[0]
    return [line.strip() for line in text.splitlines() if line.strip()]


def test_after_regalloc_pads_and_runs():
    c = aster.compile(mfma_then_store(), pipeline="amdgcn-regalloc,amdgcn-hazards")
    lines = body(c.asm)
    i = next(n for n, line in enumerate(lines) if line.startswith("v_mfma"))
    assert lines[i + 1] == "s_nop 6", lines                # 4 passes: 7 wait states
    assert lines[i + 2].startswith("global_store_dwordx4"), lines
    assert "hazard_nops = " in c.mlir
    ones = np.full((64, 4), 1.0, np.float16).view(np.uint32).reshape(64, 2)
    d = np.zeros((64, 4), np.uint32)
    aster.launch(c, "k", grid=1, block=64, args=[ones, d])
    assert np.all(d.view(np.float32) == 16.0)


def test_without_the_pass_nothing_is_added():
    c = aster.compile(mfma_then_store(), pipeline="amdgcn-regalloc")
    assert not any(line.startswith("s_nop") for line in body(c.asm))


def test_virtual_registers_are_an_error_at_their_op():
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(64, 1, 1))
    k.v_add_u32(VGPR(), 1, v[0])
    k.s_endpgm()
    with pytest.raises(aster.AsterError, match="needs an allocated kernel"):
        aster.compile(m, pipeline="amdgcn-hazards")


def test_existing_distance_is_counted():
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(64, 1, 1))
    k.v_mfma_f32_32x32x8_f16(a[0:16], v[0:2], v[0:2], a[0:16])
    k.s_nop(imm=5)                                         # 6 of the 11
    k.v_mov_b32(v[3], 0)                                   # 7
    k.v_accvgpr_read_b32(v[2], a[0])
    k.s_endpgm()
    m.run_pipeline("amdgcn-hazards")
    lines = body(m.asm())
    assert lines[-3:] == ["v_mov_b32 v3, 0", "s_nop 3", "v_accvgpr_read_b32 v2, a0"]
