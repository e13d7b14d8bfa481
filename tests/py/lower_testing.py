"""What the amdgcn-lower test files share (test_lower_memref.py,
test_lower_vector.py, test_lower_atomics.py, test_lower_function.py,
test_lower_mix.py, test_lower_arith.py, test_lower_math.py,
test_lower_cf_gpu.py): building a suite case both ways and checking both
against NumPy, the assembly of a case, and running an example script."""
import os
import subprocess
import sys

import numpy as np

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
