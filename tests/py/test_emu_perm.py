"""v_perm_b32 on the emulator: every selector byte value (0-7: a byte of
{src0, src1}, src1 the low word; 8, 9: bit 15, 31 of src1 replicated; 10,
11: bit 15, 31 of src0; 12: 0x00; 13-255: 0xff -- AMD's CDNA3 ISA
document, V_PERM_B32's BYTE_PERMUTE pseudo-code), the selector an inline
constant, an SGPR (lane-uniform: the emulator's vectorised path) or a VGPR
(per lane), against a NumPy model of that table."""
import numpy as np
import pytest

import aster
from aster import s, v

U32 = aster.ptr(np.uint32)


def ref(a, b, c):
    src = (a.astype(np.uint64) << np.uint64(32)) | b.astype(np.uint64)
    out = np.zeros_like(a)
    for i in range(4):
        sel = (c >> np.uint32(8 * i)) & np.uint32(0xff)
        byte = np.where(sel < 8, (src >> (np.uint64(8) * np.minimum(sel, 7).astype(np.uint64)))
                        & np.uint64(0xff), 0).astype(np.uint32)
        for code, word, bit in ((8, b, 15), (9, b, 31), (10, a, 15), (11, a, 31)):
            byte = np.where(sel == code, np.where((word >> np.uint32(bit)) & 1, 0xff, 0), byte)
        byte = np.where(sel >= 13, 0xff, np.where(sel == 12, 0, byte)).astype(np.uint32)
        out |= byte << np.uint32(8 * i)
    return out


def kernel(sel, mode):
    m = aster.Module("gfx942")
    k = m.kernel("perm", args=[("a", U32), ("b", U32), ("c", U32), ("d", U32)], block=(64, 1, 1))
    ptrs = {x: s[4 + 2 * i:6 + 2 * i] for i, x in enumerate("abcd")}
    for x, p in ptrs.items():
        k.load_arg(x, p)
    tid = k.workitem_id("x")
    k.s_waitcnt(lgkmcnt=0)
    k.v_lshlrev_b32(v[1], 2, tid)
    k.global_load_dword(v[2], v[1], ptrs["a"])
    k.global_load_dword(v[3], v[1], ptrs["b"])
    k.global_load_dword(v[4], v[1], ptrs["c"])
    k.s_waitcnt(vmcnt=0)
    if mode == "inline":
        k.v_perm_b32(v[5], v[2], v[3], sel)
    elif mode == "sgpr":
        k.s_mov_b32(s[20], sel)
        k.v_perm_b32(v[5], v[2], v[3], s[20])
    else:
        k.v_perm_b32(v[5], v[2], v[3], v[4])
    k.global_store_dword(v[1], v[5], ptrs["d"])
    k.s_endpgm()
    return m.hsaco()


SELECTORS = [0, 7, 12, 13, 64, 0x05040100, 0x07060302, 0x00010203, 0x0c0c0504, 0x0d0e0f0c, 0x08090a0b,
             0x0b0a0908, 0x0c07ff01]


@pytest.mark.parametrize("sel", SELECTORS, ids=hex)
def test_v_perm_b32_selector_kinds(sel):
    rng = np.random.default_rng(sel)
    a = rng.integers(0, 1 << 32, 64, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 1 << 32, 64, dtype=np.uint64).astype(np.uint32)
    c = np.full(64, sel, np.uint32)
    want = ref(a, b, c)
    for mode in ("sgpr", "vgpr") + (("inline",) if sel <= 64 else ()):
        d = np.zeros(64, np.uint32)
        aster.launch(kernel(sel, mode), "perm", 1, 64, [a, b, c, d])
        assert np.array_equal(d, want), f"{mode}: {d[:4]} != {want[:4]}"


def test_v_perm_b32_per_lane_selectors():
    """Every byte value 0-255 in some selector byte, one selector per lane."""
    rng = np.random.default_rng(1)
    a = rng.integers(0, 1 << 32, 64, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 1 << 32, 64, dtype=np.uint64).astype(np.uint32)
    c = np.arange(256, dtype=np.uint8).reshape(64, 4).view(np.uint32).ravel()
    d = np.zeros(64, np.uint32)
    aster.launch(kernel(0, "vgpr"), "perm", 1, 64, [a, b, c, d])
    assert np.array_equal(d, ref(a, b, c))
