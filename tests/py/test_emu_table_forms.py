"""Emulator semantics of the instruction forms the table gained (raising
issue, item 5), checked with clang-22 kernels that use them
(tests/py/raise_corpus/table_forms.hip: `__builtin_amdgcn_*`) against NumPy
and ml_dtypes, and with hand-written assembly against AMD's ISA descriptions
(CDNA3 ISA: DPP row_newbcast, ds_swizzle_b32 bit-mask/quad modes, S_GETREG
MODE layout, scalar atomics). Instructions without exact semantics must be
reported by unsupported() and refused by launch."""
import re
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import aster

HIP = Path(__file__).with_name("raise_corpus") / "table_forms.hip"
ARCHS = ("gfx942", "gfx950")
RNG = np.random.default_rng(7)


@pytest.fixture(scope="module", params=ARCHS)
def forms(request, hip_hsaco):
    return request.param, hip_hsaco(HIP, arch=request.param)


def run(h, name, grid, block, args):
    assert aster.load_code_object(h).unsupported(name) == []
    aster.launch(h, name, grid=grid, block=block, args=args)


def test_dpp_row_newbcast(forms):
    arch, h = forms
    x = RNG.integers(-1000, 1000, 256, dtype=np.int32)
    out = np.zeros(512, np.int32)
    run(h, "newbcast", 4, 64, [x, out])
    rows = x.reshape(-1, 16)
    np.testing.assert_array_equal(out[:256], np.repeat(rows[:, 3], 16))
    # row_mask 0xa: rows 1 and 3 of each wave written, the others keep -1
    want = np.repeat(rows[:, 14], 16).reshape(-1, 4, 16)
    want[:, [0, 2]] = -1
    np.testing.assert_array_equal(out[256:], want.ravel())


def test_saturating_add_sub_i32(forms):
    arch, h = forms
    a = RNG.integers(-2**31, 2**31, 256, dtype=np.int64).astype(np.int32)
    b = RNG.integers(-2**31, 2**31, 256, dtype=np.int64).astype(np.int32)
    a[:4], b[:4] = [2**31 - 1, -2**31, 5, -7], [1, -1, 3, 2**31 - 1]
    out = np.zeros(512, np.int32)
    run(h, "sat_add", 4, 64, [a, b, out])
    wide = a.astype(np.int64), b.astype(np.int64)
    lim = (-2**31, 2**31 - 1)
    np.testing.assert_array_equal(out[0::2], np.clip(wide[0] + wide[1], *lim))
    np.testing.assert_array_equal(out[1::2], np.clip(wide[0] - wide[1], *lim))


def test_pack_b32_f16(forms):
    arch, h = forms
    a = RNG.standard_normal(256).astype(np.float32)
    b = RNG.standard_normal(512).astype(np.float16)
    out = np.zeros(1024, np.float16)
    run(h, "pack_halves", 4, 64, [a, b, out])
    y = b.reshape(-1, 2)
    p = a.astype(np.float16) * y[:, 1]
    q = y[:, 0] + y[:, 1]
    o = out.reshape(-1, 2, 2)
    np.testing.assert_array_equal(o[:, 0, 0].view(np.uint16), p.view(np.uint16))
    np.testing.assert_array_equal(o[:, 0, 1].view(np.uint16), q.view(np.uint16))
    np.testing.assert_array_equal(o[:, 1, 0].view(np.uint16), y[:, 1].view(np.uint16))
    np.testing.assert_array_equal(o[:, 1, 1].view(np.uint16), (-p).view(np.uint16))


def test_fma_mix_f32_with_neg(forms):
    arch, h = forms
    a = RNG.standard_normal(256).astype(np.float16)
    b = RNG.standard_normal(256).astype(np.float16)
    c = RNG.standard_normal(256).astype(np.float32)
    out = np.zeros(256, np.float32)
    run(h, "mix", 4, 64, [a, b, c, out])
    # the product of two f16 values is exact in f64; one rounding to f32
    want = (-a.astype(np.float64) * b.astype(np.float64) + c).astype(np.float32)
    np.testing.assert_array_equal(out, want)


