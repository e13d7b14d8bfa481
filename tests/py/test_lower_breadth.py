"""amdgcn-lower on the breadth issue 26 names (every wave-reduction kind in
workgroups of 1, 4, 16 waves; shuffles with partial widths) against two
oracles we did not write: NumPy and LLVM's build of the same kernel (for
the reductions, the 64-lane shuffle butterfly upstream can build). The
values make every fold exact, so aster's must equal LLVM's bit for bit.
The kernels: lower_suite_breadth.py."""
import numpy as np
import pytest

import aster
import aster.lowering.llvm
import lower_suite as S
import lower_suite_breadth as B


@pytest.mark.parametrize("case", B.CASES, ids=lambda c: c.name)
def test_aster_and_llvm_match_numpy(case):
    ours, _ = S.run(case, aster.compile(aster.lower(case.mlir)["kernels"],
                                        aster.lowering.PIPELINE))
    S.check(case, ours)
    theirs, _ = S.run(case, aster.lowering.llvm.build(case.llvm_mlir or case.mlir)["kernels"])
    S.check(case, theirs)
    for i in case.expect(case.inputs(np.random.default_rng(0))):
        np.testing.assert_array_equal(np.asarray(ours[i]).view(np.uint32),
                                      np.asarray(theirs[i]).view(np.uint32))
