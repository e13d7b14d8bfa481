"""v_fma_mixlo_f16 / v_fma_mixhi_f16 on the emulator, from clang-22's own code.

The oracle is clang-22 and the IR it compiles: for `(_Float16)((float)a * b)`
and `(_Float16)fmaf(a, b, c)` LLVM's AMDGPU backend selects v_fma_mixlo_f16
(and v_fma_mixhi_f16 for the high half of a pair) with no separate
conversion, which is only right if the instructions round twice exactly as
the source does: the product or fma rounded to f32, then that f32 converted
to f16 (llvm-project PR #219723: "V_MAD/FMA_MIX{LO,HI} compute the multiply
or multiply-add in f32, round that to f32, and then convert the f32 result
to the 16-bit destination. That is the same pair of roundings the IR
performs"; PR #224913). v_fma_mix_f32 (clang-22's `fmaf((float)h, b, c)`)
rounds once, to f32. Each kernel's assembly is checked to be that one
instruction; its results on the emulator must equal NumPy doing the source's
arithmetic: the f32 product (`np.float32 * np.float32`) or the f32 fma (the
exact sum in f64, asserted exact, rounded once to f32 by NumPy), then
`.astype(np.float16)`.

The inputs are the rounding-sensitive ones: values whose exact result lies
next to an f16 rounding midpoint, within half an f32 ulp of it (rounding to
f32 lands on the midpoint and the tie goes to even; one rounding of the exact
value would go the other way, asserted for most of them), midpoints hit
exactly, f16 subnormal results, the overflow midpoint 65520, and random
values. Zero products are left out: clang-22 writes `(half)(x * y)` with a
+0.0 addend, which turns a -0.0 product into +0.0 (fixed after LLVM 22 by
llvm-project PR #214544).
"""
import re

import numpy as np
import pytest

import aster

SOURCE = r"""
#define KERNEL extern "C" __attribute__((global))
typedef _Float16 half2 __attribute__((ext_vector_type(2)));
#define I (__builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x())
KERNEL void mul_hf(const _Float16 *a, const float *b, const float *, _Float16 *out) {
  out[I] = (_Float16)((float)a[I] * b[I]);
}
KERNEL void mul_ff(const float *a, const float *b, const float *, _Float16 *out) {
  out[I] = (_Float16)(a[I] * b[I]);
}
KERNEL void fma_hhf(const _Float16 *a, const _Float16 *b, const float *c, _Float16 *out) {
  out[I] = (_Float16)__builtin_fmaf((float)a[I], (float)b[I], c[I]);
}
KERNEL void fma_fff(const float *a, const float *b, const float *c, _Float16 *out) {
  out[I] = (_Float16)__builtin_fmaf(a[I], b[I], c[I]);
}
KERNEL void fma_hff_f32(const _Float16 *a, const float *b, const float *c, float *out) {
  out[I] = __builtin_fmaf((float)a[I], b[I], c[I]);
}
// The low half from (a, b, c), the high half from (b, a, d): mixlo + mixhi.
KERNEL void fma_pair(const _Float16 *a, const _Float16 *b, const float *c, const float *d,
                     half2 *out) {
  half2 r;
  r.x = (_Float16)__builtin_fmaf((float)a[I], (float)b[I], c[I]);
  r.y = (_Float16)__builtin_fmaf((float)b[I], (float)a[I], d[I]);
  out[I] = r;
}
"""
# kernel: (a's type, b's type, has an addend, mix instructions clang-22 uses)
FORMS = {
    "mul_hf": (np.float16, np.float32, False, {"v_fma_mixlo_f16"}),
    "mul_ff": (np.float32, np.float32, False, {"v_fma_mixlo_f16"}),
    "fma_hhf": (np.float16, np.float16, True, {"v_fma_mixlo_f16"}),
    "fma_fff": (np.float32, np.float32, True, {"v_fma_mixlo_f16"}),
}
N = 64 * 64
# Results past 65504 are meant to overflow to infinity (the 65520 midpoint).
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")


def _functions(asm):
    """{kernel: its instruction lines} of clang's -S text."""
    out, name = {}, None
    for line in asm.splitlines():
        m = re.match(r"^(\w+):", line)
        if m and m.group(1) in (*FORMS, "fma_pair", "fma_hff_f32"):
            name, out[m.group(1)] = m.group(1), []
        elif name and line.startswith("\t") and not line.startswith("\t."):
            out[name].append(line.split()[0])
        elif name and line.startswith(".Lfunc_end"):
            name = None
    return out