def _fp8(arch, kind):
    if arch == "gfx942":
        return ml_dtypes.float8_e4m3fnuz if kind == "fp8" else ml_dtypes.float8_e5m2fnuz
    return ml_dtypes.float8_e4m3fn if kind == "fp8" else ml_dtypes.float8_e5m2


def test_cvt_pk_fp8_into_a_word(forms):
    arch, h = forms
    a = (RNG.standard_normal(256) * 8).astype(np.float32)
    b = (RNG.standard_normal(256) * 8).astype(np.float32)
    old = RNG.integers(0, 2**32, 256, dtype=np.uint64).astype(np.uint32)
    out = np.zeros(512, np.uint32)
    run(h, "pk_fp8", 4, 64, [a, b, old.view(np.int32), out.view(np.int32)])
    f8, b8 = _fp8(arch, "fp8"), _fp8(arch, "bf8")
    pk = lambda t: (a.astype(t).view(np.uint8).astype(np.uint32) |  # noqa: E731
                    b.astype(t).view(np.uint8).astype(np.uint32) << 8)
    np.testing.assert_array_equal(out[0::2], (old & 0xffff) | pk(f8) << 16)   # word_sel true
    np.testing.assert_array_equal(out[1::2], (old & 0xffff0000) | pk(b8))


def test_cvt_sr_fp8_into_a_byte(forms):
    """Values exactly representable in fp8 and bf8 (stochastic rounding
    leaves them unchanged): the byte op_sel selects receives them."""
    arch, h = forms
    exact = np.array([0.0, 1.0, -1.5, 0.25, 3.0, -12.0, 0.5, 2.0], np.float32)
    a = RNG.choice(exact, 256)
    old = RNG.integers(0, 2**32, 256, dtype=np.uint64).astype(np.uint32)
    out = np.zeros(1024, np.uint32)
    run(h, "sr_fp8", 4, 64, [a, old.view(np.int32), out.view(np.int32)])
    for k, kind in enumerate(["fp8", "fp8", "bf8", "bf8"]):
        byte = a.astype(_fp8(arch, kind)).view(np.uint8).astype(np.uint32)
        want = (old & ~np.uint32(0xff << (8 * k))) | byte << (8 * k)
        np.testing.assert_array_equal(out[k::4], want, err_msg=f"byte {k}")


def test_ds_swizzle_patterns(forms):
    """CDNA3 ISA, DS_SWIZZLE_B32: offset[15] set: quad permute, each lane of
    a quad reads lane offset[2i+1:2i]; else within 32 lanes lane l reads
    ((l & and) | or) ^ xor with and = offset[4:0], or = [9:5], xor = [14:10]."""
    arch, h = forms
    x = RNG.integers(-1000, 1000, 256, dtype=np.int32)
    out = np.zeros(1024, np.int32)
    run(h, "swizzle", 4, 64, [x, out])
    lane = np.arange(256)
    quad = (lane & ~3) | np.array([3, 2, 1, 0])[lane & 3]
    np.testing.assert_array_equal(out[0::4], x[quad])

    def bitmask(off):
        a, o, xr = off & 0x1f, (off >> 5) & 0x1f, (off >> 10) & 0x1f
        return (lane & ~31) | (((lane & 31 & a) | o) ^ xr)
    for k, off in enumerate([0x041f, 0x00f8, 0x281e], start=1):
        np.testing.assert_array_equal(out[k::4], x[bitmask(off)], err_msg=hex(off))


def test_getreg_mode(forms):
    """S_GETREG_B32 of MODE[7:0]: FP_ROUND (0, round to nearest even) and
    FP_DENORM, which the kernel descriptor sets (clang: f32 and f16/f64
    denormals kept, 3 and 3)."""
    arch, h = forms
    out = np.zeros(64, np.int32)
    run(h, "getreg", 1, 64, [out])
    np.testing.assert_array_equal(out, 0xf0)


def test_sendmsg_interrupt_runs(forms):
    """sendmsg(MSG_INTERRUPT) only informs the host (other messages are
    reported: test_emu_rows.py)."""
    arch, h = forms
    out = np.zeros(64, np.int32)
    run(h, "sendmsg", 1, 64, [out])
    np.testing.assert_array_equal(out, 1)


