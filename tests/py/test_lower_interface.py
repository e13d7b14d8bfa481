"""The kernel interface of lowered kernels (issue 26 item 4): aster.launch
takes one NumPy array per memref argument of a lowered code object (its
metadata names the memref types), checks dtype and static sizes with an
AsterError, fills dynamic sizes and strides from the array; gpu.grid_dim and
gpu.block_dim read the dispatch (the code-object-v5 hidden argument
hidden_block_count_*, the dispatch packet's workgroup size), so one code
object serves any launch size. The oracles: NumPy, and LLVM's build of the
same source (aster.lowering.llvm), launched with the same arrays."""
import numpy as np
import pytest

import aster
import aster.lowering.llvm
import lower_suite as S

DIMS = S.module("""
    gpu.func @dims(%out: memref<?xi32>) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %gdim = gpu.grid_dim x
      %t = arith.muli %bid, %bdim : index
      %i = arith.addi %t, %tid : index
      %c1000 = arith.constant 1000 : index
      %g = arith.muli %gdim, %c1000 : index
      %v = arith.addi %g, %bdim : index
      %vi = arith.index_cast %v : index to i32
      memref.store %vi, %out[%i] : memref<?xi32>
      gpu.return
    }""")


def _compiled(text):
    return aster.compile(aster.lower(text)["kernels"], aster.lowering.PIPELINE)


@pytest.mark.parametrize("build", ["aster", "llvm"])
def test_one_code_object_any_launch_size(build):
    """grid_dim and block_dim without known sizes: two launch shapes of the
    same code object each see their own (LLVM's build reads the same hidden
    arguments through __ockl_get_num_groups / __ockl_get_local_size)."""
    hsaco = _compiled(DIMS).hsaco if build == "aster" else aster.lowering.llvm.build(DIMS)["kernels"]
    sig = aster.lower(DIMS)["kernels"].signatures["dims"]
    for grid, block in ((2, 64), (5, 32), (3, 128)):
        out = np.zeros(grid * block, np.int32)
        # LLVM's metadata has no memref types: the expanded list (Signature.args)
        args = [out] if build == "aster" else sig.args(out)
        aster.launch(hsaco, "dims", grid=grid, block=block, args=args)
        assert np.all(out == grid * 1000 + block), (grid, block)


def test_grid_dim_is_a_hidden_argument():
    """The metadata declares hidden_block_count_x (AMDGPUUsage, code object
    v5), as LLVM's build of the same kernel does."""
    ours = aster.load_code_object(_compiled(DIMS).hsaco).kernels[0]
    theirs = aster.load_code_object(aster.lowering.llvm.build(DIMS)["kernels"]).kernels[0]
    kinds = lambda k: {a.value_kind for a in k.args if a.hidden}  # noqa: E731
    assert "hidden_block_count_x" in kinds(ours)
    assert "hidden_block_count_x" in kinds(theirs)


def test_launch_takes_arrays_for_memrefs():
    """saxpy on dynamic memrefs: aster.launch expands each array into the
    ROCDL descriptor (sizes and strides from the array); the expanded list
    of Signature.args still works; both equal NumPy."""
    case = next(c for c in S.CASES if c.name == "saxpy_dynamic")
    out = _compiled(case.mlir)
    co = aster.load_code_object(out.hsaco)
    assert [a.type_name for a in co.kernels[0].args if not a.hidden][1].startswith("memref<?xf32")
    x = np.arange(250, dtype=np.float32)
    y = np.ones(250, np.float32)
    aster.launch(out, "saxpy", grid=4, block=64, args=[np.float32(2.0), x, y])
    np.testing.assert_array_equal(y, 2 * x + 1)
    y2 = np.ones(250, np.float32)
    sig = aster.lower(case.mlir)["kernels"].signatures["saxpy"]
    aster.launch(out, "saxpy", grid=4, block=64, args=sig.args(np.float32(2.0), x, y2))
    np.testing.assert_array_equal(y2, y)


def test_bad_arrays_are_aster_errors_and_leave_arrays_alone():
    case = S.CASES[0]                            # add: memref<1024xf32> x 3 (bare pointers)
    out = _compiled(case.mlir)
    a = np.ones(1024, np.float32)
    c = np.full(1024, 5.0, np.float32)
    with pytest.raises(aster.AsterError, match=r"argument 1 \(memref<1024xf32>\) needs dtype "
                                               r"float32, got float64"):
        aster.launch(out, "add", grid=8, block=128, args=[a, np.ones(1024), c])
    with pytest.raises(aster.AsterError, match=r"argument 1 \(memref<1024xf32>\) does not accept "
                                               r"an array of shape \(512,\)"):
        aster.launch(out, "add", grid=8, block=128, args=[a, np.ones(512, np.float32), c])
    with pytest.raises(aster.AsterError, match="takes 3 arguments"):
        aster.launch(out, "add", grid=8, block=128, args=[a, c])
    assert np.all(c == 5.0) and np.all(a == 1.0)
    dyn = next(cc for cc in S.CASES if cc.name == "saxpy_dynamic")
    with pytest.raises(aster.AsterError, match="C-contiguous"):
        aster.launch(_compiled(dyn.mlir), "saxpy", grid=4, block=64,
                     args=[np.float32(1), np.ones(500, np.float32)[::2], np.ones(250, np.float32)])
