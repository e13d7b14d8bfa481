"""math.rsqrt of f16 / f64 and math.exp / exp2 / log / log2 of f64
(lower_suite_math_f64.py), against oracles we did not write.

rsqrt: NumPy's 1 / sqrt(x) and LLVM's build of the same kernel (its
`fdiv 1.0, llvm.sqrt`, aster.lowering.llvm.OCML_AS_IR), bit for bit.
f64 exp / exp2 / log / log2: LLVM 22 cannot build them on AMDGPU (checked
below with llc-22 itself), so the oracle is NumPy's float64 (glibc's libm
underneath), with the ulp bounds below."""

import numpy as np
import pytest

import aster
import lower_suite as S
import lower_suite_math_f64 as M
from lower_testing import compiled, ours, numpy_tests, same_bits_test
from math_f64_testing import llc_f64_intrinsic, ulps, worst_ulps

test_aster_lowering_matches_numpy, test_llvm_build_matches_numpy = numpy_tests(M.CASES)
test_same_bits_as_llvm = same_bits_test(M.CASES)

# Measured maxima over 40 seeds of the suite's sweep (40 x 256 inputs per
# function, the edges in each): exp 1, exp2 1, log 1, log2 0 ulp; over 20
# seeds: tanh 3 (the rounding of expm1, of e + 2 and of the division),
# log1p 1, expm1 1 ulp. NumPy's own results are within an ulp of the exact
# values too (glibc's libm documents its error bounds per function).
ULP_BOUND_F64 = {"exp": 1, "exp2": 1, "log": 1, "log2": 1, "tanh": 3, "log1p": 1, "expm1": 1}
_F64 = [(M.NO_LLVM_CASES[0], M.F64_OPS, M.f64_reference, 3),
        (M.NO_LLVM_CASES[1], M.F64_MORE_OPS, M.f64_more_reference, 2)]


@pytest.mark.parametrize("case,ops,reference,first", _F64, ids=lambda v: getattr(v, "name", ""))
def test_f64_math_within_ulp_bounds_of_numpy(case, ops, reference, first):
    worst = worst_ulps(case, ops, reference, first, range(8))
    for op in ops:
        assert worst[op] <= ULP_BOUND_F64[op], worst


@pytest.mark.parametrize("case,ops,reference,first", _F64, ids=lambda v: getattr(v, "name", ""))
def test_f64_math_edge_values_exact(case, ops, reference, first):
    """0, denormals, infinities, NaN and the thresholds: where NumPy's result
    is 0, +-inf, NaN, +-1 or exact, aster's is the same."""
    out = S.run(case, ours(case))[0]
    ref = reference(out)
    for j, op in enumerate(ops):
        got, want = out[first + j], ref[op]
        special = ~np.isfinite(want) | (want == 0) | (np.abs(want) == 1)
        np.testing.assert_array_equal(got[special], want[special], err_msg=op)


@pytest.mark.parametrize("op", ["exp", "log"])
def test_llvm_cannot_build_f64_exp_log(op, tmp_path):
    """Why these have no LLVM oracle: llc-22 has no AMDGPU lowering of
    llvm.exp.f64 / llvm.log.f64 (it would call a libm function)."""
    p = llc_f64_intrinsic(op, tmp_path)
    assert p.returncode != 0 and "libcall" in p.stderr, p.stderr


def test_f64_expanded_functions_follow_upstreams_formulas():
    """sinh, cosh, asinh, acosh, atanh, powf of f64 go through upstream's
    math-expand-ops (as for f32) onto the f64 exp / log above: upstream's
    formulas, with their accuracy (NumPy float64 the oracle; LLVM cannot
    build f64 exp / log), on |x| >= 0.1 (near 0 sinh / asinh / atanh's
    formulas cancel: sinh(1e-300) is 0), acosh's x <= 1e150 (x * x
    overflows above ~1.3e154), |y log x| <= 230 for powf."""
    n = 256
    ops = {"sinh": "a", "cosh": "a", "asinh": "a", "acosh": "b", "atanh": "t", "powf": "p"}
    body = "".join(
        f"\n      %r{j} = math.{o} {'%p, %q' if o == 'powf' else '%' + v} : f64"
        f"\n      memref.store %r{j}, %o{j}[%i] : memref<{n}xf64>"
        for j, (o, v) in enumerate(ops.items()))
    params = ", ".join([f"%{v}m: memref<{n}xf64>" for v in "abtpq"]
                       + [f"%o{j}: memref<{n}xf64>" for j in range(len(ops))])
    loads = "".join(f"\n      %{v} = memref.load %{v}m[%i] : memref<{n}xf64>" for v in "abtpq")
    text = S.module(f"""
    gpu.func @k({params}) kernel {{
      %i = gpu.thread_id x{loads}{body}
      gpu.return
    }}""")
    r = np.random.default_rng(1)
    sign = r.choice([-1.0, 1.0], n)
    a = sign * r.uniform(0.1, 700.0, n)
    b = r.uniform(1.0, 1e150, n)
    b[:2] = [1.0, 2.0]
    t = sign * r.uniform(0.1, 0.999, n)
    p = r.uniform(0.01, 100.0, n)
    q = r.uniform(-50.0, 50.0, n)
    outs = [np.zeros(n) for _ in ops]
    aster.launch(compiled(text), "k", grid=1, block=n, args=[a, b, t, p, q] + outs)
    want = {"sinh": np.sinh(a), "cosh": np.cosh(a), "asinh": np.arcsinh(a),
            "acosh": np.arccosh(b), "atanh": np.arctanh(t), "powf": np.power(p, q)}
    # measured relative maxima: sinh 2.1e-16, cosh 2.1e-16, asinh 1.0e-11
    # (negative x: log(x + sqrt(x^2 + 1)) cancels), acosh 1.7e-16, atanh
    # 6.6e-16, powf 3.2e-14 (the error of y log x, magnified by exp)
    rtol = {"sinh": 2.0 ** -51, "cosh": 2.0 ** -51, "asinh": 2.0 ** -34, "acosh": 2.0 ** -51,
            "atanh": 2.0 ** -50, "powf": 2.0 ** -43}
    for (o, w), g in zip(want.items(), outs):
        np.testing.assert_allclose(g, w, rtol=rtol[o], atol=0, err_msg=o)


def test_rsqrt_ulps_against_numpy():
    """rsqrt f64 is 1 / sqrt(x) with both steps correctly rounded, as
    NumPy's 1.0 / np.sqrt(x) computes it: the same bits. rsqrt f16
    (v_sqrt_f16, then v_rcp_f16: two roundings) is within 1 ulp of f16 of
    NumPy's float64 1 / sqrt(x) rounded to f16."""
    case = M.CASES[0]
    out = S.run(case, ours(case))[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        np.testing.assert_array_equal(out[3], 1.0 / np.sqrt(out[1]))
        want = (1.0 / np.sqrt(out[0].astype(np.float64))).astype(np.float16)
    got = out[2].astype(np.float16)
    fin = np.isfinite(want) & (want != 0)
    np.testing.assert_array_equal(got[~fin], want[~fin])
    ulp = np.abs(got[fin].astype(np.float64) - want[fin]) / np.spacing(want[fin]).astype(np.float64)
    assert ulp.max() <= 1, ulp.max()