def test_buffer_load_lds_sizes(forms):
    arch, h = forms
    data = RNG.integers(0, 256, 1024, dtype=np.uint8)
    out = np.zeros(192, np.int32)
    run(h, "buffer_lds_sizes", 1, 64, [data, out])
    t = np.arange(64)
    np.testing.assert_array_equal(out[:64], data[t * 3])
    shorts = data[t * 6].astype(np.int32) | data[t * 6 + 1].astype(np.int32) << 8
    np.testing.assert_array_equal(out[64:128], shorts)
    np.testing.assert_array_equal(out[128:], data.view(np.int32)[t * 4 + 1])


def test_vgpr_index_mode(forms):
    """clang's uniform dynamic indexing of a register vector (s_set_gpr_idx_on
    with gpr_idx(SRC0) / gpr_idx(DST), a v_mov_b32, s_set_gpr_idx_off)."""
    arch, h = forms
    x = RNG.standard_normal((64, 16)).astype(np.float32)
    out = np.zeros_like(x)
    picked = np.zeros(64, np.float32)
    for s, r in [(3, 9), (15, 0), (0, 15), (21, 7)]:
        run(h, "vgpr_index", 1, 64, [x, np.int32(s), np.int32(r), out, picked])
        want = x.copy()
        want[:, s & 15] = 5.0
        np.testing.assert_array_equal(out, want)
        np.testing.assert_array_equal(picked, x[:, r & 15])


def test_vgpr_index_mode_by_hand():
    """s_set_gpr_idx_idx / _mode change the index and the operands offset;
    operands not selected keep their register."""
    from aster import s, v
    m = aster.Module("gfx942")
    k = m.kernel("k", args=[("out", aster.ptr(np.int32))], block=(64, 1, 1))
    k.s_load_dwordx2(s[4:6], s[0:2], 0)
    for i in range(8):
        k.v_mov_b32(v[10 + i], 100 + i)
    k.s_mov_b32(s[6], 2)
    k.s_set_gpr_idx_on(s[6], 1)            # SRC0: v10 reads v12
    k.v_add_u32(v[1], v[10], v[10])        # v1 = v12 + v10 = 202
    k.s_set_gpr_idx_idx(5)                 # SRC0 now reads v15
    k.v_mov_b32(v[2], v[10])               # v2 = 105
    k.s_set_gpr_idx_mode(8 | 2)            # DST and SRC1, index 5
    k.v_add_u32(v[0], v[11], v[11])        # v5 = v11 + v16 = 207
    k.s_set_gpr_idx_off()
    k.v_mov_b32(v[3], v[5])
    k.v_lshlrev_b32(v[4], 2, v[0])
    k.s_waitcnt(lgkmcnt=0)
    for i, r in enumerate([1, 2, 3]):
        k.global_store_dword(v[4], v[r], s[4:6], offset=256 * i)
    k.s_endpgm()
    h = aster.compile(m).hsaco
    assert aster.load_code_object(h).unsupported("k") == []
    out = np.zeros(192, np.int32)
    aster.launch(h, "k", grid=1, block=64, args=[out])
    np.testing.assert_array_equal(out.reshape(3, 64), [[202] * 64, [105] * 64, [207] * 64])


def test_dpp_in_vgpr_index_mode_is_reported():
    text = ('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n\t.text\nk:\n'
            "\ts_set_gpr_idx_on 1, gpr_idx(SRC0)\n"
            "\tv_mov_b32_dpp v0, v1 row_newbcast:1 row_mask:0xf bank_mask:0xf\n"
            "\ts_set_gpr_idx_off\n\tv_mov_b32_dpp v0, v1 row_shr:1 row_mask:0xf bank_mask:0xf\n"
            "\ts_endpgm\n")
    h = aster.compile(aster.raise_asm(text)).hsaco
    problems = aster.load_code_object(h).unsupported("k")
    assert len(problems) == 1 and "row_newbcast" in problems[0] and "index mode" in problems[0]