def _midpoints(rng, n, lo=1):
    """Signed f16 rounding midpoints (f64; exact in f32) between h and h+1,
    h from `lo` (raw f16 bits) to the largest finite, and whether the tie
    goes away from zero (h odd)."""
    h = rng.integers(lo, 0x7C00, n).astype(np.uint16)
    h[: n // 64] = 0x7BFF                       # 65520: the tie rounds to infinity
    below = h.view(np.float16).astype(np.float64)
    above = np.where(h == 0x7BFF, 65536.0, (h + np.uint16(1)).view(np.float16).astype(np.float64))
    sign = rng.choice([-1.0, 1.0], n)
    return sign * (below + above) / 2, (h & 1).astype(bool)


def _ulp32(x):
    return np.ldexp(1.0, np.frexp(np.abs(x))[1] - 24)


def _f16_values(rng, n, lo_exp, hi_exp):
    """Random f16 values (as f64) of magnitude 2**lo_exp .. 2**hi_exp, both signs."""
    v = np.ldexp(1 + rng.random(n), rng.integers(lo_exp, hi_exp, n))
    return (v * rng.choice([-1.0, 1.0], n)).astype(np.float16).astype(np.float64)


def _sensitive(rng, form, n):
    """(a, b, c) whose exact result rounds to an f16 midpoint in f32 but
    is not the midpoint, on the side the tie does not go: rounding the exact
    value once to f16 gives the other neighbour (candidates, filtered)."""
    ta, tb, fma, _ = FORMS[form]
    m, away = _midpoints(rng, 32 * n, lo=0x0010 if ta == np.float16 and tb == np.float16 else 1)
    if fma:
        # c = m, a * b a nudge below half an f32 ulp of m, toward the side the
        # tie does not go.
        c = m
        toward = np.where(away, -1.0, 1.0) * np.sign(m)
        t = _ulp32(m) / 8 * (1 + rng.random(m.size))         # [u/8, u/4)
        # a and b of 11 bits each (f16 significands): the sum stays exact in f64.
        ka = np.floor(np.log2(t) / 2).astype(int)
        a = np.ldexp(_f16_values(rng, m.size, 0, 1), ka).astype(ta).astype(np.float64)
        b = (toward * t / np.where(a == 0, 1, np.abs(a))).astype(np.float16).astype(np.float64)
        e = np.frexp(toward * t / np.where(a == 0, 1, np.abs(a)))[1]
        b = np.ldexp(np.abs(np.ldexp(b, -e)).astype(np.float16).astype(np.float64), e) \
            * toward * np.sign(a)
        b = b.astype(tb).astype(np.float64)
    else:
        # a * b next to m: a an f16-valued factor, b the f32 nearest m / a
        # moved by up to three ulps.
        a = (1 + rng.random(m.size)).astype(np.float16).astype(np.float64)
        b0 = (m / a).astype(np.float32)
        step = rng.integers(-3, 4, m.size).astype(np.float32)
        b = (b0 + step * np.spacing(np.abs(b0))).astype(tb).astype(np.float64)
        c = np.zeros(m.size)
    s = a * b + c
    keep = (a * b != 0) & (s != m) & (s.astype(np.float32) == m) & \
        (s.astype(np.float16) != s.astype(np.float32).astype(np.float16))
    assert keep.sum() >= n, (form, keep.sum())
    return a[keep][:n], b[keep][:n], c[keep][:n]


def _ties(rng, form, n):
    """(a, b, c) whose exact result is an f16 midpoint."""
    ta, tb, fma, _ = FORMS[form]
    m, _ = _midpoints(rng, n, lo=0x0400)
    if fma:
        a = (1 + rng.integers(0, 1024, n) / 1024).astype(np.float64)     # f16 values in [1, 2)
        k = np.frexp(np.abs(m))[1] - 12                                  # an ulp of m's f16 binade
        b = np.ldexp(rng.choice([-1.0, 1.0], n), k).astype(tb).astype(np.float64)
        c = m - a * b                                                    # exact in f32
    else:
        a = np.ldexp(1.0, rng.integers(-3, 4, n)).astype(np.float64)     # powers of two
        b, c = m / a, np.zeros(n)
    return a, b, c


def _random(rng, form, n):
    """Random (a, b, c), c near -a * b (sums cancel, results reach the f16
    subnormals); rows whose f32 fma is not exact in f64 are left out."""
    ta, tb, fma, _ = FORMS[form]
    k = 4 * n
    a = _f16_values(rng, k, -12, 5) if ta == np.float16 else \
        (rng.standard_normal(k) * 8).astype(np.float32).astype(np.float64)
    b = _f16_values(rng, k, -12, 5) if tb == np.float16 else \
        (rng.standard_normal(k) * 8).astype(np.float32).astype(np.float64)
    c = (a * b * (rng.random(k) * 2 - 1) + rng.standard_normal(k) * 2.0 ** -16) \
        .astype(np.float32).astype(np.float64) if fma else np.zeros(k)
    p = a * b
    s = p + c
    bb = s - p
    keep = ((p - (s - bb)) + (c - bb) == 0) & (p != 0)
    assert keep.sum() >= n
    return a[keep][:n], b[keep][:n], c[keep][:n]


def _inputs(form, seed):
    rng = np.random.default_rng(seed)
    parts = [_sensitive(rng, form, N // 2), _ties(rng, form, N // 8),
             _random(rng, form, N - N // 2 - N // 8)]
    a, b, c = (np.concatenate(x) for x in zip(*parts))
    ta, tb, _, _ = FORMS[form]
    return a.astype(ta), b.astype(tb), c.astype(np.float32)


def _reference(a, b, c, fma):
    """NumPy: the f32 product, or the f32 fma (the f64 sum, exact, rounded
    once to f32), then converted to f16."""
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    if not fma:
        return (a32 * b32).astype(np.float16)
    p, c64 = a32.astype(np.float64) * b32, c.astype(np.float64)   # the product is exact
    s = p + c64
    bb = s - p
    err = (p - (s - bb)) + (c64 - bb)                              # TwoSum: the sum's error
    assert (err[np.isfinite(s)] == 0).all(), "a reference sum is not exact in f64"
    return s.astype(np.float32).astype(np.float16)


def _check(got, want, a, b, c, what):
    bad = np.nonzero(got.view(np.uint16) != want.view(np.uint16))[0]
    assert bad.size == 0, (what, [(float(a[i]), float(b[i]), float(c[i]), hex(got.view(
        np.uint16)[i]), hex(want.view(np.uint16)[i])) for i in bad[:4]])


@pytest.fixture(scope="module", params=["gfx942", "gfx950"])
def kernels(request, hip_hsaco):
    arch = request.param
    asm = hip_hsaco(SOURCE, arch=arch, flags=("-S",)).decode()
    return arch, hip_hsaco(SOURCE, arch=arch), _functions(asm)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_mix_rounds_to_f32_then_f16(kernels, form):
    arch, code, funcs = kernels
    ta, tb, fma, mix = FORMS[form]
    insts = set(funcs[form])
    # clang's code is the mix instruction alone: no conversion, no f32 math.
    assert mix <= insts and not insts & {"v_cvt_f16_f32_e32", "v_cvt_f16_f32_e64",
                                         "v_fma_f32", "v_mul_f32_e32", "v_fmac_f32_e32"}, insts
    a, b, c = _inputs(form, seed=hash((arch, form)) % 2**32)
    out = np.zeros(N, np.float16)
    aster.launch(code, form, grid=N // 64, block=64, args=[a, b, c, out])
    want = _reference(a, b, c, fma)
    _check(out, want, a, b, c, f"{form} ({arch})")
    # The inputs tell the two roundings apart: on the sensitive half, one
    # rounding of the exact value (NumPy, f64 to f16) gives another f16.
    exact = (a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64))
    once = exact.astype(np.float16)
    assert (once[: N // 2].view(np.uint16) != want[: N // 2].view(np.uint16)).all()
    assert np.isinf(want).any() and (np.abs(want) < 2.0 ** -14).any()   # overflow, subnormals


def test_mixlo_and_mixhi_pair(kernels):
    """Both halves of one register: mixlo, then mixhi keeping the low half.
    The high half is fma(b, a, d): d = c on the rounding-sensitive rows (the
    same sensitivity: the product commutes), other addends elsewhere."""
    arch, code, funcs = kernels
    assert {"v_fma_mixlo_f16", "v_fma_mixhi_f16"} <= set(funcs["fma_pair"]), funcs["fma_pair"]
    a, b, c = _inputs("fma_hhf", seed=7)
    d = c.copy()
    d[N // 2:] = _inputs("fma_hhf", seed=8)[2][N // 2:]
    out = np.zeros((N, 2), np.float16)
    aster.launch(code, "fma_pair", grid=N // 64, block=64, args=[a, b, c, d, out])
    _check(out[:, 0], _reference(a, b, c, True), a, b, c, f"mixlo ({arch})")
    _check(out[:, 1], _reference(b, a, d, True), b, a, d, f"mixhi ({arch})")


def test_mix_f32_rounds_once(kernels):
    """v_fma_mix_f32: the f32 fma (one rounding) of an f16 and two f32
    sources. Sums that cancel the product make rounding the product first
    (an unfused reference) give another f32 on many rows."""
    arch, code, funcs = kernels
    assert "v_fma_mix_f32" in funcs["fma_hff_f32"], funcs["fma_hff_f32"]
    rng = np.random.default_rng(11)
    a = _f16_values(rng, N, -6, 6).astype(np.float16)
    b = (rng.standard_normal(N) * 4).astype(np.float32)
    p = a.astype(np.float64) * b                                   # exact (35 bits)
    c = (-p * (1 + rng.standard_normal(N) * 2.0 ** -12)).astype(np.float32)
    s = p + c.astype(np.float64)
    bb = s - p
    assert ((p - (s - bb)) + (c.astype(np.float64) - bb) == 0).all()   # s exact in f64
    want = s.astype(np.float32)
    out = np.zeros(N, np.float32)
    aster.launch(code, "fma_hff_f32", grid=N // 64, block=64, args=[a, b, c, out])
    np.testing.assert_array_equal(out.view(np.uint32), want.view(np.uint32))
    unfused = a.astype(np.float32) * b + c
    assert (unfused != want).mean() > 0.3
