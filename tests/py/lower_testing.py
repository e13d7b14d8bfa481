"""What the amdgcn-lower test files share (test_lower_memref.py,
test_lower_vector.py, test_lower_atomics.py, test_lower_function.py,
test_lower_mix.py, test_lower_arith.py, test_lower_math.py,
test_lower_cf_gpu.py): building a suite case both ways and checking both
against NumPy, the assembly of a case, and running an example script."""
import os
import subprocess
import sys

import numpy as np
import pytest

import aster
import aster.lowering.llvm
import lower_suite as S

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def compiled(text):
    """aster's code object of an upstream MLIR text (its gpu.module @kernels)."""
    return aster.compile(aster.lower(text)["kernels"], aster.lowering.PIPELINE)


def ours(case):
    """aster's code object of a suite case."""
    return compiled(case.mlir)


def theirs(case):
    """LLVM's code object of a suite case (its own text for LLVM if it has one)."""
    return aster.lowering.llvm.build(case.llvm_mlir or case.mlir)["kernels"]


def numpy_tests(cases):
    """The two tests a suite's test file runs on each of `cases`: aster's
    build gives NumPy's result, and so does LLVM's (the oracle itself, so a
    disagreement is aster's). Assign them to module-level test names."""
    @pytest.mark.parametrize("case", cases, ids=lambda c: c.name)
    def test_aster_lowering_matches_numpy(case):
        args, r = S.run(case, ours(case))
        S.check(case, args)
        assert r.wave_instructions > 0

    @pytest.mark.parametrize("case", cases, ids=lambda c: c.name)
    def test_llvm_build_matches_numpy(case):
        args, _ = S.run(case, theirs(case))
        S.check(case, args)

    return test_aster_lowering_matches_numpy, test_llvm_build_matches_numpy


def same_bits_test(cases):
    """A test that aster's and LLVM's builds of each case marked same_bits
    write the same bytes to every checked argument."""
    @pytest.mark.parametrize("case", [c for c in cases if c.same_bits], ids=lambda c: c.name)
    def test_same_bits_as_llvm(case):
        a, b = S.run(case, ours(case))[0], S.run(case, theirs(case))[0]
        for i in case.expect(case.inputs(np.random.default_rng(0))):
            np.testing.assert_array_equal(np.asarray(a[i]).view(np.uint8),
                                          np.asarray(b[i]).view(np.uint8),
                                          err_msg=f"argument {i}")

    return test_same_bits_as_llvm


def asm(cases, name):
    """aster's assembly of the case `name` of `cases`."""
    return compiled(next(c for c in cases if c.name == name).mlir).asm


def check_aster_and_llvm(case, same=None):
    """Runs aster's and LLVM's build of `case` on the emulator (strict mode);
    each must equal NumPy. `same(ours, theirs)`, if given, compares the two
    builds' arrays of each checked argument."""
    a, _ = S.run(case, ours(case))
    S.check(case, a)
    b, _ = S.run(case, theirs(case))
    S.check(case, b)
    if same:
        for i in case.expect(case.inputs(np.random.default_rng(0))):
            same(np.asarray(a[i]), np.asarray(b[i]))


def same_bytes(a, b):
    np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))


def run_example(script):
    """Runs examples/<script> with this build's aster; returns its stdout."""
    env = dict(os.environ,
               PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(aster.__file__))))
    p = subprocess.run([sys.executable, os.path.join(ROOT, "examples", script)],
                       capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    return p.stdout
