"""Mixing, the other direction (issue 26 item 5): a non-kernel gpu.func is
lowered to an amdgcn.func that a Python-built kernel calls (k.call after
m.include) and aster.compile inlines. The oracle is NumPy: the example
(examples/lower_function_call.py) evaluates a polynomial with the same fmas
and clamps it; errors name the op. Also func.func bodies in the gpu.module
called with func.call (lower_suite_functions.py), against NumPy and LLVM's
build of the same source."""
import numpy as np
import pytest

import aster
from aster import VGPR, v
import lower_suite as S
import lower_suite_functions as F
from lower_testing import check_aster_and_llvm, run_example


def test_example_runs_and_inlines():
    assert "match NumPy; inlined: True" in run_example("lower_function_call.py")


def test_function_signature_and_divergent_parameters():
    """Scalar parameters and results are VGPRs (any caller's values), a
    static memref its pointer (an SGPR pair); an integer op on a parameter is
    a VALU op (the parameter is divergent), and a shuffle inside works."""
    text = S.module("""
    gpu.func @f(%p: memref<64xi32>, %a: i32) -> i32 {
      %c3 = arith.constant 3 : i32
      %m = arith.muli %a, %c3 : i32
      %w = arith.constant 64 : i32
      %o = arith.constant 1 : i32
      %s, %ok = gpu.shuffle xor %m, %o, %w : i32
      %l = gpu.lane_id
      %x = memref.load %p[%l] : memref<64xi32>
      %r = arith.addi %s, %x : i32
      gpu.return %r : i32
    }""")
    lib = aster.lower(text)["kernels"]
    mlir = lib.mlir()
    assert "amdgcn.func @f(%arg0: !amdgcn.sgpr<?x2" in mlir and "v_mul_lo_u32" in mlir
    m = aster.Module("gfx942")
    m.include(lib)
    i32p = aster.ptr(np.int32)
    k = m.kernel("k", args=[("p", i32p), ("y", i32p)], block=64)
    pp, py = k.load_arg("p"), k.load_arg("y")
    (r,) = k.call("f", pp, k.v_mov_b32(VGPR(), v[0]))
    k.global_store_dword(k.v_lshlrev_b32(VGPR(), 2, v[0]), r, py)
    k.s_endpgm()
    p = np.arange(64, dtype=np.int32) * 10
    y = np.zeros(64, np.int32)
    aster.launch(aster.compile(m, aster.lowering.PIPELINE), "k", grid=1, block=64, args=[p, y])
    lanes = np.arange(64)
    np.testing.assert_array_equal(y, 3 * (lanes ^ 1) + p)


def test_kernel_only_ops_in_a_function_are_located_errors():
    text = S.module("""
    gpu.func @f(%a: f32) -> f32 {
      %t = gpu.thread_id x
      gpu.return %a : f32
    }""")
    with pytest.raises(aster.AsterError, match=r"<string>:\d+:\d+: error: 'gpu.thread_id' op "
                                               r"cannot be lowered to amdgcn: in a function"):
        aster.lower(text)
    text = S.module("""
    gpu.func @f(%a: f32) -> f32 workgroup(%t: memref<4xf32, #gpu.address_space<workgroup>>) {
      gpu.return %a : f32
    }""")
    with pytest.raises(aster.AsterError, match="a function has no workgroup or private"):
        aster.lower(text)
    text = S.module("""
    gpu.func @f(%a: memref<?xf32>) {
      gpu.return
    }""")
    with pytest.raises(aster.AsterError, match="a function takes memrefs of static shapes"):
        aster.lower(text)


# func.func bodies in the gpu.module called with func.call
# (lower_suite_functions.py): lowered to amdgcn.funcs, inlined by
# aster.compile; NumPy and LLVM's build (functions marked alwaysinline) agree.


@pytest.mark.parametrize("case", F.CASES, ids=lambda c: c.name)
def test_device_functions_match_numpy_and_llvm(case):
    check_aster_and_llvm(case, np.testing.assert_array_equal)


def test_device_functions_become_amdgcn_funcs_and_are_inlined():
    """The lowered module holds amdgcn.funcs of the func.funcs (callees
    lowered first, wherever they are defined) and amdgcn.calls of them;
    the compiled kernel has no call left."""
    case = next(c for c in F.CASES if c.name == "func_calls")
    m = aster.lower(case.mlir)["kernels"]
    text = str(m)
    assert "amdgcn.func @scale" in text and "amdgcn.func @absish" in text
    assert "amdgcn.call @scale" in text
    code = aster.compile(m, aster.lowering.PIPELINE)
    assert "s_swappc" not in code.asm and "s_setpc" not in code.asm


def test_device_function_with_an_unsupported_parameter_names_it():
    text = S.module("""
    func.func @f(%v: f64) -> f64 {
      return %v : f64
    }
    gpu.func @k(%x: memref<64xf64>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xf64>
      %r = func.call @f(%v) : (f64) -> f64
      memref.store %r, %x[%i] : memref<64xf64>
      gpu.return
    }""")
    with pytest.raises(aster.AsterError, match=r"<string>:4:\d+: error: 'gpu.func' op argument 0 "
                                               r"of type 'f64' cannot be lowered"):
        aster.lower(text)
