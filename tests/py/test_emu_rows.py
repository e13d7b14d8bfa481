"""Emulator semantics of the table rows added for registered semantics that
had none (raising issue, items 5-6): LDS 64-bit atomics from clang-22's
`__hip_atomic_*` on shared memory (tests/py/emu_rows.hip) against NumPy,
s_sendmsg per message, VSKIP (s_setvskip) and the LDS d16 / masked-or /
double-exchange forms in hand-written code against AMD's CDNA3 ISA
descriptions (DS_MSKOR_RTN_B32: mem = (mem & ~DATA) | DATA2;
DS_WRXCHG2_RTN_B32; DS_READ_U16_D16_HI; S_SETVSKIP: VSKIP = S0[S1[4:0]],
no VOP*/M*BUF/DS/FLAT instruction is issued while it is set)."""
from pathlib import Path

import numpy as np
import pytest

import aster
from aster import s, v

HIP = Path(__file__).with_name("emu_rows.hip")
ARCHS = ("gfx942", "gfx950")
RNG = np.random.default_rng(11)


@pytest.fixture(scope="module", params=ARCHS)
def rows(request, hip_hsaco):
    return request.param, hip_hsaco(HIP, arch=request.param)


def test_ds_atomics_64(rows):
    arch, h = rows
    co = aster.load_code_object(h)
    assert co.unsupported("ds64") == []
    x = RNG.integers(-2**62, 2**62, 64, dtype=np.int64)
    init = RNG.integers(-2**62, 2**62, (8, 64), dtype=np.int64)
    init[6, ::2] = x[::2]          # compare-exchange succeeds on even lanes
    y = RNG.standard_normal(64) * 100
    dinit = RNG.standard_normal((2, 64)) * 100
    out = np.zeros(1024 + 16, np.int64)
    dout = np.zeros(264, np.float64)
    aster.launch(h, "ds64", grid=1, block=64,
                 args=[np.concatenate([x, init.ravel()]), out,
                       np.concatenate([y, dinit.ravel()]), dout])
    mem, ret = out[:512].reshape(8, 64), out[512:1024].reshape(8, 64)
    want = init.copy()
    want[0] |= x
    want[1] ^= x
    want[2] &= x
    want[3] -= x
    want[4] = np.minimum(init[4], x)
    want[5] = np.maximum(init[5], x)
    want[6] = np.where(init[6] == x, x + 1, init[6])
    want[7] = x
    np.testing.assert_array_equal(mem, want)
    np.testing.assert_array_equal(ret[:6], init[:6])   # old values
    np.testing.assert_array_equal(ret[6], init[6])      # compare-exchange: old value
    np.testing.assert_array_equal(ret[7], init[7])
    # Contended slots (lane order does not matter): or then and-not, xor then min.
    lanes = np.arange(64)
    for j in range(8):
        sel = lanes[lanes % 8 == j]
        a = x[j] ^ 0x5555
        for l in sel:
            a |= x[l]
        for l in sel:
            a &= ~np.int64(1 << (l & 31))
        b = x[8 + j] ^ 0x5555
        for l in sel:
            b ^= x[l]
        b = min(b, x[sel].min())
        assert out[1024 + j] == a and out[1032 + j] == b, j
    np.testing.assert_array_equal(dout[:64], np.minimum(dinit[0], y))
    np.testing.assert_array_equal(dout[64:128], np.maximum(dinit[1], y))
    np.testing.assert_array_equal(dout[128:192], dinit[0])
    np.testing.assert_array_equal(dout[192:256], dinit[1])
    np.testing.assert_array_equal(dout[256:], [max(y[j], y[lanes % 8 == j].max())
                                               for j in range(8)])


def test_sendmsg_interrupt_runs(rows):
    arch, h = rows
    assert aster.load_code_object(h).unsupported("sendmsg_interrupt") == []
    out = np.zeros(64, np.int32)
    aster.launch(h, "sendmsg_interrupt", grid=1, block=64, args=[out, np.int32(41)])
    np.testing.assert_array_equal(out, 42)


def test_sendmsg_graphics_message_is_reported(rows):
    arch, h = rows
    problems = aster.load_code_object(h).unsupported("sendmsg_gs")
    assert len(problems) == 1 and "MSG_GS" in problems[0] and "compute" in problems[0]
    with pytest.raises(aster.EmulatorError, match="MSG_GS"):
        aster.launch(h, "sendmsg_gs", grid=1, block=64, args=[np.zeros(64, np.int32)])


@pytest.mark.parametrize("msg,word", [(4, "trap handler"), (10, "doorbell"), (0, "illegal")])
def test_sendmsg_other_messages_are_reported(msg, word):
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(64, 1, 1))
    k.s_mov_b32(aster.m0, 0)
    k.s_sendmsg(msg)
    k.s_endpgm()
    problems = aster.load_code_object(aster.compile(m).hsaco).unsupported("k")
    assert len(problems) == 1 and word in problems[0], problems


