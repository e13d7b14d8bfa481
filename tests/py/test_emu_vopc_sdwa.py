"""VOPC SDWA compares (`v_cmp_*_sdwa` / `v_cmpx_*_sdwa`, gfx9's SDWA9 VOPC
word: src0_sel / src1_sel, sext of integer sources, neg / abs of float
ones, the mask in vcc or any SGPR pair) and `v_cndmask_b32_sdwa` (its
condition vcc).

The oracles: clang-22 -O3 kernels that use them (tests/py/raise_corpus/
vopc_sdwa.hip: compares of the 16-bit halves and bytes of a dword, which
LLVM's SDWA peephole folds into the compare) run on the emulator against
NumPy; the table rows themselves are checked against llvm-mc-22 by
tests/py/test_conformance.py like every other form."""
from pathlib import Path

import numpy as np
import pytest

import aster

HIP = Path(__file__).with_name("raise_corpus") / "vopc_sdwa.hip"
ARCHS = ("gfx942", "gfx950")
N = 256


@pytest.fixture(scope="module", params=ARCHS)
def code(request, hip_hsaco):
    return request.param, hip_hsaco(HIP, arch=request.param)


def run(h, name, a, b):
    co = aster.load_code_object(h)
    assert co.unsupported(name) == []
    out = np.zeros(N, np.uint32)
    aster.launch(h, name, grid=N // 64, block=64, args=[a, b, out])
    return out, co.disassemble(name)


def _bits(*conds):
    r = np.zeros(N, np.uint32)
    for i, c in enumerate(conds):
        r |= c.astype(np.uint32) << i
    return r


def test_word_compares(code):
    arch, h = code
    rng = np.random.default_rng(3)
    a = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
    # equal halves and the sign boundary
    b[:64] = (a[:64] & 0xffff0000) | (a[:64] >> 16)
    a[64:72], b[64:72] = 0x80000000, 0x7fff8000
    out, text = run(h, "cmp16", a, b)
    assert "v_cmp_lt_i32_sdwa" in text and "sext(" in text and "src1_sel:WORD_1" in text
    hi_a, lo_a = (a >> 16).astype(np.uint16), (a & 0xffff).astype(np.uint16)
    hi_b, lo_b = (b >> 16).astype(np.uint16), (b & 0xffff).astype(np.uint16)
    s = lambda x: x.view(np.int16)  # noqa: E731
    want = _bits(s(hi_a) < s(hi_b), hi_a != lo_b, s(lo_a) >= s(hi_b), hi_a > hi_b)
    np.testing.assert_array_equal(out, want)


def test_byte_compares(code):
    arch, h = code
    rng = np.random.default_rng(4)
    a = rng.integers(-128, 128, (N, 4), dtype=np.int64).astype(np.int8)
    b = rng.integers(-128, 128, (N, 4), dtype=np.int64).astype(np.int8)
    b[:64] = a[:64][:, [0, 1, 3, 2]]            # x.z == y.w, x.y == y.y, ...
    a[64:80, 3], b[64:80, 0] = -128, 127        # 0x80 > 0x7f unsigned, < signed
    out, text = run(h, "cmp8", a, b)
    assert "v_cmp_lt_i16_sdwa" in text and "BYTE_3" in text and "v_cmp_gt_u16_sdwa" in text
    u = lambda x: x.view(np.uint8)  # noqa: E731
    want = _bits(a[:, 1] < b[:, 1], a[:, 2] == b[:, 3], u(a[:, 3]) > u(b[:, 0]),
                 a[:, 3] <= b[:, 2])
    np.testing.assert_array_equal(out, want)


def test_half_compares(code):
    arch, h = code
    rng = np.random.default_rng(5)
    a = rng.standard_normal((N, 2)).astype(np.float16)
    b = rng.standard_normal((N, 2)).astype(np.float16)
    special = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, 6e-8, -65504],
                       np.float16)
    a[:64] = rng.choice(special, (64, 2))
    b[:64] = rng.choice(special, (64, 2))
    b[100:110, 1] = a[100:110, 1]
    out, text = run(h, "cmpf16", a, b)
    assert "v_cmp_neq_f16_sdwa" in text and "v_cmp_u_f16_sdwa" in text
    x0, x1, y0, y1 = a[:, 0], a[:, 1], b[:, 0], b[:, 1]
    with np.errstate(invalid="ignore"):
        want = _bits(x1 < y1, x1 != y0, np.isnan(x1), ~(x0 >= y1), x1 == y1,
                     np.isnan(x1) | np.isnan(y1))
    np.testing.assert_array_equal(out, want)


def test_half_maximum_selects_halves(code):
    """IEEE maximum of f16 vectors (NaN if either is NaN, +0 above -0):
    llc-22 -mcpu=gfx942 selects the high halves with v_cndmask_b32_sdwa."""
    arch, h = code
    rng = np.random.default_rng(6)
    a = rng.standard_normal((N, 4)).astype(np.float16)
    b = rng.standard_normal((N, 4)).astype(np.float16)
    special = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0], np.float16)
    a[:64] = rng.choice(special, (64, 4))
    b[:64] = rng.choice(special, (64, 4))
    co = aster.load_code_object(h)
    assert co.unsupported("maxh") == []
    if arch == "gfx942":   # gfx950 has v_pk_maximum3_f16
        assert "v_cndmask_b32_sdwa" in co.disassemble("maxh")
    out = np.zeros((N, 4), np.float16)
    aster.launch(h, "maxh", grid=N // 64, block=64, args=[a, b, out])
    nan = np.isnan(a) | np.isnan(b)
    zeros = (a == 0) & (b == 0)
    want = np.where(a > b, a, b)
    want = np.where(zeros, np.where(np.signbit(a) & np.signbit(b), -0.0, 0.0), want)
    np.testing.assert_array_equal(np.isnan(out), nan)
    np.testing.assert_array_equal(out[~nan].view(np.uint16), want[~nan].astype(np.float16).view(np.uint16))