def test_f64_literals():
    """A 32-bit literal for an f64 operand is the double's high half (AMD
    ISA, literal constants): 0x40090000 is 3.125. The builder and the raiser
    both read it so; llvm-mc-22 assembles aster's text to the same bytes."""
    from aster import s, v
    m = aster.Module("gfx942")
    k = m.kernel("k", args=[("out", aster.ptr(np.float64))], block=(64, 1, 1))
    k.s_load_dwordx2(s[4:6], s[0:2], 0)
    k.v_cvt_f32_f64(v[1], 0x40090000)              # 3.125
    k.v_cvt_f64_f32(v[2:4], v[1])
    k.v_fract_f64(v[4:6], 0xc00921fb)              # fract(-3.14159250259...)
    k.v_lshlrev_b32(v[6], 3, v[0])
    k.s_waitcnt(lgkmcnt=0)
    k.global_store_dwordx2(v[6], v[2:4], s[4:6])
    k.global_store_dwordx2(v[6], v[4:6], s[4:6], offset=512)
    k.s_endpgm()
    asm = m.asm()
    assert "v_cvt_f32_f64_e32 v1, 0x40090000" in asm or "v_cvt_f32_f64 v1, 0x40090000" in asm
    raised = aster.raise_asm('\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n\t.text\nk:\n'
                             "\tv_cvt_f32_f64_e32 v1, 0x40090000\n\ts_endpgm\n")
    assert "3.125" in raised.mlir()
    with pytest.raises(aster.AsterError, match="f64 literal"):
        k.v_cvt_f32_f64(v[1], 3.1)
    out = np.zeros(128)
    aster.launch(aster.compile(m).hsaco, "k", grid=1, block=64, args=[out])
    x = np.uint64(0xc00921fb00000000).view(np.float64)
    np.testing.assert_array_equal(out[:64], 3.125)
    np.testing.assert_array_equal(out[64:], x - np.floor(x))


def test_scalar_atomics():
    """s_atomic_* (CDNA3 ISA, SMEM atomics): without glc only memory changes;
    with glc sdata also receives the pre-op value; cmpswap stores the new
    value (sdata[0]) when memory equals the compare value (sdata[1])."""
    from aster import s
    m = aster.Module("gfx942")
    k = m.kernel("k", args=[("mem", aster.ptr(np.int32))], block=(64, 1, 1))
    k.s_load_dwordx2(s[4:6], s[0:2], 0)
    k.s_waitcnt(lgkmcnt=0)
    k.s_mov_b32(s[6], 5)
    k.s_atomic_add(s[6], s[4:6], 0)
    k.s_mov_b32(s[7], 100)
    k.s_atomic_swap_rtn(s[7], s[4:6], 4)
    k.s_mov_b32(s[8], 9)
    k.s_mov_b32(s[9], 7)
    k.s_atomic_cmpswap_rtn(s[8:10], s[4:6], 8)
    k.s_mov_b32(s[10], 3)
    k.s_mov_b32(s[11], 0)
    k.s_atomic_umax_x2_rtn(s[10:12], s[4:6], 16)
    k.s_waitcnt(lgkmcnt=0)
    k.s_store_dword(s[7], s[4:6], 24)
    k.s_store_dword(s[8], s[4:6], 28)
    k.s_store_dword(s[10], s[4:6], 32)
    k.s_waitcnt(lgkmcnt=0)
    k.s_endpgm()
    asm = m.asm()
    assert "s_atomic_swap s7, s[4:5], 0x4 glc" in asm and "s_atomic_add s6, s[4:5], 0x0\n" in asm
    h = aster.compile(m).hsaco
    assert aster.load_code_object(h).unsupported("k") == []
    mem = np.array([10, 20, 7, 0, 1, 0, 0, 0, 0], np.int32)
    aster.launch(h, "k", grid=1, block=64, args=[mem])
    np.testing.assert_array_equal(mem, [15, 100, 9, 0, 3, 0, 20, 7, 1])


@pytest.mark.parametrize("line", ["s_sendmsg sendmsg(MSG_SAVEWAVE)",
                                  "s_sendmsg sendmsg(MSG_GS_ALLOC_REQ)",
                                  "s_sendmsghalt sendmsg(MSG_HALT_WAVES)"])
def test_not_emulated_forms_are_reported(line):
    text = f'\t.amdgcn_target "amdgcn-amd-amdhsa--gfx942"\n\t.text\nk:\n\t{line}\n\ts_endpgm\n'
    h = aster.compile(aster.raise_asm(text)).hsaco
    problems = aster.load_code_object(h).unsupported("k")
    assert any(line.split()[0] in p for p in problems), problems