def test_sendmsghalt_halts():
    m = aster.Module("gfx942")
    k = m.kernel("k", block=(64, 1, 1))
    k.s_mov_b32(aster.m0, 0)
    k.s_sendmsghalt(1)
    k.s_endpgm()
    h = aster.compile(m).hsaco
    problems = aster.load_code_object(h).unsupported("k")
    assert len(problems) == 1 and "s_sendmsghalt' is not emulated" in problems[0], problems
    with pytest.raises(aster.EmulatorError, match="s_sendmsghalt' is not emulated"):
        aster.launch(h, "k", grid=1, block=64, args=[])


def _store_kernel(m, body, nout):
    """A kernel that runs `body(k)` and stores v[1:1+nout] to out."""
    k = m.kernel("k", args=[("out", aster.ptr(np.int32))], block=(64, 1, 1), lds=1024)
    k.s_load_dwordx2(s[4:6], s[0:2], 0)
    k.v_lshlrev_b32(v[10], 2, v[0])
    body(k)
    k.s_waitcnt(vmcnt=0, lgkmcnt=0)
    for i in range(nout):
        k.global_store_dword(v[10], v[1 + i], s[4:6], offset=256 * i)
    k.s_endpgm()
    return k


def test_vskip():
    """While VSKIP is set, v_mov_b32 and an LDS write are not issued; s_getreg
    of MODE[28] reads it back (ISA: the hazard pass adds the 2 wait states
    after s_setvskip)."""
    def body(k):
        k.v_mov_b32(v[1], 1)
        k.v_mov_b32(v[3], 7)
        k.ds_write_b32(v[10], v[3])
        k.s_waitcnt(lgkmcnt=0)
        k.s_setvskip(1, 0)                 # VSKIP = bit 0 of 1
        k.v_mov_b32(v[1], 2)               # skipped
        k.ds_write_b32(v[10], v[1])        # skipped
        k.s_getreg_b32(s[8], hwreg=1 | 28 << 6)   # hwreg(HW_REG_MODE, 28, 1)
        k.s_mov_b32(s[9], 2)
        k.s_setvskip(s[9], 0)              # bit 0 of 2: off
        k.v_mov_b32(v[2], s[8])
        k.ds_read_b32(v[3], v[10])
    m = aster.Module("gfx942")
    _store_kernel(m, body, 3)
    h = aster.compile(m, pipeline="amdgcn-hazards").hsaco
    assert aster.load_code_object(h).unsupported("k") == []
    out = np.zeros(192, np.int32)
    aster.launch(h, "k", grid=1, block=64, args=[out])
    np.testing.assert_array_equal(out.reshape(3, 64), [[1] * 64, [1] * 64, [7] * 64])


def test_lds_d16_mskor_wrxchg2():
    def body(k):
        k.v_mov_b32(v[1], 0x12345678)
        k.v_mov_b32(v[2], 0xABCD0000 - 2**32)
        k.ds_write_b32(v[10], v[1])
        k.ds_write_b32(v[10], v[2], offset=256)
        k.s_waitcnt(lgkmcnt=0)
        k.v_mov_b32(v[3], 0x00FF00FF)
        k.v_mov_b32(v[4], 0x11001100)
        # mem = (mem & ~0x00FF00FF) | 0x11001100; v5 = the old value
        k.ds_mskor_rtn_b32(v[5], v[10], v[3], v[4])
        k.s_waitcnt(lgkmcnt=0)
        # v2's high half = LDS[256 + 4l + 2] (0xABCD); its low half kept (0)
        k.v_mov_b32(v[2], 0x9999)
        k.ds_read_u16_d16_hi(v[2], v[10], offset=258)
        # two exchanges: v[6:7] = (LDS[4l], LDS[4l + 256]); they get v3, v4
        k.s_waitcnt(lgkmcnt=0)
        k.ds_wrxchg2_rtn_b32(v[6:8], v[10], v[3], v[4], offset1=64)
        k.s_waitcnt(lgkmcnt=0)
        k.ds_read2_b32(v[8:10], v[10], offset1=64)
        k.s_waitcnt(lgkmcnt=0)
        k.v_mov_b32(v[1], v[5])
        k.v_mov_b32(v[3], v[6])
        k.v_mov_b32(v[4], v[7])
        k.v_mov_b32(v[5], v[8])
        k.v_mov_b32(v[6], v[9])
    m = aster.Module("gfx942")
    _store_kernel(m, body, 6)
    h = aster.compile(m, pipeline="amdgcn-hazards").hsaco
    assert aster.load_code_object(h).unsupported("k") == []
    out = np.zeros(6 * 64, np.uint32)
    aster.launch(h, "k", grid=1, block=64, args=[out.view(np.int32)])
    mskor = (0x12345678 & ~0x00FF00FF) | 0x11001100
    want = [0x12345678, 0xABCD9999, mskor, 0xABCD0000, 0x00FF00FF, 0x11001100]
    np.testing.assert_array_equal(out.reshape(6, 64), np.repeat(
        np.array(want, np.uint32)[:, None], 64, axis=1))
